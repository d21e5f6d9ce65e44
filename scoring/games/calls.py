"""What a referee may record at a table of a game, and how he may rule it: the kinds of call
(`Game.call_kinds`) and the outcomes of a ruling (`Game.call_outcomes`), as codes.

The codes are the values the site stores (`RefereeCall.Kind`, `RefereeCall.Outcome`, which name
them in words); this module is pure, so a game lists its own without the database. 华牌 has
every kind its law and procedures speak of (claims with the remaining point cards' fall, the
exposure irregularities, penalty points). A game whose law names no irregularity gets the ones
any card table has: a wrong card count, slow play, conduct, and "other" (docs/refereeing.md,
docs/games/*.md).
"""

from scoring.games.refusals import _

# The kinds of call (the same strings as `RefereeCall.Kind`; a dispute of entry is opened by
# the table page only and is no game's to offer).
CLAIM = "claim"  # 声称 with the remaining point cards' fall (华牌 §7)
REVOKE = "revoke"  # 藏牌: not following suit where the law makes a player follow
LEAD_OUT_OF_TURN = "lead_out_of_turn"
LATE_EXPOSURE = "late_exposure"  # 华牌's exposures (亮牌)
EARLY_PLAY = "early_play"
WRONG_COUNT = "wrong_card_count"
SLOW_PLAY = "slow_play"
CONDUCT = "conduct"
OTHER = "other"

# The outcomes of a ruling (the same strings as `RefereeCall.Outcome`).
NOTHING = "nothing"
PENALTY = "penalty"  # penalty points: only a game that takes them (`Game.takes_penalties`)
ADJUSTED = "adjusted"  # the chief arbiter's adjusted score: only a game that has one
REDEAL = "redeal"
DRAWN_BACK = "drawn_back"  # 华牌's law: the short hand draws back from the long one
NOT_PLAYED = "not_played"

# What every table can see happen, whatever the game: the kinds a game without its own gets.
GENERIC_CALL_KINDS = (WRONG_COUNT, SLOW_PLAY, CONDUCT, OTHER)
# A game without penalty points rules nothing, an adjusted score, a redeal or the board not
# played (its law's redeal, its event's rule for boards not played).
GENERIC_CALL_OUTCOMES = (NOTHING, ADJUSTED, REDEAL, NOT_PLAYED)

# Their names, for a refusal that names one (the same msgids as the stored choices' labels).
KIND_WORDS = {
    CLAIM: _("声称"),
    REVOKE: _("藏牌"),
    LEAD_OUT_OF_TURN: _("未轮到出牌"),
    LATE_EXPOSURE: _("亮牌超时或无效"),
    EARLY_PLAY: _("亮出的牌过早打出"),
    WRONG_COUNT: _("牌数错误"),
    SLOW_PLAY: _("出牌迟缓"),
    CONDUCT: _("不当行为"),
    OTHER: _("其他"),
}
OUTCOME_WORDS = {
    NOTHING: _("不处罚"),
    PENALTY: _("罚分"),
    ADJUSTED: _("调整分"),
    REDEAL: _("重新发牌"),
    DRAWN_BACK: _("少牌方抽回"),
    NOT_PLAYED: _("这一副未打"),
}
