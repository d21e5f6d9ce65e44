"""The competition as stored: events, entrants, rounds, matches, tables and deals.

Deals hold exactly what deal-json.md holds; the engine's seat scores are
cached on each deal when it is saved (by `scoring.entry.services` or the archive
import), so standings can sum them in SQL. Nothing here computes a score.

One module for the whole schema, as Django keeps an app's models: the tables refer to each
other on nearly every line, and a reader checking a foreign key or a constraint finds it here.
Behaviour lives in the services, not on the models.
"""

import hashlib
import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring.engine import vocabulary
from scoring.engine.names import pinyin_sort_key
from scoring.games import DEFAULT_GAME, EVENT_GAMES, GAMES
from scoring.games.refusals import DealError
from scoring.games.stored import canonical_deal, column_scores, rules_for_event
from scoring.messages import message_text, people_label


# The games' names in the page's language (`Game.name` is the game's own, in Chinese, marked for
# translation where each game is defined).
# Callables, read when asked: a game registered after start-up is among them.
def game_choices():
    return [(game_id, _(game.name)) for game_id, game in EVENT_GAMES.items()]


# Every game's rule sets (an event's must be one of its game's: `Event.clean`).
def ruleset_choices():
    return [(name, name) for game in GAMES.values() for name in game.rulesets]


# shared/formats/event-archive.md: the characters of slugs and entrant numbers.
SLUG_VALIDATOR = RegexValidator(r"^[a-z0-9-]{1,50}$", _("代号只能含小写字母、数字和 -（1–50 个字符）"), code="bad_slug")
CODE_VALIDATOR = RegexValidator(
    r"^[A-Za-z0-9_-]{1,20}$", _("编号只能含字母、数字、- 和 _（1–20 个字符）"), code="bad_code"
)
# A pair's or team's players are numbered after it ("A01-1"), so a player's number may be longer.
PLAYER_CODE_VALIDATOR = RegexValidator(
    r"^[A-Za-z0-9_-]{1,32}$", _("编号只能含字母、数字、- 和 _（1–32 个字符）"), code="bad_code"
)


def default_tiebreaks():
    return list(vocabulary.DEFAULT_TIEBREAKS)


def random_version_start():
    return secrets.randbelow(2**40)


# table-api.md: a table's link carries a random token of at least 128 bits; an entrant's code
# is at least 6 characters. Codes are read aloud and typed on phones: no 0/O, 1/I/L.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
ACCESS_CODE_LENGTH = 8


def new_table_token():
    return secrets.token_urlsafe(24)  # 192 bits, 32 URL-safe characters


def table_token_digest(token):
    """What a table link is looked up by: SHA-256 of its token, in hex (docs/security.md)."""
    return hashlib.sha256(token.encode()).hexdigest()


class TokenDigestField(models.CharField):
    """The digest of the row's `token`, computed whenever the row is written (`save()` and
    `bulk_create` alike), so it cannot drift from the token it stands for."""

    def pre_save(self, model_instance, add):
        value = table_token_digest(model_instance.token)
        setattr(model_instance, self.attname, value)
        return value


def new_access_code():
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(ACCESS_CODE_LENGTH))


class Event(models.Model):
    class Kind(models.TextChoices):
        PAIRS = vocabulary.Kind.PAIRS.value, _("双人赛")
        TEAMS = vocabulary.Kind.TEAMS.value, _("团体赛")
        INDIVIDUAL = vocabulary.Kind.INDIVIDUAL.value, _("个人赛")

    class MatchMode(models.TextChoices):
        BOARDS = vocabulary.MatchMode.BOARDS.value, _("计副制")
        GAMES = vocabulary.MatchMode.GAMES.value, _("局制")

    slug = models.SlugField(_("代号"), max_length=80, unique=True, validators=[SLUG_VALIDATOR])
    name = models.CharField(_("名称"), max_length=200)
    start_date = models.DateField(_("开始日期"), null=True, blank=True)
    end_date = models.DateField(_("结束日期"), null=True, blank=True)
    venue = models.CharField(_("地点"), max_length=200, blank=True)
    # The game played (shared/rules/games/README.md §0); every rule, option and deal is its.
    # Left out of a form (blank), an event plays the default game (`clean`).
    game = models.CharField(_("游戏"), max_length=30, choices=game_choices, default=DEFAULT_GAME, blank=True)
    ruleset = models.CharField(_("规则"), max_length=20, choices=ruleset_choices, default="huapai")
    game_threshold = models.PositiveIntegerField(
        _("局分"),
        default=vocabulary.DEFAULT_GAME_THRESHOLD,
        choices=[(t, f"±{t}") for t in vocabulary.GAME_THRESHOLDS],
    )
    kind = models.CharField(_("类型"), max_length=12, choices=Kind.choices, default=Kind.PAIRS)
    match_mode = models.CharField(_("赛制"), max_length=8, choices=MatchMode.choices, default=MatchMode.BOARDS)
    match_length = models.PositiveIntegerField(_("每场副数/局数"), default=16)
    points_win = models.IntegerField(_("胜场分"), default=2)
    points_draw = models.IntegerField(_("平场分"), default=1)
    points_loss = models.IntegerField(_("负场分"), default=0)
    tiebreaks = models.JSONField(_("破同分顺序"), default=default_tiebreaks)
    # Per-event overrides of the rule set (README §5a): first_exposure, self_capture,
    # normalisation, scale. Empty: the rule set's own values. Another game's options (deal and
    # event options alike, `scoring.games.stored.split_options`) for an event of that game.
    options = models.JSONField(_("规则选项"), default=dict, blank=True)
    double_entry = models.BooleanField(_("双人独立录入"), default=False)
    correction_minutes = models.PositiveIntegerField(_("更正期（分钟）"), default=30)
    sessions_per_round = models.PositiveSmallIntegerField(_("每轮节数"), default=1)
    # Pairs events of several 节: the pairs change lines (NS ↔ EW) in every even 节
    # (scoring.events.lineups.seat_in_session); results stay with the draw's seats.
    swap_directions = models.BooleanField(_("节间交换坐向"), default=False)

    class Entry(models.TextChoices):
        REFEREES = "referees", _("裁判录入")
        PLAYERS = "players", _("选手录入、对方核对")

    # table-api.md: who enters deals; changeable between rounds; referees keep every power.
    entry = models.CharField(_("录入方式"), max_length=10, choices=Entry.choices, default=Entry.REFEREES)
    # How many rounds the event is planned to run; with it the site knows when the
    # last round is official and the standings are final. Empty: not decided yet.
    planned_rounds = models.PositiveSmallIntegerField(
        _("计划轮数"), null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(200)]
    )
    # Set when the organiser closes the event: the standings are final.
    finished_at = models.DateTimeField(null=True, blank=True)
    chief_arbiter = models.CharField(_("裁判长"), max_length=100, blank=True)
    # Appeals (scoring.rulings.appeals): lodged within the correction period; the committee's
    # names as the organiser gives them; a deposit (0: none), returned or forfeited by decision.
    appeals_committee = models.CharField(_("申诉委员会"), max_length=300, blank=True)
    appeal_deposit = models.PositiveIntegerField(_("申诉保证金"), default=0, validators=[MaxValueValidator(100_000)])
    extra = models.JSONField(default=dict, blank=True)  # archive keys the site does not model
    # The base of the results version (see `scoring.cache.versions`). It starts at a
    # random value so a deleted and re-created event (ids can be reused) never
    # meets the old event's cache entries.
    results_version = models.BigIntegerField(default=random_version_start, editable=False)
    # The same for what the public sees: public standings stay cached while rounds are in play.
    public_version = models.BigIntegerField(default=random_version_start, editable=False)

    class Meta:
        verbose_name = pgettext_lazy("singular", "赛事")
        verbose_name_plural = pgettext_lazy("plural", "赛事")
        ordering = ["-start_date", "name"]

    def __str__(self):
        return self.name

    def clean(self):
        super().clean()
        errors = {}
        self.game = self.game or DEFAULT_GAME
        game = GAMES.get(self.game)
        if game is not None and self.ruleset not in game.rulesets:
            errors["ruleset"] = [
                _("%(game)s 的规则只有：%(known)s") % {"game": game.name, "known": ", ".join(game.rulesets)}
            ]
        elif game is not None:
            try:
                rules_for_event(game, self.ruleset, self.options, self.game_threshold)
            except DealError as problem:
                errors["options"] = [message_text(problem)]
        if game is not None and game.event_kinds == ():
            errors["game"] = [_("本站还不能举办%(game)s比赛（只能用 score_deal 计分）") % {"game": game.name}]
        elif game is not None and game.event_kinds is not None and self.kind not in game.event_kinds:
            kinds = "、".join(str(Event.Kind(kind).label) for kind in game.event_kinds)
            errors["kind"] = [_("%(game)s 只能是%(kinds)s") % {"game": game.name, "kinds": kinds}]
        if game is not None and self.match_mode == Event.MatchMode.GAMES and not game.match_thresholds:
            # The archive's rule too: a game whose match has no 局 has no games mode (its pages would
            # have nothing to group a table's deals by).
            errors["match_mode"] = [str(_("{game} 没有局制")).format(game=game.name)]
        chain = self.tiebreaks if isinstance(self.tiebreaks, list) else None
        if chain is None or not chain or any(key not in vocabulary.ARCHIVE_TIEBREAKS for key in chain):
            known = ", ".join(vocabulary.ARCHIVE_TIEBREAKS)
            errors["tiebreaks"] = [_("破同分顺序只能由这些标准组成：%(known)s") % {"known": known}]
        elif len(set(chain)) != len(chain):
            errors["tiebreaks"] = [_("破同分标准不能重复")]
        if errors:
            raise ValidationError(errors)

    @property
    def is_finished(self):
        """The organiser has closed the event: its standings are final."""
        return self.finished_at is not None

    @property
    def match_points(self):
        return {"win": self.points_win, "draw": self.points_draw, "loss": self.points_loss}


class ResultsCounter(models.Model):
    """One shard of an event's results version (see `scoring.cache.versions`)."""

    SHARDS = 16

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    shard = models.PositiveSmallIntegerField()
    results = models.BigIntegerField(default=0)
    public = models.BigIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "shard"], name="results_counter_shard")]

    def __str__(self):
        return f"{self.event_id}/{self.shard}: {self.results}"


class Player(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="players")
    code = models.CharField(_("编号"), max_length=32, validators=[PLAYER_CODE_VALIDATOR])
    name = models.CharField(_("姓名"), max_length=100)
    sort_key = models.CharField(_("拼音排序"), max_length=200, blank=True, db_index=True)
    club = models.CharField(_("单位/地区"), max_length=100, blank=True)
    federation_id = models.CharField(_("会员号"), max_length=40, blank=True)
    extra = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = pgettext_lazy("singular", "选手")
        verbose_name_plural = pgettext_lazy("plural", "选手")
        ordering = ["sort_key", "code"]
        constraints = [models.UniqueConstraint(fields=["event", "code"], name="player_code_unique")]

    def __str__(self):
        return f"{self.code} {self.name}"

    def save(self, *args, **kwargs):
        if not self.sort_key:
            self.sort_key = pinyin_sort_key(self.name)
        super().save(*args, **kwargs)


class Entrant(models.Model):
    """What standings rank, in every kind of event: a pair, a team, or (individual events)
    an entrant of one player with that player's number. Seats are on tables (players);
    results are keyed by entrant."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entrants")
    code = models.CharField(_("编号"), max_length=32, validators=[CODE_VALIDATOR])
    name = models.CharField(_("名称"), max_length=200, blank=True)
    players = models.ManyToManyField(Player, through="Membership", related_name="entrants")
    # event-archive.md: not paired after this round (its results stand) / first paired in this round.
    withdrawn_after_round = models.PositiveIntegerField(_("退赛（此轮之后）"), null=True, blank=True)
    joined_round = models.PositiveIntegerField(_("补报（从此轮起）"), null=True, blank=True)
    bye_round = models.PositiveIntegerField(_("申请轮空的轮次"), null=True, blank=True)
    # The entrant's personal code for table entry (table-api.md): a secret, printed on its
    # entrant card only; never in archives, exports or public pages.
    access_code = models.CharField(max_length=16, default=new_access_code, editable=False)
    extra = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = pgettext_lazy("singular", "参赛队/对")
        verbose_name_plural = pgettext_lazy("plural", "参赛队/对")
        ordering = ["code"]
        constraints = [
            models.UniqueConstraint(fields=["event", "code"], name="entrant_code_unique"),
            models.UniqueConstraint(fields=["event", "access_code"], name="entrant_access_code_unique"),
        ]

    def __str__(self):
        return f"{self.code} {self.display_name}"

    def plays_in(self, number):
        """Whether the entrant is paired in round `number` (not withdrawn, already joined, no bye asked)."""
        return (
            (self.withdrawn_after_round is None or number <= self.withdrawn_after_round)
            and (self.joined_round is None or number >= self.joined_round)
            and self.bye_round != number
        )

    @property
    def display_name(self):
        if self.name:
            return self.name
        return people_label([m.player for m in self.memberships.all()])


def with_members(prefix=""):
    """A prefetch of entrants' memberships with their players in one query.

    Not `prefetch_related("memberships__player")`: Django then reads the players with one
    `id = … OR id = …` term per player, which SQLite refuses beyond 1,000 players
    ("Expression tree is too large"); the join reads them with the memberships.
    """
    return models.Prefetch(f"{prefix}memberships", queryset=Membership.objects.select_related("player"))


class Membership(models.Model):
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE)
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["position"]
        constraints = [models.UniqueConstraint(fields=["entrant", "position"], name="membership_position_unique")]

    def __str__(self):
        return f"{self.entrant.code} #{self.position} {self.player.name}"


def public_rounds(path=""):
    """The one filter of what the public sees: rounds provisional or official. `path` leads
    from the filtered model to its round, e.g. "table__round__"; the querysets' `published()`
    and `public()` below are what the rest of the code uses."""
    return models.Q(**{f"{path}status__in": vocabulary.PUBLISHED_STATUSES})


class RoundQuerySet(models.QuerySet):
    def published(self):
        """Rounds the public sees: provisional or official."""
        return self.filter(public_rounds())

    def unpublished(self):
        """Rounds the public does not see yet: scheduled or in play."""
        return self.exclude(public_rounds())


class Round(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = vocabulary.RoundStatus.SCHEDULED.value, _("未开始")
        IN_PLAY = vocabulary.RoundStatus.IN_PLAY.value, _("进行中")
        PROVISIONAL = vocabulary.RoundStatus.PROVISIONAL.value, _("临时公布")
        OFFICIAL = vocabulary.RoundStatus.OFFICIAL.value, _("正式成绩")

    PUBLISHED = vocabulary.PUBLISHED_STATUSES

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField(_("轮次"))
    status = models.CharField(_("状态"), max_length=12, choices=Status.choices, default=Status.SCHEDULED)
    sessions = models.PositiveSmallIntegerField(_("节数"), default=1)
    published_at = models.DateTimeField(null=True, blank=True)
    official_at = models.DateTimeField(null=True, blank=True)
    # The draw (对阵表) is public from this time (event-archive.md "draw": "released").
    draw_released_at = models.DateTimeField(null=True, blank=True)
    # "" for the main (Swiss or round robin) part; a final stage's rounds are ranked apart.
    stage = models.CharField(
        _("阶段"),
        max_length=20,
        blank=True,
        choices=[("", _("预赛")), ("knockout", _("淘汰赛")), ("final_round_robin", _("决赛循环"))],
    )
    extra = models.JSONField(default=dict, blank=True)

    objects = RoundQuerySet.as_manager()

    class Meta:
        verbose_name = pgettext_lazy("singular", "轮")
        verbose_name_plural = pgettext_lazy("plural", "轮")
        ordering = ["event_id", "number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="round_number_unique")]

    def __str__(self):
        return f"{self.event} 第{self.number}轮"

    @property
    def is_published(self):
        return self.status in self.PUBLISHED

    @property
    def draw_released(self):
        """A published round's draw is public too, released or not."""
        return self.draw_released_at is not None or self.is_published


class Match(models.Model):
    """One meeting in a round: two pairs at one table, two teams at two tables,
    four individuals at one table, or a bye (`bye` set, no tables)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    number = models.PositiveIntegerField()  # order within the round
    home = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    away = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    bye = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    # A knockout match: quarter_final, semi_final, final or third_place (scoring.engine.brackets.MatchLabel).
    label = models.CharField(max_length=20, blank=True)
    extra = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = pgettext_lazy("singular", "比赛")
        verbose_name_plural = pgettext_lazy("plural", "比赛")
        ordering = ["round_id", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="match_number_unique")]

    def __str__(self):
        return f"{self.round} 第{self.number}场"


class TableQuerySet(models.QuerySet):
    def public(self):
        """Tables of the rounds the public sees."""
        return self.filter(public_rounds("round__"))


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField(_("桌号"))
    ns_entrant = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    ew_entrant = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    north = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    east = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    south = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    west = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    # The table's link `/t/<token>/` (table-api.md): reaches this table of this round only;
    # replaced by the organiser, after which the old one answers 404.
    token = models.CharField(max_length=64, unique=True, default=new_table_token, editable=False)
    # A link is found by its token's digest, then its token compared in constant time
    # (`table_entry.services.table_for_token`): the index compares digests of what a caller
    # sends, so its timing says nothing about any stored token.
    token_digest = TokenDigestField(max_length=64, unique=True, editable=False)
    # Each side's sign-off of the table's round (table-api.md `signoff`): once both have signed,
    # only referees change a deal, with a reason.
    ns_signed_off_at = models.DateTimeField(null=True, blank=True)
    ew_signed_off_at = models.DateTimeField(null=True, blank=True)
    # In a game whose sides are not two partnerships (蚌埠斗地主, 跑胡子: every seat its own side),
    # {side: when it signed off}; when the last seated side signs, both columns above take that
    # moment, so "the table is signed off" reads the same for every game (docs/organising.md).
    side_signoffs = models.JSONField(default=dict, blank=True)
    # Set when a tenth wrong code within ten minutes arrives (`scoring.table_entry.codes`):
    # read with the table, so a poll needs no query to know the table is locked.
    locked_until = models.DateTimeField(null=True, blank=True)
    # The chief arbiter's ruling on a match that did not finish by itself (a game whose match
    # carries a state, 升级: time called before anyone passed the target), `{"outcome", "reason",
    # "deals"}` (`scoring.games.rulings`); written only by `scoring.rulings.match_ruling`, with a
    # history row. None: not ruled.
    match_ruling = models.JSONField(_("比赛结果裁定"), null=True, blank=True)

    objects = TableQuerySet.as_manager()

    class Meta:
        verbose_name = pgettext_lazy("singular", "桌")
        verbose_name_plural = pgettext_lazy("plural", "桌")
        ordering = ["round_id", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="table_number_unique")]

    def __str__(self):
        return f"{self.round} {self.number}号桌"

    def seat_players(self):
        return {"N": self.north, "E": self.east, "S": self.south, "W": self.west}

    @property
    def signed_off(self):
        """Both sides have signed the table's round off: players can no longer write."""
        return self.ns_signed_off_at is not None and self.ew_signed_off_at is not None


class LineUpQuerySet(models.QuerySet):
    def public(self):
        """Line-ups at tables of the rounds the public sees."""
        return self.filter(public_rounds("table__round__"))


class LineUp(models.Model):
    """Who sits at a team table from a later 节 (session) of the round on (substitutions);
    the table's own seats are the first session's. See `scoring.events.lineups`."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="lineups")
    session = models.PositiveSmallIntegerField(_("节"))
    north = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    east = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    south = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    west = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")

    objects = LineUpQuerySet.as_manager()

    class Meta:
        verbose_name = pgettext_lazy("singular", "出场名单")
        verbose_name_plural = pgettext_lazy("plural", "出场名单")
        constraints = [models.UniqueConstraint(fields=["table", "session"], name="lineup_session_unique")]

    def __str__(self):
        return f"{self.table} 第{self.session}节"

    def seat_players(self):
        return {"N": self.north, "E": self.east, "S": self.south, "W": self.west}


class DealQuerySet(models.QuerySet):
    def counted(self):
        """The one filter of what counts: confirmed deals. A draft (a result changed and not yet
        confirmed again, a board not played awaiting its adjusted score) or a disputed deal counts
        nowhere — in no total, standings, traveller, export or average of other tables."""
        return self.filter(status=Deal.Status.CONFIRMED)

    def uncounted(self):
        """Deals that count nowhere yet (drafts, disputed): the rest of `counted()`."""
        return self.exclude(status=Deal.Status.CONFIRMED)

    def public(self):
        """What the public may see of the deals: the counted ones of published rounds."""
        return self.counted().filter(public_rounds("table__round__"))


class Deal(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("草稿")
        CONFIRMED = "confirmed", _("已确认")
        # A side at the table disagrees with the other's entry (table-api.md): a referee settles it.
        DISPUTED = "disputed", _("有争议")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="deals")
    board = models.PositiveIntegerField(_("副号"))
    sequence = models.PositiveIntegerField(_("顺序"))  # playing order at the table
    # The deal as its game keeps it, every game alike: the canonical deal JSON without "game"
    # (the event says which), the keys its game names (`Game.deal_keys`: 华牌's cards, holders,
    # exposures and penalties; 蚌埠斗地主's landlord, bid…).
    game_data = models.JSONField(default=dict, blank=True)
    # The referee's penalties per seat, for every game (empty where the game takes none): the
    # side columns below and the calls read them without the game's deal.
    penalties = models.JSONField(default=dict, blank=True)
    adjusted = models.JSONField(null=True, blank=True)
    adjusted_reason = models.TextField(blank=True)
    extra = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    version = models.PositiveIntegerField(default=1)
    # The side ("NS"/"EW") whose player last wrote the deal through the table link; empty when
    # a referee did. Only the other side may verify it.
    entered_side = models.CharField(max_length=2, blank=True, default="")
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The engine's seat scores after penalties (or the adjusted score plus penalties).
    score_n = models.IntegerField(default=0)
    score_e = models.IntegerField(default=0)
    score_s = models.IntegerField(default=0)
    score_w = models.IntegerField(default=0)
    ns_score = models.IntegerField(default=0)
    ew_score = models.IntegerField(default=0)
    ns_penalty = models.IntegerField(default=0)
    ew_penalty = models.IntegerField(default=0)
    # 原始分: the seat scores before normalisation and penalties (the adjusted score, if any).
    raw_n = models.IntegerField(default=0)
    raw_e = models.IntegerField(default=0)
    raw_s = models.IntegerField(default=0)
    raw_w = models.IntegerField(default=0)
    # What players' statistics need of this deal, per seat, computed when it is scored
    # (`scoring.games.huapai.player_stats.STORED_FIELDS`): statistics are summed from these
    # instead of scoring every deal again. Null for a deal stored before they were kept.
    seat_stats = models.JSONField(null=True, blank=True, default=None)

    # The columns of a result: the deal as entered (or adjusted) and the scores cached from
    # it. A change writes all of them (scoring.entry.services) and the exports read all of
    # them (scoring.exports.sources): one list, so a new column is neither left unwritten
    # nor left out of an export. (Pages that read a few columns name their own subset.)
    RESULT_COLUMNS = (
        "game_data", "penalties", "adjusted", "adjusted_reason",
        "score_n", "score_e", "score_s", "score_w", "ns_score", "ew_score", "ns_penalty", "ew_penalty",
        "raw_n", "raw_e", "raw_s", "raw_w", "seat_stats",
    )  # fmt: skip

    objects = DealQuerySet.as_manager()

    class Meta:
        verbose_name = pgettext_lazy("singular", "副")
        verbose_name_plural = pgettext_lazy("plural", "副")
        ordering = ["table_id", "sequence"]  # by id: no join to order
        constraints = [models.UniqueConstraint(fields=["table", "board"], name="deal_board_unique")]

    def __str__(self):
        return f"{self.table} 第{self.board}副"

    def as_deal_json(self):
        """The deal as its game reads it (no ruleset: the event's applies)."""
        return dict(self.game_data)

    def record_scored(self, scored, game):
        """Write a `games.stored.score_stored` result onto this deal (`scored_columns`)."""
        for name, value in self.scored_columns(scored, game).items():
            setattr(self, name, value)

    @staticmethod
    def scored_columns(scored, game) -> dict:
        """The columns a `games.stored.score_stored` result fills: the game's canonical deal
        (`Game.deal_keys`), the penalties, the scores on the seat columns (a seat the game lacks
        holds 0) and what players' statistics keep of it. One mapping for a deal saved
        (`record_scored`) and for the rows an archive import inserts without model instances."""
        penalties = dict(scored.get("penalties") or {})
        scores = column_scores(scored["scores"])
        raw = column_scores(scored.get("raw", scored["scores"]))
        return {
            "game_data": canonical_deal(game, scored),
            "penalties": penalties,
            **Deal.score_columns(scores, penalties, raw),
            "seat_stats": scored.get("seat_stats"),
        }

    @property
    def scores(self):
        return {"N": self.score_n, "E": self.score_e, "S": self.score_s, "W": self.score_w}

    @property
    def raw(self):
        return {"N": self.raw_n, "E": self.raw_e, "S": self.raw_s, "W": self.raw_w}

    def set_scores(self, scores, penalties, raw):
        """Cache the engine's result (`scores` already include `penalties`; `raw` does not)."""
        for name, value in self.score_columns(scores, penalties, raw).items():
            setattr(self, name, value)

    @staticmethod
    def score_columns(scores, penalties, raw) -> dict:
        """The score columns of `set_scores`, by name."""
        return {
            "score_n": scores["N"],
            "score_e": scores["E"],
            "score_s": scores["S"],
            "score_w": scores["W"],
            "raw_n": raw["N"],
            "raw_e": raw["E"],
            "raw_s": raw["S"],
            "raw_w": raw["W"],
            "ns_score": scores["N"] + scores["S"],
            "ew_score": scores["E"] + scores["W"],
            "ns_penalty": penalties.get("N", 0) + penalties.get("S", 0),
            "ew_penalty": penalties.get("E", 0) + penalties.get("W", 0),
        }


class PairingLog(models.Model):
    """Every pairing and every hand change to one, append-only."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairing_log")
    at = models.DateTimeField(auto_now_add=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    action = models.CharField(max_length=40)
    detail = models.JSONField(default=dict)

    class Meta:
        verbose_name = pgettext_lazy("singular", "编排记录")
        verbose_name_plural = pgettext_lazy("plural", "编排记录")
        ordering = ["at", "id"]

    def __str__(self):
        return f"{self.round} {self.action} {self.at:%Y-%m-%d %H:%M}"


class EventRole(models.Model):
    class Role(models.TextChoices):
        ORGANISER = "organiser", _("组织者")
        REFEREE = "referee", _("裁判")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_roles")
    role = models.CharField(max_length=12, choices=Role.choices)

    class Meta:
        verbose_name = pgettext_lazy("singular", "赛事角色")
        verbose_name_plural = pgettext_lazy("plural", "赛事角色")
        constraints = [models.UniqueConstraint(fields=["event", "user", "role"], name="event_role_unique")]

    def __str__(self):
        return f"{self.user} {self.get_role_display()} @ {self.event.slug}"


class StaffAccount(models.Model):
    """An account an organiser created on an event's staff page. Only such an account's
    password may be reset by an organiser (of that event): an account that existed before —
    a player's, another event's referee's — answers to its owner or a superuser, so adding it
    to an event and resetting its password is not a way to sign in as someone else."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="staff_origin")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = pgettext_lazy("singular", "工作人员账号")
        verbose_name_plural = pgettext_lazy("plural", "工作人员账号")

    def __str__(self):
        return f"{self.user} ({self.event})"


class ApiToken(models.Model):
    """A referee device's token for the JSON API (`Authorization: Token <key>`)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_token")
    key = models.CharField(max_length=64, unique=True)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"token of {self.user}"


class AppendOnlyError(RuntimeError):
    pass


class HistoryQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise AppendOnlyError("history is append-only")

    def delete(self):
        raise AppendOnlyError("history is append-only")


class DealHistory(models.Model):
    """Every create, change, confirmation, adjustment and ruling of a deal. Append-only:
    rows are never updated or deleted (the model refuses, and no page offers it)."""

    class Action(models.TextChoices):
        CREATE = "create", _("录入")
        CHANGE = "change", _("修改")
        CONFIRM = "confirm", _("确认")
        ADJUST = "adjust", _("调整分")
        RULING = "ruling", _("裁决")
        BLIND = "blind_entry", _("独立录入")
        DISPUTE = "dispute", _("提出争议")

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="deal_history")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="deal_history")
    board = models.PositiveIntegerField()
    deal = models.ForeignKey(Deal, null=True, on_delete=models.SET_NULL, related_name="history")
    version = models.PositiveIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    action = models.CharField(max_length=16, choices=Action.choices)
    before = models.JSONField(null=True)
    after = models.JSONField(null=True)
    reason = models.TextField(blank=True)
    ip = models.GenericIPAddressField(null=True, blank=True)
    # A player's action through the table link: the acting entrant, and the channel.
    entrant = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    channel = models.CharField(max_length=16, blank=True, default="")
    TABLE_LINK = "table link"  # as table-api.md names the channel
    # The phone that acted through the table link (a random id it keeps): a verification from
    # the phone that entered is flagged for the referees, not refused.
    device = models.CharField(max_length=40, blank=True, default="")
    # What made the change, when it was not the writer's own entry: the call at the table whose
    # ruling it applies (a penalty, a redeal's void, a board not played, the chief arbiter's
    # adjusted score), and the appeal it corrects the board for. The public list of changes
    # names both (`scoring.rounds.publication.changes_since_publication`).
    call = models.ForeignKey("RefereeCall", null=True, blank=True, on_delete=models.PROTECT, related_name="history")
    appeal = models.ForeignKey("Appeal", null=True, blank=True, on_delete=models.PROTECT, related_name="changes")

    objects = HistoryQuerySet.as_manager()

    class Meta:
        ordering = ["at", "id"]
        verbose_name = pgettext_lazy("singular", "成绩记录")
        verbose_name_plural = pgettext_lazy("plural", "成绩记录")
        # A table's newest row in one probe (the referees' grid asks it of every table of a round:
        # PostgreSQL otherwise walks the primary key backwards, ~0.1 ms a table).
        indexes = [models.Index(fields=["table", "id"], name="history_table_newest")]

    def __str__(self):
        return f"{self.table} 第{self.board}副 v{self.version} {self.action}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise AppendOnlyError("history is append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnlyError("history is append-only")


class ClockEntry(models.Model):
    """One action on a round's clock (`scoring.rulings.clock`): started (with the round's
    minutes), paused, resumed, extended (with the minutes added) or time called — who and when.
    Append-only: the clock is what these entries add up to (`scoring.engine.clock.clock_at`)."""

    class Action(models.TextChoices):
        START = "start", _("开始计时")
        PAUSE = "pause", _("暂停")
        RESUME = "resume", _("继续")
        EXTEND = "extend", _("延长")
        CALL_TIME = "call_time", _("时间到")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="clock_entries")
    action = models.CharField(max_length=12, choices=Action.choices)
    minutes = models.PositiveIntegerField(default=0)
    at = models.DateTimeField(default=timezone.now)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # What calling time recorded: {"boards": n, "tables": n, "in_play_left": bool}.
    detail = models.JSONField(default=dict, blank=True)

    objects = HistoryQuerySet.as_manager()

    class Meta:
        verbose_name = pgettext_lazy("singular", "计时记录")
        verbose_name_plural = pgettext_lazy("plural", "计时记录")
        ordering = ["at", "id"]

    def __str__(self):
        return f"{self.round} {self.action} {self.at:%Y-%m-%d %H:%M}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise AppendOnlyError("the clock's log is append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnlyError("the clock's log is append-only")


class IrregularityQuerySet(models.QuerySet):
    def public(self):
        """Rulings on deals of the rounds the public sees."""
        return self.filter(public_rounds("deal__table__round__"))


class Irregularity(models.Model):
    class Kind(models.TextChoices):
        LATE_EXPOSURE = "late_exposure", _("亮牌超时")
        EARLY_PLAY = "early_play", _("亮出的牌过早打出")
        REVOKE = "revoke", _("藏牌")
        LEAD_OUT_OF_TURN = "lead_out_of_turn", _("未轮到出牌")
        WRONG_COUNT = "wrong_card_count", _("牌数错误")
        SLOW_PLAY = "slow_play", _("出牌迟缓")
        CONDUCT = "conduct", _("不当行为")
        CLAIM = "claim", _("声称争议")
        OTHER = "other", _("其他")

    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="irregularities")
    seat = models.CharField(max_length=1, blank=True, choices=[(s, s) for s in "NESW"])
    kind = models.CharField(max_length=20, choices=Kind.choices)
    ruling = models.TextField(_("裁决"))
    penalty = models.IntegerField(_("罚分"), default=0)
    referee = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(auto_now_add=True)
    # The call whose ruling this is, when the irregularity was called at the table (scoring.rulings).
    call = models.ForeignKey(
        "RefereeCall", null=True, blank=True, on_delete=models.PROTECT, related_name="irregularities"
    )

    objects = IrregularityQuerySet.as_manager()

    class Meta:
        verbose_name = pgettext_lazy("singular", "违例")
        verbose_name_plural = pgettext_lazy("plural", "违例")
        ordering = ["at", "id"]

    def __str__(self):
        return f"{self.deal} {self.get_kind_display()}"


class AppealQuerySet(models.QuerySet):
    def public(self):
        """Decided appeals of the rounds the public sees."""
        return self.filter(public_rounds("round__")).exclude(decided_at=None)


class Appeal(models.Model):
    """An appeal (申诉) against a ruling or a result, lodged by a side within the round's
    correction period (through its table link or a referee), decided by the appeals committee
    (recorded by an organiser). Open appeals keep the round from becoming official
    (`scoring.rulings.appeals`)."""

    class Status(models.TextChoices):
        OPEN = "open", _("待裁决")
        UPHELD = "upheld", _("维持原裁决")
        DISMISSED = "dismissed", _("申诉驳回")
        CHANGED = "changed", _("改变裁决")

    class Deposit(models.TextChoices):
        RETURNED = "returned", _("退还")
        FORFEITED = "forfeited", _("没收")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="appeals")
    round = models.ForeignKey("Round", null=True, blank=True, on_delete=models.CASCADE, related_name="appeals")
    table = models.ForeignKey("Table", null=True, blank=True, on_delete=models.CASCADE, related_name="appeals")
    board = models.PositiveIntegerField(null=True, blank=True)
    deal = models.ForeignKey(Deal, null=True, blank=True, on_delete=models.PROTECT, related_name="appeals")
    # The ruling appealed against, when it was a call's (scoring.rulings.calls).
    call = models.ForeignKey("RefereeCall", null=True, blank=True, on_delete=models.PROTECT, related_name="appeals")
    entrant = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    channel = models.CharField(max_length=12, blank=True)  # "table link" or "referee"
    lodged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    filed_by = models.CharField(_("申诉人"), max_length=200)
    filed_at = models.DateTimeField(auto_now_add=True)
    deadline = models.DateTimeField(_("裁决期限"), null=True, blank=True)
    statement = models.TextField(_("申诉内容"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    decision = models.TextField(_("裁决"), blank=True)
    committee = models.CharField(max_length=300, blank=True)  # the committee's names when it decided
    deposit = models.PositiveIntegerField(default=0)
    deposit_outcome = models.CharField(max_length=10, choices=Deposit.choices, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    decided_at = models.DateTimeField(null=True, blank=True)

    objects = AppealQuerySet.as_manager()

    class Meta:
        verbose_name = pgettext_lazy("singular", "申诉")
        verbose_name_plural = pgettext_lazy("plural", "申诉")
        ordering = ["filed_at", "id"]

    def __str__(self):
        return f"{self.event} 申诉 {self.filed_by}"


class BlindEntry(models.Model):
    """One referee's independent entry of a deal (events with double entry)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="blind_entries")
    board = models.PositiveIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    payload = models.JSONField()
    at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "board", "user"], name="blind_entry_unique")]

    def __str__(self):
        return f"{self.table} 第{self.board}副 {self.user}"


class RefereeCallQuerySet(models.QuerySet):
    def public(self):
        """Ruled calls of the rounds the public sees (disputes of entry excepted: their rulings
        are in the boards' public list of changes)."""
        return self.filter(public_rounds("table__round__")).exclude(ruled_at=None).exclude(kind="dispute")


class RefereeCall(models.Model):
    """A call at a table and its ruling: the table asking for a referee (its page, or a dispute of
    a board), or a referee recording what happened during play (a claim, a revoke, a wrong card
    count…), before or after the board has a result. The referees' queue lists the unanswered
    ones, oldest first; the round's list of calls every one; the public, once the round is
    published, the ruled ones (`scoring.rulings`)."""

    class Kind(models.TextChoices):
        CLAIM = "claim", _("声称")
        REVOKE = "revoke", _("藏牌")
        LEAD_OUT_OF_TURN = "lead_out_of_turn", _("未轮到出牌")
        LATE_EXPOSURE = "late_exposure", _("亮牌超时或无效")
        EARLY_PLAY = "early_play", _("亮出的牌过早打出")
        WRONG_COUNT = "wrong_card_count", _("牌数错误")
        SLOW_PLAY = "slow_play", _("出牌迟缓")
        CONDUCT = "conduct", _("不当行为")
        OTHER = "other", _("其他")
        DISPUTE = "dispute", _("录入有争议")

    class Outcome(models.TextChoices):
        NOTHING = "nothing", _("不处罚")
        PENALTY = "penalty", _("罚分")
        ADJUSTED = "adjusted", _("调整分")
        REDEAL = "redeal", _("重新发牌")
        DRAWN_BACK = "drawn_back", _("少牌方抽回")
        NOT_PLAYED = "not_played", _("这一副未打")

    class ClaimStatus(models.TextChoices):
        ACCEPTED = "accepted", _("各方同意")
        CONTESTED = "contested", _("有异议")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="referee_calls")
    board = models.PositiveIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.OTHER)
    note = models.TextField(blank=True)  # the facts, in a sentence
    seats = models.CharField(max_length=4, blank=True)  # the seats involved, e.g. "NE"
    entrant = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    outcome = models.CharField(max_length=12, choices=Outcome.choices, blank=True)
    ruling = models.TextField(blank=True)
    penalty_seat = models.CharField(max_length=1, blank=True)
    penalty = models.IntegerField(default=0)
    ruled_at = models.DateTimeField(null=True, blank=True)
    ruled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # A claim (声称): who claimed, at which trick, how the remaining point cards fall ({seat: [cards]}).
    claimant = models.CharField(max_length=1, blank=True)
    claim_trick = models.PositiveSmallIntegerField(null=True, blank=True)
    claim_fall = models.JSONField(null=True, blank=True)
    claim_status = models.CharField(max_length=10, choices=ClaimStatus.choices, blank=True)

    objects = RefereeCallQuerySet.as_manager()

    class Meta:
        verbose_name = pgettext_lazy("singular", "呼叫裁判")
        verbose_name_plural = pgettext_lazy("plural", "呼叫裁判")
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["table", "answered_at"], name="referee_call_open")]

    def __str__(self):
        return f"{self.table} {self.get_kind_display()}"


class TableRequest(models.Model):
    """The first answer to each `Idempotency-Key` a table link sent (table-api.md): the same
    key with the same body gets it again, and writes nothing."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=64)
    fingerprint = models.CharField(max_length=64)  # sha256 of method, path and body
    status = models.PositiveSmallIntegerField()
    body = models.JSONField()
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "key"], name="table_request_key_unique")]

    def __str__(self):
        return f"{self.table} {self.key}"


class WrongCode(models.Model):
    """A wrong entrant code sent through a table link: ten within ten minutes lock the table's
    calls (429) until the window passes or a referee clears them."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["table", "at"], name="wrong_code_window")]

    def __str__(self):
        return f"{self.table} {self.at}"


class FlagCleared(models.Model):
    """A referee has looked at a plausibility flag of a board (`scoring.table_entry.flags`) and
    cleared it, with a word. Flags are computed from the deals; this records only the clearing."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    board = models.PositiveIntegerField()
    kind = models.CharField(max_length=20)
    word = models.CharField(max_length=200)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "board", "kind"], name="flag_cleared_unique")]

    def __str__(self):
        return f"{self.table} 第{self.board}副 {self.kind}"


class Backup(models.Model):
    """A copy of the whole database (`scoring.backups`): its file in HUAPAI_BACKUP_DIR, the
    file's sha256, and whether restoring it into a scratch database gave back what the live
    database held when it was taken (row counts and every event's standings)."""

    class Status(models.TextChoices):
        OK = "ok", _("已验证")
        FAILED = "failed", _("验证失败")
        UNCHECKED = "unchecked", _("未验证")

    file = models.CharField(max_length=300, blank=True)  # a name in HUAPAI_BACKUP_DIR; empty while being taken
    checksum = models.CharField(max_length=64, blank=True)
    size = models.BigIntegerField(default=0)
    taken_at = models.DateTimeField(default=timezone.now, db_index=True)
    reason = models.CharField(max_length=40)
    # Kept by the rotation whatever its age: a publication's, an officialisation's, an event's close.
    kept = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.UNCHECKED)
    message = models.TextField(blank=True)

    class Meta:
        ordering = ["-taken_at", "-id"]

    def __str__(self):
        return f"{self.file or self.reason} {self.status}"
