"""Table entry by players (table-api.md): the event's entry mode, a token per table and a
personal code per entrant. Existing rows get their own random values (a column default would
give every row the same one)."""

from django.db import migrations, models

import scoring.models


def fill_secrets(apps, schema_editor):
    Table = apps.get_model("scoring", "Table")
    Entrant = apps.get_model("scoring", "Entrant")
    for table in Table.objects.filter(token__isnull=True).only("id").iterator():
        Table.objects.filter(pk=table.pk).update(token=scoring.models.new_table_token())
    for entrant in Entrant.objects.filter(access_code__isnull=True).only("id").iterator():
        Entrant.objects.filter(pk=entrant.pk).update(access_code=scoring.models.new_access_code())


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0016_event_plan_and_close"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="entry",
            field=models.CharField(
                choices=[("referees", "裁判录入"), ("players", "选手录入、对方核对")],
                default="referees",
                max_length=10,
                verbose_name="录入方式",
            ),
        ),
        migrations.AddField(
            model_name="table",
            name="token",
            field=models.CharField(editable=False, max_length=64, null=True),
        ),
        migrations.AddField(
            model_name="entrant",
            name="access_code",
            field=models.CharField(editable=False, max_length=16, null=True),
        ),
        migrations.RunPython(fill_secrets, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="table",
            name="token",
            field=models.CharField(
                default=scoring.models.new_table_token, editable=False, max_length=64, unique=True
            ),
        ),
        migrations.AlterField(
            model_name="entrant",
            name="access_code",
            field=models.CharField(default=scoring.models.new_access_code, editable=False, max_length=16),
        ),
        migrations.AddConstraint(
            model_name="entrant",
            constraint=models.UniqueConstraint(fields=("event", "access_code"), name="entrant_access_code_unique"),
        ),
    ]
