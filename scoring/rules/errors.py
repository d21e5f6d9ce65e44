"""The deal error: a stable machine-readable code and a message naming the card or seat."""


class DealError(ValueError):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message

    def as_json(self):
        return {"error": {"code": self.code, "message": self.message}}

    def __eq__(self, other):
        return isinstance(other, DealError) and (self.code, self.message) == (
            other.code,
            other.message,
        )

    def __hash__(self):
        return hash((self.code, self.message))
