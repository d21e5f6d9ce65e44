"""Names, clubs and pinyin of an event's entrants, and standings rows joined with them."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from django.utils import translation
from django.utils.translation import get_language, gettext

from scoring.cache.results import cached
from scoring.engine.vocabulary import Kind
from scoring.events.lineups import PAIR_SIZE
from scoring.games import game_of
from scoring.messages import joined, people_label, standings_labels
from scoring.models import Entrant, Membership, Player
from scoring.results.explanations import explanation_text

if TYPE_CHECKING:
    from typing import Any

    from scoring.engine.standings import Row
    from scoring.models import Event


def entrant_labels(event: Event) -> dict[str, dict[str, Any]]:
    """{code: {"name", "club", "sort_key"}} for every entrant (pairs/teams) or player (individual), cached."""
    # Under the public version: entrant and name changes move it, referees' entries do not.
    return cached(event, "labels", lambda: _entrant_labels(event), public=True, variant=get_language())


def _entrant_labels(event: Event) -> dict[str, dict[str, Any]]:
    # Plain rows, not model objects: the 10,000 players of a big event cost twice as much as objects.
    players = {
        p.id: p for p in Player.objects.filter(event=event).values_list("id", "name", "sort_key", "club", named=True)
    }
    members = defaultdict(list)
    for entrant_id, player_id in (
        Membership.objects.filter(entrant__event=event).order_by("position").values_list("entrant_id", "player_id")
    ):
        members[entrant_id].append(players[player_id])
    labels = {}
    for entrant in Entrant.objects.filter(event=event).values_list(
        "id", "code", "name", "withdrawn_after_round", named=True
    ):
        people = members[entrant.id]
        names = people_label(people)
        if event.kind == Kind.PAIRS and len(people) > PAIR_SIZE:
            # A pair is its two players; its registered substitute is named apart.
            names = gettext("%(pair)s（替补：%(substitutes)s）") % {
                "pair": people_label(people[:PAIR_SIZE]),
                "substitutes": people_label(people[PAIR_SIZE:]),
            }
        clubs = joined(dict.fromkeys(p.club for p in people if p.club))
        labels[entrant.code] = {
            "name": entrant.name or names,
            "players": names,
            "club": clubs,
            "sort_key": " ".join(p.sort_key for p in people),
            # Each partner's pinyin apart: "zj" finds 朱娟 as well as "xt" 解涛 in 朱娟、解涛.
            "pinyin": [p.sort_key for p in people],
            "withdrawn_after": entrant.withdrawn_after_round,
        }
    return labels


def standings_rows(
    event: Event, rows: list[Row], language: str, *, explain: bool = True, after_round: int | None = None
) -> list[dict[str, Any]]:
    """Standings rows joined with names and the explanation sentence, as dicts for tables and exports.

    `explain=False` leaves each row's explanation as data for the page's table to put in words
    (`scoring.web.public.tables.StandingsTable`) on the rows it shows: 100 sentences instead of 5,000.
    An entrant withdrawn by the end of the standings (`after_round`; None: the latest) is marked
    in its name, so every page, picture and paper made from these rows shows it."""
    with translation.override(language):
        return _standings_rows(event, rows, explain, after_round)


def withdrawn_by(label: dict[str, Any], after_round: int | None) -> bool:
    """The entrant had withdrawn by the end of round `after_round` (None: by now)."""
    withdrawn_after = label.get("withdrawn_after")
    return withdrawn_after is not None and (after_round is None or withdrawn_after <= after_round)


def _standings_rows(event: Event, rows: list[Row], explain: bool, after_round: int | None) -> list[dict[str, Any]]:
    labels = entrant_labels(event)
    words = standings_labels(game_of(event))  # 升级: 级差 for 得分差
    result = []
    for row in rows:
        label = labels.get(row.id, {"name": row.id, "club": "", "sort_key": row.id, "pinyin": []})
        withdrawn = withdrawn_by(label, after_round)
        name = gettext("%(name)s（退赛）") % {"name": label["name"]} if withdrawn else label["name"]
        result.append(
            {
                **row.as_json(event.kind),
                "total_score": row.total_score,
                "deals": row.deals,
                "name": name,
                "withdrawn": withdrawn,
                "club": label["club"],
                "sort_key": label["sort_key"],
                "pinyin": label.get("pinyin", []),
                "explanation": explanation_text(row.explanation, words) if explain else row.explanation,
            }
        )
    return result
