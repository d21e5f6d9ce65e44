"""`manage.py warm_public`: the warmer (scoring.cache.warmup) as a process of its own."""

import threading

from django.core.management.base import BaseCommand

from scoring.cache.warmup import POLL_SECONDS, Warmer


class Command(BaseCommand):
    help = "Warm the public standings and statistics of every event whose published results moved."

    def add_arguments(self, parser):
        parser.add_argument("--poll", type=float, default=POLL_SECONDS, help="seconds between two looks")
        parser.add_argument("--passes", type=int, default=0, help="stop after this many looks (0: never)")

    def handle(self, *args, poll, passes, **options):
        warmer = Warmer()
        if not passes:
            warmer.run(stop=threading.Event(), poll_seconds=poll)
            return
        stop = threading.Event()
        for number in range(passes):
            for event_id in warmer.run_pass():
                self.stdout.write(f"warmed event {event_id}")
            if number + 1 < passes:
                stop.wait(poll)
