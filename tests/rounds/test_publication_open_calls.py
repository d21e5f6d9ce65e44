"""Publishing a round with a call at a table still awaiting its ruling (the director's report:
a 跑胡子 round went out with 其他 "西家出牌太慢" 待裁决 and no word of it). The checklist names each
open call, its table and board; publishing asks the organiser's explicit confirmation
(docs/organising.md) and then goes ahead."""

import re

import pytest

from scoring.archive.database import import_archive
from scoring.messages import message_text
from scoring.models import RefereeCall, Round
from scoring.rounds.publication import PublicationError, publication_checklist, round_publish
from scoring.rulings.calls import call_open
from tests.archives import paohuzi_archive
from tests.referee_setup import make_user

pytestmark = pytest.mark.django_db

PUBLISH = "/referee/t-phz/rounds/1/publish/"
ROUND_PAGE = "/organiser/t-phz/rounds/1/"


@pytest.fixture
def event_with_open_call():
    event = import_archive(paohuzi_archive(status="in_play"))
    organiser = make_user("boss", "organiser", event)
    referee = make_user("ref", "referee", event)
    table = event.rounds.get(number=1).tables.get(number=2)
    call_open(table=table, user=referee, kind=RefereeCall.Kind.OTHER, board=2, facts="西家出牌太慢")
    return event, organiser


def test_the_checklist_names_the_open_call_with_its_table_board_and_facts(client, event_with_open_call):
    event, organiser = event_with_open_call
    rnd = event.rounds.get(number=1)
    checklist = publication_checklist(rnd)
    assert checklist["blocking"] == []
    assert [message_text(item) for item in checklist["open_calls"]] == ["2号桌第 2 副：其他“西家出牌太慢”待裁决"]
    client.force_login(organiser)
    page = client.get(ROUND_PAGE).content.decode()
    warning = re.sub(r"<[^>]+>", "", page.split('id="open-calls"')[1].split("</div>")[0])
    assert "还有 1 个呼叫未裁决" in warning and "2号桌第 2 副：其他“西家出牌太慢”待裁决" in warning
    assert 'name="confirm_open_calls"' in page


def test_publishing_needs_the_organisers_confirmation_then_goes_ahead(client, event_with_open_call):
    event, organiser = event_with_open_call
    rnd = event.rounds.get(number=1)
    with pytest.raises(PublicationError) as refused:
        round_publish(rnd, user=organiser)
    assert refused.value.code == "open_calls" and "西家出牌太慢" in str(refused.value.message)
    client.force_login(organiser)
    answer = client.post(PUBLISH, {"back": "organiser"}, follow=True).content.decode()
    assert "不能公布" in answer and "西家出牌太慢" in answer
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.IN_PLAY
    client.post(PUBLISH, {"back": "organiser", "confirm_open_calls": "on"})
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.PROVISIONAL


def test_the_warning_reads_in_english(client, event_with_open_call):
    _event, organiser = event_with_open_call
    client.force_login(organiser)
    client.get("/language/en/?next=/")
    page = client.get(ROUND_PAGE).content.decode()
    warning = re.sub(r"<[^>]+>", "", page.split('id="open-calls"')[1].split("</div>")[0])
    assert "Table 2, board 2: Other “西家出牌太慢” awaits a ruling" in warning
    assert not re.search(r"[\u4e00-\u9fff]", warning.replace("西家出牌太慢", ""))


def test_a_ruling_left_empty_is_named_by_its_label_not_its_form_name(client, event_with_open_call):
    """ "ruling：这个字段是必填项" named the field by its form name: the page's own word instead, and
    in English with an English colon."""
    _event, organiser = event_with_open_call
    call = RefereeCall.objects.get()
    client.force_login(organiser)
    page = client.post(
        f"/referee/t-phz/rounds/1/calls/{call.pk}/", {"outcome": "nothing", "ruling": ""}, follow=True
    ).content.decode()
    assert "理由：这个字段是必填项" in page and "ruling：" not in page
    client.get("/language/en/?next=/")
    page = client.post(f"/referee/t-phz/rounds/1/calls/{call.pk}/", {"outcome": "nothing"}, follow=True)
    assert "Reason: This field is required" in page.content.decode()
