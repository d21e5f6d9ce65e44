import json

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext

from scoring.archive.export import export_archive
from scoring.models import Event


class Command(BaseCommand):
    help = "Print an event as a huapai-event/1 archive."

    def add_arguments(self, parser):
        parser.add_argument("slug")

    def handle(self, *args, slug, **options):
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(gettext("没有赛事 %(slug)s") % {"slug": slug})
        self.stdout.write(json.dumps(export_archive(event), ensure_ascii=False, indent=1))
