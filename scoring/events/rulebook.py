"""The rules in force for an event, in plain words (public event page, entry page, printed sheets).

The engine's rule sets and options are data (`scoring.games.huapai.rulesets`); this
module only names them for people, through Django's translations.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.games.huapai.stored import event_rules

RULESET_NAMES = {
    "huapai": gettext_lazy("华牌竞赛规则"),
    "online": gettext_lazy("联众在线规则"),
    "pagat": gettext_lazy("pagat 规则"),
    "family": gettext_lazy("家庭规则"),
    "online-2deck": gettext_lazy("两副牌（拱双猪）"),
}


def rules_in_force(event):
    """Short phrases: the rule set, then each option as it stands, then the 局 threshold."""
    rules = event_rules(event)
    phrases = [f"{RULESET_NAMES.get(rules.name, rules.name)} ({rules.name})"]
    phrases.append(_("两副牌，每张分牌两张") if rules.decks == 2 else _("一副牌"))
    phrases.append(_("首明 ×4") if rules.first_exposure_recognised else _("首明按明计（×2）"))
    phrases.append(_("自得加倍") if rules.self_capture_doubles else _("自得不加倍"))
    if rules.normalisation == "zero_sum":
        phrases.append(_("零和归一，×%(scale)d") % {"scale": rules.normalisation_scale})
    elif rules.normalisation == "partnership":
        phrases.append(_("打对家（两方分差），×%(scale)d") % {"scale": rules.normalisation_scale})
    else:
        phrases.append(_("不归一化"))
    phrases.append(_("局分 ±%(threshold)d") % {"threshold": rules.game_threshold})
    return phrases


def rules_text(event):
    return " · ".join(rules_in_force(event))
