"""Scoring deal JSON streams: one object, a pretty-printed object, or JSON Lines.

The `score_deal` command is a thin shell around `score_stream`. JSON Lines are
read and written one line at a time so that 100,000 deals never sit in memory.
Lines are bytes end to end and parsed with orjson: reading and writing JSON is
most of the command's time (the engine is ~20 µs a deal), and bytes also mean a
line that is not UTF-8 is one `bad_json` line, not an exception that ends the stream.
"""

from __future__ import annotations

import sys
from itertools import chain
from typing import TYPE_CHECKING

import orjson

from scoring.games import DEFAULT_GAME, GAMES
from scoring.games.refusals import DealError, _, shown

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

BAD_JSON = "bad_json"


def _loads_object(line: bytes) -> dict[str, Any] | None:
    try:
        value = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def result_of(value: dict[str, Any]) -> dict[str, Any]:
    """One deal's result, scored by the game its top-level `"game"` names (华牌 without one).

    The common checks of shared/rules/games/README.md §0 come first: G1 a deal that is not an
    object is `bad_json`, G2 an unknown `"game"` is `unknown_game` (null counts as absent)."""
    if not isinstance(value, dict):
        return DealError(BAD_JSON, _("牌局必须是 JSON 对象")).as_json()
    game = GAMES[DEFAULT_GAME]
    game_id = value.get("game")
    if game_id is not None:
        game = GAMES.get(game_id) if isinstance(game_id, str) else None
        if game is None:
            return DealError("unknown_game", _("未知的游戏 {game!r:.40}"), game=shown(game_id)).as_json()
    value.pop("game", None)  # the value was parsed from this line: nobody else holds it
    try:
        return game.score_deal(value)
    except DealError as error:
        return error.as_json()


def _bad_json(message: str) -> dict[str, dict[str, str]]:
    return DealError(BAD_JSON, _("不是有效的 JSON：{detail}"), detail=message).as_json()


def score_stream(lines: Any, write: Callable[..., Any]) -> int:
    """Score what `lines` (bytes) yields and `write` one JSON document (bytes) per result.

    Returns the exit status of deal-json.md: for a single object 0, or 2 when it
    is invalid; for JSON Lines 0 when every line parsed as JSON, else 2. A
    line's errors (bad JSON, too deep, not UTF-8, an invalid deal) are that
    line's error object; the stream goes on.
    """
    dumps = orjson.dumps
    lines = iter(lines)
    head = []
    for line in lines:
        if line.strip():
            head.append(line)
            if len(head) == 2:
                break
    if not head:
        write(dumps(_bad_json("empty input")))
        return 2
    first_is_object = _loads_object(head[0]) is not None
    second_is_object = len(head) > 1 and _loads_object(head[1]) is not None
    if not first_is_object and not second_is_object:
        # One (possibly pretty-printed) JSON document.
        text = b"".join(head) + b"".join(lines)
        try:
            value = orjson.loads(text)
        except orjson.JSONDecodeError as error:
            write(dumps(_bad_json(str(error))))
            return 2
        result = result_of(value)
        write(dumps(result))
        return 2 if "error" in result else 0

    status = 0
    count = 0
    last_invalid = False
    loads = orjson.loads
    for line in chain(head, lines):
        if not line.strip():
            continue
        count += 1
        try:
            value = loads(line)
        except orjson.JSONDecodeError as error:
            status = 2
            write(dumps(_bad_json(str(error))))
            continue
        result = result_of(value)
        last_invalid = "error" in result
        write(dumps(result))
    # A single line is "one JSON object": exit 2 when that deal is invalid.
    if count == 1 and last_invalid:
        return 2
    return status


def run_command(file: Any, stdin: Any = None, stdout: Any = None) -> Any:
    """`score_deal FILE` (or `-` for standard input): write each result as a line and
    return the exit status. Raises `OSError` when FILE cannot be opened."""
    out = stdout or sys.stdout.buffer
    write = out.write

    def emit(data: Any) -> None:
        write(data)
        write(b"\n")

    if file == "-":
        status = score_stream(stdin or sys.stdin.buffer, emit)
    else:
        with open(file, "rb") as handle:
            status = score_stream(handle, emit)
    out.flush()
    return status


def fast_path_arguments(argv: Any) -> Any:
    """The FILE of `manage.py score_deal [FILE]` when nothing else is asked (no option),
    else None: then Django's own command runs, with its --help and options."""
    if argv[1:2] != ["score_deal"] or len(argv) > 3:
        return None
    rest = argv[2:]
    if rest and rest[0].startswith("-") and rest[0] != "-":
        return None
    return rest[0] if rest else "-"


def unreadable_message(file: Any, error: DealError) -> str:
    return f"无法读取 {file}：{error.strerror}"
