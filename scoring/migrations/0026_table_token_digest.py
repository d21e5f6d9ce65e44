# A table link is looked up by the SHA-256 digest of its token (docs/security.md): the column is
# added empty, filled for the tables already there, then made unique.

from django.db import migrations

import scoring.models


def fill(apps, schema_editor):
    Table = apps.get_model("scoring", "Table")
    for pk, token in Table.objects.values_list("pk", "token").iterator():
        Table.objects.filter(pk=pk).update(token_digest=scoring.models.table_token_digest(token))


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0025_event_game_and_deal_game_data"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="token_digest",
            field=scoring.models.TokenDigestField(editable=False, max_length=64, null=True),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="table",
            name="token_digest",
            field=scoring.models.TokenDigestField(editable=False, max_length=64, unique=True),
        ),
    ]
