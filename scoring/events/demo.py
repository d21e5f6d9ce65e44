"""The demo events and their users: a 华牌 pairs event (fixtures/demo-event.json, made by
fixtures/make_demo.py), a small 蚌埠斗地主 event (fixtures/demo-doudizhu.json, made by
fixtures/make_demo_doudizhu.py) and a small 升级 pairs event (fixtures/demo-shengji.json, made by
fixtures/make_demo_shengji.py)."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from scoring.archive.database import import_archive
from scoring.events.accounts import role_grant
from scoring.events.setup import grant_event_creation
from scoring.models import Event

DEMO_SLUG = "demo-taiyuan-2026"
DEMO_FILE = settings.BASE_DIR / "fixtures" / "demo-event.json"
# Every demo event, by slug: the 华牌 one first (the demo users' first page).
DEMO_EVENTS = {
    DEMO_SLUG: DEMO_FILE,
    "demo-bengbu-doudizhu-2026": settings.BASE_DIR / "fixtures" / "demo-doudizhu.json",
    "demo-shengji-2026": settings.BASE_DIR / "fixtures" / "demo-shengji.json",
    # 跑胡子 at tables of three: fixtures/demo-paohuzi.json, made by fixtures/make_demo_paohuzi.py.
    "demo-paohuzi-2026": settings.BASE_DIR / "fixtures" / "demo-paohuzi.json",
}
# Demo credentials for a local demo only; `make run` prints them.
DEMO_USERS = [
    ("organiser", "huapai-organiser", "organiser"),
    ("referee1", "huapai-referee1", "referee"),
    ("referee2", "huapai-referee2", "referee"),
]


@transaction.atomic
def load_demo(*, reset: bool = False) -> dict[str, bool]:
    """Import each demo event unless it is there already; returns {slug: True when (re)loaded}."""
    loaded = {}
    User = get_user_model()
    for slug, path in DEMO_EVENTS.items():
        exists = Event.objects.filter(slug=slug).exists()
        if not exists or reset:
            import_archive(json.loads(path.read_text(encoding="utf-8")), replace=True)
        loaded[slug] = not exists or reset
        event = Event.objects.get(slug=slug)
        for username, password, role in DEMO_USERS:
            user, created = User.objects.get_or_create(username=username)
            if created or not user.has_usable_password():
                user.set_password(password)
                user.save()
            role_grant(username=username, role=role, event=event)
            if role == "organiser":
                grant_event_creation(user)  # the demo organiser may create events from the console
    return loaded
