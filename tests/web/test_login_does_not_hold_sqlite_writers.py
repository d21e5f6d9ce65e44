"""On SQLite a login attempt waits for others of the same (username, address) on a lock file,
not on the database's one write lock: a referee's save goes on during a password check."""

import threading

import pytest
from django.db import connection
from django.test import Client

from scoring.models import Event
from tests.referee_setup import make_user

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's single write lock")
def test_a_save_goes_on_while_a_password_is_checked(monkeypatch):
    from django.contrib.auth import forms

    if connection.settings_dict["NAME"] in ("", ":memory:") or "mode=memory" in str(connection.settings_dict["NAME"]):
        pytest.skip("an in-memory database has no second connection")
    make_user("ref-login")
    saved = threading.Event()
    checked = forms.authenticate

    def slow_check(*args, **kwargs):
        def referee_saves():
            try:
                Event.objects.create(slug="written-meanwhile", name="x")
                saved.set()
            finally:
                connection.close()

        writer = threading.Thread(target=referee_saves)
        writer.start()
        saved.wait(3)  # held behind the login's write lock, it would wait 20 s
        result = checked(*args, **kwargs)
        writer.join(30)
        return result

    monkeypatch.setattr(forms, "authenticate", slow_check)
    Client().post("/accounts/login/", {"username": "ref-login", "password": "wrong-password"})
    assert saved.is_set()
