"""Table links and entrant codes for table entry by players (`shared/formats/table-api.md`).

A table's link reaches that table of that round only; an entrant's code says which side acts.
Both are secrets: they are shown to the event's organisers (the round console, the entrant
cards) and printed on the papers that go to that table, and nowhere else. Replacing one makes
the old one useless at once (the link answers 404, the code is refused).
"""

from django.db import transaction

from scoring.models import Entrant, Table, new_access_code, new_table_token

TABLE_PATH = "/t/{token}/"


def table_links(rnd):
    """[{"table", "url", "ns", "ew", "codes"}] for every table of a round, as `manage.py
    table_links` prints them: "ns"/"ew" are the codes of the entrants seated there (None when a
    table's seats are individuals); "codes" every side's code, [(side, code)] in the game's seat
    order (跑胡子: E, S, W — a player alone is his own side), so the round console can list them
    where there are no pairs."""
    from scoring.table_entry.codes import side_entrants  # it imports this module's replacements

    tables = Table.objects.filter(round=rnd).select_related("ns_entrant", "ew_entrant", "round").order_by("number")
    return [
        {
            "table": table.number,
            "url": TABLE_PATH.format(token=table.token),
            "ns": table.ns_entrant.access_code if table.ns_entrant else None,
            "ew": table.ew_entrant.access_code if table.ew_entrant else None,
            "codes": [(side, entrant.access_code) for side, entrant in side_entrants(table)],
            # The two partnerships' columns (a pair's code, or None: its players' own, in "codes").
            "pairs": [
                ("NS", table.ns_entrant.access_code if table.ns_entrant else None),
                ("EW", table.ew_entrant.access_code if table.ew_entrant else None),
            ],
        }
        for table in tables
    ]


@transaction.atomic
def table_token_replace(table):
    """A new link for the table (a lost or photographed sheet); the old one stops at once."""
    table.token = new_table_token()
    table.save(update_fields=["token", "token_digest"])
    return table


@transaction.atomic
def entrant_code_replace(entrant):
    """A new personal code for the entrant; the old one is refused from now on."""
    taken = set(Entrant.objects.filter(event_id=entrant.event_id).values_list("access_code", flat=True))
    code = new_access_code()
    while code in taken:  # 31^8 codes: a clash is a curiosity, but the constraint would refuse it
        code = new_access_code()
    entrant.access_code = code
    entrant.save(update_fields=["access_code"])
    return entrant
