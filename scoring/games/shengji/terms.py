"""The closed vocabulary of 升级's breakdown notes (`engine.NOTES`), so the site can render a
note in the page's language word by word (`scoring.messages.term_text`), as it does 华牌's.
Longer terms are matched first; every Chinese character of a note is in one of them."""


def pgettext(context, word):
    """A marker for `makemessages` (context "breakdown"); the engine itself writes Chinese."""
    return word


BREAKDOWN_TERMS = (
    pgettext("breakdown", "台下得"),
    pgettext("breakdown", "分，不足"),
    pgettext("breakdown", "分，在"),
    pgettext("breakdown", "分，达到"),
    pgettext("breakdown", "与"),
    pgettext("breakdown", "之间："),
    pgettext("breakdown", "："),
    pgettext("breakdown", "台上连升两级"),
    pgettext("breakdown", "台上升一级"),
    pgettext("breakdown", "仍在台下"),
    pgettext("breakdown", "不升级"),
    pgettext("breakdown", "上台并升一级"),
    pgettext("breakdown", "上台"),
    pgettext("breakdown", "下台"),
    pgettext("breakdown", "打"),
    pgettext("breakdown", "，"),
    pgettext("breakdown", "调整分"),
)
