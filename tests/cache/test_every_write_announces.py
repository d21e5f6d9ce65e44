"""Every write service announces (`scoring.cache.announce_results_changed`), found by walking the
service modules, so that a new service is covered the day it is written.

A public function of a service module *writes* when it, or a function of scoring/ it calls,
saves, creates, updates or deletes rows; it *announces* when it, or a function it calls, calls
the announcement. Every writer must announce, or be named below with the reason its write
changes nothing that results or public pages show. The call graph is read from the source by
name: a call of `f` or `anything.f` may reach every function of scoring/ named `f`.

The dynamic half is tests/cache/test_every_write_moves_the_version.py: every service found here
is called there and must move its event's version; tests/cache/test_one_announcement.py shows
that the pages follow the versions."""

import ast
from collections import defaultdict

import pytest

from tests.conftest import REPO

SCORING = REPO / "scoring"
# scoring/backups/ is not among them: it copies the database and records its checks, changing
# no result (a restore resets the cache versions itself, `backups.services.after_restore`).
SERVICE_FOLDERS = ("entry", "rulings", "rounds", "events", "table_entry", "archive")
WRITES = {"save", "create", "update", "delete", "bulk_create", "bulk_update", "get_or_create", "update_or_create"}
ANNOUNCE = "announce_results_changed"

# Writes that change nothing results or public pages show, each with its reason.
QUIET_WRITES = {
    "scoring/entry/versioned.py:conditional_update": "a step of the writes above, which announce",
    "scoring/entry/versioned.py:start_round": "a round's status in play: the public sees published rounds only",
    "scoring/entry/versioned.py:answer_dispute": "a step of deal_save, which announces",
    "scoring/entry/versioned.py:attach_rulings": "a step of deal_save, which announces",
    "scoring/rulings/calls.py:call_open": "a call awaiting a ruling: the referees' queue, not a result",
    "scoring/rulings/appeals.py:appeal_lodge": "an appeal awaiting the committee: no result changes yet",
    "scoring/rounds/table_links.py:table_token_replace": "a table's link: a secret, on no result or public page",
    "scoring/rounds/table_links.py:entrant_code_replace": "an entrant's code: a secret, on no result or public page",
    "scoring/rounds/creation.py:create_tables": "a step of round_pair and round_repair, which announce",
    "scoring/events/accounts.py:role_grant": "staff accounts",
    "scoring/events/accounts.py:token_for": "an API token",
    "scoring/events/staff.py:staff_add": "staff accounts",
    "scoring/events/staff.py:organiser_add": "staff accounts",
    "scoring/events/staff.py:staff_set_password": "staff accounts",
    "scoring/events/staff.py:staff_revoke": "staff accounts",
    "scoring/events/demo.py:load_demo": "loads through import_archive, which announces",
    "scoring/events/setup.py:event_create": "a new event has no version to move: its first pages are built afresh",
    "scoring/events/setup.py:event_delete": "a deleted event has no pages: its versions go with it",
    "scoring/table_entry/flags.py:flag_clear": "a referee's plausibility flag: the referees' grid, not a result",
    "scoring/table_entry/idempotency.py:answered_once": "a stored answer to one Idempotency-Key",
    "scoring/table_entry/services.py:table_call": "a call for a referee: the referees' queue, not a result",
    "scoring/table_entry/services.py:call_answer": "a call's answer: the referees' queue, not a result",
    "scoring/table_entry/codes.py:wrong_codes_clear": "the wrong-code guard of a table",
    "scoring/table_entry/codes.py:guarded_link_replace": "a guarded table's new link and its guard cleared",
    "scoring/table_entry/services.py:table_signoff": "a signature: the table's state, keyed by its own stamp",
    "scoring/archive/export.py:export_archive": "reads only (an attribute named like a write is read)",
    "scoring/events/entrants.py:entrant_request_bye": "a future round's bye: the pairing reads it, no result shows it",
    "scoring/rounds/final_stage.py:finalists": "reads the standings (the walk by name meets a writer's namesake)",
    "scoring/table_entry/codes.py:side_for_code": "counts a wrong code against the table's guard",
    "scoring/table_entry/services.py:table_appeal": "lodges an appeal (appeal_lodge): no result changes yet",
}


def _functions():
    """{name: [(place, node)]} of every function of scoring/, and the public ones of the services."""
    by_name, services = defaultdict(list), []
    for path in sorted(SCORING.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module = str(path.relative_to(REPO))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                by_name[node.name].append((f"{module}:{node.name}", node))
        if path.parent.relative_to(SCORING).parts[:1] and path.parent.name in SERVICE_FOLDERS:
            services += [
                (f"{module}:{node.name}", node)
                for node in tree.body
                if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")
            ]
    return by_name, services


# A list's or a file's own methods, called on those far more than on anything of scoring/: a
# namesake there (the archive's packed matches append and flush like a file) is not followed,
# or every reader that appends to a list of problems would seem to write.
CONTAINER_METHODS = {"append", "extend", "close", "flush", "write"}


def _called(node):
    names = set()
    for call in ast.walk(node):
        if isinstance(call, ast.Call):
            if isinstance(call.func, ast.Name):
                names.add(call.func.id)
            elif isinstance(call.func, ast.Attribute) and call.func.attr not in CONTAINER_METHODS:
                names.add(call.func.attr)
    return names


def _on_the_database(receiver):
    """Whether a call's receiver is a model manager or query set (`X.objects…`, `….filter(…)`,
    `instance.related.all()`): `update` and `create` there are writes, on a dict they are not."""
    while isinstance(receiver, ast.Call | ast.Attribute):
        if isinstance(receiver, ast.Attribute) and receiver.attr in QUERY_STEPS:
            return True
        receiver = receiver.func if isinstance(receiver, ast.Call) else receiver.value
    return False


QUERY_STEPS = {"objects", "filter", "exclude", "all", "select_for_update", "select_related", "deals", "tables"}


def _writes_here(node):
    """Whether the function's own body writes rows: `.save()`/`.delete()` on anything, a query
    set's `update`/`create`/…, or the hot path's own insert."""
    for call in ast.walk(node):
        if not isinstance(call, ast.Call):
            continue
        func = call.func
        if isinstance(func, ast.Name) and func.id == "insert":
            return True
        if isinstance(func, ast.Attribute):
            if func.attr in ("save", "delete"):
                return True
            if func.attr in WRITES and _on_the_database(func.value):
                return True
    return False


def _reaches(start, by_name, found):
    """Whether `start` or a function it may call (by name, through scoring/) satisfies `found`."""
    seen, stack = set(), [start]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if found(node):
            return True
        stack += [other for name in _called(node) for _place, other in by_name.get(name, ())]
    return False


def _announces_here(node):
    return ANNOUNCE in _called(node)


def write_services():
    """The places of every service that writes and is not a quiet write (each must announce)."""
    by_name, services = _functions()
    return sorted(
        place for place, node in services if place not in QUIET_WRITES and _reaches(node, by_name, _writes_here)
    )


def writers_that_do_not_announce():
    by_name, services = _functions()
    return sorted(
        place
        for place, node in services
        if _reaches(node, by_name, _writes_here)
        and not _reaches(node, by_name, _announces_here)
        and place not in QUIET_WRITES
    )


def test_every_write_service_announces_or_says_why_not():
    assert writers_that_do_not_announce() == []


def test_the_walk_finds_the_services_and_their_announcements():
    by_name, services = _functions()
    places = {place for place, _node in services}
    assert len(places) > 40
    node = dict(services)
    for announcing in (
        "scoring/rulings/appeals.py:appeal_decide",
        "scoring/events/entrants.py:entrant_withdraw",
        "scoring/rulings/calls.py:call_rule",
        "scoring/entry/services.py:deal_save",
    ):
        assert _reaches(node[announcing], by_name, _announces_here), announcing


def test_a_quiet_write_named_here_is_still_a_service():
    _by_name, services = _functions()
    places = {place for place, _node in services}
    assert set(QUIET_WRITES) <= places


def test_the_walk_catches_a_write_service_that_forgot_its_announcement():
    # An appeal decided without its announcement (a mutation that once escaped every test).
    source = (SCORING / "rulings" / "appeals.py").read_text(encoding="utf-8")
    assert "announce_results_changed(" in source
    mutated = source.replace("announce_results_changed(", "print(")
    tree = ast.parse(mutated)
    decide = next(node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "appeal_decide")
    by_name, _services = _functions()
    by_name = {
        name: [(p, n) for p, n in found if not p.endswith("appeals.py:appeal_decide")]
        for name, found in by_name.items()
    }
    assert _reaches(decide, by_name, _writes_here)
    assert not _reaches(decide, by_name, _announces_here)


@pytest.mark.django_db
@pytest.mark.parametrize("outcome", ["nothing", "not_played"])
def test_a_calls_ruling_moves_the_results_version(outcome):
    # The walk cannot tell a ruling's paths apart (one reaches the announcement through the
    # deal it changes); a ruling that changes no deal must still announce, since the penalties
    # and rulings page shows it. This once escaped every test.
    from django.db import transaction

    from scoring.cache.versions import current_version
    from scoring.models import Table
    from scoring.rulings.calls import call_open, call_rule
    from tests.conftest import build_event
    from tests.referee_setup import make_user

    event = build_event()
    table = Table.objects.select_related("round__event").get(round__event=event, round__number=3, number=1)
    referee = make_user("ruling-referee", "referee", event)
    call = call_open(table=table, user=referee, kind="other", board=1)
    before = current_version(event)
    with transaction.atomic():
        call_rule(call=call, user=referee, outcome=outcome, ruling="核实后裁定")
    assert current_version(event) != before
