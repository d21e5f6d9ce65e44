"""The named rule sets and the per-event options (README §5, §5a, §8), as plain data.

The engine reads these fields and nothing else: a new house rule is a new
`RuleSet` or an option, never a branch on a rule set's name.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from scoring.games.options import DEAL, Option
from scoring.games.refusals import DealError, Text, _, listed

if TYPE_CHECKING:
    from typing import Any

NORMALISATIONS = ("none", "zero_sum", "partnership")
# Bounds of the `scale` option: positive, and small enough that no normalised
# score can leave a 32-bit column (the largest raw score is 1600 × 2^8).
SCALE_MIN, SCALE_MAX = 1, 100


@dataclass(frozen=True)
class RuleSet:
    name: str
    # One deck (16 point cards) or two (拱双猪: every point card twice, README §8).
    decks: int = 1
    # 首明 multiplies by 4; when not recognised it counts as 明 (×2).
    first_exposure_recognised: bool = True
    # 自得: the holder who captures his own exposable card doubles it.
    self_capture_doubles: bool = True
    goat_value: int = 100
    # 全红 / 满红: None flips the sign of the hearts sum; a number is a fixed value × E(♥A).
    all_hearts_fixed: int | None = None
    # The pig turns positive with "grand_slam" (满贯) only, or already with "all_hearts" (全红).
    pig_positive_with: str = "grand_slam"
    # 满贯 as a fixed figure (None: computed card by card). With cards exposed it is then
    # either "computed" (family: the fixed figure holds only when nothing was exposed)
    # or "doubled" (two decks: the figure doubles for every exposed copy).
    grand_slam_fixed: int | None = None
    grand_slam_exposed: str = "computed"
    # When three exposable cards are exposed, the fourth counts as 明 too.
    auto_expose_fourth: bool = False
    # "none", "zero_sum" or "partnership" (打对家), then × normalisation_scale.
    normalisation: str = "none"
    normalisation_scale: int = 1
    game_threshold: int = 1000
    # Its name for people (Chinese, marked for the catalogue; the rules in force, `rules_in_words`);
    # not a rule: rule sets compare by their rules.
    label: str = field(default="", compare=False, repr=False)

    def with_options(self, **options: bool | int | str) -> RuleSet:
        return replace(self, **options)

    @property
    def normalises(self) -> bool:
        """Scores differ from raw scores (before penalties): pages then show both."""
        return self.normalisation != "none"

    @property
    def point_card_copies(self) -> int:
        return 16 * self.decks

    def options(self) -> dict[str, Any]:
        """The four per-event options as they stand in this rule set (README §5a)."""
        return {option: getattr(self, field) for option, (field, _check) in OPTIONS.items()}


# The four per-event options as data (scoring.games.options), in a deal's "options" as on the
# event; the defaults are the default rule set's (another rule set's own: `RuleSet.options()`).
OPTION_SPECS = (
    Option("first_exposure", DEAL, True, _("承认首明"), choices=(True, False)),
    Option("self_capture", DEAL, True, _("自得翻倍"), choices=(True, False)),
    Option("normalisation", DEAL, "none", _("分数归一"), choices=NORMALISATIONS),
    Option("scale", DEAL, 1, _("倍数"), minimum=SCALE_MIN, maximum=SCALE_MAX),
)
OPTION_FIELDS = {
    "first_exposure": "first_exposure_recognised",
    "self_capture": "self_capture_doubles",
    "normalisation": "normalisation",
    "scale": "normalisation_scale",
}
# Option name (deal JSON, archives, events) → (RuleSet field, check of the value).
OPTIONS = {spec.name: (OPTION_FIELDS[spec.name], spec.allows) for spec in OPTION_SPECS}
OPTION_HINTS = {spec.name: spec.hint for spec in OPTION_SPECS}

RULESETS = {
    "huapai": RuleSet(name="huapai", label=_("华牌竞赛规则")),
    "online": RuleSet(
        name="online",
        label=_("联众在线规则"),
        first_exposure_recognised=False,
        self_capture_doubles=False,
        auto_expose_fourth=True,
        normalisation="zero_sum",
        normalisation_scale=12,
    ),
    "pagat": RuleSet(
        name="pagat",
        label=_("pagat 规则"),
        first_exposure_recognised=False,
        self_capture_doubles=False,
        pig_positive_with="all_hearts",
    ),
    "family": RuleSet(
        name="family",
        label=_("家庭规则"),
        first_exposure_recognised=False,
        self_capture_doubles=False,
        goat_value=50,
        all_hearts_fixed=100,
        grand_slam_fixed=1000,
        grand_slam_exposed="computed",
    ),
    "online-2deck": RuleSet(
        name="online-2deck",
        label=_("两副牌（拱双猪）"),
        decks=2,
        first_exposure_recognised=False,
        self_capture_doubles=False,
        grand_slam_fixed=1600,
        grand_slam_exposed="doubled",
        normalisation="zero_sum",
        normalisation_scale=1,
    ),
}

DEFAULT_RULESET = "huapai"
GAME_THRESHOLDS = (1000, 800)
assert RULESETS[DEFAULT_RULESET].options() == {spec.name: spec.default for spec in OPTION_SPECS}


def read_options(raw: dict[str, Any] | list[str] | None) -> tuple[dict[str, Any], list[Any]]:
    """Check per-event option overrides; return `(fields, problems)`.

    `fields` maps RuleSet field names to values, ready for `RuleSet.with_options`.
    """
    if raw is None:
        return {}, []
    if not isinstance(raw, dict):
        return {}, [DealError("bad_option", _("“options” 必须是对象"))]
    fields, problems = {}, []
    for name, value in raw.items():
        spec = OPTIONS.get(name) if type(name) is str else None
        if spec is None:
            problems.append(
                DealError(
                    "unknown_option",
                    _("未知选项 {name!r:.40}（可用：{known}）"),
                    name=name,
                    known=listed(list(OPTIONS)),
                )
            )
        elif not spec[1](value):
            problems.append(
                DealError(
                    "bad_option",
                    _("选项 {name} 的值 {value!r:.40} 无效（{hint}）"),
                    name=name,
                    value=value,
                    hint=OPTION_HINTS[name],
                )
            )
        else:
            fields[spec[0]] = value
    return fields, problems


def rules_for(name: str, options: dict[str, Any] | None = None) -> RuleSet:
    """The named rule set with option overrides (already checked by `read_options`)."""
    fields, problems = read_options(options)
    if problems:
        raise problems[0]
    rules = RULESETS[name]
    return rules.with_options(**fields) if fields else rules


def rules_in_words(rules: RuleSet) -> list[Text]:
    """The rules in force in short phrases (after the rule set's own name, `RuleSet.label`): decks,
    首明, 自得, normalisation, 局分. Each a `Text`, a Chinese msgid and its parameters, that the site
    renders in the reader's language (`scoring.messages.message_text`)."""
    if rules.normalisation == "zero_sum":
        normalised = Text(_("零和归一，×{scale}"), scale=rules.normalisation_scale)
    elif rules.normalisation == "partnership":
        normalised = Text(_("打对家（两方分差），×{scale}"), scale=rules.normalisation_scale)
    else:
        normalised = Text(_("不归一化"))
    return [
        Text(_("两副牌，每张分牌两张") if rules.decks == 2 else _("一副牌")),
        Text(_("首明 ×4") if rules.first_exposure_recognised else _("首明按明计（×2）")),
        Text(_("自得加倍") if rules.self_capture_doubles else _("自得不加倍")),
        normalised,
        Text(_("局分 ±{threshold}"), threshold=rules.game_threshold),
    ]
