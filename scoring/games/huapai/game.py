"""华牌 as a `Game` (scoring.games.base): the law of ../shared/rules/ behind the protocol."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.games import calls
from scoring.games.base import GameBase, GridRow
from scoring.games.refusals import _

from .cards import EXPOSABLE, POINT_CARDS, SEATS, SIDES, card_label
from .deal import read_deal
from .deal_text import EXPOSURE_WORDS
from .engine import BREAKDOWN_TERMS, score_deal
from .game_totals import split_games
from .player_stats import STORED_FIELDS, stored_seat_statistics
from .rulesets import DEFAULT_RULESET, GAME_THRESHOLDS, OPTION_SPECS, OPTIONS, RULESETS, rules_for, rules_in_words
from .stored import score_stored

if TYPE_CHECKING:
    from typing import Any

    from scoring.games.huapai.deal import ValidDeal
    from scoring.games.huapai.game_totals import Game
    from scoring.games.huapai.rulesets import RuleSet
    from scoring.games.refusals import Text

COPY_MARKS = {1: "①", 2: "②"}


class Huapai(GameBase):
    id = "huapai"
    name = _("华牌")  # marked: the site shows it in the page's language
    seats = SEATS
    sides = SIDES
    rulesets = tuple(RULESETS)
    default_ruleset = DEFAULT_RULESET
    options = tuple(OPTIONS)
    option_specs = OPTION_SPECS
    match_thresholds = GAME_THRESHOLDS
    event_kinds = None  # pairs, teams and individual events
    deal_keys = ("captured", "holders", "exposed", "penalties")  # the deal is kept whole (`Deal.game_data`)
    generic_options = False  # its four options have fields and phrases of their own on the event form
    takes_penalties = True
    result_sides = tuple(SIDES)
    entry_help = _(
        "键盘：按 N E S W（或 1–4）把这张牌分给该座位并跳到下一张，↑↓ 换行，Backspace 清除；"
        "分完后 Tab 到持牌人与亮牌，↓ 选择；Ctrl+Enter 保存并录下一副，Ctrl+S 保存。"
    )
    result_raw = True
    # Every kind its law and procedures speak of: claims with the point cards' fall (§7), the
    # exposures (§3), revokes, leads out of turn; every outcome, penalty points and the short
    # hand drawing back among them (docs/refereeing.md).
    call_kinds = (
        calls.CLAIM,
        calls.REVOKE,
        calls.LEAD_OUT_OF_TURN,
        calls.LATE_EXPOSURE,
        calls.EARLY_PLAY,
        *calls.GENERIC_CALL_KINDS,
    )
    call_outcomes = (
        calls.NOTHING,
        calls.PENALTY,
        calls.ADJUSTED,
        calls.REDEAL,
        calls.DRAWN_BACK,
        calls.NOT_PLAYED,
    )
    statistics = STORED_FIELDS  # kept with each deal (`stored_statistics`, `Deal.seat_stats`)
    keeps_statistics_per_deal = True
    breakdown_terms = (*BREAKDOWN_TERMS, *EXPOSURE_WORDS.values())  # exposures are printed in its words too

    def rules(self, ruleset: str, options: dict[str, Any] | None = None, **settings: int) -> RuleSet:
        return rules_for(ruleset, options).with_options(**settings) if settings else rules_for(ruleset, options)

    def read_deal(self, deal: dict[str, dict[str, Any]], rules: RuleSet) -> tuple[ValidDeal | None, list[Any]]:
        return read_deal(deal, rules=rules)

    def score_deal(self, deal: dict[str, Any], rules: Any = None) -> dict[str, dict[str, Any] | str] | None:
        return score_deal(deal) if rules is None else score_deal(deal, rules=rules)

    def score_stored(
        self, rules: RuleSet, deal: dict[str, Any], adjusted: dict[str, int] | None = None
    ) -> dict[str, dict[str, Any] | str] | None:
        return score_stored(rules, deal, adjusted)

    def stored_statistics(
        self, rules: RuleSet, scored: dict[str, dict[str, Any] | str], adjusted: dict[str, int] | None = None
    ) -> dict[str, list[int]]:
        return stored_seat_statistics(rules, scored, adjusted)

    def card_copies(self, rules: RuleSet) -> int:
        return rules.decks

    def normalises(self, rules: RuleSet) -> bool:
        return rules.normalises

    def ruleset_label(self, rules: RuleSet) -> str:
        return rules.label

    def entry_fields(self, rules: RuleSet | None = None) -> list[dict[str, Any]]:
        """Its deal on a card grid: who took each point card, the exposures and their holders,
        and the penalties (the widgets of `scoring.entry.game_fields`)."""
        return [
            {"key": "captured", "label": _("得分牌"), "kind": "cards", "required": True},
            {
                "key": "exposed",
                "label": _("亮牌与持牌人"),
                "kind": "exposures",
                "choices": EXPOSABLE,
                # A holder matters beyond an exposure only where 自得 counts (README §4).
                "holders_always": rules.self_capture_doubles if rules is not None else True,
            },
            {"key": "penalties", "label": _("罚分"), "kind": "penalties"},
        ]

    def entry_grid(self, rules: RuleSet) -> list[GridRow]:
        return [
            GridRow(card, copy, card_label(card) + (COPY_MARKS[copy] if rules.decks > 1 else ""))
            for card in POINT_CARDS
            for copy in range(1, rules.decks + 1)
        ]

    def match_units(self, side_scores: list[tuple[int, int]], threshold: int) -> list[Game]:
        return split_games(side_scores, threshold)

    def rules_in_words(self, rules: RuleSet) -> list[Text]:
        return rules_in_words(rules)

    def sample_deals(self, count: int, seed: int = 2026) -> Any:
        import random

        from .samples import random_deal  # the benchmarks' generator, loaded only when asked

        rng = random.Random(seed)
        return [random_deal(rng) for _ in range(count)]


HUAPAI = Huapai()
