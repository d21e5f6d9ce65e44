"""Every game's breakdown notes read in English word by word (`scoring.messages.term_text` with
the game's `breakdown_terms`): no Chinese left in any note of the law's worked examples or of
generated deals, and the Chinese note unchanged in Chinese."""

import random

import pytest
from django.utils import translation

from scoring.games import GAMES
from scoring.games.doudizhu.samples import random_deals as doudizhu_deals
from scoring.games.paohuzi.samples import random_deals as paohuzi_deals
from scoring.games.shengji.samples import random_deals as shengji_deals
from scoring.messages import HAN, term_text
from tests.archives import game_examples

GENERATED = {
    "bengbu-doudizhu": list(doudizhu_deals(300, seed=11)),
    "shengji": list(shengji_deals(300, seed=11)),
    "paohuzi": list(paohuzi_deals(300, seed=11)),
}
# 跑胡子 options that change a note's words: a discarder paying alone, a 底.
PAOHUZI_OPTIONS = [{"discard_pays": "discarder"}, {"di": 1}]


def notes(game_id):
    game = GAMES[game_id]
    examples = game_examples(game_id).values()
    deals = [e["deal"] for e in examples if "deal" in e] + [d for e in examples for d in e.get("match", ())[:1]]
    deals += GENERATED[game_id]
    if game_id == "paohuzi":
        rng = random.Random(3)
        deals += [{**deal, "options": rng.choice(PAOHUZI_OPTIONS)} for deal in GENERATED[game_id][:100]]
    found = set()
    for deal in deals:
        try:
            result = game.score_deal(deal)
        except Exception:  # an example of a refusal: no breakdown
            continue
        found.update(entry["note"] for entries in result["breakdown"].values() for entry in entries)
    return found


@pytest.mark.parametrize("game_id", ["bengbu-doudizhu", "shengji", "paohuzi"])
def test_every_note_reads_in_english_and_stays_as_written_in_chinese(game_id):
    game = GAMES[game_id]
    written = notes(game_id)
    assert len(written) > 20  # the examples and generated deals reach many notes
    with translation.override("en"):
        left = sorted(note for note in written if HAN.search(term_text(note, game)))
    assert left == []
    with translation.override("zh-hans"):
        assert all(term_text(note, game) == note for note in written)


def test_a_paohuzi_note_in_english():
    """Worked by hand from law §3.4: 21 胡息 with 3 省 is 3 囤 + 3 省 = 6 子, 1 番: each other seat pays 6."""
    game = GAMES["paohuzi"]
    result = game.score_deal(
        {"game": "paohuzi", "winner": "S", "huxi": 21, "red": 5, "source": "draw", "xing": 3, "wangba": {}}
    )
    with translation.override("en"):
        assert (
            term_text(result["breakdown"]["E"][0]["note"], game)
            == "pays South(S) 6 (21 huxi=3 tun +3 xing =6 zi × 1 fan =6)"
        )
