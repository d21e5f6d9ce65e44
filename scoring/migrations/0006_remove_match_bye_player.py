# The schema change after 0005's data migration, in its own transaction: PostgreSQL
# cannot alter a table with the data migration's foreign key checks still pending.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0005_one_entrant_model"),
    ]

    operations = [
        migrations.RemoveField(
            model_name="match",
            name="bye_player",
        ),
    ]
