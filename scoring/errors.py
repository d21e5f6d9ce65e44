"""Domain errors of the entry services (pure: no HTTP, no Django)."""


class EntryError(Exception):
    """A refused entry, in domain terms: a stable code (referee-api.md and deal-json.md),
    a message naming what is wrong, and the parameters it names. No HTTP here: the API
    (`scoring.views.api.HTTP_STATUS`) and the pages map codes to responses, each in one place."""

    def __init__(self, code, message, **params):
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params

    def as_json(self):
        return {"error": {"code": self.code, "message": self.message}}
