"""Django's makemessages, also extracting `pgettext_noop(context, message)`: the pure layer
marks labels with it (scoring/engine/vocabulary.py) without importing Django."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=pgettext_noop:1c,2"]
