"""Django forms for every POST of the referee and organiser pages.

No view calls `int()` on `request.POST`: each page's fields are checked here,
numbers within the bounds their columns and the rules allow. Card assignments
are not form fields: `scoring.entry.grid` maps them to deal JSON and the rules
engine names every problem with them.
"""

from django import forms

from scoring.games.huapai import PENALTY_MIN, SEATS
from scoring.games.huapai.stored import ADJUSTED_LIMIT
from scoring.models import CODE_VALIDATOR, Irregularity

MAX_VERSION = 999_999_999
MAX_PENALTY = -PENALTY_MIN  # entered as a positive number of points to deduct
TEXT_LIMIT = 500
MAX_UPLOAD_BYTES = 2 * 1024 * 1024


def version_field(required=True):
    return forms.IntegerField(min_value=1, max_value=MAX_VERSION, required=required, widget=forms.HiddenInput)


class DealEntryForm(forms.Form):
    """The scalar fields of the entry page; the card grid is read by `scoring.entry.grid`."""

    version = version_field(required=False)
    reason = forms.CharField(max_length=TEXT_LIMIT, required=False, strip=True)
    adjusted_reason = forms.CharField(max_length=TEXT_LIMIT, required=False, strip=True)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for seat in SEATS:
            self.fields[f"penalty-{seat}"] = forms.IntegerField(
                min_value=0, max_value=MAX_PENALTY, required=False, label=f"{seat} 罚分"
            )
            self.fields[f"adjusted-{seat}"] = forms.IntegerField(
                min_value=-ADJUSTED_LIMIT, max_value=ADJUSTED_LIMIT, required=False, label=f"{seat} 调整分"
            )

    def entry_values(self):
        """Cleaned scalars as the strings `scoring.entry.grid.deal_from_form` reads."""
        values = {}
        for name, value in self.cleaned_data.items():
            values[name] = "" if value is None else str(value)
        return values


class ConfirmForm(forms.Form):
    version = version_field()
    next = forms.BooleanField(required=False)  # then open the next deal waiting for this referee


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


class IrregularityForm(forms.Form):
    version = version_field()
    seat = forms.ChoiceField(choices=[("", "—"), *((seat, seat) for seat in SEATS)], required=False)
    kind = forms.ChoiceField(choices=Irregularity.Kind.choices)
    penalty = forms.IntegerField(min_value=0, max_value=MAX_PENALTY, required=False)
    ruling = forms.CharField(max_length=TEXT_LIMIT, strip=True)


class SwapForm(forms.Form):
    first = forms.CharField(max_length=20, validators=[CODE_VALIDATOR])
    second = forms.CharField(max_length=20, validators=[CODE_VALIDATOR])


def form_errors(form):
    """Every error of a bound form as one line each, naming the field."""
    lines = []
    for name, errors in form.errors.items():
        label = form.fields[name].label or name if name in form.fields else ""
        lines.extend(f"{label}：{error}" if label else str(error) for error in errors)
    return lines
