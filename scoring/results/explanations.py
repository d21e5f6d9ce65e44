"""What separates a standings row from the one above, in words of the active language."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scoring.engine.standings import CRITERIA_LABELS
from scoring.engine.vocabulary import LABEL_CONTEXT

if TYPE_CHECKING:
    from typing import Any


def explanation_text(explanation: dict[str, Any] | None, words: dict[str, str] | None = None) -> str:
    """What separates a row from the one above, in the active language, e.g. “场分相同，得分差少 230”.
    `words`: the game's own names of some figures, translated (`messages.standings_labels`: 升级's 级差)."""
    if not explanation:
        return ""
    label = {key: pgettext(LABEL_CONTEXT, text) for key, text in CRITERIA_LABELS.items()}
    label.update(words or {})
    criterion = explanation["criterion"]
    if criterion is None:
        return _("各项均相同，并列")
    above, this = explanation["above"], explanation["this"]
    if criterion == "head_to_head":
        detail = _("%(label)s %(this)s:%(above)s") % {"label": label[criterion], "this": this, "above": above}
    elif criterion == "penalties":
        detail = _("罚分多 %(points)s") % {"points": above - this}
    elif criterion == "deals":
        detail = _("%(label)s多 %(count)s") % {"label": label[criterion], "count": this - above}
    else:
        detail = _("%(label)s少 %(points)s") % {"label": label[criterion], "points": above - this}
    if not explanation["same"]:
        return detail
    same = pgettext("list separator", "、").join(label[c] for c in explanation["same"])
    return _("%(same)s相同，%(detail)s") % {"same": same, "detail": detail}
