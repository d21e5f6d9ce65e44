"""The consoles a signed-in user may use, linked from every page's header (a context processor)."""

from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext_lazy as _

from scoring.events.permissions import consoles_used


def consoles(request):
    """`consoles`: [{"id", "name", "url"}], computed only when a page shows it (signed-in users)."""
    user = getattr(request, "user", None)

    def available():
        if user is None or not user.is_authenticated:
            return []
        used = consoles_used(user)
        found = []
        if "organiser" in used:
            found.append({"id": "organiser", "name": _("组织者控制台"), "url": "organiser-home"})
        if "referee" in used:
            found.append({"id": "referee", "name": _("裁判台"), "url": "referee-home"})
        return found

    return {"consoles": SimpleLazyObject(available)}
