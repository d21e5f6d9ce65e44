"""How `make test`'s two workers would share the suite: xdist's own scheduler classes, replayed
with each test's duration from a one-worker run (docs/performance.md, the test suite).

    HYPOTHESIS_PROFILE=ci .venv/bin/python -m pytest -n 1 --junitxml=/tmp/suite.xml
    .venv/bin/python bench/suite_schedule.py /tmp/suite.xml

A one-worker run sends the tests in collection order, so the report lists them in that order
with each one's time (setup, call and teardown). The replay hands them out as each scheduler
would (`--dist load`, and `--dist loadgroup` with tests/conftest.py's scheduler) to two workers,
each running its tests one after the other for the time they took alone: no contention for the
two cores, so the figures say how the work is shared, not the wall time of a real `-n 2` run.
"""

import argparse
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


class Config:
    """What the schedulers read of pytest's config."""

    def __init__(self, dist, workers):
        self.dist, self.workers = dist, workers
        self.option = type("Option", (), {"loadscopereorder": False, "maxschedchunk": None})()

    def getvalue(self, name):
        return {"tx": [f"{self.workers}*popen"], "dist": self.dist}.get(name)

    def getoption(self, name):
        return getattr(self.option, name, None)


class Quiet:
    def __call__(self, *args):
        pass

    def __getattr__(self, name):
        return self


class Worker:
    def __init__(self, number):
        self.gateway = type("Gateway", (), {"id": f"gw{number}"})()
        self.shutting_down = False
        self.waiting, self.ran, self.clock = [], [], 0.0

    def send_runtest_some(self, indices):
        self.waiting.extend(indices)

    def send_runtest_all(self):
        raise NotImplementedError

    def shutdown(self):
        self.shutting_down = True


def replay(scheduler, nodeids, seconds, workers):
    nodes = [Worker(n) for n in range(workers)]
    for node in nodes:
        scheduler.add_node(node)
        scheduler.add_node_collection(node, nodeids)
    scheduler.schedule()
    while any(node.waiting for node in nodes):
        node = min((n for n in nodes if n.waiting), key=lambda n: n.clock)
        index = node.waiting.pop(0)
        node.ran.append(index)
        node.clock += seconds[index]
        scheduler.mark_test_complete(node, index, seconds[index])
    return nodes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("junitxml", type=Path)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    from xdist.scheduler import LoadScheduling

    from tests.conftest import pytest_xdist_make_scheduler

    cases = ET.parse(args.junitxml).getroot().iter("testcase")
    nodeids, seconds = [], []
    for case in cases:
        path = case.get("classname").replace(".", "/") + ".py"
        nodeids.append(f"{path}::{case.get('name')}")
        seconds.append(float(case.get("time")))
    print(f"{len(nodeids)} tests, {sum(seconds):.0f} s one after the other")
    schedulers = {
        "--dist load": LoadScheduling(Config("load", args.workers), Quiet()),
        "--dist loadgroup (tests/conftest.py)": pytest_xdist_make_scheduler(Config("loadgroup", args.workers), Quiet()),
    }
    for name, scheduler in schedulers.items():
        nodes = replay(scheduler, nodeids, seconds, args.workers)
        in_order = all(node.ran == sorted(node.ran) for node in nodes)
        browser = [sum("/browser/" in nodeids[i] for i in node.ran) for node in nodes]
        print(
            f"{name}: workers busy {' / '.join(f'{node.clock:.0f}' for node in nodes)} s "
            f"(the run: {max(node.clock for node in nodes):.0f} s); browser tests {' / '.join(map(str, browser))}; "
            f"each worker in collection order: {in_order}"
        )


if __name__ == "__main__":
    main()
