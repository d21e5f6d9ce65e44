import json

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext

from scoring.models import Event
from scoring.results.explanations import explanation_text
from scoring.results.standings import event_standings
from scoring.results.standings_json import standings_json


class Command(BaseCommand):
    help = "Print an event's standings (JSON with --json), optionally after round N."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--json", action="store_true", dest="as_json")
        parser.add_argument("--after-round", type=int)
        parser.add_argument("--published", action="store_true", help="published (provisional/official) rounds only")

    def handle(self, *args, slug, as_json, after_round, published, **options):
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(gettext("没有赛事 %(slug)s") % {"slug": slug})
        if as_json:
            document = standings_json(event, after_round=after_round, published_only=published)
            self.stdout.write(_dumps(document))
            return
        for row in event_standings(event, after_round=after_round, published_only=published):
            figures = row.as_json(event.kind)
            figures.pop("rank"), figures.pop("id")
            detail = " ".join(f"{k}={v}" for k, v in figures.items())
            self.stdout.write(f"{row.rank:>4} {row.id:<8} {detail}  {explanation_text(row.explanation)}")


def _dumps(document):
    return json.dumps(document, ensure_ascii=False)
