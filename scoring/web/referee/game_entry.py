"""A game's entry page, the referee's and the players' (`Game.entry_fields`: 蚌埠斗地主's landlord,
bid, 明/暗…; 华牌's card grid, exposures and penalties as widgets): the form that checks it, a
stored deal as its values, and the rows its template draws (each field's choices as entered, a
widget's rows, and the refusals beside them). Every game takes this one path; nothing here
scores."""

import json

from django.utils.translation import gettext

from scoring.entry import game_fields
from scoring.entry.game_fields import seat_word
from scoring.entry.grid import card_rows, exposable_rows, form_from_deal
from scoring.games import game_of
from scoring.games.stored import event_rules
from scoring.web.forms import GameDealForm


def _grid(game, rules, fields):
    """The rows of the game's card grid, where one of its fields is (else none)."""
    return game.entry_grid(rules) if any(spec.kind == game_fields.CARDS for spec in fields) else []


def entry_form(event, data=None, board=None):
    """The Django form of the event's entry page (every field checked there). `board`: the
    fields that board asks (a table's first deal may ask more, 升级's 台上)."""
    rules, game = event_rules(event), game_of(event)
    fields = game_fields.game_fields(game, rules, board)
    return GameDealForm(data, fields=fields, seats=game.seats, grid=_grid(game, rules, fields))


def values_from_deal(event, deal):
    """The page's values of a stored deal (its fields as the form names them), or {}."""
    if deal is None:
        return {}
    game = game_of(event)
    stored = deal.game_data or {}
    values = {}
    grid_values = None  # a card grid's inputs, read once for its widgets
    for spec in game_fields.game_fields(game, event_rules(event)):
        value = stored.get(spec.key)
        if spec.kind in game_fields.WIDGETS:
            grid_values = form_from_deal(deal) if grid_values is None else grid_values
            values.update(_widget_values(spec, grid_values))
        elif spec.kind in (game_fields.COUNTS, game_fields.PER_SEAT):
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


# The form's names of each widget's inputs (`scoring.entry.grid`).
WIDGET_INPUTS = {
    game_fields.CARDS: ("card-",),
    game_fields.EXPOSURES: ("holder-", "exposed-"),
    game_fields.PENALTIES: ("penalty-",),
}


def _widget_values(spec, values):
    return {name: value for name, value in values.items() if name.startswith(WIDGET_INPUTS[spec.kind])}


def _value(values, name, many=False):
    if hasattr(values, "getlist"):
        return values.getlist(name) if many else values.get(name, "")
    value = values.get(name, [] if many else "")
    return list(value) if many else value


def field_rows(event, values, board=None):
    """What the template draws for each field: label, kind, the choices with the one entered,
    the count inputs per seat, and room for the refusals that name the field (`errors`, filled
    with the preview's: `preview_page.fields_drawn`)."""
    game, rules = game_of(event), event_rules(event)
    fields = game_fields.game_fields(game, rules, board)
    copies = max((row.copy for row in _grid(game, rules, fields)), default=1)
    rows = []
    for spec in fields:
        row = {"key": spec.key, "label": spec.label, "kind": spec.kind, "required": spec.required}
        row["needed"] = spec.needed or ""
        row["first_only"] = spec.first_only  # the table page hides it after the first deal
        # Drawn beside the main column, as the score sheet has them: a grid's exposures and penalties.
        row["beside"] = spec.kind in (game_fields.EXPOSURES, game_fields.PENALTIES)
        if spec.kind == game_fields.CARDS:
            row["cards"] = card_rows(values, copies)
        elif spec.kind == game_fields.EXPOSURES:
            row["exposables"] = [x for x in exposable_rows(values, copies) if x["code"] in spec.choices]
            row["holders_always"] = spec.holders_always
        elif spec.kind == game_fields.PENALTIES:
            row["penalties"] = [{"seat": seat, "value": _value(values, f"penalty-{seat}")} for seat in game.seats]
        elif spec.kind in (game_fields.SEAT, game_fields.SEAT_OR_NONE):
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
