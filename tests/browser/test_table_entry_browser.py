"""Players score their own table from their phones, in Chromium (table-api.md): one side
enters, the other verifies on its own phone; the network drops while two boards are entered
and nothing is lost or doubled; a dispute goes to a referee who settles it; both sides sign
off and the table closes to players."""

import re
import threading

import pytest
from playwright.sync_api import expect

from scoring.archive.database import import_archive
from scoring.models import Deal, DealHistory, Entrant, Table
from scoring.rounds.table_links import table_token_replace
from scoring.web.table import views as table_views
from tests.archives import EXAMPLES, pairs_archive
from tests.conftest import BROWSER_TIMEOUT_MS, new_page
from tests.referee_setup import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
SMALL_ANDROID = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True}
TABLET = {"viewport": {"width": 768, "height": 1024}}


@pytest.fixture
def event():
    rounds = [{"number": 1, "status": "in_play", "matches": [{"table": 1, "ns": "A", "ew": "B", "deals": []}]}]
    archive = pairs_archive(["A", "B"], rounds, length=4)
    archive["event"]["entry"] = "players"
    return import_archive(archive)


def code(pair):
    return Entrant.objects.get(code=pair).access_code


def enter(page, board, example, pair=None):
    page.click(f'#boards button[data-board="{board}"]')
    expect(page.locator("#entry")).to_be_visible()
    for seat, cards in EXAMPLES[example]["deal"]["captured"].items():
        for card in cards:
            page.locator(f'.card-row[data-field="card-{card}"] label', has_text=seat).click()
    expect(page.locator("#grid-progress")).to_have_text("每张牌都已分配")
    # A code is typed each time: never kept on the phone nor filled in, where the other side of a
    # shared phone would read it.
    expect(page.locator("#entry-code")).to_have_value("")
    if pair:
        page.fill("#entry-code", code(pair))
    page.click("#save")


def board_button(page, board):
    return page.locator(f'#boards button[data-board="{board}"]')


def verify(page, board, pair):
    board_button(page, board).click()
    expect(page.locator("#verify-form")).to_be_visible()
    page.fill("#verify-form input[name=code]", code(pair))
    page.click("#verify")
    expect(board_button(page, board)).to_have_class("board-button confirmed")


WRITES = re.compile(r"/t/[^/]+/(boards/|signoff|call)")


class HallWifi:
    """The hall's Wi-Fi, down or up, at the server's end too: Chromium's offline emulation can
    lapse for a moment (during a reload, one run in a few on a busy machine) and a board's PUT
    then reached the server. While the Wi-Fi is down the server answers a board's PUT as a broken
    network would — no result (a 5xx, which the page keeps and retries like a lost answer) — so
    the phone's keeping of the board, not the emulation's timing, is what the test sees."""

    def __init__(self, monkeypatch):
        self.down = threading.Event()
        put = table_views.table_deal_put

        def put_unless_down(*args, **kwargs):
            if self.down.is_set():
                raise ConnectionAbortedError("the hall's Wi-Fi is down")
            return put(*args, **kwargs)

        monkeypatch.setattr(table_views, "table_deal_put", put_unless_down)


CONTROLLED_BY_SERVICE_WORKER = """async (ceiling) => {
  if (!navigator.serviceWorker) return false;
  if (navigator.serviceWorker.controller) return true;
  return await new Promise((done) => {
    navigator.serviceWorker.addEventListener("controllerchange", () => done(true), { once: true });
    setTimeout(() => done(!!navigator.serviceWorker.controller), ceiling);
  });
}"""


def wait_until_controlled_by_service_worker(page):
    """The page's service worker, once active, claims the page: wait for that event (the suite's
    timeout is the ceiling), not for a clock. Through `evaluate`: `wait_for_function` polls by
    evaluating a string, which the page's policy (script-src 'self') refuses, so it failed
    whenever the worker had not yet claimed the page at its first look."""
    assert page.evaluate(CONTROLLED_BY_SERVICE_WORKER, BROWSER_TIMEOUT_MS)


def test_a_table_scores_itself_from_two_phones_through_a_dropped_network(live_server, browser, event, monkeypatch):
    wifi = HallWifi(monkeypatch)
    table = Table.objects.get()
    link = f"{live_server.url}/t/{table.token}/"
    north_south = new_page(browser, **PHONE)
    east_west = new_page(browser, **SMALL_ANDROID)
    north_south.goto(link)
    east_west.goto(link)

    # One side enters: the live score is the engine's, shown as the cards are placed.
    enter(north_south, 1, "T1", "A")
    expect(north_south.locator("#outbox-status")).to_have_text("全部已保存到服务器")
    expect(north_south.locator("#table-error")).to_be_hidden()
    expect(board_button(north_south, 1)).to_have_class("board-button draft")
    # The other side sees the whole deal, not a bare OK, and verifies with its own code.
    expect(board_button(east_west, 1)).to_have_class("board-button draft")
    board_button(east_west, 1).click()
    expect(east_west.locator("#deal-words")).to_contain_text("♠Q")
    ns_side = EXAMPLES["T1"]["expected"]["sides"]["NS"]
    expect(east_west.locator("#deal-scores")).to_contain_text(str(ns_side))
    east_west.fill("#verify-form input[name=code]", code("A"))  # the writer's own code: refused
    east_west.click("#verify")
    expect(east_west.locator("#table-error")).to_contain_text("录入这一副的一方不能确认它")
    verify(east_west, 1, "B")

    # The hall's Wi-Fi drops while two boards are entered: they stay on the phone, say so,
    # survive a reload with no network, and arrive once when it returns.
    wait_until_controlled_by_service_worker(north_south)
    north_south.context.set_offline(True)
    wifi.down.set()
    north_south.context.route(WRITES, lambda route: route.abort("internetdisconnected"))
    enter(north_south, 2, "T2", "A")
    north_south.click("#close-board")
    enter(north_south, 3, "T7", "A")
    expect(north_south.locator("#outbox li")).to_have_count(2)
    expect(north_south.locator("#outbox-status")).to_contain_text("保存在本手机，尚未发送")
    north_south.reload()
    expect(north_south.locator("#outbox li")).to_have_count(2)
    expect(north_south.locator("#network")).to_have_text("离线")
    assert Deal.objects.filter(board__in=[2, 3]).count() == 0
    north_south.context.unroute(WRITES)
    wifi.down.clear()
    north_south.context.set_offline(False)
    north_south.evaluate("window.dispatchEvent(new Event('online'))")
    expect(north_south.locator("#outbox-status")).to_have_text("全部已保存到服务器")
    assert sorted(Deal.objects.filter(board__in=[2, 3]).values_list("board", flat=True)) == [2, 3]
    assert DealHistory.objects.filter(board__in=[2, 3], action="create").count() == 2
    verify(east_west, 2, "B")
    # The other phone's list is updated where it stands, not rebuilt: a tap that a poll's redraw
    # fell into would otherwise be lost (the button under the finger replaced).
    ns_button_3 = board_button(north_south, 3).element_handle()
    verify(east_west, 3, "B")
    expect(board_button(north_south, 3)).to_have_class("board-button confirmed")
    assert ns_button_3.evaluate("button => button.isConnected")

    # A disagreement: the other side disputes, the table sees a referee is coming, and a
    # referee settles it from the queue with a reason.
    enter(north_south, 4, "T1", "A")
    expect(board_button(east_west, 4)).to_have_class("board-button draft")
    board_button(east_west, 4).click()
    east_west.click("#dispute-box summary")
    east_west.fill("#dispute-form input[name=code]", code("B"))
    east_west.fill("#dispute-form textarea[name=reason]", "♣10 是西家吃的")
    east_west.click("#dispute")
    expect(board_button(east_west, 4)).to_have_class("board-button disputed")
    expect(north_south.locator("#referee-coming")).to_be_visible()

    make_user("referee", "referee", event)
    referee = new_page(browser, **TABLET)
    referee.goto(live_server.url + "/accounts/login/")
    referee.fill("#id_username", "referee")
    referee.fill("#id_password", PASSWORD)
    referee.click("button[type=submit]")
    referee.goto(live_server.url + "/referee/t-pairs/rounds/1/")
    expect(referee.locator("#referee-queue")).to_contain_text("♣10 是西家吃的")
    expect(referee.locator("tr.grid-row.disputed")).to_have_count(1)
    referee.click("#referee-queue a")
    expect(referee.locator("#dispute")).to_contain_text("♣10 是西家吃的")
    referee.fill("#confirm-reason", "问过四家：原录入正确")
    referee.click("#confirm")
    expect(referee.locator("#deal-status")).to_contain_text("已确认")
    expect(board_button(north_south, 4)).to_have_class("board-button confirmed")

    # The referee goes back to the live grid, which keeps itself up to date in place (no reload).
    referee.goto(live_server.url + "/referee/t-pairs/rounds/1/")
    expect(referee.locator("#grid-t1")).to_have_class(re.compile(r"\bcomplete\b"))
    referee.evaluate("window.stayed = true")

    # Every board confirmed: each side signs off from its own phone, seeing its own score first
    # (board by board and in total); then the table is closed.
    expect(north_south.locator("#signoff-section")).to_be_visible()
    played = [EXAMPLES[name]["expected"]["sides"] for name in ("T1", "T2", "T7", "T1")]
    for phone, we, they in ((north_south, "NS", "EW"), (east_west, "EW", "NS")):
        expect(phone.locator("#signoff-we")).to_have_text(f"我方 {we}")
        expect(phone.locator("#signoff-rows tr").first.locator("td")).to_have_text(
            ["1", str(played[0][we]), str(played[0][they])]
        )
        expect(phone.locator("#signoff-rows tr").last.locator("th")).to_have_text(
            ["合计", str(sum(p[we] for p in played)), str(sum(p[they] for p in played))]
        )
    north_south.fill("#signoff-form input[name=code]", code("A"))
    north_south.click("#signoff")
    expect(north_south.locator("#signed-off")).to_contain_text("NS 已签字")
    east_west.fill("#signoff-form input[name=code]", code("B"))
    east_west.click("#signoff")
    expect(east_west.locator("#read-only")).to_contain_text("双方已签字")
    board_button(east_west, 2).click()
    expect(east_west.locator("#entry")).to_be_hidden()
    expect(east_west.locator("#verify-form")).to_be_hidden()
    table.refresh_from_db()
    assert table.signed_off
    assert Deal.objects.filter(status=Deal.Status.CONFIRMED).count() == 4
    expect(referee.locator("#grid-t1")).to_have_class(re.compile(r"\bsigned_off\b"))
    expect(referee.locator("#grid-counts")).to_contain_text("已签字 1")
    assert referee.evaluate("window.stayed === true")  # the row changed in place: the page never reloaded
    # Every player action is in the history, with its entrant and channel.
    channels = set(DealHistory.objects.filter(user=None).values_list("entrant__code", "channel"))
    assert channels == {("A", "table link"), ("B", "table link")}
    for opened in (north_south, east_west, referee):
        opened.context.close()


def test_the_pages_first_poll_is_answered_not_modified(live_server, browser, event):
    """The page comes with its state's ETag, so a phone that has just opened it polls a 304; after
    a change the page fetches the new state whole."""
    polls = []
    page = new_page(browser, **PHONE)
    page.on("response", lambda answer: polls.append(answer.status) if answer.url.endswith("/state") else None)
    table = Table.objects.get(round__event=event, number=1)
    page.goto(f"{live_server.url}/t/{table.token}/")
    with page.expect_response(lambda response: response.url.endswith("/state")):
        page.evaluate("window.dispatchEvent(new Event('online'))")  # a poll now, not in 5 s
    assert polls[0] == 304
    enter(page, 1, "T1", pair="A")
    expect(board_button(page, 1)).to_have_class(re.compile("draft"))
    assert 200 in polls  # the state after the change came whole
    page.context.close()


# Resolves once the page's caches hold the English catalogue and no other (the new worker has
# installed and taken over, dropping the old cache), or false at the suite's ceiling. Run through
# `evaluate` (the table page's policy refuses the string evaluation `wait_for_function` makes).
ONLY_THE_ENGLISH_CATALOGUE_CACHED = """async (ceiling) => {
  const deadline = Date.now() + ceiling;
  while (Date.now() < deadline) {
    const found = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) {
        const match = new URL(request.url).pathname.match(/^\\/jsi18n\\/([a-z-]+)\\//);
        if (match) found.push(match[1]);
      }
    }
    if (found.join(",") === "en") return true;
    await new Promise((next) => setTimeout(next, 50));
  }
  return false;
}"""


def test_a_phone_switched_to_english_opens_offline_in_english(live_server, browser, event):
    """The page and its scripts' texts kept offline are those of the language last chosen: the
    catalogue's address names its language, so the service worker of the English page keeps the
    English texts (at one address for both, the first language's stayed in the cache for good)."""
    table = Table.objects.get(round__event=event, number=1)
    phone = new_page(browser, **PHONE)
    phone.goto(f"{live_server.url}/t/{table.token}/")
    wait_until_controlled_by_service_worker(phone)
    expect(phone.locator("#outbox-status")).to_have_text("全部已保存到服务器")
    phone.click(".lang a[hreflang=en]")  # named in its own language: "English"
    expect(phone.locator("#outbox-status")).to_have_text("Everything is on the server")
    # The page's new worker has taken over: the English catalogue kept, the Chinese one dropped.
    assert phone.evaluate(ONLY_THE_ENGLISH_CATALOGUE_CACHED, BROWSER_TIMEOUT_MS)
    phone.context.set_offline(True)
    phone.reload()
    expect(phone.locator("#network")).to_have_text("Offline")
    expect(phone.locator("#outbox-status")).to_have_text("Everything is on the server")
    phone.context.close()


# Resolves once no service worker is registered for `path` and no cache holds its page, or false
# at the suite's ceiling (through `evaluate`, as above).
FORGOTTEN = """async ([path, ceiling]) => {
  const deadline = Date.now() + ceiling;
  while (Date.now() < deadline) {
    const registered = (await navigator.serviceWorker.getRegistrations())
      .some((registration) => new URL(registration.scope).pathname === path);
    let kept = false;
    for (const name of await caches.keys()) {
      if (await (await caches.open(name)).match(path, { ignoreVary: true })) kept = true;
    }
    if (!registered && !kept) return true;
    await new Promise((next) => setTimeout(next, 50));
  }
  return false;
}"""


def test_a_replaced_links_offline_copy_forgets_itself_at_the_first_404(live_server, browser, event):
    """A replaced link answers 404; the phone that had it must not go on opening the old table
    offline: at the first 404 the worker drops the kept page and unregisters itself."""
    table = Table.objects.get(round__event=event, number=1)
    path = f"/t/{table.token}/"
    phone = new_page(browser, **PHONE)
    phone.goto(live_server.url + path)
    wait_until_controlled_by_service_worker(phone)
    expect(phone.locator("#outbox-status")).to_have_text("全部已保存到服务器")
    table_token_replace(table)
    phone.reload()
    expect(phone.locator("h1")).to_have_text("没有这个本桌链接")
    assert phone.evaluate(FORGOTTEN, [path, BROWSER_TIMEOUT_MS])
    phone.context.close()
