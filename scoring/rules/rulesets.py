"""The named rule sets, as plain data.

The engine reads these options and nothing else: a new house rule is a new
`RuleSet`, never a branch on a rule set's name.
"""

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class RuleSet:
    name: str
    # 首明 multiplies by 4; when not recognised it counts as 明 (×2).
    first_exposure_recognised: bool = True
    # 自得: the holder who captures his own exposable card doubles it.
    self_capture_doubles: bool = True
    goat_value: int = 100
    # 全红: None flips the sign of the hearts sum; a number is a fixed value × E(♥A).
    all_hearts_fixed: int | None = None
    # The pig turns positive with "grand_slam" (满贯) only, or already with "all_hearts" (全红).
    pig_positive_with: str = "grand_slam"
    # 满贯 with no card exposed scores this fixed amount; None computes it.
    grand_slam_fixed_unexposed: int | None = None
    # When three exposable cards are exposed, the fourth counts as 明 too.
    auto_expose_fourth: bool = False
    # None, "zero_sum" or "partnership" (打对家), then × normalisation_scale.
    normalisation: str | None = None
    normalisation_scale: int = 1
    game_threshold: int = 1000

    def with_options(self, **options):
        return replace(self, **options)


RULESETS = {
    "huapai": RuleSet(name="huapai"),
    "online": RuleSet(
        name="online",
        first_exposure_recognised=False,
        self_capture_doubles=False,
        auto_expose_fourth=True,
        normalisation="zero_sum",
        normalisation_scale=12,
    ),
    "pagat": RuleSet(
        name="pagat",
        first_exposure_recognised=False,
        self_capture_doubles=False,
        pig_positive_with="all_hearts",
    ),
    "family": RuleSet(
        name="family",
        first_exposure_recognised=False,
        self_capture_doubles=False,
        goat_value=50,
        all_hearts_fixed=100,
        grand_slam_fixed_unexposed=1000,
    ),
}

DEFAULT_RULESET = "huapai"
GAME_THRESHOLDS = (1000, 800)
