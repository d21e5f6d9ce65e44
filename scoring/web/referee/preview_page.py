"""The entry page's live preview: the engine's answer for the form as it stands, and that answer
drawn into the page as it is served.

The page's script (`static/js/entry.js`, `entry_fields.js`) posts the form to the preview endpoint
as the referee types and draws the answer. A page served without the answer drawn had to ask on
load, and the answer then added its lines above the buttons (the breakdown, the 局, the cards
still to assign), moving 确认 or a card's row under a finger already on its way. So the server
serves the page with the answer drawn as the script would draw it, and the script asks on load
only when the browser has put back other values (coming back to the page). The rules of what is
shown when are the scripts' (`draw`); the functions below follow them, and
`tests/browser/test_board_page_holds_still_browser.py` holds the two to each other."""

from django.utils.translation import gettext

from scoring.entry.grid import deal_from_form
from scoring.entry.selectors import deal_preview
from scoring.games.stored import event_rules
from scoring.messages import joined
from scoring.web.forms import form_errors
from scoring.web.referee import game_entry


def form_preview(event, table, board, data, *, players=False):
    """The engine's preview of the entry form `data` (a POST, or the values a page is served
    with): the form's refusals by field, or `deal_preview` of its deal. `players`: the table
    link's page, whose players cannot give an adjusted score."""
    form, kind = game_entry.entry_form(event, data, board)
    if not form.is_valid():
        return {
            "problems": [
                {"code": "bad_form", "field": name, "message": line, "card": ""}
                for name in form.errors
                for line in form_errors(form, only=name)
            ],
            "scores": None,
            "raw": None,
            "sides": None,
            "games": [],
            "breakdown_lines": [],
            "games_line": "",
        }
    if kind == game_entry.FIELDS:
        deal_json = form.deal_json()
        if players:
            deal_json = {key: value for key, value in deal_json.items() if not key.startswith("adjusted")}
        return deal_preview(table, board, deal_json)
    return deal_preview(table, board, deal_from_form(form.entry_values(), event_rules(event).decks))


def grid_drawn(preview, cards, exposables, saved):
    """华牌's card grid as `entry.js` draws `preview`: the count of cards left, the problems once
    every card has a seat (or after a refused save), the holders asked, the scores and lines.
    Returns the page's values; `cards` and `exposables` get their marks (`error`, `ask`)."""
    left = sum(1 for card in cards if not card["seat"])
    touched = left < len(cards)
    problems = preview.get("problems") or []
    penalty_problems = [p for p in problems if (p.get("field") or "").startswith("penalty-")]
    shown = [p for p in problems if p not in penalty_problems] if touched and (not left or saved) else []
    marked = {p["card"] for p in shown if p.get("card")}
    for card in cards:
        card["error"] = any(card["label"] in (code, code + "①", code + "②") for code in marked)
    asked = {f"holder-{q['card']}" for q in preview.get("questions") or []}
    for row in exposables:
        row["ask"] = f"holder-{row['code']}{row['suffix']}" in asked
    sides = preview.get("sides")
    return {
        "progress": gettext("还有 %(left)s 张牌未分配") % {"left": left} if left else gettext("每张牌都已分配"),
        "problems": shown,
        "penalty_problems": penalty_problems,
        "questions": preview.get("questions") or [],
        "scores": preview.get("scores") or {},
        "raw": preview.get("raw") or {},
        "sides": sides or {},
        "bar": f"NS {sides['NS']} · EW {sides['EW']}" if sides else "",
        "breakdown_lines": preview.get("breakdown_lines") or [],
        "games_line": preview.get("games_line") or "",
    }


def fields_drawn(preview, rows, saved):
    """Another game's fields as `entry_fields.js` draws `preview` on load (no field touched yet):
    the fields still to fill, the refusals beside their fields once none is missing (or after a
    refused save), the scores, the table's totals and the lines. `rows` get their `errors`."""
    scores = preview.get("scores")
    missing = [] if scores else [row for row in rows if row["required"] and not _filled(row)]
    ready = saved or not missing
    problems = (preview.get("problems") or []) if ready else []
    keys = {row["key"]: row for row in rows}
    for row in rows:
        row["errors"] = []
    for problem in problems:
        row = keys.get((problem.get("field") or "").split("-")[0])
        if row is not None:
            row["errors"].append(problem["message"])
    return {
        "progress": gettext("还要填：%(fields)s") % {"fields": joined(str(row["label"]).strip() for row in missing)}
        if missing
        else "",
        "problems": problems,
        "scores": scores or {},
        "totals": preview.get("totals") or {},
        "bar": " · ".join(f"{seat} {score}" for seat, score in scores.items()) if scores else "",
        "match": preview.get("match") or [],
        "breakdown_lines": preview.get("breakdown_lines") or [],
    }


def not_previewed(deal):
    """A board recorded not played: the page does not ask for a preview (it would blank the
    score given); it shows the stored scores as they are."""
    return {
        "progress": "",
        "problems": [],
        "penalty_problems": [],
        "questions": [],
        "scores": deal.scores,
        "raw": deal.raw,
        "sides": {},
        "bar": "",
        "totals": {},
        "match": [],
        "breakdown_lines": [],
        "games_line": "",
    }


def _filled(row):
    """A field with a value, as `entry_fields.js` (`filled`) reads the row's inputs; a count per
    seat with the law's default (跑胡子's 王霸: 0) has one even when left empty."""
    if row.get("counts") is not None and row.get("default") is not None:
        return True
    if row.get("counts") is not None:
        return any(str(count["value"]) != "" for count in row["counts"])
    if row.get("options") is not None:
        return any(option["checked"] and option["value"] != "" for option in row["options"])
    return bool(row.get("checked"))
