"""Scoring deal JSON streams: one object, a pretty-printed object, or JSON Lines.

The `score_deal` command is a thin shell around `score_stream`. JSON Lines are
read and written one line at a time so that 100,000 deals never sit in memory.
"""

import json

from scoring.rules import DealError, score_deal

BAD_JSON = "bad_json"


def _loads_object(line):
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _result(value):
    try:
        return score_deal(value)
    except DealError as error:
        return error.as_json()


def _bad_json(message):
    return DealError(BAD_JSON, f"不是有效的 JSON：{message} / not valid JSON: {message}").as_json()


def score_stream(lines, write):
    """Score what `lines` yields and `write` one JSON text per result.

    Returns the exit status of deal-json.md: for a single object 0, or 2 when it
    is invalid; for JSON Lines 0 when every line parsed as JSON, else 2.
    """
    lines = iter(lines)
    head = []
    for line in lines:
        if line.strip():
            head.append(line)
            if len(head) == 2:
                break
    if not head:
        write(json.dumps(_bad_json("输入为空 / empty input"), ensure_ascii=False))
        return 2
    first_is_object = _loads_object(head[0]) is not None
    second_is_object = len(head) > 1 and _loads_object(head[1]) is not None
    if not first_is_object and not second_is_object:
        # One (possibly pretty-printed) JSON document.
        text = "".join(head) + "".join(lines)
        try:
            value = json.loads(text)
        except ValueError as error:
            write(json.dumps(_bad_json(str(error)), ensure_ascii=False))
            return 2
        result = _result(value)
        write(json.dumps(result, ensure_ascii=False))
        return 2 if "error" in result else 0

    status = 0
    count = 0
    last_invalid = False
    dumps = json.dumps
    loads = json.loads
    for line in _chain(head, lines):
        if not line.strip():
            continue
        count += 1
        try:
            value = loads(line)
        except ValueError as error:
            status = 2
            write(dumps(_bad_json(str(error)), ensure_ascii=False))
            continue
        result = _result(value)
        last_invalid = "error" in result
        write(dumps(result, ensure_ascii=False))
    # A single line is "one JSON object": exit 2 when that deal is invalid.
    if count == 1 and last_invalid:
        return 2
    return status


def _chain(head, rest):
    yield from head
    yield from rest
