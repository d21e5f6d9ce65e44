"""An archive file checked as it is read (`format.read_archive`) says what the whole document
checked at once says (`parse_archive`): the same result, the same refusals, and a file that is
not JSON refused in json's own words with its place in the whole file."""

import io
import json
from contextlib import nullcontext
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.archive import format as archive_format
from scoring.archive import stream
from scoring.archive.format import ArchiveError, parse_archive, read_archive, read_event_slug
from tests.archive.test_archive_hostile_input import ARCHIVES, json_values, paths, replaced
from tests.archives import (
    doudizhu_archive,
    four_pairs_two_rounds,
    paohuzi_archive,
    shengji_archive,
    team_match,
)
from tests.conftest import scaled_examples

GAME_ARCHIVES = [doudizhu_archive(), shengji_archive(), paohuzi_archive()]


@pytest.fixture(params=[stream.CHUNK, 7], ids=["chunks", "tiny-chunks"])
def chunk(request, monkeypatch):
    """Reading in chunks of 7 bytes puts a chunk's end inside every kind of token."""
    monkeypatch.setattr(stream, "CHUNK", request.param)
    return request.param


def every_deal_packed():
    """A match's deals packed from the first, as read and as checked (`format._MatchReader`,
    `format.PackedDeals`): the path of a match too large to hold, taken by any match."""
    return mock.patch.multiple(archive_format, HELD_DEAL_CHARACTERS=0, HELD_DEALS=1)


@pytest.fixture(params=[False, True], ids=["deals-held", "deals-packed"])
def packing(request):
    with every_deal_packed() if request.param else nullcontext():
        yield request.param


def as_file(document, **dump):
    return io.BytesIO(json.dumps(document, ensure_ascii=False, **dump).encode())


def outcome(check):
    try:
        return check()
    except ArchiveError as error:
        return ("refused", error.code, str(error))


@pytest.mark.parametrize("indent", [None, 1])
@pytest.mark.parametrize("archive", ARCHIVES + GAME_ARCHIVES, ids=lambda a: a["event"]["slug"])
def test_a_file_read_as_it_is_checked_gives_what_the_whole_document_gives(archive, indent, chunk, packing):
    assert read_archive(as_file(archive, indent=indent)) == parse_archive(archive)


@pytest.mark.parametrize("order", ["rounds-first", "matches-first", "keys-after-the-rounds"])
def test_the_keys_may_come_in_any_order(order, chunk):
    archive = team_match([], []) if order == "keys-after-the-rounds" else four_pairs_two_rounds()
    if order == "rounds-first":
        reordered = {"rounds": archive["rounds"], **{k: v for k, v in archive.items() if k != "rounds"}}
    elif order == "matches-first":
        reordered = {
            **archive,
            "rounds": [{"matches": r["matches"], **{k: r[k] for k in r if k != "matches"}} for r in archive["rounds"]],
        }
    else:  # the teams named after the rounds that need them, and an extra key too
        reordered = {
            **{k: v for k, v in archive.items() if k != "teams"},
            "teams": archive["teams"],
            "note": "a\x00b",
        }
    if order == "keys-after-the-rounds":
        with pytest.raises(ArchiveError, match="NUL"):
            read_archive(as_file(reordered))
        del reordered["note"]
    assert read_archive(as_file(reordered)) == parse_archive(archive)


@settings(max_examples=scaled_examples(300), suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), json_values)
def test_a_wrong_value_anywhere_is_refused_as_the_whole_document_refuses_it(data, value):
    document = data.draw(st.sampled_from(ARCHIVES))
    path = data.draw(st.sampled_from(list(paths(document))))
    hostile = replaced(document, path, value)
    try:
        raw = json.dumps(hostile, ensure_ascii=False).encode("utf-8", "surrogatepass")
    except ValueError:  # a value JSON cannot carry (nan is written; a lone surrogate is not UTF-8)
        return
    whole = outcome(lambda: parse_archive(json.loads(raw)))
    with every_deal_packed() if data.draw(st.booleans(), label="deals packed") else nullcontext():
        assert outcome(lambda: read_archive(io.BytesIO(raw))) == whole


def whole_document_refusal(raw):
    try:
        json.loads(raw)
    except UnicodeDecodeError as error:
        return f"不是 UTF-8 文本（第 {error.start} 字节）"
    except ValueError as error:
        return f"不是有效的 JSON：{str(error)[:200]}"
    raise AssertionError("valid JSON")


def broken_files():
    text = json.dumps(four_pairs_two_rounds(), ensure_ascii=False, indent=1)
    late = text.rindex('"board"')  # in the last round, past the first chunks
    yield "cut short", text[: len(text) // 2]
    yield "a comma gone", text[:late] + text[late + 1 :]
    yield "a key unquoted", text[:late] + text[late + 1 :].replace('"', "", 1)
    yield "extra data", text + "\n{}"
    yield "an unterminated string", text[:late] + '"board'
    yield "a control character", text[:late] + '"bo\x01ard"' + text[late + 7 :]
    yield "a trailing comma", text.replace("]\n}", "],\n}", 1)
    yield "nothing but a bracket", "{"
    yield "nested deeper than Python", "[" * 50_000
    yield "not utf-8", text[:late].encode() + b"\xff" + text[late:].encode()
    yield "a split character", text[:late].encode() + "名".encode()[:2] + b'"' + text[late:].encode()


@pytest.mark.parametrize(("name", "raw"), list(broken_files()), ids=[name for name, _raw in broken_files()])
def test_a_file_that_is_not_json_is_refused_in_jsons_words_at_its_place_in_the_file(name, raw, chunk, packing):
    raw = raw if isinstance(raw, bytes) else raw.encode()
    with pytest.raises(ArchiveError) as refused:
        read_archive(io.BytesIO(raw))
    if name == "nested deeper than Python":
        assert "嵌套" in str(refused.value)
    else:
        assert str(refused.value) == whole_document_refusal(raw)


def test_the_slug_is_read_without_reading_the_rounds(chunk):
    archive = four_pairs_two_rounds()
    raw = json.dumps(archive, ensure_ascii=False).encode()
    cut = raw[: raw.index(b'"rounds"')] + b'"rounds": [{"number": ['  # broken after the event
    upload = io.BytesIO(cut)
    assert read_event_slug(upload) == "t-pairs"
    assert upload.tell() == 0
    assert read_event_slug(io.BytesIO(b"[]")) is None
    with pytest.raises(ArchiveError, match="JSON"):
        read_event_slug(io.BytesIO(b'{"format": "huapai-event/1" "event": {}}'))


@pytest.mark.parametrize(
    ("limit", "value", "named"),
    [
        ("MAX_TABLES", 1, "1 桌"),  # the second table of the first round
        ("MAX_DEALS", 1, "1 副牌"),
        ("MAX_MATCH_CHARACTERS", 200, "第1轮第 1 场比赛"),
        ("MAX_HEADER_CHARACTERS", 200, "超过 200 个字符"),  # the players
    ],
)
def test_an_archive_larger_than_any_event_is_refused_by_name(monkeypatch, limit, value, named, chunk):
    """What a hostile archive can make the check hold is bounded whatever its shape
    (docs/security.md): tables, deals, and the JSON of one match or one key read whole."""
    from scoring.archive import format as archive_format

    monkeypatch.setattr(archive_format, limit, value)
    with pytest.raises(ArchiveError) as refused:
        read_archive(as_file(four_pairs_two_rounds(), indent=1))
    assert named in str(refused.value)


def test_a_duplicated_rounds_or_matches_key_is_refused():
    text = json.dumps(four_pairs_two_rounds(), ensure_ascii=False)
    with pytest.raises(ArchiveError, match="rounds"):
        read_archive(io.BytesIO((text[:-1] + ', "rounds": []}').encode()))
    twice = text.replace('"matches": [', '"matches": [], "matches": [', 1)
    with pytest.raises(ArchiveError, match="matches"):
        read_archive(io.BytesIO(twice.encode()))


@pytest.mark.django_db
def test_the_import_command_reads_standard_input_with_the_rounds_first(monkeypatch):
    """Standard input cannot be read twice: it is copied to a temporary file first."""
    from django.core.management import call_command

    from scoring.models import Event, Round

    archive = four_pairs_two_rounds()
    reordered = {"rounds": archive["rounds"], **{k: v for k, v in archive.items() if k != "rounds"}}
    raw = json.dumps(reordered, ensure_ascii=False).encode()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))
    out = io.StringIO()
    call_command("import_event", "-", stdout=out)
    assert "imported t-pairs: 2 rounds" in out.getvalue()
    assert Round.objects.filter(event=Event.objects.get(slug="t-pairs")).count() == 2


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-16-be", "utf-32-le"])
def test_every_encoding_json_reads_is_read(encoding, chunk):
    """`json.loads` of bytes takes UTF-8 with a byte-order mark, UTF-16 and UTF-32; so does the stream."""
    archive = four_pairs_two_rounds()
    raw = json.dumps(archive, ensure_ascii=False, indent=1).encode(encoding)
    assert read_archive(io.BytesIO(raw)) == parse_archive(json.loads(raw))


@pytest.mark.parametrize("size", range(1, 16))
def test_a_byte_that_is_not_utf8_is_placed_in_the_file_wherever_the_chunks_end(size, monkeypatch):
    """A character cut in two by a chunk's end and then broken: the decoder still held its first
    bytes, and the place counts from them."""
    monkeypatch.setattr(stream, "CHUNK", size)
    for raw in (b'{"a": "xyz' + "名".encode()[:2] + b'"}', b'{"a": "xyz' + "名".encode()[:2], b'{"a": "\xff"}'):
        with pytest.raises(ArchiveError) as refused:
            read_archive(io.BytesIO(raw))
        assert str(refused.value) == whole_document_refusal(raw)
