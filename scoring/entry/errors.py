"""Domain errors of the entry services (pure: no HTTP, no Django)."""

from scoring.games.refusals import Refusal


class EntryError(Refusal):
    """A refused entry, in domain terms: a stable code (referee-api.md and deal-json.md),
    a message template naming what is wrong, and the parameters it names. No HTTP here:
    the API (`scoring.web.api.views.HTTP_STATUS`) and the pages map codes to responses, and
    `scoring.messages.text` renders the message, each in one place."""
