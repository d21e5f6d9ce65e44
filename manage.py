#!/usr/bin/env python
import os
import sys


def score_deal_without_django(argv):
    """`manage.py score_deal [FILE]` runs the pure engine straight away: scoring deal JSON
    needs no settings or database, and Django's start-up (0.8 s of CPU, loading every
    app) would be a sixth of the work for 100,000 deals. Anything else asked of the
    command (--help, options) goes to Django's `score_deal`, which runs the same code."""
    from scoring.engine.scorefile import fast_path_arguments, run_command, unreadable_message

    file = fast_path_arguments(argv)
    if file is None:
        return None
    try:
        return run_command(file)
    except OSError as error:
        sys.stderr.write(f"CommandError: {unreadable_message(file, error)}\n")
        return 1


def main():
    status = score_deal_without_django(sys.argv)
    if status is not None:
        sys.exit(status)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "huapai.settings")
    # Development and the command line run with DEBUG unless told otherwise;
    # the WSGI entry point (production) never defaults to it.
    os.environ.setdefault("DEBUG", "1")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
