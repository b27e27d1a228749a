"""Remove the guests whose browser session has expired or gone, with their games: for an
operator's scheduler, after `clearsessions` (docs/deployment.md, "Scheduled jobs")."""

from django.core.management.base import BaseCommand
from django.utils import timezone

from game.services.guests import guests_expire


class Command(BaseCommand):
    help = "Remove guests whose session has expired or gone, with their games and results."

    def handle(self, *args, **options):
        removed = guests_expire(now=timezone.now())
        self.stdout.write(f"Removed {removed} guest{'' if removed == 1 else 's'}")
