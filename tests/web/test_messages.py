"""Domain messages: one template each, in Chinese by default and in English through the .po,
never a "中文 / English" literal (issue 9: one way to translate)."""

import ast
import json
import re

import pytest
from django.utils import translation

from scoring.archive.database import import_archive
from scoring.archive.format import ArchiveError
from scoring.games.huapai import read_deal
from scoring.messages import message_text
from tests.archive.test_archive import BAD_ARCHIVES, bad
from tests.archives import four_pairs_two_rounds
from tests.conftest import REPO
from tests.referee_setup import board_url, example_deal, token_header

HAN = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
# A literal that says the same thing twice, "中文 … / English …": the old second path.
BILINGUAL_LITERAL = re.compile(r"[\u4e00-\u9fff][^\"'\n]* / [A-Za-z][A-Za-z-]* [a-z]")


def literals(source):
    """Each string literal of a module as Python joins it: "a" "b" split over lines is one
    literal, and an f-string's replacement fields read as `x`. [(line, text)]"""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.append((node.lineno, node.value))
        elif isinstance(node, ast.JoinedStr):
            text = "".join(part.value if isinstance(part, ast.Constant) else "x" for part in node.values)
            found.append((node.lineno, text))
    return found


def bilingual_literals(source):
    return [line for line, text in literals(source) if BILINGUAL_LITERAL.search(text)]


def test_a_bilingual_literal_split_over_two_lines_is_caught():
    source = 'raise E(\n    f"{seat} 的调整分必须是整数"\n    f" / adjusted {seat} must be an integer"\n)\n'
    assert bilingual_literals(source) == [2]
    assert bilingual_literals('x = "座位无效 / unknown seat"') == [1]
    assert bilingual_literals('x = _("座位 {seat} 无效")') == []


def test_no_source_module_carries_a_bilingual_literal():
    found = [
        f"{path.relative_to(REPO)}:{line}"
        for path in sorted((REPO / "scoring").rglob("*.py"))
        if "migrations" not in path.parts
        for line in bilingual_literals(path.read_text(encoding="utf-8"))
    ]
    assert found == []


BAD_DEALS = {
    "duplicate_card": lambda d: d["captured"]["W"].append("SQ"),
    "missing_card": lambda d: d["captured"]["N"].remove("H7"),
    "unknown_card": lambda d: d["captured"]["N"].append("Z9"),
    "unknown_seat": lambda d: d["holders"].update(SQ="X"),
    "missing_seat": lambda d: d["captured"].pop("E"),
    "bad_penalty": lambda d: d.update(penalties={"N": 5}),
    "not_exposable": lambda d: d.update(exposed={"H7": "shown"}),
    "exposure_without_holder": lambda d: d.update(holders={}, exposed={"SQ": "shown"}),
    "unknown_option": lambda d: d.update(options={"colour": 1}),
}


@pytest.mark.parametrize("code", sorted(BAD_DEALS))
def test_a_deal_problem_reads_in_chinese_and_in_english_naming_the_same_card_or_seat(code):
    deal = example_deal("T1")
    deal.setdefault("holders", {})
    BAD_DEALS[code](deal)
    _, problems = read_deal(deal)
    problem = next(p for p in problems if p.code == code)
    with translation.override("zh-hans"):
        chinese = message_text(problem)
    with translation.override("en"):
        english = message_text(problem)
    assert chinese == problem.message and HAN.search(chinese)
    assert not HAN.search(english), english
    # The parameters (cards, seat codes, values) are the same in both languages.
    for token in re.findall(r"[♠♥♦♣](?:10|[AKQJ2-9])|\([NESW]\)", chinese):
        assert token in english


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "change", "named"), BAD_ARCHIVES, ids=[b[0] for b in BAD_ARCHIVES])
def test_an_archive_refusal_reads_in_english_without_chinese(name, change, named):
    with pytest.raises(ArchiveError) as caught:
        import_archive(bad(change))
    with translation.override("en"):
        english = message_text(caught.value)
    assert not HAN.search(english), english


@pytest.mark.django_db
def test_a_nested_place_is_translated_with_its_message():
    archive = four_pairs_two_rounds()
    archive["rounds"][1]["matches"][1]["deals"][0]["captured"]["N"].append("SQ")
    with pytest.raises(ArchiveError) as caught:
        import_archive(archive)
    with translation.override("en"):
        english = message_text(caught.value)
    assert english.startswith("round 2 table 2 board 1: ♠Q is recorded 2 times")
    assert english.endswith("[duplicate_card]")


@pytest.mark.django_db
def test_the_api_answers_in_the_language_the_client_asks_for(client, people):
    deal = example_deal("T1")
    deal["captured"]["W"].append("SQ")
    body = json.dumps(deal)
    answers = {}
    for language in ("zh-hans", "en"):
        response = client.put(
            board_url(),
            data=body,
            content_type="application/json",
            HTTP_ACCEPT_LANGUAGE=language,
            **token_header(people["referee1"]),
        )
        assert response.status_code == 400
        answers[language] = response.json()["error"]
    assert answers["zh-hans"]["code"] == answers["en"]["code"] == "duplicate_card"
    assert "记了 2 次" in answers["zh-hans"]["message"]
    assert "♠Q is recorded 2 times" in answers["en"]["message"]


@pytest.mark.django_db
def test_a_stale_version_names_who_changed_the_deal_in_english_too(client, people):
    first = client.put(
        board_url(),
        data=json.dumps(example_deal("T1")),
        content_type="application/json",
        **token_header(people["referee1"]),
    )
    assert first.status_code == 201
    stale = client.put(
        board_url(),
        data=json.dumps(example_deal("T2")),
        content_type="application/json",
        HTTP_IF_MATCH="7",
        HTTP_ACCEPT_LANGUAGE="en",
        **token_header(people["referee2"]),
    )
    assert stale.status_code == 412
    assert stale.json()["error"]["message"] == (
        "since you opened the page, referee1 made a newer version of this deal (Entered, now version 1); "
        "your entry was not saved: check it and try again"
    )
