"""The chief arbiter rules on a match that did not finish by itself (a game whose match carries
a state, 升级: time was called before either side passed the target level). The law gives such a
match no result (docs/games/shengji.md §7); the event's regulations do, through the chief
arbiter: "as it stands" (the levels reached decide, equal levels drawn), "drawn", or the winner
the regulations name — always with a written reason.

The ruling is stored on the table (`Table.match_ruling`), written in one transaction with a row
in the board history of the match's last deal (a ruling, its before and after) and announced to
the caches like every result write. What a ruling means for the match is the game's
(`scoring.games.stored.ruled_match`); the standings, the pages and papers, the publication
checklist and the entry grids read it from there. A ruling may be replaced by another (with its
own reason); deals after it are refused (`scoring.entry.selectors.placed_deal`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

from scoring.cache import announce_results_changed
from scoring.entry.errors import EntryError
from scoring.entry.hot_sql import insert
from scoring.entry.selectors import snapshot
from scoring.events.permissions import is_organiser
from scoring.games import game_of
from scoring.games.refusals import DealError, Text, _
from scoring.games.rulings import read_ruling
from scoring.games.stored import carries_state, event_rules, table_match, table_summary
from scoring.models import Deal, DealHistory, Table

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from scoring.models import Round


def rule_match(*, table: Table, user: User, outcome: str, reason: str, ip: str | None = None) -> dict:
    """The chief arbiter (an organiser of the event) rules on the table's unfinished match:
    `outcome` "as_it_stands", "draw" or a side ("NS", "EW": by the regulations), with `reason`.
    Returns the ruling as stored. Raises `EntryError`: not an organiser, a game whose match
    cannot be ruled on, no deal yet, a deal not confirmed, a match already over, a bad ruling."""
    event = table.round.event
    game = game_of(event)
    if not is_organiser(user, event):
        raise EntryError("forbidden", _("只有裁判长（组织者）可以裁定比赛结果"))
    if not carries_state(game):
        raise EntryError("no_match_ruling", _("本赛事的比赛按副数打完，不由裁判长裁定结果"))
    try:
        ruling = read_ruling(game, {"outcome": outcome, "reason": reason}, 0)
    except DealError as refused:
        raise EntryError(refused.code, refused.template, **refused.params) from None
    rules = event_rules(event)
    with transaction.atomic():
        # The table's row locked: two arbiters ruling at once rule one after the other, each
        # on the deals as they stand.
        locked = Table.objects.select_for_update().select_related("round__event").get(pk=table.pk)
        deals = list(Deal.objects.filter(table=locked).order_by("board"))
        if not deals:
            raise EntryError("no_deals", _("这一桌还没有成绩：没有可裁定的比赛"))
        waiting = [d.board for d in deals if d.status != Deal.Status.CONFIRMED]
        if waiting:
            # The ruling decides on the deals as they stand: a draft could still change them.
            raise EntryError(
                "unconfirmed",
                _("第 {boards} 副还没有确认：先确认，再裁定比赛结果"),
                boards=", ".join(str(b) for b in waiting),
            )
        result = table_match(game, rules, [d.as_deal_json() for d in deals])
        if result is None or result["finished"]:
            raise EntryError("match_finished", _("这场比赛已经结束，不需要裁定"))
        ruling["deals"] = result["deals_played"]
        before = locked.match_ruling
        locked.match_ruling = ruling
        locked.save(update_fields=["match_ruling"])
        # In the board history of the match's last deal: where the referees read the table's
        # match, and what the public list of changes reads after publication.
        last = deals[result["deals_played"] - 1]
        shown = snapshot(last)
        insert(
            DealHistory(
                event=event,
                table=locked,
                board=last.board,
                deal=last,
                version=last.version,
                user=user,
                action=DealHistory.Action.RULING,
                before={**shown, "match_ruling": before},
                after={**shown, "match_ruling": ruling},
                reason=str(Text(_("比赛结果：{ruling}"), ruling=game.ruling_words(result, ruling))),
                ip=ip,
            )
        )
        announce_results_changed(event, public=locked.round.is_published, shard=locked.pk)
    return ruling


def match_ruling_rows(rnd: Round) -> list[dict]:
    """The round's tables whose match the chief arbiter may rule on or has ruled on (a game whose
    match carries a state): `{"table", "ruling", "words"}` — the table's number, its ruling (None:
    not yet) and its match in the game's words (a `Text`). A match over by itself is not listed."""
    event = rnd.event
    game = game_of(event)
    if not carries_state(game):
        return []
    rules = event_rules(event)
    deals = {}
    for table_id, data in (
        Deal.objects.counted()
        .filter(table__round=rnd)
        .order_by("table_id", "board")
        .values_list("table_id", "game_data")
    ):
        deals.setdefault(table_id, []).append(data or {})
    rows = []
    for table in rnd.tables.order_by("number"):
        result = table_match(game, rules, deals.get(table.pk, []))
        if result is None or (result["finished"] and table.match_ruling is None):
            continue
        rows.append(
            {
                "table": table.number,
                "ruling": table.match_ruling,
                "words": table_summary(game, rules, deals.get(table.pk, []), table.match_ruling),
            }
        )
    return rows
