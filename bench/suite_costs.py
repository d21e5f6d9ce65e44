"""What one unit of the test suite's work costs on this machine, so that `make test` figures taken
on different machines can be compared (docs/performance.md, the test suite).

    .venv/bin/python bench/suite_costs.py

The suite is CPU-bound on two cores, and most of its CPU is Chromium's (tests/browser) and
Django's request handling. The figures printed:
- the reference loop: a fixed pure-Python workload (ten million additions), best of three: a
  rough gauge of how fast the machine runs Python (compare it only under the same CPython);
- Chromium, launched as the tests launch it (tests/conftest.py, launch_chromium), in CPU seconds of all
  its processes and Playwright's driver, read from /proc: a new context with its page, one
  navigation to a blank page (the floor under every page load of the suite), one click;
- the browser tests' contexts and page loads in one pass (counted from the pages' `load` events,
  docs/performance.md; `--contexts` and `--page-loads` to give others) times those unit costs:
  what they alone cost per pass on this machine, before any work of our pages.
Both browsers the suite uses are measured: Debian's chromium (the SQLite pass) and its headless
shell (the PostgreSQL pass; tests/conftest.py, CHROMIUM), each where it is installed.
"""

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.conftest import DEBIAN_CHROMIUM, DEBIAN_HEADLESS_SHELL, launch_chromium

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
BLANK = "data:text/html,<html><body><button onclick=\"this.textContent='ok'\">go</button></body></html>"
# One pass of the browser tests, counted from the pages' `load` events (docs/performance.md).
SUITE_CONTEXTS = 86
SUITE_PAGE_LOADS = 547


def reference_loop():
    """Seconds for ten million additions in CPython, best of three."""
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        total = 0
        for number in range(10_000_000):
            total += number
        best = min(best, time.perf_counter() - started)
    return best


def cpu_of_tree(root):
    """CPU seconds of `root`'s descendants (live ones and what they reaped), walked by pid."""
    parents = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue  # ended while read
        fields = stat[stat.rindex(")") + 2 :].split()
        parents[int(entry)] = (int(fields[1]), sum(int(value) for value in fields[11:15]) / CLOCK_TICKS)
    total, frontier = 0.0, {root}
    while frontier:
        found = {pid for pid, (parent, _cpu) in parents.items() if parent in frontier}
        total += sum(parents[pid][1] for pid in found)
        frontier = found
    return total


def per_step(step, repeats):
    before = cpu_of_tree(os.getpid())
    for _ in range(repeats):
        step()
    return (cpu_of_tree(os.getpid()) - before) / repeats


BROWSERS = {"chromium": DEBIAN_CHROMIUM, "headless shell": DEBIAN_HEADLESS_SHELL}


def chromium_costs(executable):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright, executable)

        def context_and_page():
            context = browser.new_context(locale="zh-CN")
            context.new_page().goto(BLANK)
            context.close()

        context_and_page()  # the first one warms the browser up
        page = browser.new_context(locale="zh-CN").new_page()
        page.goto(BLANK)
        navigation = per_step(lambda: page.goto(BLANK), 20)
        with_context = per_step(context_and_page, 8)
        click = per_step(lambda: page.click("button"), 20)
        browser.close()
    return {"context": with_context - navigation, "navigation": navigation, "click": click}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--contexts", type=int, default=SUITE_CONTEXTS)
    parser.add_argument("--page-loads", type=int, default=SUITE_PAGE_LOADS)
    counts = parser.parse_args()
    loop = reference_loop()
    print(f"reference loop (10^7 additions, best of 3): {loop:.2f} s")
    for name, executable in BROWSERS.items():
        if not os.access(executable, os.X_OK):
            print(f"{name}: {executable} is not installed")
            continue
        costs = chromium_costs(executable)
        print(f"{name} ({executable}):")
        print(f"  a new context and page:    {costs['context']:.2f} s of CPU")
        print(f"  a navigation (blank page): {costs['navigation']:.3f} s of CPU")
        print(f"  a click:                   {costs['click']:.3f} s of CPU")
        floor = counts.contexts * costs["context"] + counts.page_loads * costs["navigation"]
        print(
            f"  the browser tests' {counts.contexts} contexts and {counts.page_loads} page loads at those costs: "
            f"{floor:.0f} s of CPU a pass (a floor: our pages cost more than a blank one)"
        )


if __name__ == "__main__":
    main()
