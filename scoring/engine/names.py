"""Sorting Chinese names by pinyin (pypinyin), with the surnames it misreads; names in Latin letters."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

# As surnames these characters take a special reading; pypinyin reads the
# common word. An organiser can still correct any key by hand.
SURNAME_READINGS = {
    "单": "shan",
    "曾": "zeng",
    "解": "xie",
    "区": "ou",
    "仇": "qiu",
    "朴": "piao",
    "查": "zha",
    "盖": "ge",
    "尉迟": "yu chi",
    "万俟": "mo qi",
    "繁": "po",
    "种": "chong",
    "员": "yun",
    "华": "hua",
    "乐": "yue",
    "秘": "bi",
    "长孙": "zhang sun",
    "覃": "qin",
    "缪": "miao",
    "黑": "he",
    "翟": "zhai",
    "召": "shao",
    "折": "she",
    "纪": "ji",
    "燕": "yan",
    "宓": "fu",
    "句": "gou",
}


@cache
def _pinyin() -> Callable[..., Any]:
    """pypinyin, imported on first use: loading its dictionaries takes ~175 ms and ~50 MB,
    which every `manage.py` command (score_deal's 100,000 deals included) would pay
    at start-up although only saving a name needs them."""
    from pypinyin import Style, lazy_pinyin

    return lambda text: lazy_pinyin(text, style=Style.NORMAL)


def pinyin_sort_key(name: str) -> str:
    """`单伟` → `shan wei`: lower-case pinyin without tones, surname reading fixed."""
    lazy_pinyin = _pinyin()
    name = (name or "").strip()
    for surname in sorted(SURNAME_READINGS, key=len, reverse=True):
        if name.startswith(surname):
            rest = lazy_pinyin(name[len(surname) :])
            return " ".join([SURNAME_READINGS[surname], *rest]).lower()
    return " ".join(lazy_pinyin(name)).lower()


def romanised(sort_key: str) -> str:
    """`zhu juan` → `Zhu Juan`, `zhang san feng` → `Zhang Sanfeng`: the surname, then the given name."""
    if not sort_key.split():
        return ""
    surname, *given = sort_key.split()
    return " ".join(part for part in (surname.title(), "".join(given).title()) if part)
