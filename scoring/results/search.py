"""Finding rows of a standings table by number, name, club or pinyin."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any


def filter_rows(rows: list[dict[str, Any]], query: str) -> list[dict[str, Any]]:
    """Rows whose number starts with, or name or club contains, the query; pinyin for two letters or more."""
    query = query.strip().lower()
    if not query:
        return rows
    compact = query.replace(" ", "")

    def matches(row: dict[str, list[str] | str]) -> bool:
        if row["id"].lower().startswith(query) or query in row["name"].lower() or query in row["club"].lower():
            return True
        if len(compact) < 2 or not compact.isascii():
            return False
        for key in [row["sort_key"], *row.get("pinyin", [])]:
            syllables = key.split()
            initials = "".join(s[0] for s in syllables if s)
            if compact in "".join(syllables) or initials.startswith(compact):
                return True
        return False

    return [row for row in rows if matches(row)]
