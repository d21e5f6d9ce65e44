"""Table links and entrant codes (table-api.md, the first part of issue 22): one per table and
entrant, random, replaceable, shown to organisers and never in archives, exports or public pages."""

import hashlib
import hmac
import io
import json
import re

import pytest
from django.core.management import call_command

from scoring.archive.database import import_archive
from scoring.archive.export import export_archive
from scoring.cache import stamps
from scoring.models import ACCESS_CODE_LENGTH, CODE_ALPHABET, Entrant, Event, Round, Table
from scoring.rounds.creation import round_pair
from scoring.rounds.table_links import table_token_replace
from scoring.table_entry import services
from tests.archives import EXAMPLES, four_pairs_two_rounds
from tests.referee_setup import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    archive = four_pairs_two_rounds()
    archive["event"]["entry"] = "players"
    return import_archive(archive)


def links_of(slug, number):
    out = io.StringIO()
    call_command("table_links", slug, "--round", str(number), "--json", stdout=out)
    return json.loads(out.getvalue())


def test_the_command_prints_each_tables_link_and_the_codes_seated_there(event):
    links = links_of("t-pairs", 1)
    tables = {t.number: t for t in Table.objects.filter(round__event=event, round__number=1)}
    assert [link["table"] for link in links] == [1, 2]
    for link in links:
        table = tables[link["table"]]
        assert link["url"] == f"/t/{table.token}/"
        assert (link["ns"], link["ew"]) == (table.ns_entrant.access_code, table.ew_entrant.access_code)
    # A token of at least 128 bits, URL-safe; a code of at least 6 unambiguous characters.
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{32,}", t.token) for t in tables.values())
    codes = list(Entrant.objects.filter(event=event).values_list("access_code", flat=True))
    assert all(len(c) == ACCESS_CODE_LENGTH >= 6 and set(c) <= set(CODE_ALPHABET) for c in codes)
    assert len(set(codes)) == len(codes)
    assert len({t.token for t in Table.objects.all()}) == Table.objects.count()


def test_secrets_never_travel_in_an_archive_an_export_or_a_public_page(client, event):
    secrets_ = [t.token for t in Table.objects.filter(round__event=event)]
    secrets_ += list(Entrant.objects.filter(event=event).values_list("access_code", flat=True))
    archive = json.dumps(export_archive(event), ensure_ascii=False)
    assert json.loads(archive)["event"]["entry"] == "players"
    pages = [archive]
    for address in (
        "/events/t-pairs/",
        "/events/t-pairs/standings/",
        "/events/t-pairs/rounds/1/",
        "/events/t-pairs/entrants/A/",
        "/events/t-pairs/standings.xlsx",
        "/events/t-pairs/results.xlsx",
    ):
        response = client.get(address)
        assert response.status_code == 200, address
        body = b"".join(response.streaming_content) if response.streaming else response.content
        pages.append(body.decode("latin-1"))
    for secret in secrets_:
        assert not any(secret in page for page in pages), secret


def test_an_organiser_sees_and_replaces_links_and_codes(client, event):
    client.force_login(make_user("boss", "organiser", event))
    table = Table.objects.get(round__event=event, round__number=1, number=1)
    page = client.get("/organiser/t-pairs/rounds/1/").content.decode()
    assert f"/t/{table.token}/" in page and table.ns_entrant.access_code in page
    old_token, old_code = table.token, table.ns_entrant.access_code
    client.post("/organiser/t-pairs/rounds/1/tables/1/token/")
    client.post(f"/organiser/t-pairs/entrants/code/{table.ns_entrant.code}/")
    table.refresh_from_db()
    table.ns_entrant.refresh_from_db()
    assert table.token != old_token and table.ns_entrant.access_code != old_code
    assert f"/t/{old_token}/" not in client.get("/organiser/t-pairs/rounds/1/").content.decode()
    # A referee sees neither.
    client.force_login(make_user("ref", "referee", event))
    assert client.get("/organiser/t-pairs/rounds/1/").status_code in (302, 403)
    assert client.post("/organiser/t-pairs/rounds/1/tables/1/token/").status_code in (302, 403)
    table.refresh_from_db()
    assert client.get("/organiser/t-pairs/entrants/").status_code in (302, 403)


def edit_event(client, **changes):
    """The organiser's event form, posted as shown with only `changes` changed."""
    form = client.get("/organiser/t-pairs/edit/").context["form"]
    data = {name: value for name, value in form.initial.items() if value is not None and name != "id"}
    data = {key: value for key, value in data.items() if not isinstance(value, (list, dict))}
    return client.post("/organiser/t-pairs/edit/", {**data, **changes}, follow=True)


def test_the_entry_mode_is_on_the_event_form_and_changes_between_rounds(client, event):
    client.force_login(make_user("boss", "organiser", event))
    assert 'name="entry"' in client.get("/organiser/t-pairs/edit/").content.decode()
    assert Event.objects.get(pk=event.pk).entry == "players"
    # Between rounds (both played rounds published): the form changes it, and back.
    assert Round.objects.filter(event=event, status=Round.Status.IN_PLAY).count() == 0
    edit_event(client, entry="referees")
    assert Event.objects.get(pk=event.pk).entry == "referees"
    round_pair(Event.objects.get(pk=event.pk), "swiss")  # round 3 paired, not started: still between rounds
    edit_event(client, entry="players")
    assert Event.objects.get(pk=event.pk).entry == "players"
    # Round 3 starts: the players' first board puts it in play, and the mode stays as it is
    # until the round is over — said on the form, nothing changed.
    table = Table.objects.select_related("ns_entrant").get(round__event=event, round__number=3, number=1)
    body = {**{k: v for k, v in EXAMPLES["T1"]["deal"].items() if k != "ruleset"}, "code": table.ns_entrant.access_code}
    put = client.put(
        f"/t/{table.token}/boards/1",
        json.dumps(body),
        content_type="application/json",
        headers={"Idempotency-Key": "e1"},
    )
    assert put.status_code == 201, put.content
    refused = edit_event(client, entry="referees")
    assert "第 3 轮正在进行：录入方式只能在两轮之间改" in refused.content.decode()
    assert Event.objects.get(pk=event.pk).entry == "players"
    # The rest of the form still saves while a round is in play.
    edit_event(client, venue="太原")
    assert Event.objects.get(pk=event.pk).venue == "太原"
    # Published: between rounds again.
    Round.objects.filter(event=event, number=3).update(status=Round.Status.PROVISIONAL)
    edit_event(client, entry="referees")
    assert Event.objects.get(pk=event.pk).entry == "referees"
    from scoring.archive.format import ArchiveError

    archive = four_pairs_two_rounds()
    archive["event"].update(slug="bad", entry="everyone")
    with pytest.raises(ArchiveError, match=r"event\.entry"):
        import_archive(archive)


def test_a_link_is_found_by_its_tokens_digest_then_compared_in_constant_time(client, event, monkeypatch):
    """docs/security.md: the database index compares digests of what a caller sends, never the
    stored token; the token found is then compared with `hmac.compare_digest`."""
    tables = list(Table.objects.filter(round__event=event))  # written by the archive's bulk insert
    assert all(t.token_digest == hashlib.sha256(t.token.encode()).hexdigest() for t in tables)
    table = tables[0]
    compared = []
    real = hmac.compare_digest
    monkeypatch.setattr(hmac, "compare_digest", lambda a, b: compared.append((a, b)) or real(a, b))
    assert client.get(f"/t/{table.token}/state").status_code == 200
    assert client.get(f"/t/{table.token}/").status_code == 200
    assert len(compared) >= 2 and set(compared) == {(table.token.encode(), table.token.encode())}
    # A token whose digest found the table (a collision, forced here) but which is not the
    # table's is refused by the comparison, on every door.
    for module in (services, stamps):
        monkeypatch.setattr(module, "table_token_digest", lambda token: table.token_digest)
    forged = ("B" if table.token[0] == "A" else "A") + table.token[1:]
    assert client.get(f"/t/{forged}/state").status_code == 404
    assert client.get(f"/t/{forged}/").status_code == 404
    call = client.post(f"/t/{forged}/call", "{}", content_type="application/json", headers={"Idempotency-Key": "k"})
    assert call.status_code == 404
    assert client.get(f"/t/{table.token}/state").status_code == 200


def test_a_replaced_link_has_a_new_digest_and_the_old_token_finds_nothing(client, event):
    table = Table.objects.get(round__event=event, round__number=1, number=1)
    old_token, old_digest = table.token, table.token_digest
    table_token_replace(table)
    table.refresh_from_db()
    assert table.token_digest == hashlib.sha256(table.token.encode()).hexdigest() != old_digest
    assert client.get(f"/t/{old_token}/state").status_code == 404
    assert client.get(f"/t/{table.token}/state").status_code == 200


def test_the_round_console_lists_every_players_code_where_players_play_alone(client):
    """Issue 43 item 8: a 跑胡子 table's codes stood under 南北/东西 columns as "—": the director had
    no code to give its three players. Each player's code is listed by the game's seat."""
    from tests.archives import paohuzi_archive

    archive = paohuzi_archive(tables={1: (), 2: ()}, status="in_play")
    archive["event"]["entry"] = "players"
    event = import_archive(archive)
    client.force_login(make_user("chief", "organiser", event))
    page = client.get(f"/organiser/{event.slug}/rounds/1/").content.decode()
    table = Table.objects.select_related("east", "south", "west").get(round__event=event, number=1)
    row = re.search(r'<tr data-table="1">.*?</tr>', page, re.S).group(0)
    for seat, player in (("E", table.east), ("S", table.south), ("W", table.west)):
        code = Entrant.objects.get(event=event, code=player.code).access_code
        assert f'<span data-side="{seat}">{seat} <code>{code}</code></span>' in row, row
    assert "南北录入码" not in page and "—" not in row
