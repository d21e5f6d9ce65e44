"""Who sits where after the first 节, in the page's language (`scoring.events.lineups` decides it)."""

from django.utils.translation import gettext

from scoring.engine.vocabulary import SEAT_NAMES


def chair_words(chairs):
    """[(draw seat, the chair's name, its letter)] for a page, or None when nothing moved."""
    return chairs and [(seat, gettext(SEAT_NAMES[chair]), chair) for seat, chair in chairs]


def session_note_words(notes):
    """`session_notes` for a page: [{"session", "first", "last", "swapped", "seats": [(draw seat,
    player's name, chair's name, chair)]}]."""
    return [
        {
            "session": note["session"],
            "first": note["boards"][0],
            "last": note["boards"][1],
            "swapped": note["swapped"],
            "seats": [(seat, player.name, gettext(SEAT_NAMES[chair]), chair) for seat, chair, player in note["seats"]],
        }
        for note in notes
    ]
