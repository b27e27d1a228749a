"""Rate the ended days not rated yet: for an operator's scheduler (a systemd timer).

Each day is one rating period (docs/ratings.md): its players' Daily ratings and its deal's
difficulty are written once, oldest day first. A day waits until its ranked games are all
over, which the scheduled expire_dailies sees to within minutes of its midnight.
"""

from django.core.management.base import BaseCommand

from game.selectors.daily import daily_today
from game.selectors.rating_periods import days_to_rate
from game.services.ratings import ratings_rate_day


class Command(BaseCommand):
    help = (
        "Rate every ended day not rated yet: its players' Daily ratings and its deal's difficulty."
    )

    def handle(self, *args, **options):
        rated = [
            day.date for day in days_to_rate(today=daily_today()) if ratings_rate_day(date=day.date)
        ]
        for date in rated:
            self.stdout.write(f"{date} rated")
        self.stdout.write(f"{len(rated)} days rated")
