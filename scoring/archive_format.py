"""Reading an event archive (`huapai-event/1`, event-archive.md) into plain, checked data.

No Django here: `scoring.archive` writes what this returns to the database,
and tests compute standings straight from it.
"""

import re
from dataclasses import dataclass, field
from datetime import date

from scoring.deals import score_stored
from scoring.rules import SEATS, DealError, RuleSet, read_options, rules_for
from scoring.rules.rulesets import RULESETS
from scoring.standings import Format, MatchResult, StandingsError, TableResult, match_games
from scoring.vocabulary import (
    ARCHIVE_TIEBREAKS,
    DEFAULT_GAME_THRESHOLD,
    DEFAULT_MATCH_POINTS,
    DEFAULT_TIEBREAKS,
    GAME_THRESHOLDS,
    Kind,
    MatchMode,
    RoundStatus,
)

FORMAT = "huapai-event/1"
KINDS = tuple(Kind)
ROUND_STATUSES = tuple(RoundStatus)
EVENT_KEYS = {"slug", "name", "ruleset", "game_threshold", "kind", "match", "match_points", "tiebreaks", "options"}
EVENT_FIELDS = ("venue", "start_date", "end_date")  # optional keys the site stores as columns
DEAL_KEYS = {
    "board",
    "captured",
    "holders",
    "exposed",
    "penalties",
    "adjusted",
    "adjusted_reason",
    "ruleset",
    "options",
}


class ArchiveError(ValueError):
    pass


@dataclass(slots=True)
class ParsedDeal:
    board: int
    scored: dict  # canonical fields and scores from `scoring.deals.score_stored` (no breakdown)
    adjusted: dict | None
    adjusted_reason: str
    extra: dict
    status: str = "confirmed"


@dataclass
class ParsedTable:
    number: int
    ns: str | None
    ew: str | None
    seats: dict  # seat -> player id
    deals: list = field(default_factory=list)
    raw: dict | None = None  # the table's own JSON (teams), which holds its deals


@dataclass
class ParsedMatch:
    home: str | None = None
    away: str | None = None
    bye: str | None = None
    tables: list = field(default_factory=list)
    extra: dict = field(default_factory=dict)


@dataclass
class ParsedRound:
    number: int
    status: str
    matches: list = field(default_factory=list)
    extra: dict = field(default_factory=dict)


@dataclass
class ParsedEvent:
    event: dict  # slug, name, ruleset, game_threshold, kind, mode, length, points, tiebreaks, extra
    players: list  # dicts: id, name, club, federation_id, extra
    entrants: list  # dicts: id, name, players, extra
    rounds: list

    @property
    def format(self):
        e = self.event
        return Format(
            kind=e["kind"],
            mode=e["mode"],
            length=e["length"],
            threshold=e["game_threshold"],
            points=e["points"],
            tiebreaks=e["tiebreaks"],
        )

    def match_results(self):
        results = []
        for rnd in self.rounds:
            for match in rnd.matches:
                tables = [
                    TableResult.from_deals(
                        t.ns,
                        t.ew,
                        [
                            {"scores": d.scored["scores"], "penalties": d.scored["penalties"]}
                            for d in t.deals
                            if d.status == "confirmed"
                        ],
                        t.seats,
                    )
                    for t in match.tables
                ]
                results.append(
                    MatchResult(round=rnd.number, home=match.home, away=match.away, bye=match.bye, tables=tables)
                )
        return results

    def entrant_ids(self):
        if self.event["kind"] == Kind.INDIVIDUAL:
            return [p["id"] for p in self.players]
        return [e["id"] for e in self.entrants]


# shared/formats/event-archive.md: the characters of slugs and ids.
SLUG = re.compile(r"[a-z0-9-]{1,50}")
ENTRANT_ID = re.compile(r"[A-Za-z0-9_-]{1,20}")
PLAYER_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # players of pairs and teams are not entrants


def _require(condition, message):
    if not condition:
        raise ArchiveError(message)


def _without_nul(value, where):
    """PostgreSQL stores no NUL character in text or JSON: refuse it by name, anywhere."""
    stack = [(value, where)]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            _require("\x00" not in item, f"{path}：文字中有 NUL 字符 / {path}: text contains a NUL character")
        elif isinstance(item, dict):
            for key, child in item.items():
                _require("\x00" not in key, f"{path}：键名中有 NUL 字符 / {path}: a key contains a NUL character")
                stack.append((child, f"{path}.{key}"))
        elif isinstance(item, list):
            stack.extend((child, f"{path}[{index}]") for index, child in enumerate(item))


def _known(value, ids):
    """An id the archive declared: a string (a list or object can be in no set) that is in `ids`."""
    return isinstance(value, str) and value in ids


def _text(value, limit, what):
    _require(
        value is None or (isinstance(value, str) and len(value) <= limit and "\x00" not in value),
        f"{what} 必须是不超过 {limit} 个字符的文字 / {what} must be text of at most {limit} characters",
    )
    return (value or "").strip()


def _number(value, limit=999_999_999):
    """A whole number for a column: not a bool, positive, within a 32-bit column."""
    return type(value) is int and 0 < value <= limit


def _extra(obj, known):
    return {key: value for key, value in obj.items() if key not in known}


def _event(raw):
    _require(isinstance(raw, dict), "“event” 必须是对象 / “event” must be an object")
    slug = raw.get("slug")
    _require(isinstance(slug, str) and slug.strip(), "event.slug 缺失 / event.slug is required")
    _require(
        SLUG.fullmatch(slug.strip()) is not None,
        f"event.slug {slug!r:.60} 只能含小写字母、数字和 -（1–50 个）/ event.slug: 1–50 of a-z, 0-9 and -",
    )
    ruleset = raw.get("ruleset", "huapai")
    _require(
        type(ruleset) is str and ruleset in RULESETS, f"未知规则 {ruleset!r:.40} / unknown rule set {ruleset!r:.40}"
    )
    options = raw.get("options") or {}
    _require(isinstance(options, dict), "event.options 必须是对象 / event.options must be an object")
    _, option_problems = read_options(options)
    _require(not option_problems, "event.options：" + "；".join(p.message for p in option_problems))
    threshold = raw.get("game_threshold", DEFAULT_GAME_THRESHOLD)
    _require(
        type(threshold) is int and threshold in GAME_THRESHOLDS,
        f"局分必须是 {' 或 '.join(map(str, GAME_THRESHOLDS))} / game_threshold must be one of {GAME_THRESHOLDS}",
    )
    kind = raw.get("kind", Kind.PAIRS.value)
    _require(isinstance(kind, str) and kind in KINDS, f"未知赛事类型 {kind!r:.40} / unknown kind {kind!r:.40}")
    match = raw.get("match") or {"mode": "boards", "boards": 16}
    _require(isinstance(match, dict), "event.match 必须是对象 / event.match must be an object")
    mode = match.get("mode", "boards")
    _require(
        isinstance(mode, str) and mode in tuple(MatchMode),
        f"未知赛制 {mode!r:.40} / unknown match mode {mode!r:.40}",
    )
    _require(not (mode == MatchMode.GAMES and kind != Kind.PAIRS), "局制只适用于双人赛 / games mode is for pairs only")
    length = match.get("games" if mode == MatchMode.GAMES else "boards", 2 if mode == MatchMode.GAMES else 16)
    _require(
        _number(length, 1000),
        "match 的副数或局数必须是 1–1000 的整数 / match length must be a whole number from 1 to 1000",
    )
    given_points = raw.get("match_points") or {}
    _require(
        isinstance(given_points, dict)
        and set(given_points) <= {"win", "draw", "loss"}
        and all(type(v) is int and -1000 <= v <= 1000 for v in given_points.values()),
        "match_points 必须是 win/draw/loss 的整数（±1000 以内）/ match_points: whole numbers for win, draw, loss",
    )
    points = {**DEFAULT_MATCH_POINTS, **given_points}
    for key in ("start_date", "end_date"):
        value = raw.get(key)
        _require(
            value is None or _is_date(value),
            f"event.{key} 必须是 YYYY-MM-DD / event.{key} must be YYYY-MM-DD",
        )
    tiebreaks = raw.get("tiebreaks") or list(DEFAULT_TIEBREAKS)
    known = set(ARCHIVE_TIEBREAKS)
    _require(isinstance(tiebreaks, list), "tiebreaks 必须是列表 / tiebreaks must be a list")
    for criterion in tiebreaks:
        _require(_known(criterion, known), f"未知破同分标准 {criterion!r:.40} / unknown tie-break {criterion!r:.40}")
    name = _text(raw.get("name"), 200, "event.name")
    for key in ("venue",):
        _text(raw.get(key), 200, f"event.{key}")
    return {
        "slug": slug.strip(),
        "name": name or slug.strip(),
        "ruleset": ruleset,
        "options": dict(options),
        "game_threshold": threshold,
        "kind": kind,
        "mode": mode,
        "length": length,
        "points": points,
        "tiebreaks": list(tiebreaks),
        "match_extra": _extra(match, {"mode", "boards", "games"}),
        "fields": {
            key: date.fromisoformat(raw[key]) if key.endswith("_date") else raw[key]
            for key in EVENT_FIELDS
            if raw.get(key)
        },
        "extra": _extra(raw, EVENT_KEYS | set(EVENT_FIELDS)),
    }


def parse_archive(data, rules_for=None):
    """Check a whole archive and return a `ParsedEvent`; raise `ArchiveError` naming the fault."""
    parsed, context = parse_header(data, rules_for)
    parsed.rounds = sorted(
        (parse_round(raw_round, context) for raw_round in data.get("rounds") or []), key=lambda r: r.number
    )
    return parsed


@dataclass
class _Context:
    """What checking one round needs to know of the whole archive."""

    event: dict
    rules: RuleSet
    player_ids: set
    entrant_ids: set
    members_of: dict
    round_numbers: set = field(default_factory=set)


def parse_header(data, rules_for=None):
    """Check everything but the rounds; returns `(ParsedEvent with no rounds, context)`.

    `parse_round(raw_round, context)` then checks one round at a time, so a
    large import can write and forget each round in turn.
    """
    _require(isinstance(data, dict), "存档必须是 JSON 对象 / the archive must be a JSON object")
    _without_nul({key: value for key, value in data.items() if key != "rounds"}, "archive")
    _require(isinstance(data.get("rounds") or [], list), "“rounds” 必须是列表 / “rounds” must be a list")
    _require(data.get("format") == FORMAT, f"format 必须是 {FORMAT!r} / “format” must be {FORMAT!r}")
    event = _event(data.get("event"))
    rules = (rules_for or _rules_for)(event)

    players = []
    player_ids = set()
    raw_players = data.get("players") or []
    _require(isinstance(raw_players, list), "“players” 必须是列表 / “players” must be a list")
    player_pattern = ENTRANT_ID if event["kind"] == Kind.INDIVIDUAL else PLAYER_ID
    for raw in raw_players:
        _require(
            isinstance(raw, dict) and isinstance(raw.get("id"), str),
            f"选手缺少 id：{raw!r:.60} / a player needs an id",
        )
        _require(
            player_pattern.fullmatch(raw["id"]) is not None,
            f"选手编号 {raw['id']!r:.40} 只能含字母、数字、- 和 _ / player id {raw['id']!r:.40}: "
            "letters, digits, - and _ only",
        )
        _require(raw["id"] not in player_ids, f"选手编号重复：{raw['id']} / duplicate player id {raw['id']}")
        _require(
            isinstance(raw.get("name"), str) and raw["name"].strip(),
            f"选手 {raw['id']} 缺少姓名 / player {raw['id']} has no name",
        )
        _text(raw["name"], 100, f"选手 {raw['id']} 的姓名 / name of {raw['id']}")
        for key, limit in (("club", 100), ("federation_id", 40), ("sort_key", 200)):
            _text(raw.get(key), limit, f"选手 {raw['id']} 的 {key} / {key} of {raw['id']}")
        player_ids.add(raw["id"])
        players.append(
            {
                "id": raw["id"],
                "name": raw["name"].strip(),
                "club": raw.get("club") or "",
                "federation_id": raw.get("federation_id") or "",
                "sort_key": raw.get("sort_key") or "",
                "extra": _extra(raw, {"id", "name", "club", "federation_id", "sort_key"}),
            }
        )

    kind = event["kind"]
    entrants = []
    entrant_ids = set()
    group = "pairs" if kind == Kind.PAIRS else "teams"
    raw_entrants = (data.get(group) or []) if kind != Kind.INDIVIDUAL else []
    _require(isinstance(raw_entrants, list), f"“{group}” 必须是列表 / “{group}” must be a list")
    for raw in raw_entrants:
        _require(
            isinstance(raw, dict) and isinstance(raw.get("id"), str),
            f"{group} 缺少 id / an entry of {group} needs an id",
        )
        code = raw["id"]
        _require(
            ENTRANT_ID.fullmatch(code) is not None,
            f"编号 {code!r:.40} 只能含字母、数字、- 和 _（1–20 个）/ id {code!r:.40}: 1–20 letters, digits, - or _",
        )
        _require(code not in entrant_ids, f"编号重复：{code} / duplicate id {code}")
        members = raw.get("players") or []
        _require(
            isinstance(members, list) and all(isinstance(m, str) for m in members),
            f"{code} 的 players 必须是选手编号的列表 / {code}: players must be a list of ids",
        )
        for member in members:
            _require(_known(member, player_ids), f"{code} 的选手 {member} 不存在 / {code}: unknown player {member}")
        if kind == Kind.PAIRS:
            _require(len(members) == 2, f"{code} 必须恰有两名选手 / pair {code} needs exactly two players")
        else:
            _require(len(members) >= 2, f"{code} 至少需要两名选手 / team {code} needs players")
        _require(len(set(members)) == len(members), f"{code} 的选手重复 / {code} lists a player twice")
        entrant_ids.add(code)
        entrants.append(
            {
                "id": code,
                "name": _text(raw.get("name"), 200, f"{code} 的名称 / name of {code}"),
                "players": list(members),
                "extra": _extra(raw, {"id", "name", "players"}),
            }
        )

    members_of = {e["id"]: set(e["players"]) for e in entrants}
    context = _Context(event=event, rules=rules, player_ids=player_ids, entrant_ids=entrant_ids, members_of=members_of)
    return ParsedEvent(event=event, players=players, entrants=entrants, rounds=[]), context


def parse_round(raw_round, context):
    """Check one round of the archive (rounds come in any order, each number once)."""
    event, kind = context.event, context.event["kind"]
    rules, player_ids, entrant_ids = context.rules, context.player_ids, context.entrant_ids
    members_of, numbers = context.members_of, context.round_numbers
    _require(
        isinstance(raw_round, dict) and _number(raw_round.get("number")),
        "每轮需要正整数 number / every round needs a positive number",
    )
    number = raw_round["number"]
    _without_nul(raw_round, f"第{number}轮 / round {number}")
    _require(number not in numbers, f"第{number}轮重复 / round {number} appears twice")
    numbers.add(number)
    status = raw_round.get("status")
    _require(
        status is None or (isinstance(status, str) and status in ROUND_STATUSES),
        f"第{number}轮状态 {status!r:.40} 无效 / round {number}: unknown status",
    )
    draw = raw_round.get("draw")
    _require(
        draw is None or draw in ("released", "hidden"),
        f"第{number}轮 draw 必须是 released 或 hidden / round {number}: draw must be released or hidden",
    )
    raw_matches = raw_round.get("matches") or []
    _require(
        isinstance(raw_matches, list), f"第{number}轮：matches 必须是列表 / round {number}: matches must be a list"
    )
    rnd = ParsedRound(number=number, status=status or "", extra=_extra(raw_round, {"number", "status", "matches"}))
    tables_seen, entrants_seen = set(), set()

    def seat_once(entrant, where, rnd_number=number, seen=entrants_seen):
        _require(
            entrant not in seen,
            f"第{rnd_number}轮：{entrant} 出现两次（{where}）/ round {rnd_number}: {entrant} plays twice",
        )
        seen.add(entrant)

    for raw_match in raw_matches:
        _require(
            isinstance(raw_match, dict),
            f"第{number}轮：比赛必须是对象 / round {number}: a match must be an object",
        )
        if "bye" in raw_match:
            bye = raw_match["bye"]
            known_ids = player_ids if kind == Kind.INDIVIDUAL else entrant_ids
            _require(
                _known(bye, known_ids),
                f"第{number}轮：轮空的 {bye!r:.40} 不存在 / round {number}: unknown bye {bye!r:.40}",
            )
            seat_once(bye, "轮空 bye")
            rnd.matches.append(ParsedMatch(bye=bye, extra=_extra(raw_match, {"bye"})))
            continue
        if kind == Kind.TEAMS:
            match = _team_match(raw_match, number, entrant_ids, members_of, tables_seen, seat_once)
        else:
            match = _table_match(raw_match, number, kind, entrant_ids, player_ids, members_of, tables_seen, seat_once)
        for table in match.tables:
            _deals(table, raw_match if kind != Kind.TEAMS else None, number, rules, score_stored, event)
        rnd.matches.append(match)
    if not rnd.status:
        played = [m for m in rnd.matches if m.bye is None]
        rnd.status = "official" if all(any(t.deals for t in m.tables) for m in played) else "in_play"
    return rnd


def _is_date(value):
    try:
        date.fromisoformat(value)
    except (TypeError, ValueError):
        return False
    return True


def _rules_for(event) -> RuleSet:
    return rules_for(event["ruleset"], event["options"] or None).with_options(game_threshold=event["game_threshold"])


def _table_number(raw, where, tables_seen):
    number = raw.get("table")
    _require(_number(number), f"{where}：需要正整数桌号 / {where}: needs a table number")
    _require(number not in tables_seen, f"{where}：{number}号桌重复 / {where}: table {number} appears twice")
    tables_seen.add(number)
    return number


def _table_match(raw, number, kind, entrant_ids, player_ids, members_of, tables_seen, seat_once):
    where = f"第{number}轮"
    table_number = _table_number(raw, where, tables_seen)
    where = f"第{number}轮 {table_number}号桌"
    if kind == Kind.PAIRS:
        ns, ew = raw.get("ns"), raw.get("ew")
        for code in (ns, ew):
            _require(_known(code, entrant_ids), f"{where}：对 {code!r:.40} 不存在 / {where}: unknown pair {code!r:.40}")
        _require(ns != ew, f"{where}：同一对不能对阵自己 / {where}: a pair cannot meet itself")
        shared = members_of[ns] & members_of[ew]
        _require(
            not shared,
            f"{where}：选手 {', '.join(sorted(shared))} 同时坐在两方 / {where}: player in two seats",
        )
        seat_once(ns, f"{table_number}号桌")
        seat_once(ew, f"{table_number}号桌")
        table = ParsedTable(number=table_number, ns=ns, ew=ew, seats={})
        return ParsedMatch(home=ns, away=ew, tables=[table], extra=_extra(raw, {"table", "ns", "ew", "deals"}))
    seats = raw.get("seats")
    _require(
        isinstance(seats, dict) and set(seats) == set(SEATS),
        f"{where}：seats 需要 N E S W / {where}: seats needs N, E, S and W",
    )
    for seat, player in seats.items():
        _require(
            _known(player, player_ids),
            f"{where}：{seat} 座选手 {player!r:.40} 不存在 / {where}: unknown player {player!r:.40} at {seat}",
        )
        seat_once(player, f"{table_number}号桌 {seat}")
    _require(len(set(seats.values())) == 4, f"{where}：同一选手坐了两个座位 / {where}: a player in two seats")
    table = ParsedTable(number=table_number, ns=None, ew=None, seats=dict(seats))
    return ParsedMatch(tables=[table], extra=_extra(raw, {"table", "seats", "deals"}))


def _team_match(raw, number, entrant_ids, members_of, tables_seen, seat_once):
    where = f"第{number}轮"
    home, away = raw.get("home"), raw.get("away")
    for code in (home, away):
        _require(_known(code, entrant_ids), f"{where}：队 {code!r:.40} 不存在 / {where}: unknown team {code!r:.40}")
    _require(home != away, f"{where}：{home} 不能对阵自己 / {where}: a team cannot meet itself")
    seat_once(home, f"{home}–{away}")
    seat_once(away, f"{home}–{away}")
    match = ParsedMatch(home=home, away=away, extra=_extra(raw, {"home", "away", "tables"}))
    raw_tables = raw.get("tables") or []
    _require(isinstance(raw_tables, list), f"{where}：tables 必须是列表 / {where}: tables must be a list")
    for raw_table in raw_tables:
        _require(isinstance(raw_table, dict), f"{where}：每桌必须是对象 / {where}: a table must be an object")
        table_number = _table_number(raw_table, where, tables_seen)
        here = f"{where} {table_number}号桌"
        ns_team, ew_team = raw_table.get("ns_team"), raw_table.get("ew_team")
        _require(
            isinstance(ns_team, str) and isinstance(ew_team, str) and {ns_team, ew_team} == {home, away},
            f"{here}：ns_team/ew_team 必须是 {home} 和 {away} / {here}: ns_team and ew_team must be the match's teams",
        )
        ns_players, ew_players = raw_table.get("ns") or [], raw_table.get("ew") or []
        _require(
            isinstance(ns_players, list)
            and isinstance(ew_players, list)
            and len(ns_players) == 2
            and len(ew_players) == 2
            and all(isinstance(p, str) for p in ns_players + ew_players),
            f"{here}：ns 和 ew 各需两名选手 / {here}: ns and ew need two players each",
        )
        for player in ns_players:
            _require(
                player in members_of[ns_team],
                f"{here}：{player} 不是 {ns_team} 的队员 / {here}: {player} is not in {ns_team}",
            )
        for player in ew_players:
            _require(
                player in members_of[ew_team],
                f"{here}：{player} 不是 {ew_team} 的队员 / {here}: {player} is not in {ew_team}",
            )
        seats = {"N": ns_players[0], "S": ns_players[1], "E": ew_players[0], "W": ew_players[1]}
        _require(len(set(seats.values())) == 4, f"{here}：同一选手坐了两个座位 / {here}: a player in two seats")
        table = ParsedTable(number=table_number, ns=ns_team, ew=ew_team, seats=seats, raw=raw_table)
        match.tables.append(table)
    _require(len(match.tables) == 2, f"{where} {home}–{away}：团体赛每场两桌 / a team match has two tables")
    return match


def _deals(table, raw_match, round_number, rules, score_stored, event):
    raw_deals = (raw_match if raw_match is not None else table.raw).get("deals") or []
    _require(
        isinstance(raw_deals, list),
        f"第{round_number}轮 {table.number}号桌：deals 必须是列表 / round {round_number} table {table.number}: "
        "deals must be a list",
    )
    boards = set()
    for raw in raw_deals:
        board = raw.get("board") if isinstance(raw, dict) else None
        where = f"第{round_number}轮 {table.number}号桌 第{board}副"
        _require(
            _number(board),
            f"第{round_number}轮 {table.number}号桌：每副需要正整数 board / every deal needs a board number",
        )
        _require(board not in boards, f"{where}：同一桌重复 / {where}: board played twice at this table")
        boards.add(board)
        adjusted = raw.get("adjusted")
        try:
            scored = score_stored(rules, raw, adjusted)
        except DealError as error:
            raise ArchiveError(f"{where}：{error.message} [{error.code}]") from None
        status = raw.get("status", "confirmed")
        _require(status in ("draft", "confirmed"), f"{where}：status 无效 / {where}: unknown deal status")
        _text(raw.get("adjusted_reason"), 500, f"{where} adjusted_reason")
        del scored["breakdown"]  # 360,000 deals: keep only what is stored
        table.deals.append(
            ParsedDeal(
                board=board,
                scored=scored,
                adjusted=adjusted,
                adjusted_reason=raw.get("adjusted_reason") or "",
                extra=_extra(raw, DEAL_KEYS | {"status"}),
                status=status,
            )
        )
    if event["mode"] == MatchMode.GAMES and table.deals:
        sides = [(d.scored["sides"]["NS"], d.scored["sides"]["EW"]) for d in table.deals]
        try:
            match_games(sides, event["game_threshold"], event["length"])
        except StandingsError as error:
            board = table.deals[error.deal_index].board
            raise ArchiveError(
                f"第{round_number}轮 {table.number}号桌 第{board}副：在第{event['length']}局结束之后"
                f" / round {round_number} table {table.number} board {board}: deal after the last game"
            ) from None
