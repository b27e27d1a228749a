from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0006_guests"),
        ("game", "0007_merge_0006_follow_0006_par"),
    ]

    operations = []
