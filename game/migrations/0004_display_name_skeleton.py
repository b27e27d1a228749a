"""Profile.name_skeleton: each existing name's confusable skeleton, then unique.

Of two existing names that already look alike, the first claimed keeps the skeleton; the later
keeps its name with no skeleton, and a rename must then pick a name like no other.
"""

from django.db import migrations, models

from game.domain.display_names import display_name_skeleton


def fill_skeletons(apps, schema_editor):
    Profile = apps.get_model("game", "Profile")
    filled, claimed = [], set()
    for profile in Profile.objects.order_by("pk").only("pk", "display_name").iterator():
        profile.name_skeleton = display_name_skeleton(profile.display_name)
        if profile.name_skeleton not in claimed:
            claimed.add(profile.name_skeleton)
            filled.append(profile)
    Profile.objects.bulk_update(filled, ["name_skeleton"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ("game", "0003_daily_start"),
    ]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="name_skeleton",
            field=models.CharField(editable=False, max_length=255, null=True),
        ),
        migrations.RunPython(fill_skeletons, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="profile",
            name="name_skeleton",
            field=models.CharField(editable=False, max_length=255, null=True, unique=True),
        ),
    ]
