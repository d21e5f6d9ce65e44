"""An appeal end to end (issue 23): a side lodges it from its phone through the table link within
the correction period; the organiser, at a tablet, corrects the board through the normal
correction path and records the committee's decision; the public sees it with the ruling, and the
change on the public list of changes leads back to the appeal."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from scoring.entry.services import deal_confirm, deal_save
from scoring.models import Appeal, Deal, Event, Round, Table, table_token_digest
from tests.browser.test_entry_browser import stored
from tests.conftest import new_page, signed_in
from tests.referee_setup import example_deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
TABLET = {"viewport": {"width": 768, "height": 1024}, "has_touch": True}
TOKEN = "appeal-browser-token-of-round-3-table-1"


def test_an_appeal_lodged_from_the_table_decided_applied_and_public(live_server, browser, people, event):
    Event.objects.filter(pk=event.pk).update(entry="players", appeals_committee="张三、李四、王五")
    table = Table.objects.get(round__event=event, round__number=3, number=1)
    Table.objects.filter(pk=table.pk).update(token=TOKEN, token_digest=table_token_digest(TOKEN))
    deal, _ = deal_save(table=table, board=1, deal_json=example_deal("T1"), user=people["referee1"])
    deal_confirm(deal=deal, user=people["referee2"], expected_version=deal.version)
    Round.objects.filter(pk=table.round_id).update(status="provisional", published_at=timezone.now())
    ns_code = table.ns_entrant.access_code

    # The NS pair appeals from its phone: the form shows because the round is published.
    phone = new_page(browser, **PHONE)
    phone.goto(f"{live_server.url}/t/{TOKEN}/")
    expect(phone.locator("#appeal-box")).to_be_visible()
    phone.click("#appeal-box summary")
    phone.fill("#appeal-form input[name=board]", "1")
    phone.fill("#appeal-form input[name=statement]", "W 在第 5 墩藏了红心，应罚")
    phone.fill("#appeal-form input[name=code]", ns_code)
    phone.click("#appeal")
    expect(phone.locator("#appeal-done")).to_contain_text("申诉已登记")
    appeal = Appeal.objects.get()
    assert (appeal.channel, appeal.entrant_id, appeal.board) == ("table link", table.ns_entrant_id, 1)

    # The organiser finds it, corrects the board with a reason, then records the decision.
    tablet = new_page(browser, **TABLET)
    signed_in(tablet, live_server.url, "organiser")
    tablet.goto(live_server.url + "/referee/t-pairs/rounds/3/")
    tablet.click("#appeals-link")
    tablet.click("#appeals tbody a")
    expect(tablet.locator("#appeal-facts")).to_contain_text("W 在第 5 墩藏了红心")
    tablet.check("#appeal-decide input[name=status][value=changed]")
    tablet.fill("#appeal-decide input[name=decision]", "藏牌成立，罚 W 50 分")
    tablet.click("#appeal-decide button[type=submit]")
    expect(tablet.locator(".messages")).to_contain_text("先在这一副的录入页更正成绩")
    tablet.click("#appeal-facts a:has-text('录入页')")
    tablet.fill("input[name=penalty-W]", "50")
    tablet.fill("input[name=reason]", f"申诉 {appeal.pk}：藏牌成立")
    tablet.click("#save")
    tablet.wait_for_selector("#deal-status:has-text('v3')")
    assert stored(1).penalties == {"W": -50}
    tablet.goto(live_server.url + f"/referee/t-pairs/rounds/3/appeals/{appeal.pk}/")
    tablet.check("#appeal-decide input[name=status][value=changed]")
    tablet.fill("#appeal-decide input[name=decision]", "藏牌成立，罚 W 50 分")
    tablet.click("#appeal-decide button[type=submit]")
    expect(tablet.locator("#appeal-decision")).to_contain_text("改变裁决：藏牌成立，罚 W 50 分")
    expect(tablet.locator("#appeal-decision")).to_contain_text("张三、李四、王五")

    # The public page lists the decision; the board's change is in the public list of changes.
    phone.goto(f"{live_server.url}/events/t-pairs/penalties/")
    expect(phone.locator("#appeals")).to_contain_text("藏牌成立，罚 W 50 分")
    expect(phone.locator("#appeals")).to_contain_text("W 在第 5 墩藏了红心，应罚")
    assert Deal.objects.get(pk=deal.pk).version == 3
    # The change itself, on the public list of changes, leads back to the appeal it was made for.
    phone.goto(f"{live_server.url}/events/t-pairs/changes/")
    change = phone.locator("#changes tbody tr").filter(has_text="藏牌成立")
    expect(change.locator(".change-appeal")).to_contain_text(f"{table.ns_entrant.code} · 改变裁决")
    change.locator(".change-appeal a").click()
    phone.wait_for_url(f"**/events/t-pairs/penalties/#appeal-{appeal.pk}")
    expect(phone.locator(f"#appeal-{appeal.pk}")).to_contain_text("W 在第 5 墩藏了红心，应罚")
