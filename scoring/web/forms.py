"""Django forms for every POST of the referee and organiser pages.

No view calls `int()` on `request.POST`: each page's fields are checked here,
numbers within the bounds their columns and the rules allow. A card grid's every
field too (a card's taker, a holder, an exposure): then `scoring.entry.grid` maps the
cleaned values to deal JSON and the rules engine names every problem of the deal as a
whole (a card missing, a holder who cannot have held it).
"""

from django import forms
from django.utils.translation import gettext, gettext_lazy

from scoring.engine.vocabulary import SEATS
from scoring.entry import game_fields
from scoring.entry.grid import copy_suffix, deal_from_form
from scoring.games.common import ADJUSTED_LIMIT
from scoring.games.huapai import PENALTY_MIN
from scoring.games.rulings import AS_IT_STANDS, DRAWN
from scoring.models import CODE_VALIDATOR, Appeal, Irregularity, RefereeCall
from scoring.table_entry.flags import KINDS as FLAG_KINDS

MAX_VERSION = 999_999_999
MAX_PENALTY = -PENALTY_MIN  # entered as a positive number of points to deduct
TEXT_LIMIT = 500
MAX_UPLOAD_BYTES = 2 * 1024 * 1024


class PenaltyField(forms.CharField):
    """A penalty as a referee writes it: the points deducted, with or without the minus sign
    (`50`, `-50`, `−50` and `－50` are all −50, README §5), any whole number up to the law's
    bound. Cleans to the points deducted (positive) or None; the page prints the minus sign."""

    SIGNS = "-−－"

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def to_python(self, value):
        text = super().to_python(value).replace(" ", "")
        if not text:
            return None
        digits = text[1:] if text[0] in self.SIGNS else text
        if len(digits) > 7 or not (digits.isascii() and digits.isdigit()) or int(digits) > MAX_PENALTY:
            raise forms.ValidationError(
                gettext("罚分须是 0 到 %(limit)s 之间的整数（可写负号，也可不写）"), params={"limit": MAX_PENALTY}
            )
        return int(digits)


def version_field(required=True):
    return forms.IntegerField(min_value=1, max_value=MAX_VERSION, required=required, widget=forms.HiddenInput)


SEAT_CHOICES = [("", "—"), *((seat, seat) for seat in SEATS)]
EXPOSURE_CHOICES = [("", "—"), ("shown", "明"), ("first", "首明")]


class ConfirmForm(forms.Form):
    version = version_field()
    next = forms.BooleanField(required=False)  # then open the next deal waiting for this referee
    # Needed when the confirmation settles a dispute of the players (the ruling's reason).
    reason = forms.CharField(max_length=TEXT_LIMIT, required=False, strip=True)


class TableActionForm(forms.Form):
    """A referee acts on one table of the round from the live grid: answers its call, or
    unlocks it after too many wrong codes."""

    table = forms.IntegerField(min_value=1, max_value=999_999_999)
    action = forms.ChoiceField(choices=[("answer", "answer"), ("unlock", "unlock"), ("replace_link", "replace_link")])


class FlagClearForm(forms.Form):
    """A referee clears a plausibility flag of a board with a word."""

    kind = forms.ChoiceField(choices=[(kind, kind) for kind in FLAG_KINDS])
    word = forms.CharField(max_length=200, strip=True)


class TableRangeForm(forms.Form):
    """My area of the hall: a range of table numbers (either end may be left open)."""

    first = forms.IntegerField(min_value=1, max_value=999_999_999, required=False)
    last = forms.IntegerField(min_value=1, max_value=999_999_999, required=False)


class GridLiveForm(TableRangeForm):
    """The grid's live update: my area, and the tables whose rows the page asks for again
    (`rows=3,17,…`: at most `MAX_ROWS` table numbers; none: the round's versions and counts)."""

    MAX_ROWS = 200
    rows = forms.CharField(required=False, max_length=MAX_ROWS * 10)

    def clean_rows(self):
        text = self.cleaned_data["rows"].strip()
        if not text:
            return None
        parts = text.split(",")
        if len(parts) > self.MAX_ROWS or not all(p.isascii() and p.isdigit() and 0 < len(p) <= 9 for p in parts):
            raise forms.ValidationError(gettext("桌号列表无效"))
        return sorted({int(p) for p in parts})


class TableConfirmForm(forms.Form):
    """The boards of one table a second referee confirms at once, each at the version shown."""

    def __init__(self, *args, deals=(), **kwargs):
        super().__init__(*args, **kwargs)
        for deal in deals:
            self.fields[f"confirm-{deal.board}"] = forms.BooleanField(required=False)
            self.fields[f"version-{deal.board}"] = version_field()

    def chosen(self):
        """{board: version} of the ticked boards."""
        return {
            int(name.removeprefix("confirm-")): self.cleaned_data[f"version-{name.removeprefix('confirm-')}"]
            for name, ticked in self.cleaned_data.items()
            if name.startswith("confirm-") and ticked
        }


# The labels below are the pages' own words for the fields: an error names the field as the
# page does (`form_errors`), never by its form name ("ruling").
class IrregularityForm(forms.Form):
    version = version_field()
    seat = forms.ChoiceField(
        choices=[("", "—"), *((seat, seat) for seat in SEATS)], required=False, label=gettext_lazy("座位")
    )
    kind = forms.ChoiceField(choices=Irregularity.Kind.choices, label=gettext_lazy("类型"))
    penalty = PenaltyField(label=gettext_lazy("罚分"))
    ruling = forms.CharField(max_length=TEXT_LIMIT, strip=True, label=gettext_lazy("裁决"))


class CallOpenForm(forms.Form):
    """A referee records a call at a table during play (scoring.rulings.calls)."""

    table = forms.IntegerField(min_value=1, max_value=999_999_999, label=gettext_lazy("桌号"))
    board = forms.IntegerField(min_value=1, max_value=10_000, required=False, label=gettext_lazy("副号"))
    kind = forms.ChoiceField(
        choices=[c for c in RefereeCall.Kind.choices if c[0] != RefereeCall.Kind.DISPUTE], label=gettext_lazy("类型")
    )
    seats = forms.CharField(max_length=12, required=False, strip=True, label=gettext_lazy("涉及的座位"))
    facts = forms.CharField(max_length=TEXT_LIMIT, required=False, strip=True, label=gettext_lazy("经过（一句话）"))


class CallRuleForm(forms.Form):
    """The ruling on a call; a claim's details when the call is a claim."""

    outcome = forms.ChoiceField(choices=RefereeCall.Outcome.choices, label=gettext_lazy("裁决"))
    ruling = forms.CharField(max_length=TEXT_LIMIT, strip=True, label=gettext_lazy("理由"))
    penalty_seat = forms.ChoiceField(choices=SEAT_CHOICES, required=False, label=gettext_lazy("罚分座位"))
    penalty = PenaltyField(label=gettext_lazy("罚分"))
    claimant = forms.ChoiceField(choices=SEAT_CHOICES, required=False, label=gettext_lazy("声称者"))
    claim_trick = forms.IntegerField(min_value=1, max_value=26, required=False, label=gettext_lazy("第几墩"))
    claim_status = forms.ChoiceField(
        choices=[("", "—"), *RefereeCall.ClaimStatus.choices], required=False, label=gettext_lazy("各方")
    )
    # The board of a call opened without one (a table's "call a referee"), named when ruling.
    board = forms.IntegerField(min_value=1, max_value=10_000, required=False, label=gettext_lazy("副号"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for seat in SEATS:  # the cards claimed to fall to each seat, typed: "♥A ♥K SQ"
            self.fields[f"fall-{seat}"] = forms.CharField(max_length=200, required=False, strip=True)

    def fall(self):
        return {seat: self.cleaned_data[f"fall-{seat}"] for seat in SEATS}


class NotPlayedForm(forms.Form):
    """A referee records a board not played (scoring.rulings.not_played), with the reason; the
    version when it replaces a deal already there."""

    version = version_field(required=False)
    reason = forms.CharField(max_length=TEXT_LIMIT, strip=True)


class LatePenaltyForm(forms.Form):
    """The event's late-play penalty on a seat of a board entered after time was called."""

    seat = forms.ChoiceField(choices=[(seat, seat) for seat in SEATS])


class ClockForm(forms.Form):
    """An organiser acts on the round's clock (scoring.rulings.clock)."""

    action = forms.ChoiceField(choices=[(a, a) for a in ("start", "pause", "resume", "extend", "call_time")])
    minutes = forms.IntegerField(min_value=1, max_value=120, required=False)
    # Calling time: each table may finish the board it is playing (the first after its last result).
    finish_in_play = forms.BooleanField(required=False)


class MatchRulingForm(forms.Form):
    """The chief arbiter rules on a table's unfinished match (scoring.rulings.match_ruling): the
    outcome among the game's (`scoring.games.rulings.ruling_outcomes`), and the reason."""

    outcome = forms.ChoiceField(choices=())
    reason = forms.CharField(max_length=500, strip=True)

    def __init__(self, *args, game, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["outcome"].choices = match_ruling_choices(game)


def match_ruling_choices(game) -> list[tuple[str, str]]:
    """(outcome, words) of a ruling on the game's match: as it stands, drawn, each side by the
    regulations."""
    sides = [(side, gettext("按赛事规程判 %(side)s 胜") % {"side": side}) for side in game.sides]
    return [
        (AS_IT_STANDS, gettext("按当时级数（级高者胜，同级打平）")),
        (DRAWN, gettext("判为平局")),
        *sides,
    ]


class AppealLodgeForm(forms.Form):
    """A referee lodges an appeal on behalf of an entrant seated at a table (scoring.rulings.appeals):
    the pair, team or player, by its number (the service checks it is one of the table's)."""

    table = forms.IntegerField(min_value=1, max_value=999_999_999)
    board = forms.IntegerField(min_value=1, max_value=10_000, required=False)
    entrant = forms.CharField(max_length=32, strip=True)
    call = forms.IntegerField(min_value=1, max_value=2**62, required=False)
    statement = forms.CharField(max_length=TEXT_LIMIT, strip=True)


class EntrantCodeForm(forms.Form):
    """An entrant named by its code (its number or short name in the event)."""

    entrant = forms.CharField(max_length=40)


class AppealDecideForm(forms.Form):
    """The appeals committee's decision, recorded by an organiser."""

    status = forms.ChoiceField(choices=[c for c in Appeal.Status.choices if c[0] != Appeal.Status.OPEN])
    decision = forms.CharField(max_length=TEXT_LIMIT, strip=True)
    deposit_outcome = forms.ChoiceField(choices=[("", "—"), *Appeal.Deposit.choices], required=False)


class BackForm(forms.Form):
    """Which page a round's publication buttons were pressed on."""

    back = forms.ChoiceField(choices=[("referee", "referee"), ("organiser", "organiser")], required=False)


class PublishForm(BackForm):
    """Publishing a round: the organiser's explicit word that it goes out with calls at tables
    still awaiting their rulings (the checklist lists them; docs/organising.md)."""

    confirm_open_calls = forms.BooleanField(required=False)


class SwapForm(forms.Form):
    first = forms.CharField(max_length=20, validators=[CODE_VALIDATOR])
    second = forms.CharField(max_length=20, validators=[CODE_VALIDATOR])


def form_errors(form, only=None):
    """Every error of a bound form (or of its field `only`) as one line each, naming the field."""
    lines = []
    for name, errors in form.errors.items():
        if only is not None and name != only:
            continue
        # A field without a label is named by nothing rather than by its form name ("ruling").
        label = form.fields[name].label if name in form.fields else ""
        lines.extend(
            gettext("%(field)s：%(error)s") % {"field": label, "error": error} if label else str(error)
            for error in errors
        )
    return lines


class GameDealForm(forms.Form):
    """Every field of a game's entry page (`Game.entry_fields`, read by `scoring.entry.game_fields`):
    a seat, several seats, a choice, yes/no, a count per seat, or a widget's inputs (a card's
    taker, a holder, an exposure, a penalty), each checked for its type and bounds here; the
    game's engine then names every problem of the deal as a whole, with the law's reasons (a
    farmer's fourth 飞弹, a card missing). `fields`: the game's `GameField`s; `seats`: the table's;
    `grid`: the rows of a card grid (`Game.entry_grid`), where a field is one."""

    version = version_field(required=False)
    reason = forms.CharField(max_length=TEXT_LIMIT, required=False, strip=True)
    adjusted_reason = forms.CharField(max_length=TEXT_LIMIT, required=False, strip=True)

    def __init__(self, *args, fields, seats, grid=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.game_fields = list(fields)
        self.seats = tuple(seats)
        self.grid = list(grid)
        seat_choices = [("", "—"), *((seat, seat) for seat in self.seats)]
        for spec in self.game_fields:
            if spec.kind == game_fields.SEAT_OR_NONE:  # a seat, or nobody said so (跑胡子's 黄庄)
                self.fields[spec.key] = forms.ChoiceField(
                    choices=[*seat_choices, (game_fields.NOBODY, game_fields.NOBODY)], required=False, label=spec.label
                )
            elif spec.kind == game_fields.SEAT:
                self.fields[spec.key] = forms.ChoiceField(choices=seat_choices, required=False, label=spec.label)
            elif spec.kind == game_fields.SEATS:
                self.fields[spec.key] = forms.MultipleChoiceField(
                    choices=seat_choices[1:], required=False, label=spec.label
                )
            elif spec.kind == game_fields.CHOICE:
                self.fields[spec.key] = forms.ChoiceField(
                    choices=[("", "—"), *((str(value), str(value)) for value in spec.choices)],
                    required=False,
                    label=spec.label,
                )
            elif spec.kind == game_fields.BOOL:
                self.fields[spec.key] = forms.BooleanField(required=False, label=spec.label)
            elif spec.kind in (game_fields.COUNTS, game_fields.PER_SEAT):
                for seat in self.seats:
                    self.fields[f"{spec.key}-{seat}"] = forms.IntegerField(
                        min_value=spec.minimum, max_value=spec.maximum, required=False, label=f"{spec.label} {seat}"
                    )
            elif spec.kind == game_fields.INT:
                self.fields[spec.key] = forms.IntegerField(
                    min_value=spec.minimum, max_value=spec.maximum, required=False, label=spec.label
                )
            elif spec.kind == game_fields.CARDS:  # who took each copy of each card
                for row in self.grid:
                    self.fields[f"card-{row.card}{copy_suffix(row.copy)}"] = forms.ChoiceField(
                        choices=seat_choices, required=False, label=row.label
                    )
            elif spec.kind == game_fields.EXPOSURES:  # each exposable copy's holder and exposure
                for row in (row for row in self.grid if row.card in spec.choices):
                    suffix = copy_suffix(row.copy)
                    self.fields[f"holder-{row.card}{suffix}"] = forms.ChoiceField(
                        choices=seat_choices, required=False, label=gettext("%(card)s 的持有者") % {"card": row.label}
                    )
                    self.fields[f"exposed-{row.card}{suffix}"] = forms.ChoiceField(
                        choices=EXPOSURE_CHOICES, required=False, label=gettext("%(card)s 的亮牌") % {"card": row.label}
                    )
            elif spec.kind == game_fields.PENALTIES:
                for seat in self.seats:
                    self.fields[f"penalty-{seat}"] = PenaltyField(label=f"{seat} 罚分")
        for seat in self.seats:
            self.fields[f"adjusted-{seat}"] = forms.IntegerField(
                min_value=-ADJUSTED_LIMIT, max_value=ADJUSTED_LIMIT, required=False, label=f"{seat} 调整分"
            )

    def _grid_deal(self):
        """The card grid's part of the deal (`scoring.entry.grid.deal_from_form`), from the
        cleaned values as the strings it reads."""
        values = {name: "" if value is None else str(value) for name, value in self.cleaned_data.items()}
        return deal_from_form(values, max((row.copy for row in self.grid), default=1))

    def deal_json(self):
        """The deal as the game reads it, from the cleaned fields: what is left empty is absent
        (an unticked 明打 is 暗打, §1.2), a choice is its value as the law writes it."""
        data = self.cleaned_data
        deal = {}
        grid = self._grid_deal() if any(spec.kind in game_fields.WIDGETS for spec in self.game_fields) else {}
        for spec in self.game_fields:
            if spec.kind == game_fields.CARDS:
                deal["captured"] = grid["captured"]
                continue
            if spec.kind == game_fields.EXPOSURES:
                deal["holders"], deal["exposed"] = grid["holders"], grid["exposed"]
                continue
            if spec.kind == game_fields.PENALTIES:
                deal["penalties"] = grid["penalties"]
                continue
            if spec.kind in (game_fields.COUNTS, game_fields.PER_SEAT):
                counts = {seat: data.get(f"{spec.key}-{seat}") for seat in self.seats}
                # A count the law assumes when nothing is said (飞弹's 0, 王霸's 0) is left out; any
                # other number given is kept, 0 included where the law assumes none (叫墩's bid).
                assumed = 0 if spec.kind == game_fields.COUNTS else spec.default
                counts = {seat: count for seat, count in counts.items() if count is not None and count != assumed}
                if counts or spec.kind == game_fields.PER_SEAT:  # a count per seat the deal always has
                    deal[spec.key] = counts
                continue
            value = data.get(spec.key)
            if spec.kind == game_fields.CHOICE and value:
                value = next(choice for choice in spec.choices if str(choice) == value)
            if spec.kind == game_fields.SEAT_OR_NONE:
                if value:  # left empty: not entered (the law's missing key); "nobody": null
                    deal[spec.key] = None if value == game_fields.NOBODY else value
            elif spec.kind == game_fields.INT:
                if value is not None:  # 0 is a number entered (跑胡子: 黑胡's 0 红字)
                    deal[spec.key] = value
            elif value not in (None, "", [], False):
                deal[spec.key] = value
        game_fields.drop_defaults_without_winner(self.game_fields, deal)
        adjusted = {seat: data.get(f"adjusted-{seat}") for seat in self.seats}
        if any(value is not None for value in adjusted.values()):
            deal["adjusted"] = adjusted
            deal["adjusted_reason"] = data.get("adjusted_reason", "")
        return deal
