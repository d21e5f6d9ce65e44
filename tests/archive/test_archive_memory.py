"""Checking an archive takes memory in proportion to the file, within a bound (issue 37, issue 44).

A 40 MB upload peaked at 3.25 GB when the whole JSON was loaded and every deal kept as dicts.
The bound (docs/security.md): while an archive file is checked, the process grows by less
than 3× the file's size. Measured in a fresh interpreter, with the game's code loaded and warm
before, as the peak resident set (VmHWM, reset first) against the resident set before.

A hostile archive is one built to take as much memory as it can per byte of its file: many
tables of one deal each (the smallest valid deal), written compact. Its file is kept small
(2 MB) so the test runs in seconds, and at that size what the check holds whatever the file
(the text window, the block being compressed, the interpreter's own allocations) is not
negligible: it is allowed a fixed 4 MB on top of 3× the file (ALLOWANCE).
"""

import json
import random
import subprocess
import sys

import pytest

from scoring.games.huapai.samples import random_deal
from tests.archives import pairs_archive
from tests.conftest import REPO

BOUND = 3  # times the file's size
ALLOWANCE = 4 * 2**20  # bytes, for the small hostile file (see above)

CHILD = """
import json, resource, sys
from scoring.archive.format import parse_archive, read_archive
from tests.archives import four_pairs_two_rounds

def status(key):
    with open("/proc/self/status") as lines:
        return next(int(line.split()[1]) * 1024 for line in lines if line.startswith(key + ":"))

parse_archive(four_pairs_two_rounds())  # the game's code loaded and warm
try:
    with open("/proc/self/clear_refs", "w") as clear:
        clear.write("5")  # the peak resident set starts again from here
    before, peak = status("VmRSS"), lambda: status("VmHWM")
except OSError:  # no reset: the peak so far counts as the start (the growth can only look smaller)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    peak = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
with open(sys.argv[1], "rb") as archive:
    parsed = read_archive(archive)
growth = peak() - before
deals = sum(len(t.deals) for r in parsed.rounds for m in r.matches for t in m.tables)
print(json.dumps({"growth": growth, "deals": deals}))
"""


def big_archive(tables=100, rounds=9, boards=16):
    """A pairs event of random 华牌 deals: `tables` tables a round, each pair meeting others."""
    rng = random.Random(37)
    codes = [f"A{n:03d}" for n in range(1, 2 * tables + 1)]
    archive_rounds = []
    for number in range(1, rounds + 1):
        order = codes[:]
        rng.shuffle(order)
        matches = []
        for table in range(tables):
            deals = []
            for board in range(1, boards + 1):
                deal = random_deal(rng)
                del deal["ruleset"]
                deals.append({"board": board, **deal})
            matches.append({"table": table + 1, "ns": order[2 * table], "ew": order[2 * table + 1], "deals": deals})
        archive_rounds.append({"number": number, "status": "official", "matches": matches})
    return pairs_archive(codes, archive_rounds, slug="memory")


@pytest.fixture(scope="module")
def archive_data():
    return big_archive()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
@pytest.mark.parametrize("indent", [1, None], ids=["as-exported", "compact"])
def test_checking_an_archive_grows_the_process_by_less_than_three_times_the_file(archive_data, indent, tmp_path):
    path = tmp_path / "archive.json"
    separators = None if indent else (",", ":")
    path.write_text(json.dumps(archive_data, ensure_ascii=False, indent=indent, separators=separators), "utf-8")
    size = path.stat().st_size
    assert size > 1_000_000  # a few MB: what the bound is about, not the interpreter's own noise
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)], cwd=REPO, capture_output=True, text=True, check=True, timeout=600
    )
    measured = json.loads(done.stdout.strip().splitlines()[-1])
    assert measured["deals"] == 100 * 9 * 16
    assert measured["growth"] < BOUND * size, (
        f"checking a {size / 2**20:.1f} MB archive grew the process by {measured['growth'] / 2**20:.1f} MB"
    )


def one_deal_tables(pairs=1000, rounds=54):
    """A pairs event of `rounds` rounds where every pair plays at a table of one deal, the
    smallest a deal can be (nothing captured: every seat 0)."""
    codes = [f"A{n}" for n in range(pairs)]
    archive_rounds = []
    for number in range(1, rounds + 1):
        matches = [
            {
                "table": table + 1,
                "ns": codes[(2 * table + number) % pairs],
                "ew": codes[(2 * table + 1 + number) % pairs],
                "deals": [{"board": 1, "captured": {}}],
            }
            for table in range(pairs // 2)
        ]
        archive_rounds.append({"number": number, "matches": matches})
    return pairs_archive(codes, archive_rounds, slug="memory-hostile")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_an_archive_of_many_one_deal_tables_grows_the_process_by_less_than_three_times_the_file(tmp_path):
    path = tmp_path / "archive.json"
    path.write_text(json.dumps(one_deal_tables(), ensure_ascii=False, separators=(",", ":")), "utf-8")
    size = path.stat().st_size
    assert size > 1_500_000
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)], cwd=REPO, capture_output=True, text=True, check=True, timeout=600
    )
    measured = json.loads(done.stdout.strip().splitlines()[-1])
    assert measured["deals"] == 54 * 500
    assert measured["growth"] < BOUND * size + ALLOWANCE, (
        f"checking a {size / 2**20:.1f} MB archive of one-deal tables grew the process by "
        f"{measured['growth'] / 2**20:.1f} MB"
    )


def many_entrants(pairs=10_000):
    """The most people an archive may name (20,000 players in 10,000 pairs, each player's name
    one character), in one round of one-deal tables: the players and pairs are most of the file."""
    codes = [f"A{n}" for n in range(pairs)]
    deals = [{"board": 1, "captured": {}}]
    matches = [
        {"table": table + 1, "ns": codes[2 * table], "ew": codes[2 * table + 1], "deals": deals}
        for table in range(pairs // 2)
    ]
    archive = pairs_archive(codes, [{"number": 1, "matches": matches}], slug="memory-people")
    for player in archive["players"]:
        player["name"] = "某"
    return archive


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_an_archive_of_as_many_people_as_allowed_grows_the_process_by_less_than_three_times_the_file(tmp_path):
    path = tmp_path / "archive.json"
    path.write_text(json.dumps(many_entrants(), ensure_ascii=False, separators=(",", ":")), "utf-8")
    size = path.stat().st_size
    assert size > 1_000_000
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)], cwd=REPO, capture_output=True, text=True, check=True, timeout=600
    )
    measured = json.loads(done.stdout.strip().splitlines()[-1])
    assert measured["deals"] == 5000
    assert measured["growth"] < BOUND * size + ALLOWANCE, (
        f"checking a {size / 2**20:.1f} MB archive of 20,000 players grew the process by "
        f"{measured['growth'] / 2**20:.1f} MB"
    )


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
@pytest.mark.parametrize("rounds_first", [False, True], ids=["as-exported", "rounds-first"])
def test_one_match_of_many_small_deals_grows_the_process_by_less_than_three_times_the_file(rounds_first, tmp_path):
    """One match is read whole but for its deals, which wait packed once there are many: a match
    of 40,000 of the smallest deals (1.1 MB) held as decoded JSON took over twelve times its file.
    Rounds that come before the players are passed over once first, the same way."""
    deals = [{"board": board, "captured": {}} for board in range(1, 40_001)]
    match = {"table": 1, "ns": "A", "ew": "B", "deals": deals}
    archive = pairs_archive(["A", "B"], [{"number": 1, "matches": [match]}], slug="memory-giant-match")
    if rounds_first:
        archive = {"rounds": archive.pop("rounds"), **archive}
    path = tmp_path / "archive.json"
    path.write_text(json.dumps(archive, ensure_ascii=False, separators=(",", ":")), "utf-8")
    size = path.stat().st_size
    assert size > 1_000_000
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)], cwd=REPO, capture_output=True, text=True, check=True, timeout=600
    )
    measured = json.loads(done.stdout.strip().splitlines()[-1])
    assert measured["deals"] == 40_000
    assert measured["growth"] < BOUND * size + ALLOWANCE, (
        f"checking a {size / 2**20:.1f} MB archive of one match grew the process by {measured['growth'] / 2**20:.1f} MB"
    )
