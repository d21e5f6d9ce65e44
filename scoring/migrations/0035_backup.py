import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0034_event_game_choices_from_the_registry'),
    ]

    operations = [
        migrations.CreateModel(
            name='Backup',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('file', models.CharField(blank=True, max_length=300)),
                ('checksum', models.CharField(blank=True, max_length=64)),
                ('size', models.BigIntegerField(default=0)),
                ('taken_at', models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
                ('reason', models.CharField(max_length=40)),
                ('kept', models.BooleanField(default=False)),
                ('status', models.CharField(choices=[('ok', '已验证'), ('failed', '验证失败'), ('unchecked', '未验证')], default='unchecked', max_length=10)),
                ('message', models.TextField(blank=True)),
            ],
            options={
                'ordering': ['-taken_at', '-id'],
            },
        ),
    ]
