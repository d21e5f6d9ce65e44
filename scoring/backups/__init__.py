"""Backups that are proven by restoring them: `services` takes, checks, rotates and
schedules them; `files` turns a database into a file and back, per vendor; `manifest` is what a
backup must give back. The commands are `backup`, `backups` and `restore`; docs/deploying.md
has the runbook."""
