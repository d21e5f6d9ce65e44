"""An event with a scheduled round and the usual people: two referees, an organiser, an outsider."""

import copy

from django.contrib.auth import get_user_model

from scoring.events.accounts import role_grant, token_for
from tests.archives import EXAMPLES

PASSWORD = "correct-horse-battery"


def example_deal(name="T1"):
    deal = copy.deepcopy(EXAMPLES[name]["deal"])
    deal.pop("ruleset", None)
    return deal


def make_user(username, role=None, event=None):
    if role:
        user, _ = role_grant(username=username, role=role, event=event)
    else:
        user = get_user_model().objects.create(username=username)
    user.set_password(PASSWORD)
    user.save()
    return user


def token_header(user):
    return {"HTTP_AUTHORIZATION": f"Token {token_for(user)}"}


def board_url(slug="t-pairs", round_number=3, table=1, board=1, suffix=""):
    return f"/api/events/{slug}/rounds/{round_number}/tables/{table}/boards/{board}{suffix}"
