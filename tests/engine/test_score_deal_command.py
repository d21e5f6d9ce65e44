"""`manage.py score_deal` as deal-json.md specifies it, run as a real process."""

import json
import subprocess
import sys

import pytest

from tests.conftest import REPO, load_examples

EXAMPLES = load_examples()


def run_command(stdin_text, *args):
    completed = subprocess.run(
        [sys.executable, "manage.py", "score_deal", *args],
        input=stdin_text,
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    return completed.returncode, completed.stdout


def test_one_object_in_gives_one_object_out():
    example = EXAMPLES[0]
    status, out = run_command(json.dumps(example["deal"]))
    assert status == 0
    result = json.loads(out)
    assert result["scores"] == example["expected"]["scores"]
    assert result["sides"] == example["expected"]["sides"]
    assert result["ruleset"] == "huapai"


def test_a_pretty_printed_object_is_one_deal(tmp_path):
    example = EXAMPLES[-1]
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(example["deal"], indent=2, ensure_ascii=False), encoding="utf-8")
    status, out = run_command("", str(path))
    assert status == 0
    assert json.loads(out)["scores"] == example["expected"]["scores"]


def test_an_invalid_single_deal_exits_two_with_the_error_object():
    deal = {"captured": {"N": ["SQ", "SQ"], "E": [], "S": [], "W": []}}
    status, out = run_command(json.dumps(deal))
    assert status == 2
    assert json.loads(out)["error"]["code"] == "duplicate_card"


def test_bad_json_exits_two_with_bad_json():
    status, out = run_command("{not json")
    assert status == 2
    assert json.loads(out)["error"]["code"] == "bad_json"


def test_json_lines_give_one_result_per_line_in_order():
    lines = [json.dumps(example["deal"]) for example in EXAMPLES]
    lines.insert(3, json.dumps({"captured": {"N": ["HA"], "E": [], "S": [], "W": []}}))
    status, out = run_command("\n".join(lines) + "\n", "-")
    assert status == 0
    results = [json.loads(line) for line in out.splitlines()]
    assert len(results) == len(EXAMPLES) + 1
    assert results[3]["error"]["code"] == "missing_card"
    scored = results[:3] + results[4:]
    assert [r["scores"] for r in scored] == [e["expected"]["scores"] for e in EXAMPLES]


@pytest.mark.parametrize("position", [0, 1, 2])
def test_a_line_that_is_not_json_gets_an_error_line_and_exit_two(position):
    lines = [json.dumps(example["deal"]) for example in EXAMPLES[:3]]
    lines.insert(position, "{oops")
    status, out = run_command("\n".join(lines) + "\n")
    results = [json.loads(line) for line in out.splitlines()]
    assert status == 2
    assert len(results) == 4
    assert results[position]["error"]["code"] == "bad_json"


def test_it_streams_instead_of_reading_everything_first():
    """The first result is written before the last line is even sent."""
    process = subprocess.Popen(
        [sys.executable, "-u", "manage.py", "score_deal"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,
        bufsize=1,
    )
    line = json.dumps(EXAMPLES[0]["deal"]) + "\n"
    process.stdin.write(line * 3)
    process.stdin.flush()
    first = json.loads(process.stdout.readline())  # would block forever if input were slurped
    process.stdin.write(line)
    process.stdin.close()
    rest = process.stdout.read().splitlines()
    process.wait(timeout=30)
    assert first["scores"] == EXAMPLES[0]["expected"]["scores"]
    assert len(rest) == 3
