"""Forms of the organiser's console (the POSTs and queries of `scoring.web.organiser.views`)
but the event form: staff and organiser accounts, entrants, uploads, pairing and line-ups, the
final stage, confirmations and reasons, the prize places.

The event's settings form is in `scoring.web.organiser.event_form`."""

from django import forms
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.utils.translation import gettext_lazy as _

from scoring.models import CODE_VALIDATOR, Event, EventRole
from scoring.rounds.creation import METHODS, PairingOptions
from scoring.web.forms import MAX_UPLOAD_BYTES

TABLE_NUMBER_MAX = 99_999
NAME_LIMIT = 100
METHOD_LABELS = {
    "swiss": _("积分编排（瑞士制）"),
    "roundrobin": _("循环赛"),
    "random": _("随机"),
    "manual": _("手工编排"),
}


class StaffForm(forms.Form):
    username = forms.CharField(label=_("用户名"), max_length=150, validators=[UnicodeUsernameValidator()])
    # Most staff an organiser adds are referees: the safer role is the one offered first.
    role = forms.ChoiceField(label=_("角色"), choices=EventRole.Role.choices, initial=EventRole.Role.REFEREE)
    password = forms.CharField(
        label=_("密码"), max_length=128, required=False, strip=False, widget=forms.PasswordInput(render_value=False)
    )


class PasswordForm(forms.Form):
    password = forms.CharField(label=_("新密码"), max_length=128, strip=False, widget=forms.PasswordInput)


class OrganiserAccountForm(forms.Form):
    username = forms.CharField(label=_("用户名"), max_length=150, validators=[UnicodeUsernameValidator()])
    password = forms.CharField(label=_("密码"), max_length=128, strip=False, widget=forms.PasswordInput)


class EntrantForm(forms.Form):
    """One entrant by hand: its number, one to six names, the club (and a team's name)."""

    code = forms.CharField(label=_("编号"), max_length=20, validators=[CODE_VALIDATOR])
    team = forms.CharField(label=_("队名"), max_length=NAME_LIMIT, required=False)
    club = forms.CharField(label=_("单位/地区"), max_length=NAME_LIMIT, required=False)

    def __init__(self, *args, kind=Event.Kind.PAIRS, editing=False, **kwargs):
        super().__init__(*args, **kwargs)
        count = {Event.Kind.PAIRS: 3, Event.Kind.TEAMS: 6, Event.Kind.INDIVIDUAL: 1}[kind]
        for n in range(1, count + 1):
            self.fields[f"name{n}"] = forms.CharField(
                label=_("姓名 %(n)s") % {"n": n}, max_length=NAME_LIMIT, required=n <= min(count, 2)
            )
        if kind == Event.Kind.PAIRS:
            self.fields["name3"].label = _("替补（可不填）")
        if kind != Event.Kind.TEAMS:
            del self.fields["team"]
        if editing:
            self.fields["code"].disabled = True
        self.kind = kind

    def names(self):
        return [
            self.cleaned_data[n] for n in sorted(self.cleaned_data) if n.startswith("name") and self.cleaned_data[n]
        ]


class ByeForm(forms.Form):
    round = forms.IntegerField(label=_("申请轮空的轮次"), min_value=1, max_value=9999, required=False)


class UploadForm(forms.Form):
    file = forms.FileField(label=_("文件"))

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > self.limit:
            raise forms.ValidationError(_("文件超过 %(megabytes)s MB") % {"megabytes": self.limit // 1024 // 1024})
        return upload

    limit = MAX_UPLOAD_BYTES


class ArchiveUploadForm(UploadForm):
    # The largest event's export (10,000 players, 360,000 deals, written with indent) is about
    # 220 MB, checked as it is read in less memory than its size (docs/security.md); nginx's
    # `client_max_body_size` for /organiser/import/ says the same (deploy/nginx/huapai-proxy.conf).
    limit = 256 * 1024 * 1024
    replace = forms.BooleanField(label=_("替换同代号且没有成绩的赛事"), required=False)


class PairingForm(forms.Form):
    """Availability and method: the boxes of the entrants who are present (checked in)."""

    method = forms.ChoiceField(label=_("编排方式"), choices=[(m, METHOD_LABELS[m]) for m in METHODS])
    avoid_same_club = forms.BooleanField(label=_("尽量避免同单位相遇"), required=False)
    first_table = forms.IntegerField(label=_("起始桌号"), min_value=1, max_value=TABLE_NUMBER_MAX, initial=1)
    manual = forms.CharField(
        label=_("手工编排（每行一桌：南北 东西；轮空写 bye 编号）"),
        max_length=200_000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 6}),
    )

    def __init__(self, *args, entrants=(), **kwargs):
        """`entrants`: [(code, label)] of those the round may pair."""
        super().__init__(*args, **kwargs)
        self.fields["present"] = forms.MultipleChoiceField(
            choices=list(entrants), required=False, widget=forms.CheckboxSelectMultiple
        )
        self.codes = [code for code, _label in entrants]

    def options(self):
        """The cleaned choices as `scoring.rounds.creation.PairingOptions` (unticked entrants are absent)."""
        return PairingOptions(
            absent=frozenset(self.codes) - set(self.cleaned_data["present"]),
            avoid_same_club=self.cleaned_data["avoid_same_club"],
            first_table=self.cleaned_data["first_table"],
            manual=self.cleaned_data["manual"],
        )


class ConfirmForm(forms.Form):
    """The second click of a step that asks first."""

    confirm = forms.BooleanField(required=True)


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("理由"), max_length=500, required=False, strip=True)


class StageForm(forms.Form):
    kind = forms.ChoiceField(
        label=_("决赛阶段"),
        choices=[("knockout", _("淘汰赛（半决赛、决赛、三四名）")), ("final_round_robin", _("前 N 名循环"))],
    )
    size = forms.IntegerField(label=_("人数"), min_value=3, max_value=16, initial=4)


class SessionQueryForm(forms.Form):
    """`?session=` of the line-up page: which 节 to show, 1 … the round's sessions. Anything
    else (text, "²", a huge number) is not an error for a link: the page shows the first 节."""

    def __init__(self, *args, sessions=1, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["session"] = forms.IntegerField(min_value=1, max_value=sessions, required=False)

    def chosen_session(self):
        return (self.cleaned_data["session"] if self.is_valid() else None) or 1


class LineUpForm(forms.Form):
    """A match's seats for one 节: a member of the right team or pair in each seat of its tables."""

    def __init__(self, *args, tables=(), members=None, sessions=1, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["session"] = forms.TypedChoiceField(
            label=_("从第几节起"), coerce=int, choices=[(n, str(n)) for n in range(1, sessions + 1)]
        )
        for table in tables:
            for seat in ("N", "S", "E", "W"):
                team = table.ns_entrant if seat in "NS" else table.ew_entrant
                self.fields[f"t{table.number}-{seat}"] = forms.ChoiceField(
                    label=f"{table.number} {seat}",
                    choices=[(p.code, f"{p.code} {p.name}") for p in members[team.id]],
                )
        self.tables = list(tables)

    def seats_by_table(self):
        return {
            table.number: {seat: self.cleaned_data[f"t{table.number}-{seat}"] for seat in ("N", "E", "S", "W")}
            for table in self.tables
        }


class AwardsForm(forms.Form):
    """`?places=` of the end-of-event page: how many prize places to call. Anything else is not
    an error for a link: the page calls the first three."""

    DEFAULT = 3
    places = forms.IntegerField(label=_("颁奖名次数"), min_value=1, max_value=50, required=False)

    def chosen_places(self):
        return (self.cleaned_data["places"] if self.is_valid() else None) or self.DEFAULT
