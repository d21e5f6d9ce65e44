import json

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext

from scoring.models import Event, Round
from scoring.rounds.table_links import table_links


class Command(BaseCommand):
    help = "Print each table's link and the codes of the entrants seated there (table-api.md)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--round", type=int, required=True, dest="number")
        parser.add_argument("--json", action="store_true", dest="as_json")

    def handle(self, *args, slug, number, as_json, **options):
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(gettext("没有赛事 %(slug)s") % {"slug": slug})
        rnd = Round.objects.filter(event=event, number=number).first()
        if rnd is None:
            raise CommandError(gettext("没有第 %(number)s 轮") % {"number": number})
        links = table_links(rnd)
        if as_json:
            self.stdout.write(json.dumps(links, ensure_ascii=False))
            return
        for link in links:
            self.stdout.write(f"{link['table']:>4} {link['url']}  NS {link['ns'] or '-'}  EW {link['ew'] or '-'}")
