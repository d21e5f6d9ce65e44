"""`Idempotency-Key` for the table link's writes (table-api.md): the same key with the same
body within 24 hours gets the first answer again and writes nothing; the same key with
another body is refused (`422 idempotency_mismatch`).

The answer is stored in the same transaction as the write it answers (`answered_once`), so
a phone that lost the answer and sends again — even while the first request is still
running — can never make a second deal or a second confirmation: the second insert of the
key fails, its own write is rolled back with it, and the first answer is sent.
"""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring.entry.errors import EntryError
from scoring.games.refusals import _
from scoring.models import TableRequest

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from scoring.models import Table

KEY = re.compile(r"[\x21-\x7e]{1,64}")  # 1–64 visible ASCII characters
KEPT_FOR = timedelta(hours=24)
# Answers kept per table. A table's players make a few dozen writes a round; the bound is there
# for a stranger with the link sending fresh keys (a call needs no code): the oldest answers go
# first, so the table's rows never pass this, whatever is sent.
KEPT_PER_TABLE = 500


def checked_key(value: str | None) -> str:
    if value is None:
        raise EntryError("idempotency_key_required", _("写入需要 Idempotency-Key"))
    if not KEY.fullmatch(value):
        raise EntryError("bad_idempotency_key", _("Idempotency-Key 必须是 1–64 个可见的 ASCII 字符"))
    return value


def fingerprint(method: str, path: str, body: bytes) -> str:
    return hashlib.sha256(b"\n".join((method.encode(), path.encode(), body))).hexdigest()


def _first_answer(table: Table, key: str, print_: str) -> tuple[int, dict[str, Any]] | None:
    row = TableRequest.objects.filter(table=table, key=key).first()
    if row is None:
        return None
    if row.at < timezone.now() - KEPT_FOR:
        row.delete()  # the key is free again after 24 hours
        return None
    if row.fingerprint != print_:
        raise EntryError("idempotency_mismatch", _("这个 Idempotency-Key 已用于另一个请求"))
    return row.status, row.body


def _forget_old(table: Table) -> None:
    """Drop the table's answers older than 24 hours, and the oldest beyond `KEPT_PER_TABLE`
    (in the transaction that stored a new one)."""
    rows = TableRequest.objects.filter(table=table)
    rows.filter(at__lt=timezone.now() - KEPT_FOR).delete()
    beyond = list(rows.order_by("-at", "-id").values_list("id", flat=True)[KEPT_PER_TABLE : KEPT_PER_TABLE + 1000])
    if beyond:
        TableRequest.objects.filter(id__in=beyond).delete()


def answered_once(table: Table, key: str, print_: str, act: Callable[..., Any]) -> tuple[int, dict[str, Any]] | None:
    """`(status, body)`: the stored first answer to `key`, or `act()`'s answer, stored with
    whatever `act` wrote (one transaction). `act` returns `(status, body, keep)`; an answer
    not kept (a temporary refusal such as 429) is not stored, so a resend is tried again."""
    first = _first_answer(table, key, print_)
    if first is not None:
        return first
    try:
        with transaction.atomic():
            status, body, keep = act()
            if keep:
                TableRequest.objects.create(table=table, key=key, fingerprint=print_, status=status, body=body)
                _forget_old(table)
            return status, body
    except IntegrityError:
        # The same key arrived twice at once and the other request stored its answer first;
        # this one's write (if any) was rolled back with the failed insert.
        first = _first_answer(table, key, print_)
        if first is None:
            raise
        return first
