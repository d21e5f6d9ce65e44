"""The rules in force for an event, in plain words (public event page, entry page, printed sheets).

The engines' rule sets and options are data (`scoring.games`, each game's `rules`); this
module only names them for people, through Django's translations: 华牌's rule sets and options
phrase by phrase, another game's options as data (`Game.option_specs`)
named one by one.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.games import game_of
from scoring.games.stored import carries_state, event_rules

RULESET_NAMES = {
    "huapai": gettext_lazy("华牌竞赛规则"),
    "online": gettext_lazy("联众在线规则"),
    "pagat": gettext_lazy("pagat 规则"),
    "family": gettext_lazy("家庭规则"),
    "online-2deck": gettext_lazy("两副牌（拱双猪）"),
}
# Other games' options (by option name, the law's; §1.3 and §0), what the event form calls
# them and how a value reads in the rules in force.
OPTION_LABELS = {
    "feidan_stack": gettext_lazy("一人多个飞弹"),
    "feidan_reversal": gettext_lazy("飞弹可否使输赢反向"),
    "tianzha_points": gettext_lazy("天炸每家付分"),
    "tianzun_points": gettext_lazy("天尊每家付分"),
    "deals_per_match": gettext_lazy("每场副数"),
    "standings": gettext_lazy("名次依据"),
    "start_level": gettext_lazy("开始级数（1 即 A）"),
    "target": gettext_lazy("目标级数（留空：不设）"),
    "deals": gettext_lazy("每场局数（留空：不设）"),
    # 跑胡子 (§3.3)
    "min_huxi": gettext_lazy("胡牌最少胡息"),
    "tun_step": gettext_lazy("每多一囤所需胡息"),
    "di": gettext_lazy("底（每次胡牌另加的囤）"),
    "discard_pays": gettext_lazy("放炮由谁付"),
    "huang_per_wangba": gettext_lazy("黄庄时每张王霸付给每个无王霸者"),
}
VALUE_WORDS = {
    ("feidan_stack", "add"): gettext_lazy("累加"),
    ("feidan_stack", "once"): gettext_lazy("只算一个"),
    ("feidan_reversal", False): gettext_lazy("不反向"),
    ("feidan_reversal", True): gettext_lazy("可以反向"),
    ("standings", "total"): gettext_lazy("总分"),
    ("standings", "table_points"): gettext_lazy("桌分（总分为第一破同分）"),
    ("discard_pays", "all"): gettext_lazy("两家都付"),
    ("discard_pays", "discarder"): gettext_lazy("放炮者独付"),
}
PHRASES = {
    "feidan_stack": gettext_lazy("一人多个飞弹：%(value)s"),
    "feidan_reversal": gettext_lazy("飞弹%(value)s"),
    "tianzha_points": gettext_lazy("天炸每家付 %(value)s"),
    "tianzun_points": gettext_lazy("天尊每家付 %(value)s"),
    "deals_per_match": gettext_lazy("每场 %(value)s 副"),
    "standings": gettext_lazy("名次按%(value)s"),
    "min_huxi": gettext_lazy("胡牌最少 %(value)s 胡息"),
    "tun_step": gettext_lazy("每多 %(value)s 胡息一囤"),
    "di": gettext_lazy("底 %(value)s 囤"),
    "discard_pays": gettext_lazy("放炮胡%(value)s"),
    "huang_per_wangba": gettext_lazy("黄庄每张王霸付 %(value)s"),
    "start_level": gettext_lazy("双方从第 %(value)s 级开始"),
    "target": gettext_lazy("先升过第 %(value)s 级者胜"),
    "deals": gettext_lazy("打满 %(value)s 副后级高者胜"),
}
# An option left without a value (升级's target or number of deals: none).
NO_VALUE = gettext_lazy("不设")
NO_VALUE_PHRASES = {
    "target": gettext_lazy("不设目标级数"),
    "deals": gettext_lazy("不限局数"),
}


def game_name(game):
    """The game's name in the page's language (each game marks its own name for translation)."""
    return _(game.name)


def option_label(spec):
    """What the event form calls an option: its words here, else the game's label, else its name."""
    return OPTION_LABELS.get(spec.name) or getattr(spec, "label", None) or spec.name


def value_word(name, value):
    """An option's value in words (true / false and numbers as they are, where no word is given)."""
    word = VALUE_WORDS.get((name, value)) if type(value) is bool or isinstance(value, str) else None
    if word is not None:
        return str(word)
    return str(value).lower() if type(value) is bool else str(value)


def _option_phrase(spec, value):
    if value is None:
        return str(NO_VALUE_PHRASES.get(spec.name) or f"{option_label(spec)}：{NO_VALUE}")
    phrase = PHRASES.get(spec.name)
    word = value_word(spec.name, value)
    return phrase % {"value": word} if phrase else f"{_(str(option_label(spec)))}：{word}"


def rules_in_force(event):
    """Short phrases: the rule set, then each option as it stands, then the 局 threshold."""
    game = game_of(event)
    if game.generic_options:
        stored = event.options if isinstance(event.options, dict) else {}
        phrases = [f"{game_name(game)} ({game.id})"] + [
            _option_phrase(spec, stored.get(spec.name, spec.default)) for spec in game.option_specs
        ]
        if carries_state(game):  # a match that ends by itself: the most deals a table plays in a round
            phrases.append(_("每桌每轮至多 %(n)s 副，未打完按当时级数定胜负") % {"n": event.match_length})
        return phrases
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
