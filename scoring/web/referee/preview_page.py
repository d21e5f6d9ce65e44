"""The entry page's live preview: the engine's answer for the form as it stands, and that answer
drawn into the page as it is served.

The page's script (`static/js/entry.js`) posts the form to the preview endpoint
as the referee types and draws the answer. A page served without the answer drawn had to ask on
load, and the answer then added its lines above the buttons (the breakdown, the 局, the cards
still to assign), moving 确认 or a card's row under a finger already on its way. So the server
serves the page with the answer drawn as the script would draw it, and the script asks on load
only when the browser has put back other values (coming back to the page). The rules of what is
shown when are the scripts' (`draw`); the functions below follow them, and
`tests/browser/test_board_page_holds_still_browser.py` holds the two to each other."""

from django.utils.translation import gettext

from scoring.entry import game_fields
from scoring.entry.selectors import deal_preview
from scoring.messages import joined
from scoring.web.forms import form_errors
from scoring.web.referee import game_entry


def form_preview(event, table, board, data, *, players=False):
    """The engine's preview of the entry form `data` (a POST, or the values a page is served
    with): the form's refusals by field, or `deal_preview` of its deal. `players`: the table
    link's page, whose players cannot give an adjusted score."""
    form = game_entry.entry_form(event, data, board)
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
    deal_json = form.deal_json()
    if players:
        deal_json = {key: value for key, value in deal_json.items() if not key.startswith("adjusted")}
    return deal_preview(table, board, deal_json)


def drawn(preview, rows, saved):
    """The page as `entry.js` draws `preview` on load: the fields' part (`fields_drawn`), and a
    card grid's where the page has one (`grid_drawn`). `rows`: `game_entry.field_rows`."""
    plain = [row for row in rows if row["kind"] not in game_fields.WIDGETS]
    page = fields_drawn(preview, plain, saved)
    widgets = {row["kind"]: row for row in rows if row["kind"] in game_fields.WIDGETS}
    if game_fields.CARDS in widgets:
        exposures = widgets.get(game_fields.EXPOSURES, {}).get("exposables", [])
        page.update(grid_drawn(preview, widgets[game_fields.CARDS]["cards"], exposures, saved))
    return page


def grid_drawn(preview, cards, exposables, saved):
    """A card grid as `entry.js` draws `preview`: the count of cards left, the problems once
    every card has a seat (or after a refused save), the holders asked, the raw scores and the
    局. `cards` and `exposables` get their marks (`error`, `ask`)."""
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
    return {
        "grid_progress": gettext("还有 %(left)s 张牌未分配") % {"left": left} if left else gettext("每张牌都已分配"),
        "problems": shown,
        "penalty_problems": penalty_problems,
        "questions": preview.get("questions") or [],
    }


def fields_drawn(preview, rows, saved):
    """The fields as `entry.js` draws `preview` on load (no field touched yet):
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
    sides = preview.get("sides")
    return {
        "progress": gettext("还要填：%(fields)s") % {"fields": joined(str(row["label"]).strip() for row in missing)}
        if missing
        else "",
        "grid_progress": "",
        "problems": problems,
        "penalty_problems": [],
        "questions": [],
        "scores": scores or {},
        "raw": preview.get("raw") or {},
        "sides": sides or {},
        "totals": preview.get("totals") or {},
        # The sides' scores where the game's result gives them (华牌's NS and EW), else each seat's.
        "bar": " · ".join(f"{side} {score}" for side, score in (sides or scores or {}).items()),
        "match": preview.get("match") or [],
        "breakdown_lines": preview.get("breakdown_lines") or [],
        "games_line": preview.get("games_line") or "",
    }


def not_previewed(deal):
    """A board recorded not played: the page does not ask for a preview (it would blank the
    score given); it shows the stored scores as they are."""
    return {
        "progress": "",
        "grid_progress": "",
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
    """A field with a value, as `entry.js` (`filled`) reads the row's inputs; a count per
    seat with the law's default (跑胡子's 王霸: 0) has one even when left empty."""
    if row.get("counts") is not None and row.get("default") is not None:
        return True
    if row.get("counts") is not None:
        return any(str(count["value"]) != "" for count in row["counts"])
    if row.get("options") is not None:
        return any(option["checked"] and option["value"] != "" for option in row["options"])
    return bool(row.get("checked"))
