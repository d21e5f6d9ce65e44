"""A round's checked matches wait packed as lines of JSON (`format.PackedMatches`) and are read
back as they were checked, whatever the archive's extra keys hold."""

import io
import json

from scoring.archive.format import ArchiveError, read_archive
from tests.archives import deal, one_match


def as_file(archive_text):
    return io.BytesIO(archive_text.encode())


def test_extra_keys_come_back_as_they_were_read():
    extra = {"big": 10**30, "inf": float("inf"), "tenth": 0.1, "text": '华牌\n\t"', "nested": [{"a": [None, True]}]}
    archive = one_match([deal("T1", 1, note=extra)])
    archive["rounds"][0]["matches"][0]["extra_key"] = extra
    parsed = read_archive(as_file(json.dumps(archive, ensure_ascii=False)))
    match = parsed.rounds[0].matches[0]
    assert match.extra == {"extra_key": extra}
    assert match.tables[0].deals[0].extra == {"note": extra}


def _deepest_checked():
    """The text of an archive whose match carries a list nested as deeply as the check reads."""
    for depth in range(1000, 900, -1):
        archive = json.dumps(one_match([deal("T1", 1)]))
        text = archive.replace('"table": 1,', '"table": 1, "deep": %s,' % ("[" * depth + "]" * depth))
        try:
            return read_archive(as_file(text))
        except ArchiveError:
            continue
    raise AssertionError("no depth checked")


def _further_down(frames, action):
    return action() if frames == 0 else _further_down(frames - 1, action)


def test_a_value_nested_as_deeply_as_the_check_reads_is_read_back_from_deeper_in_the_stack():
    parsed = _deepest_checked()
    # The write reads the packed matches from further down the stack than the check read them.
    matches = _further_down(100, lambda: list(parsed.rounds[0].matches))
    assert len(matches[0].tables[0].deals) == 1
