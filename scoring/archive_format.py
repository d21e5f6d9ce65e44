"""Reading an event archive (`huapai-event/1`, event-archive.md) into plain, checked data.

No Django here: `scoring.archive` writes what this returns to the database,
and tests compute standings straight from it.
"""

from dataclasses import dataclass, field
from datetime import date

from scoring.deals import score_stored
from scoring.rules import SEATS, DealError, RuleSet, read_options, rules_for
from scoring.rules.rulesets import GAME_THRESHOLDS, RULESETS
from scoring.standings import Format, MatchResult, StandingsError, TableResult, match_games

FORMAT = "huapai-event/1"
KINDS = ("pairs", "teams", "individual")
ROUND_STATUSES = ("scheduled", "in_play", "provisional", "official")
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
        if self.event["kind"] == "individual":
            return [p["id"] for p in self.players]
        return [e["id"] for e in self.entrants]


def _require(condition, message):
    if not condition:
        raise ArchiveError(message)


def _extra(obj, known):
    return {key: value for key, value in obj.items() if key not in known}


def _event(raw):
    _require(isinstance(raw, dict), "“event” 必须是对象 / “event” must be an object")
    slug = raw.get("slug")
    _require(isinstance(slug, str) and slug.strip(), "event.slug 缺失 / event.slug is required")
    ruleset = raw.get("ruleset", "huapai")
    _require(
        type(ruleset) is str and ruleset in RULESETS, f"未知规则 {ruleset!r:.40} / unknown rule set {ruleset!r:.40}"
    )
    options = raw.get("options") or {}
    _, option_problems = read_options(options)
    _require(not option_problems, "event.options：" + "；".join(p.message for p in option_problems))
    threshold = raw.get("game_threshold", 1000)
    _require(
        threshold in GAME_THRESHOLDS,
        f"局分必须是 1000 或 800 / game_threshold must be one of {GAME_THRESHOLDS}",
    )
    kind = raw.get("kind", "pairs")
    _require(kind in KINDS, f"未知赛事类型 {kind!r} / unknown kind {kind!r}")
    match = raw.get("match") or {"mode": "boards", "boards": 16}
    mode = match.get("mode", "boards")
    _require(mode in ("boards", "games"), f"未知赛制 {mode!r} / unknown match mode {mode!r}")
    _require(not (mode == "games" and kind != "pairs"), "局制只适用于双人赛 / games mode is for pairs only")
    length = match.get("games" if mode == "games" else "boards", 2 if mode == "games" else 16)
    _require(
        isinstance(length, int) and length > 0,
        "match 的副数或局数必须是正整数 / match length must be a positive integer",
    )
    points = {"win": 2, "draw": 1, "loss": 0, **(raw.get("match_points") or {})}
    for key in ("start_date", "end_date"):
        value = raw.get(key)
        _require(
            value is None or _is_date(value),
            f"event.{key} 必须是 YYYY-MM-DD / event.{key} must be YYYY-MM-DD",
        )
    tiebreaks = raw.get("tiebreaks") or ["match_points", "score_difference", "head_to_head", "penalties"]
    known = {"match_points", "score_difference", "total_score", "head_to_head", "penalties", "lot"}
    for criterion in tiebreaks:
        _require(criterion in known, f"未知破同分标准 {criterion!r} / unknown tie-break {criterion!r}")
    return {
        "slug": slug.strip(),
        "name": raw.get("name") or slug,
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
    _require(data.get("format") == FORMAT, f"format 必须是 {FORMAT!r} / “format” must be {FORMAT!r}")
    event = _event(data.get("event"))
    rules = (rules_for or _rules_for)(event)

    players = []
    player_ids = set()
    for raw in data.get("players") or []:
        _require(
            isinstance(raw, dict) and isinstance(raw.get("id"), str),
            f"选手缺少 id：{raw!r} / a player needs an id",
        )
        _require(raw["id"] not in player_ids, f"选手编号重复：{raw['id']} / duplicate player id {raw['id']}")
        _require(
            isinstance(raw.get("name"), str) and raw["name"].strip(),
            f"选手 {raw['id']} 缺少姓名 / player {raw['id']} has no name",
        )
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
    group = "pairs" if kind == "pairs" else "teams"
    for raw in (data.get(group) or []) if kind != "individual" else []:
        _require(
            isinstance(raw, dict) and isinstance(raw.get("id"), str),
            f"{group} 缺少 id / an entry of {group} needs an id",
        )
        code = raw["id"]
        _require(code not in entrant_ids, f"编号重复：{code} / duplicate id {code}")
        members = raw.get("players") or []
        for member in members:
            _require(member in player_ids, f"{code} 的选手 {member} 不存在 / {code}: unknown player {member}")
        if kind == "pairs":
            _require(len(members) == 2, f"{code} 必须恰有两名选手 / pair {code} needs exactly two players")
        else:
            _require(len(members) >= 2, f"{code} 至少需要两名选手 / team {code} needs players")
        _require(len(set(members)) == len(members), f"{code} 的选手重复 / {code} lists a player twice")
        entrant_ids.add(code)
        entrants.append(
            {
                "id": code,
                "name": raw.get("name") or "",
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
        isinstance(raw_round, dict) and isinstance(raw_round.get("number"), int) and raw_round["number"] > 0,
        "每轮需要正整数 number / every round needs a positive number",
    )
    number = raw_round["number"]
    _require(number not in numbers, f"第{number}轮重复 / round {number} appears twice")
    numbers.add(number)
    status = raw_round.get("status")
    _require(
        status is None or status in ROUND_STATUSES,
        f"第{number}轮状态 {status!r} 无效 / round {number}: unknown status",
    )
    rnd = ParsedRound(number=number, status=status or "", extra=_extra(raw_round, {"number", "status", "matches"}))
    tables_seen, entrants_seen = set(), set()

    def seat_once(entrant, where, rnd_number=number, seen=entrants_seen):
        _require(
            entrant not in seen,
            f"第{rnd_number}轮：{entrant} 出现两次（{where}）/ round {rnd_number}: {entrant} plays twice",
        )
        seen.add(entrant)

    for raw_match in raw_round.get("matches") or []:
        _require(
            isinstance(raw_match, dict),
            f"第{number}轮：比赛必须是对象 / round {number}: a match must be an object",
        )
        if "bye" in raw_match:
            bye = raw_match["bye"]
            known_ids = player_ids if kind == "individual" else entrant_ids
            _require(bye in known_ids, f"第{number}轮：轮空的 {bye} 不存在 / round {number}: unknown bye {bye}")
            seat_once(bye, "轮空 bye")
            rnd.matches.append(ParsedMatch(bye=bye, extra=_extra(raw_match, {"bye"})))
            continue
        if kind == "teams":
            match = _team_match(raw_match, number, entrant_ids, members_of, tables_seen, seat_once)
        else:
            match = _table_match(raw_match, number, kind, entrant_ids, player_ids, members_of, tables_seen, seat_once)
        for table in match.tables:
            _deals(table, raw_match if kind != "teams" else None, number, rules, score_stored, event)
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
    _require(isinstance(number, int) and number > 0, f"{where}：需要正整数桌号 / {where}: needs a table number")
    _require(number not in tables_seen, f"{where}：{number}号桌重复 / {where}: table {number} appears twice")
    tables_seen.add(number)
    return number


def _table_match(raw, number, kind, entrant_ids, player_ids, members_of, tables_seen, seat_once):
    where = f"第{number}轮"
    table_number = _table_number(raw, where, tables_seen)
    where = f"第{number}轮 {table_number}号桌"
    if kind == "pairs":
        ns, ew = raw.get("ns"), raw.get("ew")
        for code in (ns, ew):
            _require(code in entrant_ids, f"{where}：对 {code!r} 不存在 / {where}: unknown pair {code!r}")
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
            player in player_ids,
            f"{where}：{seat} 座选手 {player!r} 不存在 / {where}: unknown player {player!r} at {seat}",
        )
        seat_once(player, f"{table_number}号桌 {seat}")
    _require(len(set(seats.values())) == 4, f"{where}：同一选手坐了两个座位 / {where}: a player in two seats")
    table = ParsedTable(number=table_number, ns=None, ew=None, seats=dict(seats))
    return ParsedMatch(tables=[table], extra=_extra(raw, {"table", "seats", "deals"}))


def _team_match(raw, number, entrant_ids, members_of, tables_seen, seat_once):
    where = f"第{number}轮"
    home, away = raw.get("home"), raw.get("away")
    for code in (home, away):
        _require(code in entrant_ids, f"{where}：队 {code!r} 不存在 / {where}: unknown team {code!r}")
    _require(home != away, f"{where}：{home} 不能对阵自己 / {where}: a team cannot meet itself")
    seat_once(home, f"{home}–{away}")
    seat_once(away, f"{home}–{away}")
    match = ParsedMatch(home=home, away=away, extra=_extra(raw, {"home", "away", "tables"}))
    for raw_table in raw.get("tables") or []:
        table_number = _table_number(raw_table, where, tables_seen)
        here = f"{where} {table_number}号桌"
        ns_team, ew_team = raw_table.get("ns_team"), raw_table.get("ew_team")
        _require(
            {ns_team, ew_team} == {home, away},
            f"{here}：ns_team/ew_team 必须是 {home} 和 {away} / {here}: ns_team and ew_team must be the match's teams",
        )
        ns_players, ew_players = raw_table.get("ns") or [], raw_table.get("ew") or []
        _require(
            len(ns_players) == 2 and len(ew_players) == 2,
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
    boards = set()
    for raw in raw_deals:
        board = raw.get("board") if isinstance(raw, dict) else None
        where = f"第{round_number}轮 {table.number}号桌 第{board}副"
        _require(
            isinstance(board, int) and board > 0,
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
    if event["mode"] == "games" and table.deals:
        sides = [(d.scored["sides"]["NS"], d.scored["sides"]["EW"]) for d in table.deals]
        try:
            match_games(sides, event["game_threshold"], event["length"])
        except StandingsError as error:
            board = table.deals[error.deal_index].board
            raise ArchiveError(
                f"第{round_number}轮 {table.number}号桌 第{board}副：在第{event['length']}局结束之后"
                f" / round {round_number} table {table.number} board {board}: deal after the last game"
            ) from None
