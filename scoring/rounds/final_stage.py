"""Final stages: closing the main part and playing a knockout or a final round robin of the
top N. The bracket logic is pure (`scoring.engine.brackets`); this module reads standings, writes
rounds (with `Round.stage` and `Match.label`) and reads a stage back for its public page."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

from scoring.cache import announce_results_changed
from scoring.engine import brackets
from scoring.engine.brackets import MatchLabel, StageKind
from scoring.engine.pairing import Pairing, PairingError
from scoring.engine.standings import compute_standings
from scoring.engine.vocabulary import Kind
from scoring.games.refusals import _
from scoring.models import Entrant, Match, PairingLog, Round
from scoring.results.match_results import event_format, event_match_results
from scoring.results.standings import event_standings
from scoring.rounds.creation import create_tables, next_round_number, unfinished_rounds
from scoring.rounds.draws import draw_rows

if TYPE_CHECKING:
    from typing import Any

    from django.contrib.auth.models import User

    from scoring.engine.standings import MatchResult
    from scoring.models import Event

STAGE_KINDS = (StageKind.KNOCKOUT, StageKind.ROUND_ROBIN)


def stage_of(event: Event) -> str:
    """The event's final stage kind, or "" while the main part goes on."""
    return event.rounds.exclude(stage="").values_list("stage", flat=True).first() or ""


def stage_offered(event: Event) -> bool:
    """Whether the event may have a final stage at all: a knockout or a final round robin pairs
    sides two by two, which individuals (seated three or four a table) do not have. The console
    offers the stage only where it works (docs/organising.md)."""
    return event.kind != Kind.INDIVIDUAL


def _check_may_start(event: Event) -> None:
    if not stage_offered(event):
        raise PairingError(_("个人赛没有决赛阶段"), code="not_for_individuals")
    if stage_of(event):
        raise PairingError(_("决赛阶段已经开始"), code="stage_started")
    unfinished = unfinished_rounds(event)
    if unfinished:
        raise PairingError(_("还有未完成或未确认的比赛，不能开始决赛阶段"), code="round_unfinished")


def finalists(event: Event, size: int) -> list[str]:
    """The top `size` of the main part's standings who have not withdrawn, best first."""
    withdrawn = set(
        Entrant.objects.filter(event=event, withdrawn_after_round__isnull=False).values_list("code", flat=True)
    )
    ranked = [row.id for row in event_standings(event) if row.id not in withdrawn]
    if len(ranked) < size:
        raise PairingError(_("参赛者不足 {size} 个"), code="too_few_entrants", size=size)
    return ranked[:size]


def _write_round(
    event: Event,
    number: int,
    tables: list[tuple[str, str]],
    byes: list[str],
    stage: str,
    labels: list[str],
    user: User,
    detail: dict[str, list[Any]],
) -> Round:
    rnd = Round.objects.create(
        event=event, number=number, status=Round.Status.SCHEDULED, sessions=event.sessions_per_round, stage=stage
    )
    create_tables(event, rnd, Pairing(tables=tables, byes=byes))
    for match, label in zip(Match.objects.filter(round=rnd, bye__isnull=True).order_by("number"), labels, strict=True):
        if label:
            match.label = label
            match.save(update_fields=["label"])
    PairingLog.objects.create(round=rnd, user=user, action=f"stage:{stage}", detail=detail)
    return rnd


def final_stage_start(event: Event, kind: str, size: int, *, user: User | None = None) -> list[Round]:
    """Close the main part and create the stage's first round (a knockout) or every round
    (a round robin). The seeds are kept with the first round (`extra["seeds"]`)."""
    if kind not in STAGE_KINDS:
        raise PairingError(_("未知的决赛阶段 {kind!r:.30}"), code="unknown_stage", kind=kind)
    _check_may_start(event)
    seeds = finalists(event, size)
    with transaction.atomic():
        _check_may_start(event)
        number = next_round_number(event)
        if kind == StageKind.KNOCKOUT:
            tables, label = brackets.knockout_first_round(seeds)
            rnd = _write_round(
                event, number, tables, [], kind, [label] * len(tables), user, {"seeds": seeds, "tables": tables}
            )
            created = [rnd]
        else:
            created = []
            for index, pairs in enumerate(brackets.final_round_robin(seeds)):
                tables = [(a, b) for a, b in pairs if a is not None and b is not None]
                byes = [a or b for a, b in pairs if a is None or b is None]
                created.append(
                    _write_round(event, number + index, tables, byes, kind, [""] * len(tables), user, {"seeds": seeds})
                )
        first = created[0]
        first.extra = {**first.extra, "seeds": seeds}
        first.save(update_fields=["extra"])
        announce_results_changed(event, public=False)
    return created


def _seeds(event: Event) -> list[str]:
    first = event.rounds.exclude(stage="").order_by("number").first()
    return (first.extra.get("seeds") or []) if first else []


def knockout_advance(event: Event, *, user: User | None = None) -> Round:
    """After a knockout round is played and confirmed, create the next one (semi-finals, or the
    final with the match for third place). Returns the new round."""
    last = event.rounds.filter(stage=StageKind.KNOCKOUT).order_by("-number").first()
    if last is None:
        raise PairingError(_("还没有淘汰赛"), code="no_knockout")
    if Match.objects.filter(round=last, label=MatchLabel.FINAL).exists():
        raise PairingError(_("决赛已经编排"), code="final_paired")
    if last.number in unfinished_rounds(event):
        raise PairingError(_("第{round}轮还有未完成或未确认的比赛"), code="round_unfinished", round=last.number)
    seed_of = {code: position for position, code in enumerate(_seeds(event), start=1)}
    matches = [m for m in event_match_results(event, stage=StageKind.KNOCKOUT) if m.round == last.number and not m.bye]
    following = brackets.knockout_next_round(event_format(event), matches, seed_of)
    with transaction.atomic():
        rnd = _write_round(
            event,
            next_round_number(event),
            [(ns, ew) for ns, ew, _label in following],
            [],
            StageKind.KNOCKOUT,
            [label for _ns, _ew, label in following],
            user,
            {"tables": [[ns, ew] for ns, ew, _label in following]},
        )
        announce_results_changed(event, public=False)
    return rnd


def stage_summary(event: Event, *, public: bool = True) -> dict[str, list[Any] | str] | None:
    """What the bracket page shows: `{"kind", "seeds", "rounds": [{round, matches}], "placings", "table"}`.
    The public sees a round's pairings once its draw is released and results once it is published."""
    kind = stage_of(event)
    if not kind:
        return None
    fmt = event_format(event)
    seeds = _seeds(event)
    seed_of = {code: position for position, code in enumerate(seeds, start=1)}
    results = {
        (m.round, m.home, m.away): m for m in event_match_results(event, stage=kind, published_only=public) if not m.bye
    }
    rounds = []
    for rnd in event.rounds.filter(stage=kind).order_by("number"):
        if public and not rnd.draw_released:
            continue
        sides = {}
        for row in draw_rows(rnd)["tables"]:
            for side in ("ns", "ew"):
                sides.setdefault(row[side]["code"], row[side])
        matches = []
        for match in (
            Match.objects.filter(round=rnd, bye__isnull=True).select_related("home", "away").order_by("number")
        ):
            result = results.get((rnd.number, match.home.code, match.away.code))
            played = result is not None and result.played
            outcome = brackets.match_outcome(fmt, result, seed_of) if played else None
            matches.append(
                {
                    "label": match.label,
                    "sides": [
                        {
                            **sides.get(code, {"code": code}),
                            "seed": seed_of.get(code),
                            "total": _total(result, code) if played else None,
                        }
                        for code in (match.home.code, match.away.code)
                    ],
                    "winner": outcome.winner if outcome else None,
                    "decided_by": outcome.decided_by if outcome else None,
                }
            )
        rounds.append({"round": rnd, "matches": matches})
    summary = {"kind": kind, "seeds": seeds, "rounds": rounds, "placings": [], "table": []}
    if kind == StageKind.KNOCKOUT:
        last = {
            m["label"]: m
            for r in rounds
            for m in r["matches"]
            if m["label"] in (MatchLabel.FINAL, MatchLabel.THIRD_PLACE)
        }
        if len(last) == 2 and all(m["winner"] for m in last.values()):
            final, bronze = last[MatchLabel.FINAL], last[MatchLabel.THIRD_PLACE]
            summary["placings"] = [(1, final["winner"]), (2, _loser(final)), (3, bronze["winner"]), (4, _loser(bronze))]
    else:
        played = event_match_results(event, stage=kind, published_only=public)
        summary["table"] = compute_standings(fmt, played, seeds)
    return summary


def _total(match: MatchResult, code: str) -> int:
    """An entrant's total in a match: its side's total at every table it sat (teams: two)."""
    return sum(t.ns_total if t.ns == code else t.ew_total for t in match.tables if code in (t.ns, t.ew))


def _loser(match: dict[str, list[Any] | str]) -> str:
    return next(side["code"] for side in match["sides"] if side["code"] != match["winner"])
