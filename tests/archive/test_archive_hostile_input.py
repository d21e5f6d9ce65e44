"""Any malformed archive is refused with a message naming the fault, never an exception of another kind."""

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.archive.database import import_archive, read_archive_json
from scoring.archive.format import ArchiveError, parse_header, parse_round
from scoring.models import Deal, Event
from tests.archives import deal, four_pairs_two_rounds, individual_archive, pairs_archive, team_match
from tests.conftest import scaled_examples
from tests.games.test_engine_hostile_input import hostile_values as json_values


def games_archive():
    return pairs_archive(
        ["A", "B"],
        [{"number": 1, "matches": [{"table": 1, "ns": "A", "ew": "B", "deals": [deal("T1", 1), deal("T2", 2)]}]}],
        mode="games",
        length=1,
    )


ARCHIVES = [
    four_pairs_two_rounds(),
    team_match([deal("T1", 1)], [deal("T2", 1)]),
    individual_archive(),
    games_archive(),
]


def paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from paths(child, (*prefix, index))


def replaced(document, path, value):
    if not path:
        return value
    copied = copy.deepcopy(document)
    target = copied
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return copied


def check(document):
    parsed, context = parse_header(document)
    for raw_round in document.get("rounds") or []:
        parse_round(raw_round, context)
    return parsed


@settings(max_examples=scaled_examples(600), suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), json_values)
def test_a_wrong_value_anywhere_in_an_archive_is_an_archive_error(data, value):
    document = data.draw(st.sampled_from(ARCHIVES))
    path = data.draw(st.sampled_from(list(paths(document))))
    hostile = replaced(document, path, value)
    try:
        check(hostile)
    except ArchiveError as error:
        assert str(error)
        json.dumps(str(error))


@pytest.mark.parametrize("archive", ARCHIVES, ids=["pairs", "teams", "individual", "games"])
def test_the_archives_the_fuzzing_starts_from_are_valid(archive):
    check(archive)


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda a: a["event"].update(slug="太原公开赛"), "event.slug"),
        (lambda a: a["event"].update(slug="Upper"), "event.slug"),
        (lambda a: a["pairs"][0].update(id="A/1"), "A/1"),
        (lambda a: a["pairs"][0].update(id="x" * 21), "xxxx"),
        (lambda a: a["players"][0].update(id="p 1"), "p 1"),
    ],
)
def test_slugs_and_ids_outside_the_allowed_characters_are_refused(change, named):
    archive = four_pairs_two_rounds()
    change(archive)
    with pytest.raises(ArchiveError) as caught:
        check(archive)
    assert named in str(caught.value)


@pytest.mark.django_db
@settings(
    max_examples=scaled_examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.data(), json_values | st.just("名\x00字"))
def test_importing_a_hostile_archive_writes_it_whole_or_refuses_it_whole(data, value):
    """Through the database too (both databases in make test): NUL, long text and huge numbers included."""
    from scoring.archive.database import _delete_event, import_archive
    from scoring.models import Event

    document = data.draw(st.sampled_from(ARCHIVES))
    path = data.draw(st.sampled_from(list(paths(document))))
    before = Event.objects.count()
    try:
        event = import_archive(replaced(document, path, value))
    except ArchiveError:
        assert Event.objects.count() == before
    else:
        _delete_event(event)


@pytest.mark.django_db
def test_nul_anywhere_is_refused_by_name():
    from scoring.archive.database import import_archive

    archive = four_pairs_two_rounds()
    archive["rounds"][0]["matches"][0]["deals"][0]["note"] = "a\x00b"
    with pytest.raises(ArchiveError) as caught:
        import_archive(archive)
    assert "NUL" in str(caught.value) and "note" in str(caught.value)


@pytest.mark.django_db
def test_text_that_only_spells_nul_out_or_pairs_its_surrogates_is_stored():
    """The check passes most matches at C speed and walks the rest: a note that writes
    the six characters \\u0000, or a character beyond the BMP, is walked and kept."""
    archive = four_pairs_two_rounds()
    archive["event"]["name"] = "太原 😀"
    archive["rounds"][0]["matches"][0]["deals"][0]["note"] = "a\\u0000b"
    event = import_archive(read_archive_json(json.dumps(archive).encode()))
    assert event.name == "太原 😀"
    assert Deal.objects.filter(table__round__event=event, extra__note="a\\u0000b").count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("where", ["name", "player", "note"])
def test_a_lone_surrogate_anywhere_in_an_archive_is_refused_by_name(where):
    """JSON's "\\ud800" decodes to a lone surrogate, which no database can encode: the upload
    said nothing and the server answered 500."""
    archive = four_pairs_two_rounds()
    if where == "name":
        archive["event"]["name"] = "太原\ud800"
    elif where == "player":
        archive["players"][0]["name"] = "\udfff"
    else:
        archive["rounds"][0]["matches"][0]["deals"][0]["note"] = "a\ud800b"
    raw = json.dumps(archive).encode()  # "\\ud800" as the file carries it
    with pytest.raises(ArchiveError) as caught:
        import_archive(read_archive_json(raw))
    assert "Unicode" in caught.value.message
    assert not Event.objects.exists()
