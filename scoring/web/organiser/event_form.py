"""The organiser's event form (`templates/organiser/event_form.html`): an event's settings and
rules — 华牌's options, another game's options as data, the procedures, the tie-break chain —
with the two queries of that page (`?game=`, the slug suggestion).

The console's other forms are in `scoring.web.organiser.forms`."""

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring.engine.clock import BOARD_MINUTES_LIMIT, ROUND_MINUTES_LIMIT, clock_settings
from scoring.engine.not_played import DEFAULT_RULE, RULES, rule_of
from scoring.engine.vocabulary import ARCHIVE_TIEBREAKS, TIEBREAK_LABELS
from scoring.entry.versioned import CONTROL_CHARACTERS
from scoring.events.rulebook import option_label, value_word
from scoring.games import GAMES, game_of
from scoring.games.huapai.rulesets import NORMALISATIONS, SCALE_MAX, SCALE_MIN
from scoring.games.stored import carries_state
from scoring.messages import standings_labels
from scoring.models import Event
from scoring.web.forms import PenaltyField

TIEBREAK_POSITIONS = 5
MATCH_LENGTH_MAX = 1000
POINTS_LIMIT = 1000

DEFAULT_CHOICE = [("", _("按规则默认"))]
YES_NO = [("yes", _("是")), ("no", _("否"))]
NORMALISATION_LABELS = {
    "none": _("不归一（原始分）"),
    "zero_sum": _("零和（四家减平均）"),
    "partnership": _("搭档差（对家分差）"),
}
NOT_PLAYED_LABELS = {
    "zero": _("无成绩（双方 0 分）"),
    "average": _("这一副在其他桌的平均分"),
    "adjusted": _("裁判长给调整分"),
}


def _bound(field, low, high):
    field.validators += [MinValueValidator(low), MaxValueValidator(high)]
    field.widget.attrs.update(min=low, max=high)


def tiebreak_choices():
    labels = {key: pgettext_lazy("tie-break", label) for key, label in TIEBREAK_LABELS.items()}
    labels["lot"] = pgettext_lazy("tie-break", "抽签")
    return [("", "—"), *((key, labels[key]) for key in ARCHIVE_TIEBREAKS)]


# The 华牌 options' own fields, and the model fields only an event of a game with 局 uses.
HUAPAI_OPTION_FIELDS = ("first_exposure", "self_capture", "normalisation", "scale")
# What an event whose game fixes its kind to individuals and its match to a number of deals
# (an event option, `deals_per_match`) does not choose: the form leaves them out.
MATCH_FIELDS = ("match_mode", "match_length", "game_threshold")
TEAM_FIELDS = ("points_win", "points_draw", "points_loss", "swap_directions")
DEALS_OPTION = "deals_per_match"  # an event option: the deals a table plays (the match length)
STATE_DEALS_OPTION = "deals"  # a match carried by its state ends after this many deals (升级 M3)


def _encoded(value):
    """An option's value as a form's choice says it (true / false for a JSON boolean)."""
    return str(value).lower() if type(value) is bool else str(value)


def option_field(spec, label):
    """A form field for one of a game's options (options as data: choices, or minimum…maximum)."""
    choices = spec.choices or None
    if choices is None:
        field = forms.IntegerField(label=label, min_value=spec.minimum, max_value=spec.maximum, required=False)
        field.widget.attrs.update(min=spec.minimum, max=spec.maximum)
    else:
        field = forms.TypedChoiceField(
            label=label,
            choices=[(_encoded(choice), value_word(spec, choice)) for choice in choices],
            coerce=lambda text, choices=choices: next(c for c in choices if _encoded(c) == text),
            required=False,
        )
    if spec.default is None:
        # No default value to name ("默认：None"): an option that may be left unset says what
        # unset means (升级's deals: 不限副数); any other says nothing.
        if spec.nullable and spec.none_phrase:
            field.help_text = _("留空（默认）：%(value)s") % {"value": _(spec.none_phrase)}
    elif spec.nullable and choices is None:  # empty is a value of its own: none (升级's target)
        field.help_text = _("默认：%(value)s；留空：不设") % {"value": value_word(spec, spec.default)}
    else:
        field.help_text = _("默认：%(value)s") % {"value": value_word(spec, spec.default)}
    return field


# Typed text holds no control characters, as the entrant form and the admin refuse them (they
# reach printed papers, workbooks and archives); a one-line field no line break either, as the
# entrant form's names.
NO_CONTROL_CHARACTERS = RegexValidator(
    CONTROL_CHARACTERS, _("不能含有控制字符"), code="control_characters", inverse_match=True
)
NO_CONTROL_CHARACTERS_ON_ONE_LINE = RegexValidator(
    r"[\x00-\x1f\x7f\ud800-\udfff]", _("不能含有控制字符"), code="control_characters", inverse_match=True
)


class EventForm(forms.ModelForm):
    """An event's settings; per-event rule options and the tie-break chain as plain fields.

    The game (chosen when the event is created, frozen with the results) decides the rest: 华牌
    has its four option fields; another game has a field per option of its own (options as
    data, `Game.option_specs`), its kind where the law fixes it, and
    its match length from the option `deals_per_match`. Choosing another game in the form
    shows that game's fields first (`switched`), saving nothing."""

    first_exposure = forms.ChoiceField(label=_("承认首明"), choices=DEFAULT_CHOICE + YES_NO, required=False)
    self_capture = forms.ChoiceField(label=_("自得翻倍"), choices=DEFAULT_CHOICE + YES_NO, required=False)
    normalisation = forms.ChoiceField(
        label=_("分数归一"),
        choices=DEFAULT_CHOICE + [(key, NORMALISATION_LABELS[key]) for key in NORMALISATIONS],
        required=False,
    )
    scale = forms.IntegerField(label=_("倍数"), min_value=SCALE_MIN, max_value=SCALE_MAX, required=False)
    # Procedures (scoring.rulings): kept in the event's `extra`, which archives carry as they are.
    not_played = forms.ChoiceField(
        label=_("未打的副计分"),
        choices=[(rule, NOT_PLAYED_LABELS[rule]) for rule in RULES],
        initial=DEFAULT_RULE,
        required=False,  # not sent: the default
        help_text=_("叫停时未开始、或裁决未打的副；默认无成绩"),
    )
    round_minutes = forms.IntegerField(
        label=_("每轮分钟数"),
        min_value=0,
        max_value=ROUND_MINUTES_LIMIT,
        required=False,
        help_text=_("留空或 0：不计时"),
    )
    board_minutes = forms.IntegerField(
        label=_("每副分钟数"),
        min_value=0,
        max_value=BOARD_MINUTES_LIMIT,
        required=False,
        help_text=_("可不填；不填每轮分钟数时，每轮时间 = 每副分钟数 × 每场副数"),
    )
    late_penalty = PenaltyField(label=_("迟打罚分"), help_text=_("时间到之后才录入的副，裁判可给的罚分；留空：不罚"))
    # Players' entry (table-api.md): by default a board entered and verified from one phone is only
    # flagged to the referees; an event that wants two phones refuses it.
    refuse_same_phone = forms.BooleanField(
        label=_("拒绝同一部手机录入并确认"),
        required=False,
        help_text=_("选手录入时：同一副由同一部手机录入又确认，默认只提示裁判；勾选则拒绝"),
    )

    class Meta:
        model = Event
        fields = [
            "name",
            "slug",
            "start_date",
            "end_date",
            "venue",
            "chief_arbiter",
            "planned_rounds",
            "game",
            "kind",
            "ruleset",
            "game_threshold",
            "match_mode",
            "match_length",
            "points_win",
            "points_draw",
            "points_loss",
            "sessions_per_round",
            "swap_directions",
            "correction_minutes",
            "appeals_committee",
            "appeal_deposit",
            "double_entry",
            "entry",
        ]
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}),
            "end_date": forms.DateInput(attrs={"type": "date"}),
        }

    def __init__(self, *args, frozen=(), game=None, **kwargs):
        super().__init__(*args, **kwargs)
        posted = self.data.get("game") if self.is_bound else None
        chosen = posted if posted in GAMES and "game" not in frozen else game
        self.game = GAMES[chosen] if chosen in GAMES else game_of(self.instance)
        # The game the page showed the fields of: another one chosen means "show its fields".
        shown = self.data.get("shown_game") if self.is_bound else None
        self.switched = shown in GAMES and shown != self.game.id
        self.fields["game"].required = False
        self.fields["game"].initial = self.game.id
        self.fields["shown_game"] = forms.CharField(widget=forms.HiddenInput, required=False, initial=self.game.id)
        self.fields["slug"].required = False
        self.fields["slug"].max_length = 50
        self.fields["slug"].help_text = _("网址中的代号；留空则按名称的拼音生成")
        self.fields["slug"].widget.attrs.update(
            {"data-slug-from": "#id_name", "data-suggest-url": reverse("organiser-slug-suggestion")}
        )
        for field in self.fields.values():
            if isinstance(field, forms.CharField):  # name, venue, chief arbiter, appeals committee…
                one_line = not isinstance(field.widget, forms.Textarea)
                field.validators.append(NO_CONTROL_CHARACTERS_ON_ONE_LINE if one_line else NO_CONTROL_CHARACTERS)
        # Every number entering the system is bounded (the model's columns are wider).
        _bound(self.fields["match_length"], 1, MATCH_LENGTH_MAX)
        for name in ("points_win", "points_draw", "points_loss"):
            _bound(self.fields[name], -POINTS_LIMIT, POINTS_LIMIT)
        _bound(self.fields["sessions_per_round"], 1, 20)
        _bound(self.fields["correction_minutes"], 0, 24 * 60)
        _bound(self.fields["appeal_deposit"], 0, 100_000)
        self.fields["appeal_deposit"].required = False  # left empty: no deposit
        self.fields["swap_directions"].help_text = _("双人赛：第 2、4…节两对交换南北与东西；成绩仍按抽签表的座位录入")
        self.fields["appeals_committee"].help_text = _("委员的姓名，用顿号分开；申诉在更正期内提出")
        for position in range(1, TIEBREAK_POSITIONS + 1):
            self.fields[f"tiebreak_{position}"] = forms.ChoiceField(
                label=_("破同分第 %(n)s 项") % {"n": position}, choices=tiebreak_choices(), required=False
            )
        options = self.instance.options or {}
        for key in ("first_exposure", "self_capture"):
            if key in options:
                self.initial[key] = "yes" if options[key] else "no"
        for key in ("normalisation", "scale"):
            if key in options:
                self.initial[key] = options[key]
        extra = self.instance.extra if isinstance(self.instance.extra, dict) else {}
        self.initial["not_played"] = rule_of(extra)
        self.initial["refuse_same_phone"] = bool(extra.get("refuse_same_phone"))
        clock = clock_settings(extra)
        for key in ("round_minutes", "board_minutes"):
            if getattr(clock, key):
                self.initial[key] = getattr(clock, key)
        if clock.late_penalty:
            self.initial["late_penalty"] = -clock.late_penalty
        for name in ("round_minutes", "board_minutes"):
            self.fields[name].widget.attrs.update(min=0, max=self.fields[name].max_value)
        chain = self.instance.tiebreaks if isinstance(self.instance.tiebreaks, list) else []
        for position, key in enumerate(chain[:TIEBREAK_POSITIONS], start=1):
            self.initial[f"tiebreak_{position}"] = key
        self.frozen = [name for name in frozen if name in self.fields]
        for name in self.frozen:
            self.fields[name].disabled = True
        if "options" in frozen:
            for name in ("first_exposure", "self_capture", "normalisation", "scale"):
                self.fields[name].disabled = True
        if "tiebreaks" in frozen:
            for position in range(1, TIEBREAK_POSITIONS + 1):
                self.fields[f"tiebreak_{position}"].disabled = True
        # The game's own rule sets only (another game's is refused by `Event.clean` anyway).
        self.fields["ruleset"].choices = [(name, name) for name in self.game.rulesets]
        if self.instance.ruleset not in self.game.rulesets:
            self.initial["ruleset"] = self.game.default_ruleset
        self.game_option_names = []
        if self.game.generic_options:
            self._game_fields(frozen)

    def _no_penalty_tiebreak(self):
        """A game without penalty points (升级…) is not offered 罚分 as a tie-break, where it is
        always 0; a chain frozen by the event's first deal stays as stored."""
        for position in range(1, TIEBREAK_POSITIONS + 1):
            field = self.fields.get(f"tiebreak_{position}")
            if field is None or field.disabled:
                continue
            field.choices = [(key, label) for key, label in field.choices if key != "penalties"]
            if self.initial.get(f"tiebreak_{position}") == "penalties":
                self.initial[f"tiebreak_{position}"] = ""

    def _game_fields(self, frozen):
        """Another game than 华牌: its options as fields, and what the game fixes left out."""
        game = self.game
        for name in HUAPAI_OPTION_FIELDS:
            del self.fields[name]
        if len(game.rulesets) == 1:
            del self.fields["ruleset"]
        own_words = standings_labels(game)  # 升级: 级差 for 得分差, in the page's language
        if not game.takes_penalties:
            self._no_penalty_tiebreak()
        for position in range(1, TIEBREAK_POSITIONS + 1) if own_words else ():
            field = self.fields.get(f"tiebreak_{position}")
            if field is not None:
                field.choices = [(key, own_words.get(key, label)) for key, label in field.choices]
        if game.event_kinds and self.instance.kind not in game.event_kinds:
            self.initial["kind"] = game.event_kinds[0]  # another kind is refused (`Event.clean`)
        if game.event_kinds and "kind" in self.fields:
            # Only the kinds the game's law allows are offered, so the kind shown is the kind saved
            # (a 跑胡子 event showed 双人赛 and was kept as 个人赛); another posted is refused in the
            # model's words.
            field = self.fields["kind"]
            field.choices = [(value, label) for value, label in field.choices if value in game.event_kinds]
            kinds = "、".join(str(Event.Kind(kind).label) for kind in game.event_kinds)
            field.error_messages["invalid_choice"] = _("%(game)s 只能是%(kinds)s") % {"game": game.name, "kinds": kinds}
        if game.event_kinds is not None and set(game.event_kinds) == {Event.Kind.INDIVIDUAL}:
            for name in TEAM_FIELDS:  # individuals: no 场分 and no directions to swap
                del self.fields[name]
            for position in range(1, TIEBREAK_POSITIONS + 1):
                del self.fields[f"tiebreak_{position}"]
        if not game.match_thresholds:
            del self.fields["game_threshold"]
            del self.fields["match_mode"]
        specs = game.option_specs
        if any(spec.name == DEALS_OPTION for spec in specs):
            del self.fields["match_length"]
        elif carries_state(game):
            if self.instance.pk is None and game.default_match_length:
                self.initial["match_length"] = game.default_match_length
            self.fields["match_length"].label = _("每桌每轮至多副数")
            self.fields["match_length"].help_text = _(
                "比赛到目标级数（或打满副数）即结束；到此副数仍未结束的，按当时级数定胜负。设了副数时取副数"
            )
        stored = self.instance.options if isinstance(self.instance.options, dict) else {}
        for spec in specs:
            name = f"option_{spec.name}"
            self.fields[name] = option_field(spec, option_label(spec))
            if spec.name == STATE_DEALS_OPTION and carries_state(game):
                _bound(self.fields[name], 1, MATCH_LENGTH_MAX)  # it becomes the round's boards a table
            value = stored.get(spec.name, spec.default)
            self.initial[name] = _encoded(value) if spec.choices else value
            if "options" in frozen:
                self.fields[name].disabled = True
            self.game_option_names.append(name)

    @property
    def game_option_fields(self):
        return [self[name] for name in self.game_option_names]

    def clean_game(self):
        return self.game.id

    def _update_errors(self, errors):
        """A model error about a setting this form has no field for (what the game fixes) is
        the form's own error, not a crash."""
        if hasattr(errors, "error_dict"):
            placed = {}
            for key, messages in errors.error_dict.items():
                placed.setdefault(key if key in self.fields else NON_FIELD_ERRORS, []).extend(messages)
            errors = ValidationError(placed)
        super()._update_errors(errors)

    def clean_appeal_deposit(self):
        return self.cleaned_data.get("appeal_deposit") or 0

    def clean_slug(self):
        """Left empty when editing: the event keeps its address (new events get a proposal)."""
        return self.cleaned_data["slug"] or self.instance.slug

    def clean(self):
        cleaned = super().clean()
        chain = [cleaned.get(f"tiebreak_{p}") for p in range(1, TIEBREAK_POSITIONS + 1)]
        chain = [key for key in chain if key]
        if len(set(chain)) != len(chain):
            self.add_error("tiebreak_1", _("破同分标准不能重复"))
            chain = []  # keep the stored chain: Event.clean would name a field this form does not have
        options = {}
        for key in ("first_exposure", "self_capture"):
            if cleaned.get(key):
                options[key] = cleaned[key] == "yes"
        if cleaned.get("normalisation"):
            options["normalisation"] = cleaned["normalisation"]
        if cleaned.get("scale") is not None:
            options["scale"] = cleaned["scale"]
        if self.game_option_names:
            options = self._game_options(cleaned)
        self.instance.options = options
        self.instance.tiebreaks = chain or list(self.instance.tiebreaks or [])
        self.instance.extra = self._procedures(cleaned)
        start, end = cleaned.get("start_date"), cleaned.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("结束日期不能早于开始日期"))
        if cleaned.get("swap_directions") and (
            cleaned.get("kind", self.instance.kind) != Event.Kind.PAIRS or (cleaned.get("sessions_per_round") or 1) < 2
        ):
            self.add_error("swap_directions", _("交换坐向只用于每轮两节或以上的双人赛"))
        return cleaned

    def _procedures(self, cleaned):
        """The event's `extra` with the procedures' settings: a key only where it is not the
        default, so an archive names what the organiser chose and nothing else."""
        extra = dict(self.instance.extra) if isinstance(self.instance.extra, dict) else {}
        values = {
            "not_played": cleaned.get("not_played") or DEFAULT_RULE,
            "round_minutes": cleaned.get("round_minutes") or 0,
            "board_minutes": cleaned.get("board_minutes") or 0,
            "late_penalty": -(cleaned.get("late_penalty") or 0),
            "refuse_same_phone": bool(cleaned.get("refuse_same_phone")),
        }
        defaults = {
            "not_played": DEFAULT_RULE,
            "round_minutes": 0,
            "board_minutes": 0,
            "late_penalty": 0,
            "refuse_same_phone": False,
        }
        for key, value in values.items():
            if value == defaults[key]:
                extra.pop(key, None)
            else:
                extra[key] = value
        return extra

    def _game_options(self, cleaned):
        """Another game's options, every one written out; what the game fixes set with them."""
        game = self.game
        options = {}
        for spec in game.option_specs:
            value = cleaned.get(f"option_{spec.name}")
            stored = self.instance.options if isinstance(self.instance.options, dict) else {}
            if self.fields[f"option_{spec.name}"].disabled and spec.name in stored:
                options[spec.name] = stored[spec.name]  # frozen with the results: as it is
                continue
            if spec.nullable and not spec.choices and value is None and f"option_{spec.name}" in self.data:
                # Posted empty: none (the form shows the default to begin with); not posted: the default.
                options[spec.name] = None
                continue
            options[spec.name] = spec.default if value is None or value == "" else value
        if "ruleset" not in self.fields:
            self.instance.ruleset = game.default_ruleset
        if "match_mode" not in self.fields:
            self.instance.match_mode = Event.MatchMode.BOARDS
        if DEALS_OPTION in options:
            self.instance.match_length = options[DEALS_OPTION]
        elif options.get(STATE_DEALS_OPTION) and carries_state(game):
            # A match of a set number of deals (升级's `deals`): a table plays that many at most.
            self.instance.match_length = options[STATE_DEALS_OPTION]
            if "match_length" in cleaned:  # the form's own field would write its value over it
                cleaned["match_length"] = options[STATE_DEALS_OPTION]
        return options

    def changed_result_fields(self):
        """The names of result-deciding settings this form changes (see `scoring.events.setup`)."""
        changed = set(self.changed_data) - {"shown_game"}
        if changed & {"first_exposure", "self_capture", "normalisation", "scale", *self.game_option_names}:
            changed.add("options")
        if any(name.startswith("tiebreak_") for name in changed):
            changed.add("tiebreaks")
        return changed


class GameChoiceForm(forms.Form):
    """`?game=` on the event form: the game whose settings the form shows."""

    game = forms.ChoiceField(choices=lambda: [(game_id, game_id) for game_id in GAMES], required=False)

    def chosen(self):
        return (self.cleaned_data["game"] or None) if self.is_valid() else None


class SlugQueryForm(forms.Form):
    name = forms.CharField(max_length=200)
