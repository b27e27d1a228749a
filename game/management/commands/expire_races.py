"""End the race rooms left idle: for an operator's scheduler (cron, a systemd timer).

The site tidies idle rooms itself whenever a room is opened or looked at; this ends the rest,
so that an abandoned race's unfinished games stop counting as open.
"""

from django.core.management.base import BaseCommand

from game.services.races import IDLE, race_expire_idle


class Command(BaseCommand):
    help = f"End race rooms idle for {int(IDLE.total_seconds() // 60)} minutes or more."

    def handle(self, *args, **options):
        looked_at = race_expire_idle()
        self.stdout.write(f"{looked_at} idle race rooms looked at")
