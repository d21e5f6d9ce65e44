"""The table link's trust model (table-api.md, revised; issue 37): malformed strings are a clear
400 on every write, guessing is bounded without letting a stranger shut the table's own players
out, and the bound is counted race-free (real threads, on SQLite and PostgreSQL)."""

import json
import threading
import uuid
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.archive.database import import_archive
from scoring.entry.services import deal_confirm, deal_save
from scoring.models import Deal, Entrant, RefereeCall, Round, Table, TableRequest, WrongCode
from scoring.rounds.table_links import entrant_code_replace
from scoring.table_entry.codes import KNOWN_COOKIE, WRONG_CODES_ALLOWED
from tests.archives import pairs_archive
from tests.conftest import REPO
from tests.referee_setup import make_user
from tests.table_entry.test_table_api import Table_, code_of, error_code, example, two_board_round

pytestmark = pytest.mark.django_db

WRONG = "NOPE2345"


@pytest.fixture
def event():
    return two_board_round()


@pytest.fixture
def table(event):
    return Table.objects.select_related("ns_entrant", "ew_entrant").get(round__event=event, number=1)


def phone_of(table):
    # A phone of its own: its own cookies, no session, Django's CSRF check on.
    return Table_(Client(enforce_csrf_checks=True), table)


def guard(table, keys="w"):
    """Ten wrong codes from a stranger's phone: the table is guarded."""
    stranger = phone_of(table)
    for attempt in range(WRONG_CODES_ALLOWED):
        assert error_code(stranger.put(1, {"code": WRONG}, key=f"{keys}{attempt}")) == "bad_code"
    return stranger


# 1. Malformed strings ---------------------------------------------------------------------------

# The six table-link writes, each as (method, path): the body is completed by the test.
WRITES = [
    ("put", "boards/1"),
    ("post", "boards/1/verify"),
    ("post", "boards/1/dispute"),
    ("post", "signoff"),
    ("post", "call"),
    ("post", "appeal"),
]


def raw_post(client, method, url, raw, headers):
    return getattr(client, method)(url, data=raw, content_type="application/json", headers=headers)


@pytest.mark.parametrize(("method", "path"), WRITES)
def test_a_lone_surrogate_in_a_code_is_a_clear_400_on_every_write(table, method, path):
    client = Client(enforce_csrf_checks=True)
    raw = '{"code": "\\ud800", "reason": "x", "statement": "x"}'
    response = raw_post(client, method, f"/t/{table.token}/{path}", raw, {"Idempotency-Key": "s1", "If-Match": "1"})
    assert response.status_code == 400, response.content
    assert error_code(response) == "bad_string"
    assert not WrongCode.objects.exists()


@pytest.mark.parametrize("code", ["A" * 33, "AB\x00CDEFG", "AB\x1bCDEFG", 12345678, ["X"]])
def test_a_code_that_cannot_be_one_is_a_400_and_not_counted_as_a_guess(table, code):
    response = phone_of(table).put(1, {**example("T1"), "code": code}, key="k")
    assert (response.status_code, error_code(response)) == (400, "bad_code_format")
    assert not WrongCode.objects.exists()


# Malformed text: a lone surrogate anywhere, control characters, over-long codes.
MALFORMED = st.one_of(
    st.builds(
        lambda head, bad, tail: head + bad + tail,
        st.text(max_size=5),
        st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),
        st.text(max_size=5),
    ),
)
CODE_MALFORMED = st.one_of(
    MALFORMED,
    st.builds(lambda c, n: "AB" + c * n, st.characters(min_codepoint=0, max_codepoint=8), st.integers(1, 4)),
    st.text(alphabet="ABCDEFGH", min_size=33, max_size=80),
)


def _dumps(value):
    # json.dumps writes a lone surrogate as its \ud800 escape, as a hostile client would.
    return json.dumps(value, ensure_ascii=True)


@settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    write=st.sampled_from(WRITES),
    where=st.sampled_from(["code", "reason", "statement", "note", "kind", "side", "key"]),
    bad=MALFORMED,
)
def test_generated_malformed_strings_are_400_on_every_table_link_write(table, write, where, bad):
    method, path = write
    body = {"code": code_of(table.round.event, "A"), "reason": "r", "statement": "s"}
    if where == "key":
        body[bad] = 1  # a malformed key of the object, not only a value
    else:
        body[where] = bad
    client = Client(enforce_csrf_checks=True)
    response = raw_post(
        client, method, f"/t/{table.token}/{path}", _dumps(body), {"Idempotency-Key": uuid.uuid4().hex, "If-Match": "1"}
    )
    assert response.status_code == 400, (write, where, response.content)
    assert Deal.objects.count() == 0 and not RefereeCall.objects.exists()


@settings(max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(write=st.sampled_from(WRITES), bad=CODE_MALFORMED)
def test_generated_malformed_codes_are_400_on_every_write_but_the_call(table, write, bad):
    method, path = write
    client = Client(enforce_csrf_checks=True)
    body = {**example("T1"), "code": bad, "reason": "r", "statement": "s"}
    response = raw_post(
        client, method, f"/t/{table.token}/{path}", _dumps(body), {"Idempotency-Key": uuid.uuid4().hex, "If-Match": "1"}
    )
    if path == "call":  # a call is never refused for its code (table-api.md)
        assert response.status_code in (200, 400), response.content
    else:
        assert response.status_code == 400, (write, response.content)
    assert not WrongCode.objects.exists()


@settings(max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.sampled_from(["reason", "N", "captured", "key"]), bad=MALFORMED, confirm=st.booleans())
def test_generated_malformed_strings_are_400_on_the_referee_apis_writes(referee_client, event, where, bad, confirm):
    client = referee_client
    url = f"/api/events/{event.slug}/rounds/1/tables/1/boards/1"
    body = example("T1")
    if where == "key":
        body[bad] = 1
    elif where == "N":
        body["holders"] = {"N": [bad]}
    else:
        body[where] = bad
    if confirm:
        response = client.post(url + "/confirm", data=_dumps(body), content_type="application/json")
        assert response.status_code < 500
    response = client.put(url, data=_dumps(body), content_type="application/json")
    assert response.status_code == 400, response.content
    assert not Deal.objects.exists()


@pytest.fixture
def referee_client(client, event):
    client.force_login(make_user("ref-s", "referee", event))
    return client


# 2. Known phones and the guard ------------------------------------------------------------------


def test_a_right_code_makes_the_phone_known_with_a_strict_cookie_for_this_link_only(event, table):
    phone = phone_of(table)
    response = phone.put(1, {**example("T1"), "code": code_of(event, "A")}, key="k1")
    assert response.status_code == 201
    cookie = response.cookies[KNOWN_COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "Strict"
    assert cookie["path"] == f"/t/{table.token}/"
    # A wrong code sets nothing; a call never does (its answer must not tell a right code).
    stranger = phone_of(table)
    assert KNOWN_COOKIE not in stranger.put(1, {"code": WRONG}, key="w").cookies
    call = stranger.send("post", "call", {"code": code_of(event, "B")}, key="c")
    assert call.status_code == 200 and KNOWN_COOKIE not in call.cookies


def test_a_known_phone_goes_on_while_strangers_wrong_codes_guard_the_table(event, table):
    ns = phone_of(table)
    assert ns.put(1, {**example("T1"), "code": code_of(event, "A")}, key="k1").status_code == 201
    guard(table)
    # A stranger's right code is not even compared: 429, with when to try again.
    unknown = phone_of(table)
    refused = unknown.verify(1, code_of(event, "B"), key="v", version=1)
    assert (refused.status_code, error_code(refused)) == (429, "table_guarded")
    assert 0 < int(refused["Retry-After"]) <= 600
    assert refused.json()["error"]["until"]
    # Not kept for the key: after the guard, the same request is tried again.
    assert not TableRequest.objects.filter(key="v").exists()
    # The known phone goes on with its own side's code; every read goes on.
    again = ns.put(1, {**example("T7"), "code": code_of(event, "A")}, key="k2", version=1)
    assert again.status_code == 200, again.content
    assert ns.state().status_code == 200 and unknown.state().status_code == 200
    assert unknown.client.get(f"/t/{table.token}/boards/1").status_code == 200
    assert unknown.client.get(f"/t/{table.token}/").status_code == 200
    # The known phone acting for the other side while guarded waits like a stranger.
    other = ns.verify(1, code_of(event, "B"), key="k3", version=2)
    assert (other.status_code, error_code(other)) == (429, "table_guarded")


def test_a_guarded_table_calls_a_referee_by_itself_and_its_page_says_why(event, table):
    guard(table)
    call = RefereeCall.objects.get(table=table, answered_at=None)
    assert "录入码错误过多" in call.note
    state = phone_of(table).state().json()
    assert state["referee_called"] is True
    assert "录入码错误太多" in state["guarded"]["message"]


def test_wrong_codes_sent_with_a_call_are_never_refused_nor_counted(event, table):
    stranger = phone_of(table)
    for attempt in range(3 * WRONG_CODES_ALLOWED):
        response = stranger.send("post", "call", {"kind": "other", "code": f"WRONG{attempt:03d}"}, key=f"c{attempt}")
        assert response.status_code == 200
    assert not WrongCode.objects.exists()
    assert RefereeCall.objects.filter(table=table, answered_at=None).count() == 1  # one open call per table
    # Guarded by other writes, a call still goes through.
    RefereeCall.objects.update(answered_at=timezone.now())
    guard(table)
    RefereeCall.objects.update(answered_at=timezone.now())
    assert stranger.send("post", "call", {"code": WRONG}, key="after").status_code == 200


def test_a_referees_clearing_lets_strangers_in_and_known_phones_never_waited(event, table, client):
    guard(table)
    referee = make_user("ref", "referee", event)
    client.force_login(referee)
    page = client.get("/referee/t-pairs/rounds/1/").content.decode()
    assert 'id="referee-guarded"' in page
    assert page.index('id="referee-guarded"') < page.index('id="referee-queue"')  # at the top
    assert "10 次错误录入码" in page
    client.post("/referee/t-pairs/rounds/1/tables/", {"table": 1, "action": "unlock"})
    assert phone_of(table).put(1, {**example("T1"), "code": code_of(event, "A")}, key="r").status_code == 201


def test_replacing_a_guarded_tables_link_is_one_action_from_the_queue(event, table, client):
    old = table.token
    guard(table)
    client.force_login(make_user("ref", "referee", event))
    response = client.post("/referee/t-pairs/rounds/1/tables/", {"table": 1, "action": "replace_link"})
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.token != old and table.locked_until is None
    assert Client().get(f"/t/{old}/state").status_code == 404


def test_a_known_phone_is_forgotten_when_its_code_is_replaced_or_the_round_published(event, table):
    ns = phone_of(table)
    ns.put(1, {**example("T1"), "code": code_of(event, "A")}, key="k1")
    guard(table)
    entrant = table.ns_entrant
    entrant_code_replace(entrant)
    refused = ns.put(1, {**example("T7"), "code": entrant.access_code}, key="k2", version=1)
    assert error_code(refused) == "table_guarded"


def test_a_phone_is_one_sides_and_a_right_code_of_the_other_switches_it(event, table):
    phone = phone_of(table)
    phone.put(1, {**example("T1"), "code": code_of(event, "A")}, key="k1")
    assert phone.verify(1, code_of(event, "B"), key="k2", version=1).status_code == 200
    guard(table)
    # Known for EW now, not NS: NS's code waits, EW's goes on.
    assert error_code(phone.put(2, {**example("T1"), "code": code_of(event, "A")}, key="k3")) == "table_guarded"
    assert phone.put(2, {**example("T1"), "code": code_of(event, "B")}, key="k4").status_code == 201


def test_a_cookie_of_another_table_or_a_forged_one_makes_nobody_known(event, table):
    guard(table)
    stranger = phone_of(table)
    stranger.client.cookies[KNOWN_COOKIE] = "forged:value"
    assert error_code(stranger.put(1, {**example("T1"), "code": code_of(event, "A")}, key="k")) == "table_guarded"


def test_once_published_the_cookie_no_longer_makes_the_phone_known(event, table):
    ns = phone_of(table)
    ns.put(1, {**example("T1"), "code": code_of(event, "A")}, key="k1")
    guard(table)
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.PROVISIONAL)
    table = Table.objects.select_related("round__event").get(pk=table.pk)
    from scoring.table_entry.codes import known_side

    assert known_side(table, ns.client.cookies[KNOWN_COOKIE].value) is None


def test_the_guard_ends_when_the_window_passes(event, table):
    guard(table)
    Table.objects.filter(pk=table.pk).update(locked_until=timezone.now() - timedelta(seconds=1))
    assert phone_of(table).put(1, {**example("T1"), "code": code_of(event, "A")}, key="k").status_code == 201


@pytest.mark.django_db(transaction=True)
def test_forty_simultaneous_guesses_are_compared_no_more_than_the_limit():
    event = two_board_round()
    table = Table.objects.get(round__event=event)
    guesses = 40
    barrier = threading.Barrier(guesses, timeout=60)
    answers = [None] * guesses

    def guess(index):
        try:
            client = Client(enforce_csrf_checks=True)
            barrier.wait()
            answers[index] = client.put(
                f"/t/{table.token}/boards/1",
                data=json.dumps({"code": f"WRONG{index:03d}"}),
                content_type="application/json",
                headers={"Idempotency-Key": f"g{index}"},
            ).status_code
        finally:
            connection.close()

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(guesses)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert WrongCode.objects.filter(table=table).count() == WRONG_CODES_ALLOWED, (connection.vendor, answers)
    assert sorted(answers) == [403] * WRONG_CODES_ALLOWED + [429] * (guesses - WRONG_CODES_ALLOWED)


# 3. Stored answers expire and are bounded per table ---------------------------------------------


def test_an_expired_key_is_treated_as_new_and_expired_answers_are_dropped(event, table):
    phone = phone_of(table)
    assert phone.send("post", "call", {"kind": "other"}, key="old").status_code == 200
    assert phone.send("post", "call", {"kind": "other"}, key="older").status_code == 200
    TableRequest.objects.update(at=timezone.now() - timedelta(hours=25))
    RefereeCall.objects.update(answered_at=timezone.now())
    # Another body under the old key: not a mismatch any more, a new request.
    again = phone.send("post", "call", {"kind": "claim"}, key="old")
    assert again.status_code == 200 and again.json()["call"]["kind"] == "claim"
    # Storing it dropped every expired answer of the table, not only its own key's.
    assert list(TableRequest.objects.values_list("key", flat=True)) == ["old"]


def test_fresh_keys_without_a_code_never_store_more_than_the_bound(event, table, monkeypatch):
    from scoring.table_entry import idempotency

    monkeypatch.setattr(idempotency, "KEPT_PER_TABLE", 5)
    stranger = phone_of(table)
    for attempt in range(12):
        assert stranger.send("post", "call", {}, key=f"fresh-{attempt}").status_code == 200
    kept = set(TableRequest.objects.filter(table=table).values_list("key", flat=True))
    assert kept == {f"fresh-{attempt}" for attempt in range(7, 12)}  # the newest five


# 5. A settled board, and a sign-off racing a dispute --------------------------------------------


def test_a_board_a_referee_has_settled_cannot_be_disputed_again_by_players(event, table):
    phone = phone_of(table)
    phone.put(1, {**example("T1"), "code": code_of(event, "A")}, key="k1")
    assert phone.dispute(1, code_of(event, "B"), "♠Q 是东家吃的", key="k2").status_code == 200
    deal = Deal.objects.select_related("table__round__event").get(board=1)
    deal_confirm(deal=deal, user=make_user("ref", "referee", event), expected_version=deal.version, reason="原录入正确")
    again = phone.dispute(1, code_of(event, "B"), "还是不对", key="k3")
    assert (again.status_code, error_code(again)) == (409, "settled")
    assert Deal.objects.get(board=1).status == Deal.Status.CONFIRMED


def _race_round(run):
    rounds = [
        {"number": 1, "status": "in_play", "matches": [{"table": 1, "ns": f"A{run}", "ew": f"B{run}", "deals": []}]}
    ]
    archive = pairs_archive([f"A{run}", f"B{run}"], rounds, length=2, slug=f"race-{run}")
    archive["event"]["entry"] = "players"
    return import_archive(archive)


def _send_together(barrier, url, body):
    try:
        client = Client(enforce_csrf_checks=True)
        barrier.wait()
        key = url.rsplit("/", 1)[-1]  # one key per call
        client.post(url, json.dumps(body), content_type="application/json", headers={"Idempotency-Key": key})
    finally:
        connection.close()


@pytest.mark.django_db(transaction=True)
def test_a_dispute_withdraws_every_signature_even_one_given_at_the_same_moment():
    for run in range(10):
        event = _race_round(run)
        table = Table.objects.select_related("round__event").get(round__event=event)
        a = Entrant.objects.get(event=event, code=f"A{run}").access_code
        b = Entrant.objects.get(event=event, code=f"B{run}").access_code
        for board in (1, 2):
            deal, _created = deal_save(
                table=table, board=board, deal_json=example("T1"), user=make_user(f"e{run}{board}", "referee", event)
            )
            deal_confirm(deal=deal, user=make_user(f"c{run}{board}", "referee", event), expected_version=deal.version)
        barrier = threading.Barrier(2, timeout=60)
        url = f"/t/{table.token}/"
        threads = [
            threading.Thread(target=_send_together, args=(barrier, url + "signoff", {"code": a})),
            threading.Thread(
                target=_send_together, args=(barrier, url + "boards/2/dispute", {"code": b, "reason": "不对"})
            ),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        table.refresh_from_db()
        assert Deal.objects.get(table=table, board=2).status == Deal.Status.DISPUTED
        assert table.ns_signed_off_at is None and table.ew_signed_off_at is None, run


# 6. Appeals bounded ------------------------------------------------------------------------------


def test_appeals_through_the_link_are_bounded_per_board_and_side_and_per_round(event, table):
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.PROVISIONAL, published_at=timezone.now())
    phone = phone_of(table)

    def appeal(code, board, key):
        return phone.send("post", "appeal", {"code": code, "statement": "罚分不对", "board": board}, key=key)

    a, b = code_of(event, "A"), code_of(event, "B")
    assert appeal(a, 1, "a1").status_code == 201
    again = appeal(a, 1, "a2")
    assert (again.status_code, error_code(again)) == (409, "appeal_open")
    assert appeal(a, 2, "a3").status_code == 201
    assert appeal(a, None, "a4").status_code == 201
    over = appeal(a, 3, "a5")
    assert (over.status_code, error_code(over)) == (409, "too_many_appeals")
    assert appeal(b, 1, "b1").status_code == 201  # the other side has its own


# 4. A shared phone: codes never filled in, one side per phone, same-phone verification ---------


def test_the_table_page_never_keeps_or_fills_in_a_code():
    script = (REPO / "static" / "js" / "table.js").read_text()
    assert "kept.code =" not in script and "kept.code ||" not in script
    assert "delete kept.code" in script  # what an earlier page kept is forgotten


def _entered_by_ns(event, table, phone, device="phone-1"):
    body = {**example("T1"), "code": code_of(event, "A")}
    response = phone.client.put(
        phone.base + "boards/1",
        data=json.dumps(body),
        content_type="application/json",
        headers={"Idempotency-Key": "e1", "X-Table-Device": device},
    )
    assert response.status_code == 201
    return response.json()["version"]


def _verify(phone, code, version, device="phone-1", key="v1"):
    return phone.client.post(
        phone.base + "boards/1/verify",
        data=json.dumps({"code": code}),
        content_type="application/json",
        headers={"Idempotency-Key": key, "If-Match": f'"{version}"', "X-Table-Device": device},
    )


def test_by_default_a_board_entered_and_verified_on_one_phone_is_flagged_not_refused(event, table):
    phone = phone_of(table)
    version = _entered_by_ns(event, table, phone)
    assert _verify(phone, code_of(event, "B"), version).status_code == 200


@pytest.mark.parametrize("same", ["cookie", "device"])
def test_an_event_that_asks_refuses_a_verification_from_the_entering_phone(event, table, same):
    event.extra = {**event.extra, "refuse_same_phone": True}
    event.save(update_fields=["extra"])
    phone = phone_of(table)
    version = _entered_by_ns(event, table, phone)
    verifier = phone if same == "cookie" else phone_of(table)  # a fresh phone sending the same id
    refused = _verify(verifier, code_of(event, "B"), version)
    assert (refused.status_code, error_code(refused)) == (403, "same_phone")
    other = phone_of(table)
    assert _verify(other, code_of(event, "B"), version, device="phone-2", key="v2").status_code == 200


def test_the_setting_is_on_the_event_form_and_off_by_default(client, event):
    from scoring.web.organiser.event_form import EventForm

    form = EventForm(instance=event)
    assert "refuse_same_phone" in form.fields and form.initial["refuse_same_phone"] is False


def test_a_flood_of_appeals_is_one_line_for_the_organiser_dismissed_in_one_action(event, table, client):
    from scoring.models import Appeal

    Round.objects.filter(pk=table.round_id).update(status=Round.Status.PROVISIONAL, published_at=timezone.now())
    phone = phone_of(table)
    a = code_of(event, "A")
    for board in (1, 2, None):
        body = {"code": a, "statement": "罚分不对", "board": board}
        assert phone.send("post", "appeal", body, key=f"f{board}").status_code == 201
    referee = make_user("ref-f", "referee", event)
    client.force_login(referee)
    page = client.get("/referee/t-pairs/rounds/1/appeals/").content.decode()
    assert page.count('class="notice appeal-flood"') == 1 and "已达上限" in page
    assert 'action="/referee/t-pairs/rounds/1/appeals/flood/"' not in page  # a referee sees it, cannot decide
    client.post("/referee/t-pairs/rounds/1/appeals/flood/", {"entrant": "A"})
    assert Appeal.objects.filter(decided_at=None).count() == 3
    client.force_login(make_user("org-f", "organiser", event))
    page = client.get("/referee/t-pairs/rounds/1/appeals/").content.decode()
    assert 'action="/referee/t-pairs/rounds/1/appeals/flood/"' in page
    assert client.post("/referee/t-pairs/rounds/1/appeals/flood/", {"entrant": "A"}).status_code == 302
    assert set(Appeal.objects.values_list("status", flat=True)) == {Appeal.Status.DISMISSED}
    assert 'class="notice appeal-flood"' not in client.get("/referee/t-pairs/rounds/1/appeals/").content.decode()
    assert client.post("/referee/t-pairs/rounds/1/appeals/flood/", {"entrant": "\x00" * 50}).status_code == 302


# 7. A replaced link's offline copy ---------------------------------------------------------------


def test_a_replaced_links_offline_copy_forgets_itself_at_the_first_404(client, table):
    worker = client.get(f"/t/{table.token}/sw.js").content.decode()
    # The worker watches the page and the state; a 404 drops the kept page and unregisters it.
    assert "response.status === 404" in worker and "self.registration.unregister()" in worker
    assert "cache.delete(CONFIG.page)" in worker
    script = (REPO / "static" / "js" / "table.js").read_text()
    assert "response.status === 404" in script and "localStorage.removeItem(storeKey)" in script
