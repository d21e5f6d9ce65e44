"""Domain messages in the request's language: the one place where a refusal's
template (Chinese, marked in the pure layer) goes through gettext."""

from django.utils.translation import gettext


def message_text(message) -> str:
    """Render a `Refusal` or `Text` (see `scoring.rules.errors`) in the active language."""
    params = {
        key: message_text(value) if hasattr(value, "template") else value for key, value in message.params.items()
    }
    return gettext(message.template).format(**params)


def message_json(error) -> dict:
    return {"error": {"code": error.code, "message": message_text(error)}}
