"""Every game's deal in one stored shape: 华牌's cards, holders, exposures and penalties move
from their own columns into `Deal.game_data`, where the other games already keep theirs."""

from django.db import migrations, models

HUAPAI_KEYS = ("captured", "holders", "exposed", "penalties")
BATCH = 2000


def cards_into_game_data(apps, schema_editor):
    Deal = apps.get_model("scoring", "Deal")
    batch = []
    for deal in Deal.objects.filter(game_data__isnull=True).only("id", *HUAPAI_KEYS).iterator(chunk_size=BATCH):
        deal.game_data = {key: getattr(deal, key) or {} for key in HUAPAI_KEYS}
        batch.append(deal)
        if len(batch) >= BATCH:
            Deal.objects.bulk_update(batch, ["game_data"])
            batch = []
    Deal.objects.bulk_update(batch, ["game_data"])


def cards_back_into_columns(apps, schema_editor):
    Deal = apps.get_model("scoring", "Deal")
    batch = []
    for deal in Deal.objects.filter(game_data__has_key="captured").iterator(chunk_size=BATCH):
        deal.captured = deal.game_data.get("captured") or {}
        deal.holders = deal.game_data.get("holders") or {}
        deal.exposed = deal.game_data.get("exposed") or {}
        deal.game_data = None
        batch.append(deal)
        if len(batch) >= BATCH:
            Deal.objects.bulk_update(batch, ["captured", "holders", "exposed", "game_data"])
            batch = []
    Deal.objects.bulk_update(batch, ["captured", "holders", "exposed", "game_data"])


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0035_backup"),
    ]

    operations = [
        migrations.RunPython(cards_into_game_data, cards_back_into_columns),
        migrations.AlterField(
            model_name="deal",
            name="game_data",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RemoveField(model_name="deal", name="captured"),
        migrations.RemoveField(model_name="deal", name="holders"),
        migrations.RemoveField(model_name="deal", name="exposed"),
    ]
