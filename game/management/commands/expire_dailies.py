"""End the ranked daily games that their day left open: for an operator's scheduler.

A game left open at midnight (the daily calendar's, settings.DAILY_TZ) is ended by the first
access after it; this ends the rest, so that every ranked result of a day is written soon
after the day ends, whether its player comes back or not. It also deletes the ended days'
e-mail marks (game.services.attempts): they are kept only until their day ends; and merges
the server heartbeats' stretches older than a day (game.services.server_beats), which keeps
every outage and so every game's time.
"""

from datetime import timedelta

from django.core.management.base import BaseCommand
from django.utils import timezone

from game.selectors.daily import daily_today
from game.services import games_close_day
from game.services.attempts import attempts_forget
from game.services.server_beats import server_beats_compact

BEATS_KEPT_APART = timedelta(days=1)  # each process's own stretches, for an operator to read


class Command(BaseCommand):
    help = (
        "End the ranked daily games still open after their day's midnight (as resigned),"
        " delete the past days' e-mail marks, and merge the heartbeats' stretches older than a day."
    )

    def handle(self, *args, **options):
        ended = games_close_day()
        self.stdout.write(f"{ended} ranked daily games of past days ended")
        forgotten = attempts_forget(before=daily_today())
        self.stdout.write(f"{forgotten} e-mail marks of past days deleted")
        merged = server_beats_compact(before=timezone.now() - BEATS_KEPT_APART)
        self.stdout.write(f"{merged} heartbeat stretches older than a day merged")
