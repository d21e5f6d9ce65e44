"""The referee's entry page for a game whose deal is its entry fields (`Game.entry_fields`,
蚌埠斗地主's landlord, bid, 明/暗, who went out first, 飞弹, 天炸/天尊): which page a game's
board takes, and the rows its template draws (each field's choices as entered, and the refusals
beside it). The 华牌 grid is `scoring.entry.grid`; nothing here scores."""

import json

from django.utils.translation import gettext

from scoring.entry import game_fields
from scoring.entry.game_fields import seat_word
from scoring.games import game_of
from scoring.games.stored import event_rules
from scoring.web.forms import DealEntryForm, GameDealForm

GRID, FIELDS = "grid", "fields"
TEMPLATES = {GRID: "referee/board.html", FIELDS: "referee/board_fields.html"}


def entry_kind(event):
    """The one place the entry page dispatches on the game: its card grid (华牌) or its fields."""
    return FIELDS if game_fields.game_fields(game_of(event), event_rules(event)) else GRID


def entry_form(event, data=None, board=None):
    """The Django form of the event's entry page (every field checked there), and its kind.
    `board`: the fields that board asks (a table's first deal may ask more, 升级's 台上)."""
    rules, game = event_rules(event), game_of(event)
    if entry_kind(event) == FIELDS:
        return GameDealForm(data, fields=game_fields.game_fields(game, rules, board), seats=game.seats), FIELDS
    return DealEntryForm(data, rules=rules, game=game), GRID


def values_from_deal(event, deal):
    """The page's values of a stored deal (its fields as the form names them), or {}."""
    if deal is None:
        return {}
    game = game_of(event)
    stored = deal.game_data or {}
    values = {}
    for spec in game_fields.game_fields(game, event_rules(event)):
        value = stored.get(spec.key)
        if spec.kind in (game_fields.COUNTS, game_fields.PER_SEAT):
            for seat, count in (value or {}).items():
                values[f"{spec.key}-{seat}"] = str(count)
        elif spec.kind == game_fields.SEATS:
            values[spec.key] = list(value or [])
        elif spec.kind == game_fields.BOOL:
            values[spec.key] = "on" if value else ""
        elif spec.kind == game_fields.SEAT_OR_NONE and spec.key in stored and value is None:
            values[spec.key] = game_fields.NOBODY  # said so: nobody (跑胡子's 黄庄)
        elif value is not None:
            values[spec.key] = str(value)
    for seat, score in (deal.adjusted or {}).items():
        values[f"adjusted-{seat}"] = str(score)
    if deal.adjusted is not None:
        values["adjusted_reason"] = deal.adjusted_reason
    return values


def _value(values, name, many=False):
    if hasattr(values, "getlist"):
        return values.getlist(name) if many else values.get(name, "")
    value = values.get(name, [] if many else "")
    return list(value) if many else value


def field_rows(event, values, board=None):
    """What the template draws for each field: label, kind, the choices with the one entered,
    the count inputs per seat, and room for the refusals that name the field (`errors`, filled
    with the preview's: `preview_page.fields_drawn`)."""
    game = game_of(event)
    rows = []
    for spec in game_fields.game_fields(game, event_rules(event), board):
        row = {"key": spec.key, "label": spec.label, "kind": spec.kind, "required": spec.required}
        row["needed"] = spec.needed or ""
        row["first_only"] = spec.first_only  # the table page hides it after the first deal
        if spec.kind in (game_fields.SEAT, game_fields.SEAT_OR_NONE):
            entered = _value(values, spec.key)
            row["options"] = [
                {"value": seat, "word": seat, "title": seat_word(seat), "checked": entered == seat}
                for seat in game.seats
            ]
            if spec.kind == game_fields.SEAT_OR_NONE:  # nobody, in the game's word (跑胡子: 黄庄)
                row["options"].append(_nobody_option(spec, entered))
            row["optional"] = spec.kind == game_fields.SEAT and not spec.required
            row["none_checked"] = not entered
        elif spec.kind == game_fields.SEATS:
            entered = _value(values, spec.key, many=True)
            row["options"] = [
                {"value": seat, "word": seat, "title": seat_word(seat), "checked": seat in entered}
                for seat in game.seats
            ]
        elif spec.kind == game_fields.CHOICE:
            entered = _value(values, spec.key)
            if not entered and spec.default is not None:  # the value the law assumes (王钓: none)
                entered = str(spec.default)
            row["options"] = [
                {
                    "value": str(choice),
                    "json": json.dumps(choice),  # the value as the deal JSON writes it (the table page sends JSON)
                    "word": gettext(spec.words[choice]) if choice in spec.words else str(choice),
                    "title": "",
                    "checked": entered == str(choice),
                    "hotkey": spec.hotkeys.get(choice, ""),
                }
                for choice in spec.choices
            ]
        elif spec.kind == game_fields.BOOL:
            row["checked"] = _value(values, spec.key) in ("on", "true", "1", True)
        elif spec.kind in (game_fields.COUNTS, game_fields.PER_SEAT, game_fields.INT):
            seats = game.seats if spec.kind != game_fields.INT else ("",)
            # A count per seat the law assumes when nothing is said (跑胡子's 王霸: nobody holds one):
            # an empty input is that count, shown as its placeholder, and the field is never missing.
            # (An integer's default, 省's 0, is left to the deal's own reading: a 黄庄 has no 省.)
            row["default"] = spec.default if spec.kind == game_fields.PER_SEAT else None
            row["counts"] = [
                {
                    "seat": seat,
                    "name": f"{spec.key}-{seat}" if seat else spec.key,
                    "value": _value(values, f"{spec.key}-{seat}" if seat else spec.key),
                    "min": spec.minimum,
                    "max": spec.maximum,
                    "step": spec.step,
                    "placeholder": "" if row["default"] is None else str(row["default"]),
                }
                for seat in seats
            ]
        row["errors"] = []
        rows.append(row)
    return rows


def _nobody_option(spec, entered):
    """The choice of nobody in a seat-or-nobody field (跑胡子's 黄庄), with its word and key."""
    word = spec.words.get(None)
    return {
        "value": game_fields.NOBODY,
        "json": "null",  # the deal's null, for a page that sends the deal itself (the table link's)
        "word": gettext(word) if word else gettext("无"),
        "title": "",
        "checked": entered == game_fields.NOBODY,
        "hotkey": spec.hotkeys.get(None, ""),
    }


def keyboard_help(event):
    """How the keys work on the event's game's entry page, where the game says (else None)."""
    text = game_of(event).entry_help
    return gettext(text) if text else None
