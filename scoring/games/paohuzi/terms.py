"""The closed vocabulary of 跑胡子's breakdown notes (`engine`: a win's payments with their
arithmetic, a discarder paying alone, a 黄庄's 王霸, an adjusted score), so the site can render
a note in the page's language word by word (`scoring.messages.term_text`), as it does 华牌's.
Longer terms are matched first; every Chinese character of a note is in one of them."""

from scoring.games.refusals import pgettext

# Seats are named with what comes before or after them ("付给南(S)", "南(S)、西(W)各付"): a
# note writes them without spaces, which English needs.
BREAKDOWN_TERMS = (
    pgettext("breakdown", "东(E)"),
    pgettext("breakdown", "南(S)"),
    pgettext("breakdown", "西(W)"),
    pgettext("breakdown", "东(E)、南(S)各付"),
    pgettext("breakdown", "东(E)、西(W)各付"),
    pgettext("breakdown", "南(S)、西(W)各付"),
    pgettext("breakdown", "付给东(E)"),
    pgettext("breakdown", "付给南(S)"),
    pgettext("breakdown", "付给西(W)"),
    pgettext("breakdown", "放炮独付给"),
    pgettext("breakdown", "放炮独付"),
    pgettext("breakdown", "，本家不付"),
    pgettext("breakdown", "黄庄："),
    pgettext("breakdown", "张王霸"),
    pgettext("breakdown", "胡息"),
    pgettext("breakdown", "囤"),
    pgettext("breakdown", "省"),
    pgettext("breakdown", "底"),
    pgettext("breakdown", "子"),
    pgettext("breakdown", "番"),
    pgettext("breakdown", "黑胡"),
    pgettext("breakdown", "一点朱"),
    pgettext("breakdown", "红胡"),
    pgettext("breakdown", "王钓王"),
    pgettext("breakdown", "王钓"),
    pgettext("breakdown", "王闯"),
    pgettext("breakdown", "自摸"),
    pgettext("breakdown", "（"),
    pgettext("breakdown", "）"),
    pgettext("breakdown", "调整分"),
)
