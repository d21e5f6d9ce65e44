from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext

from scoring.engine.pairing import PairingError
from scoring.messages import message_text
from scoring.models import Event
from scoring.rounds.creation import METHODS, PairingOptions, round_pair


class Command(BaseCommand):
    help = "Pair the next round of an event (swiss, roundrobin or random)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--method", choices=METHODS, default="swiss")
        parser.add_argument("--seed", type=int, help="seed for --method random")

    def handle(self, *args, slug, method, seed, **options):
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(gettext("没有赛事 %(slug)s") % {"slug": slug})
        try:
            rnd, _pairing = round_pair(event, method, options=PairingOptions(seed=seed))
        except PairingError as error:
            raise CommandError(message_text(error)) from None
        tables = rnd.tables.count()
        byes = rnd.matches.filter(bye__isnull=False).count()
        self.stdout.write(f"round {rnd.number}: {tables} tables, {byes} byes ({method})")
