"""升级 as a `Game` (scoring.games.base): law §2 of ../shared/rules/games/README.md behind
the protocol, and what the protocol does not have (deal options, a match by levels) beside it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from scoring.games import calls
from scoring.games.base import GameBase
from scoring.games.refusals import DealError, Text, _
from scoring.games.rulings import AS_IT_STANDS

from .cards import KING, POINTS_STEP, POINTS_TOTAL, SEATS, SIDES, rank
from .deal import GAME_ID, check_deal, read_deal, side_label, validate_deal
from .engine import BREAKDOWN_TERMS, score_deal, score_valid_deal
from .match import _state, match_outcome, match_over, match_standing, shengji_match
from .options import DEFAULT_RULESET, EVENT_OPTIONS, RULESETS, read_event_options, rules_for

if TYPE_CHECKING:
    from typing import Any

    from scoring.games.shengji.deal import ValidDeal
    from scoring.games.shengji.options import Rules


@dataclass(frozen=True, slots=True)
class EntryField:
    """One field a referee fills in for a deal, described as plain data for the entry page.
    `first_deal_only`: asked on a match's first deal only (later deals take the state)."""

    key: str
    label: str
    kind: str  # "choice" or "integer"
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    step: int | None = None
    first_deal_only: bool = False


ENTRY_FIELDS = [
    EntryField("declarer", _("台上"), "choice", choices=tuple(SIDES), first_deal_only=True),
    EntryField("points", _("台下得分"), "integer", minimum=0, maximum=POINTS_TOTAL, step=POINTS_STEP),
]
# The entry page's kinds for the fields above (`scoring.entry.game_fields`): a choice of side, an integer.
PAGE_KINDS = {"choice": "choice", "integer": "int"}
SIDE_WORDS = {"NS": _("南北(NS)"), "EW": _("东西(EW)")}

# What the entry page says of its keys (`scoring.web.referee.game_entry`).
ENTRY_HELP = _(
    "键盘：第一副在“台上”一行按 N（南北）或 E（东西）；台下得分填 0 到 200 之间 5 的倍数；"
    "Enter 跳到下一项；Ctrl+Enter 保存并录下一副，Ctrl+S 保存。"
)

# Players' statistics: deals played on 台上 and levels gained, counted from a stored deal.
STATISTICS = (
    ("on_top", _("台上副数")),
    ("levels", _("升级数")),
)

# The deal key a refusal is about, by code (§2.2 V2, V3); a state or a match refusal names none.
REFUSAL_KEYS = {
    "unknown_side": "declarer",
    "declarer_mismatch": "declarer",
    "bad_points": "points",
}


def seat_statistics(deal: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """{seat: (1 if its side was on 台上, levels it gained)} of one deal as stored (canonical JSON,
    carrying its state after a match's first deal); a deal the engine refuses counts as nothing."""
    try:
        valid = validate_deal(deal or {})
    except DealError:
        return {seat: (0, 0) for seat in SEATS}
    scores = score_valid_deal(valid)["scores"]
    on_top = SIDES[valid.before.declarer]
    return {seat: (int(seat in on_top), scores[seat]) for seat in SEATS}


def _level(level: int) -> int | Text:
    """A side's absolute level as the pages show it beside its rank: past K (D-S4) the rank starts
    again at A, so the level says so — "打2（15，过K）", never a bare "打2" as if the side had
    gone back to 2."""
    if level <= KING:
        return level
    return Text(_("{level}，过K"), level=level)


def _levels_text(state: dict[str, dict[str, int] | str]) -> Text:
    """Both sides' levels in words, the side on 台上 marked: "台上 南北(NS) · NS 打3（3） · EW 打A（1）"."""
    levels = state["levels"]
    return Text(
        _("台上 {declarer} · NS 打{ns}（{ns_level}） · EW 打{ew}（{ew_level}）"),
        declarer=side_label(state["declarer"]),
        ns=rank(levels["NS"]),
        ns_level=_level(levels["NS"]),
        ew=rank(levels["EW"]),
        ew_level=_level(levels["EW"]),
    )


class Shengji(GameBase):
    id = GAME_ID
    name = _("升级")  # marked: the site shows it in the page's language
    seats = SEATS
    sides = SIDES
    rulesets = tuple(RULESETS)
    default_ruleset = DEFAULT_RULESET
    # start_level (a deal option the event sets too), then the event (match) options target, deals
    option_specs = tuple(EVENT_OPTIONS.values())
    options = tuple(EVENT_OPTIONS)
    # 升级 has no score threshold: a match ends by levels (`match`, `match_outcome`).
    match_thresholds = ()
    # What the site asks (`scoring.games.stored`): pairs events (§2.1: fixed partnerships; a
    # team event of 升级 is not built), each table's match won by levels (`carries_state`).
    event_kinds = ("pairs",)
    deal_keys = ("declarer", "points", "state", "options")
    generic_options = True
    takes_penalties = False  # the law has no penalty points
    # Seed 002 makes every player follow the lead (「其他人也必須出相同花色的副牌」) and the trick's
    # winner lead next: a revoke and a lead out of turn are irregularities here, with the calls any
    # table has. No adjusted score (`bad_adjusted`) and no board not played (a match cannot skip
    # a deal): a ruling is nothing or a redeal (docs/games/shengji.md).
    call_kinds = (calls.REVOKE, calls.LEAD_OUT_OF_TURN, *calls.GENERIC_CALL_KINDS)
    call_outcomes = (calls.NOTHING, calls.REDEAL)
    # A new event's most deals a table plays in a round: from A, passing K takes at least seven
    # deals and commonly twenty to forty (docs/games/shengji.md, "on the site").
    default_match_length = 40
    breakdown_terms = BREAKDOWN_TERMS  # the notes' words, translated one by one
    # The state (台上 and both levels) is carried from deal to deal at a table: the site places
    # each deal in its table's match (`place_deal`) and ranks by the match (`table_match`).
    carries_state = True
    entry_help = ENTRY_HELP
    # The score sheet: each side's level after the deal, for the check, and what the later lines'
    # 台上 is. (heading, sub-heading, width in mm). Marked words: the sheet is printed in the
    # language it is downloaded in.
    sheet_columns = ((_("本副后级数"), "NS", 16), (_("本副后级数"), "EW", 16))
    sheet_note = _("第二副起台上由上一副的得分决定（台下 100 分以上换台上），仍请写明，以便核对。")
    statistics = tuple(name for name, _label in STATISTICS)
    statistics_labels = dict(STATISTICS)
    seat_statistics = staticmethod(seat_statistics)
    # The pairs standings' figures in the game's words: the score difference is the level
    # difference (§2.1 Standings, the first tie-break), the total the levels reached.
    standings_labels = {"score_difference": _("级差"), "total_score": _("终局级数")}

    def rules(
        self,
        ruleset: str = DEFAULT_RULESET,
        options: dict[str, bool | float | None] | list[Any] | str | None = None,
        **settings: bool | float | None,
    ) -> Rules | None:
        return rules_for(ruleset, options, **settings)

    def stored_statistics(self, rules: Rules, scored: dict[str, Any], adjusted: Any = None) -> None:
        return None

    def read_deal(self, deal: dict[str, Any], rules: Rules | None = None) -> tuple[ValidDeal | None, list[Any]]:
        return read_deal(deal, rules)

    # Deal JSON in, result out (raises `DealError`); the engine's own function, called per line.
    score_deal = staticmethod(score_deal)

    def score_stored(
        self, rules: Rules, deal: dict[str, Any], adjusted: dict[str, int] | None = None
    ) -> dict[str, Any]:
        """A stored deal's result, its canonical form at the top (what the site keeps, the keys
        `deal_keys`: a later deal's `"state"` is the state *before* it) and again under
        `"deal"`; the state after the deal under `"after"`. An adjusted score is refused: the
        levels are the match's state, so an arbiter corrects the points."""
        if adjusted is not None:
            raise DealError("bad_adjusted", _("升级不设调整分：请更正台下得分"))
        valid = validate_deal(deal, rules)
        canonical = valid.as_json()
        result = score_valid_deal(valid)
        stored = {key: value for key, value in result.items() if key != "state"}
        return {**stored, **canonical, "after": result["state"], "deal": canonical}

    def entry_grid(self, rules: Rules | None = None) -> list[EntryField]:
        """The deal's fields as plain descriptions (`EntryField`), not 华牌's point-card rows."""
        return list(ENTRY_FIELDS)

    def entry_fields(self, rules: Rules | None = None) -> list[dict[str, Any]]:
        """The entry page's fields (plain dicts, as `scoring.entry.game_fields` reads them): the
        side on 台上 (a match's first deal only, M1) and the 台下 side's points."""
        return [
            {
                "key": spec.key,
                "label": spec.label,
                "kind": PAGE_KINDS[spec.kind],
                "required": True,
                "choices": list(spec.choices),
                "words": {side: SIDE_WORDS[side] for side in spec.choices},
                "minimum": spec.minimum,
                "maximum": spec.maximum,
                "step": spec.step,
                "first_only": spec.first_deal_only,
            }
            for spec in ENTRY_FIELDS
        ]

    def refusal_key(self, error: DealError) -> str:
        """The deal key a refusal names (the entry page puts it beside that field), or None."""
        if error.code == "missing_key":
            return "declarer" if "declarer" in error.template else "points"
        return REFUSAL_KEYS.get(error.code)

    def deal_words(self, deal: dict[str, Any]) -> list[tuple[str, Any]]:
        """[(label, words)] a stored deal shows beyond its fields: the state it was played from."""
        state = (deal or {}).get("state")
        if not isinstance(state, dict):
            return []
        return [(_("本副前"), _levels_text(state))]

    # A match at a table, as the site stores it one deal at a time (M1–M4).

    def table_match(self, deals: list[dict[str, Any]], rules: Rules) -> dict[str, Any]:
        """The match of a table's deals in playing order (`shengji_match`): the result, or the
        refusal of the first deal the match cannot take (its position under `"deal"`)."""
        return shengji_match(list(deals), rules)

    def place_deal(self, deal: dict[str, Any], earlier: list[dict[str, Any]], rules: Rules) -> dict[str, Any]:
        """The deal JSON to score as the next deal of a match whose deals so far are `earlier`
        (as stored): a first deal as entered (without a state), a later one carrying the state
        the match has reached (M1), whatever the entry says. Raises `DealError`: `match_over`
        for a deal after the match ended (M2, M3), the earlier deals' own refusal."""
        reached = shengji_match(list(earlier), rules)
        if "error" in reached:
            error = reached["error"]
            raise DealError(
                "earlier_refused",
                _("第 {deal} 副不能接入本场比赛：{message}"),
                deal=error.get("deal"),
                message=error["message"],
            )
        if reached["finished"]:
            raise match_over(reached["deals_played"], reached["winner"], len(earlier) + 1)
        if isinstance(deal, dict) and deal.get("state") is not None:  # a state given must be the one reached
            check_deal(deal, read_event_options(rules).start_level, reached=_state(reached["state"]))
        placed = {key: value for key, value in (deal or {}).items() if key != "state"}
        if reached["state"] is not None:
            placed["state"] = reached["state"]
        return placed

    def boards_in_play(self, rules: Rules, result: dict[str, Any] | None, length: int) -> int:
        """A match to a target (M2, M4) may end on any deal, so while it goes on it counts the
        deals played and the next one, not the round's most: the grid and the phones show the
        next deal to play, the checklist wants the match finished or ruled on. A match of a set
        number of deals only (M3) counts them all."""
        if read_event_options(rules).target is None:
            return length
        return min(length, (result["deals_played"] if result else 0) + 1)

    def match_lines(self, before: dict[str, Any], after: dict[str, Any] | None, rules: Rules) -> list[Text]:
        """The match as the entry page shows it around one deal: [Text] of the levels before the
        deal, after it (`after` None: not scored yet), and the match's progress to its end."""
        rules = read_event_options(rules)
        lines = []
        if before["state"] is None:
            lines.append(Text(_("本场第一副：双方从 {rank} 开始"), rank=rank(rules.start_level)))
        else:
            lines.append(Text(_("本副前：{levels}"), levels=_levels_text(before["state"])))
        if after is not None and "error" not in after:
            lines.append(Text(_("本副后：{levels}"), levels=_levels_text(after["state"])))
            played, winner = after["deals_played"], after["winner"]
        else:
            played, winner = before["deals_played"], before["winner"]
        lines.append(self._progress(rules, played, winner))
        return lines

    def ruled_winner(self, result: dict, outcome: str) -> str:
        """What a chief arbiter's ruling on an unfinished match (`result`, `table_match`) gives as
        its winner: "as_it_stands" — the levels reached decide, equal levels drawn (as M3 decides
        a match at its number of deals); "draw"; or the side the regulations name ("NS", "EW")."""
        if outcome == AS_IT_STANDS:
            levels = result["state"]["levels"]
            if levels["NS"] == levels["EW"]:
                return "draw"
            return "NS" if levels["NS"] > levels["EW"] else "EW"
        return outcome

    def ruling_words(self, result: dict, ruling: dict) -> Text:
        """A ruling on the match in words: how it was decided and the reason written with it."""
        outcome = ruling["outcome"]
        winner = self.ruled_winner(result, outcome)
        if outcome == AS_IT_STANDS:
            decided = (
                Text(_("按当时级数打平"))
                if winner == "draw"
                else Text(_("按当时级数 {winner} 胜"), winner=side_label(winner))
            )
        elif winner == "draw":
            decided = Text(_("判为平局"))
        else:
            decided = Text(_("按赛事规程判 {winner} 胜"), winner=side_label(winner))
        return Text(_("裁判长裁定：{decided}（理由：{reason}）"), decided=decided, reason=ruling["reason"])

    def match_summary(self, result: dict, ruling: dict | None = None) -> Text:
        """A table's match in one line, for the round and entrant pages: the levels reached and
        the winner, or how many deals it stands at ("NS 打5（5） · EW 打A（1） · 南北(NS) 胜");
        an unfinished match the chief arbiter ruled on says how he ruled and why."""
        levels = result["state"]["levels"]
        reached = Text(
            _("NS 打{ns}（{ns_level}） · EW 打{ew}（{ew_level}）"),
            ns=rank(levels["NS"]),
            ns_level=_level(levels["NS"]),
            ew=rank(levels["EW"]),
            ew_level=_level(levels["EW"]),
        )
        winner = result["winner"]
        if ruling is not None and not result["finished"]:
            return Text(
                _("{levels} · {played} 副，未打完 · {ruling}"),
                levels=reached,
                played=result["deals_played"],
                ruling=self.ruling_words(result, ruling),
            )
        if winner == "draw":
            return Text(_("{levels} · 打平"), levels=reached)
        if winner is not None:
            return Text(_("{levels} · {winner} 胜"), levels=reached, winner=side_label(winner))
        return Text(_("{levels} · {played} 副，未打完"), levels=reached, played=result["deals_played"])

    def _progress(self, rules: Rules, played: int, winner: None) -> Text:
        if winner == "draw":
            return Text(_("比赛结束：第 {played} 副后双方打平"), played=played)
        if winner is not None:
            return Text(_("比赛结束：第 {played} 副后 {winner} 获胜"), played=played, winner=side_label(winner))
        goal = []
        if rules.target is not None:
            goal.append(Text(_("先升过 {rank}（{target}）者胜"), rank=rank(rules.target), target=rules.target))
        if rules.deals is not None:
            goal.append(Text(_("打满 {deals} 副后级高者胜"), deals=rules.deals))
        if len(goal) == 2:
            return Text(
                _("已打 {played} 副；{first}，或{second}，先到为准"), played=played, first=goal[0], second=goal[1]
            )
        return Text(_("已打 {played} 副；{goal}"), played=played, goal=goal[0])

    def match_units(self, side_scores: list[tuple[int, int]], threshold: int | None = None) -> list[Any]:
        """No units by score: a 升级 match is won by levels, so this is always empty."""
        return []

    def match(self, deals: list[dict[str, int | str]], options: dict[str, int | None] | None = None) -> dict[str, Any]:
        """`shengji_match`: a whole match from its deals and the event's match options."""
        return shengji_match(deals, options)

    def match_outcome(self, state: Any, deals_played: Any, rules: Any) -> Any:
        return match_outcome(state, deals_played, read_event_options(rules))

    def match_standing(self, result: dict[str, Any]) -> dict[str, dict[str, int]]:
        """A finished match's 场分 and level difference per side (`match_standing`)."""
        return match_standing(result)

    def side_score(self, scores: dict[str, int], side: str) -> int:
        """Both partners carry the side's levels gained in a deal (§2.3): the side's figure is
        one seat's, not their sum."""
        return scores.get(SIDES[side][0], 0)

    def sample_deals(self, count: int, seed: int = 2026) -> list[dict[str, int | str]]:
        """One match from its start: 台上 on the first deal, the points of each (the match carries
        the state from deal to deal)."""
        import random

        from .samples import random_points  # the benchmarks' generator, loaded only when asked

        rng = random.Random(seed)
        deals = [{"game": GAME_ID, "points": random_points(rng)} for _ in range(count)]
        if deals:
            deals[0]["declarer"] = rng.choice(tuple(SIDES))
        return deals


SHENGJI = Shengji()
