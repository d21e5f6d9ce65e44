"""The .po files are the one source of translations: complete, not fuzzy, and compiled."""

import re
import subprocess
from pathlib import Path

import pytest
from django.utils import translation

from tests.conftest import REPO

CATALOGUES = sorted((REPO / "locale").glob("*/LC_MESSAGES/*.po"))


def test_there_is_an_english_catalogue():
    assert REPO / "locale" / "en" / "LC_MESSAGES" / "django.po" in CATALOGUES


@pytest.mark.parametrize("po", CATALOGUES, ids=[str(p.relative_to(REPO)) for p in CATALOGUES])
def test_every_message_is_translated_and_none_is_fuzzy(po):
    completed = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(po)], capture_output=True, text=True, check=True
    )
    statistics = completed.stderr.strip()
    assert "untranslated" not in statistics and "fuzzy" not in statistics, statistics


@pytest.mark.parametrize("po", CATALOGUES, ids=[str(p.relative_to(REPO)) for p in CATALOGUES])
def test_the_compiled_catalogue_is_the_po_file(po, tmp_path):
    """`manage.py compilemessages` after every edit of a .po: the committed .mo must match it."""
    compiled = tmp_path / "django.mo"
    subprocess.run(["msgfmt", "--check-format", "-o", str(compiled), str(po)], check=True)
    assert Path(po.with_suffix(".mo")).read_bytes() == compiled.read_bytes()


def test_english_names_a_single_event_in_the_singular():
    from scoring.models import Event

    with translation.override("en"):
        assert (str(Event._meta.verbose_name), str(Event._meta.verbose_name_plural)) == ("Event", "Events")


PLACEHOLDER = re.compile(r"\{(\w+)[^{}]*\}|%\((\w+)\)s")


@pytest.mark.parametrize("po", CATALOGUES, ids=[str(p.relative_to(REPO)) for p in CATALOGUES])
def test_every_translation_keeps_the_placeholders_of_its_message(po):
    """A domain message is filled in after translation (`scoring.messages.text`): a placeholder
    lost or misspelt in the .po would raise or drop the card, seat or table it names."""
    import polib

    wrong = [
        entry.msgid
        for entry in polib.pofile(str(po))
        if entry.msgstr and sorted(PLACEHOLDER.findall(entry.msgid)) != sorted(PLACEHOLDER.findall(entry.msgstr))
    ]
    assert wrong == []
