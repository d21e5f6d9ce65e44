"""Which side of a table an entrant code speaks for, and the bound on guessing (table-api.md).

A code is compared with both of the table's entrants' codes in constant time, every time, so
neither the answer's timing nor its content tells which part of a guess was right.

Guessing is bounded without letting a stranger shut the table's own players out. A phone that
has used a right code at this table in this round is *known* for that side (a signed cookie,
`known_cookie`). Ten wrong codes at a table within ten minutes *guard* it: from then until the
window passes or a referee clears it, a code from a phone not known for that code's side is
not even compared (`429 table_guarded`); known phones, reads and calls for a referee go on.
31⁸ codes at ten guesses per ten minutes is no way in. The count is taken under the table's
row lock (PostgreSQL `FOR UPDATE`; SQLite's write lock, taken when the transaction begins), so
forty guesses at once are compared ten at most.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.core import signing
from django.db import transaction
from django.db.models import Count, Min
from django.utils import timezone

from scoring.entry.errors import EntryError
from scoring.entry.versioned import CONTROL_CHARACTERS
from scoring.games import game_of
from scoring.games.refusals import _
from scoring.games.stored import plays_alone
from scoring.models import Entrant, RefereeCall, Table, WrongCode
from scoring.rounds.table_links import seat_sides, side_entrants, table_token_replace  # noqa: F401 (the sides, for callers)

if TYPE_CHECKING:
    from scoring.models import Round

WRONG_CODES_ALLOWED = 10
WRONG_CODES_WINDOW = timedelta(minutes=10)
CODE_MAX_LENGTH = 32
KNOWN_COOKIE = "table_side"
KNOWN_SALT = "scoring.table_entry.known-phone"
# The cookie's own life; the server ends it sooner, when the round is published or the side's
# code replaced (`known_side`), so this only keeps old cookies from lying about forever.
KNOWN_MAX_AGE = 3 * 24 * 3600


@dataclass(frozen=True)
class TableSide:
    """The side acting through a table link: one of the game's sides ("NS" or "EW" in a game of
    partnerships; a seat, "N" … "W", where every player plays alone), and its entrant."""

    side: str
    entrant: Entrant
    device: str = ""  # the phone's own random id, when it sent one (X-Table-Device)


@dataclass
class Phone:
    """What a table link knows of the phone calling it: `known`, the side its cookie says it has
    proved at this table in this round (None: a stranger, as far as we know); `proved`, set by
    `side_for_code` when this call's code was right, so the answer can make the phone known."""

    known: str | None = None
    proved: TableSide | None = None


class TableGuarded(EntryError):
    """`429 table_guarded`: too many wrong codes at the table, and this phone is not known for
    the side of the code it sent. `until`: when the window passes."""

    def __init__(self, until: datetime) -> None:
        super().__init__(
            "table_guarded",
            _(
                "本桌录入码错误太多，已自动呼叫裁判。在本桌用过本方录入码的手机照常可用；"
                "其他手机请等待窗口结束或请裁判解除"
            ),
        )
        self.until = until


def _normalised(code: int | list[str] | str | None) -> str | None:
    """As typed on a phone: spaces and dashes ignored, any case (the alphabet is upper case).
    A code that cannot be one (not text, longer than any code, with control characters or a
    lone surrogate) is a malformed request, `400 bad_code_format`, and not a guess: it is not
    counted against the table."""
    if code is None:
        return ""
    if not isinstance(code, str) or len(code) > CODE_MAX_LENGTH or CONTROL_CHARACTERS.search(code):
        raise EntryError("bad_code_format", _("录入码必须是不超过 {limit} 个字符的文字"), limit=CODE_MAX_LENGTH)
    return "".join(code.split()).replace("-", "").upper()


def side_for_code(table: Table, code: object, phone: Phone | None = None, *, counted: bool = True) -> TableSide:
    """The `TableSide` whose entrant has this code, or `EntryError("bad_code")` (and the wrong
    code is counted against the table, unless `counted` is false: a call for a referee).

    While the table is guarded, a code is compared only with the side `phone` is known for;
    any other code is `TableGuarded`, neither compared nor counted. The guard is read, the code
    compared and a wrong one counted under the table's row lock: concurrent guesses queue."""
    phone = phone if phone is not None else Phone()
    typed = _normalised(code).encode()
    seated = side_entrants(table)
    with transaction.atomic():
        until = _guard_until(table) if counted else None
        if until is not None:
            # A known phone goes on with its own side's code; every other code waits.
            seated = [(side, entrant) for side, entrant in seated if side == phone.known]
            if not seated:
                raise TableGuarded(until)
        found = None
        for side, entrant in seated:
            # Every code compared, whatever the others gave: the time taken says nothing.
            if hmac.compare_digest(typed, entrant.access_code.encode()) and found is None:
                found = TableSide(side, entrant)
        if found is None and until is None and typed and counted:
            _count_wrong_code(table)
    if found is None and until is not None:
        # A known phone sending another code while guarded (a typo, or the other side's code)
        # waits like a stranger: told apart, it would be a way to test the other side's code.
        raise TableGuarded(until)
    if found is None:
        if plays_alone(game_of(table.round.event)):  # no sides to speak of: each player his own
            raise EntryError("bad_code", _("录入码不对：请用本桌一位选手的录入码（见参赛卡）"))
        raise EntryError("bad_code", _("录入码不对：请用本桌一方的录入码（见参赛卡）"))
    phone.proved = found
    return found


def _guard_until(table: Table) -> datetime | None:
    """The end of the table's guard, read under the table's row lock, or None."""
    until = Table.objects.select_for_update().filter(pk=table.pk).values_list("locked_until", flat=True).first()
    return until if until is not None and until > timezone.now() else None


GUARD_CALL_NOTE = "本桌录入码错误过多（自动呼叫）"


def _count_wrong_code(table: Table) -> None:
    """Record a wrong code (the caller holds the table's row lock); the tenth within the window
    guards the table until the oldest of those ten leaves it (stored on the table, so polls need
    no look-up), and calls a referee by itself unless the table has an open call already."""
    WrongCode.objects.create(table=table)
    since = timezone.now() - WRONG_CODES_WINDOW
    recent = list(
        WrongCode.objects.filter(table=table, at__gt=since)
        .order_by("-at")
        .values_list("at", flat=True)[:WRONG_CODES_ALLOWED]
    )
    if len(recent) >= WRONG_CODES_ALLOWED:
        table.locked_until = recent[-1] + WRONG_CODES_WINDOW
        Table.objects.filter(pk=table.pk).update(locked_until=table.locked_until)
        open_calls = RefereeCall.objects.filter(table=table, answered_at=None).exclude(kind=RefereeCall.Kind.DISPUTE)
        if not open_calls.exists():
            RefereeCall.objects.create(table=table, kind=RefereeCall.Kind.OTHER, note=GUARD_CALL_NOTE)


def wrong_codes_lock_until(table: Table) -> datetime | None:
    """When the table's guard ends, or None when it is not guarded."""
    if table.locked_until is None or table.locked_until <= timezone.now():
        return None
    return table.locked_until


def guarded_tables(rnd: Round) -> list[dict]:
    """The round's guarded tables for the top of the referees' queue: [{"table": number, "count":
    wrong codes since the last clearing, "since": the first one's time, "until": the guard's end}],
    longest guarded first."""
    now = timezone.now()
    tables = Table.objects.filter(round=rnd, locked_until__gt=now).values_list("id", "number", "locked_until")
    found = []
    for table_id, number, until in tables:
        seen = WrongCode.objects.filter(table_id=table_id).aggregate(first=Min("at"), count=Count("id"))
        found.append({"table": number, "count": seen["count"], "since": seen["first"], "until": until})
    return sorted(found, key=lambda row: (row["since"] or now, row["table"]))


def wrong_codes_clear(table: Table) -> int:
    """A referee clears the guard (the players mistyped; the referee has seen their card)."""
    with transaction.atomic():
        table.locked_until = None
        Table.objects.filter(pk=table.pk).update(locked_until=None)
        return WrongCode.objects.filter(table=table).delete()[0]


def guarded_link_replace(table: Table) -> Table:
    """From the referees' queue: a new link for a guarded table (its link is in a stranger's
    hands) and its guard cleared, in one transaction. Known phones were known at the old link's
    path: the players open the new link and use their codes once more."""
    with transaction.atomic():
        table_token_replace(table)
        wrong_codes_clear(table)
    return table


def _code_digest(entrant: Entrant) -> str:
    # The cookie names the code it was earned with by a digest: a replaced code ends it.
    return hashlib.sha256(entrant.access_code.encode()).hexdigest()[:16]


def known_cookie(table: Table, side: TableSide) -> str:
    """The signed value that makes a phone known for `side` at `table` in its round."""
    return signing.dumps(
        {"t": table.pk, "r": table.round_id, "s": side.side, "e": side.entrant.pk, "c": _code_digest(side.entrant)},
        salt=KNOWN_SALT,
    )


def known_side(table: Table, value: str | None) -> str | None:
    """The side a phone's cookie makes it known for at `table`, or None: no cookie, a forged or
    old one, another table's or round's, a published round, or a code replaced since."""
    if not value or table.round.is_published:
        return None
    try:
        known = signing.loads(value, salt=KNOWN_SALT, max_age=KNOWN_MAX_AGE)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    if not isinstance(known, dict) or known.get("t") != table.pk or known.get("r") != table.round_id:
        return None
    for side, entrant in side_entrants(table):
        if side == known.get("s") and entrant.pk == known.get("e") and _code_digest(entrant) == known.get("c"):
            return side
    return None
