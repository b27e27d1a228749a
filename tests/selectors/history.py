"""Daily deals and finished games written straight through the ORM, as the services store them,
for the reads' tests."""

import datetime

import pytest
import time_machine
from django.utils import timezone

from game.models import DailyDeal, Game, Result

TODAY = datetime.date(2026, 12, 10)


@pytest.fixture
def december_the_tenth(settings):
    """English pages, at noon of TODAY."""
    settings.LANGUAGE_CODE = "en"
    noon = datetime.datetime.combine(TODAY, datetime.time(12), tzinfo=datetime.UTC)
    with time_machine.travel(noon):
        yield


def deal_on(day: datetime.date) -> DailyDeal:
    """A stored daily deal of `day` with a made-up code unique to the date."""
    seed = "".join(chr(ord("A") + int(digit)) for digit in f"{day.toordinal():07d}")
    return DailyDeal.objects.create(date=day, code=f"HH1-D-{seed}")


def finish(player, deal=None, *, code="HH1-N-AAAAAAM", ranked=None, won=True, seconds=60, **fields):
    """A completed game and its result: of `deal` (ranked unless told) or of a normal `code`."""
    ranked = deal is not None if ranked is None else ranked
    code = deal.code if deal else code
    finished = timezone.now()
    status = Game.Status.WON if won else Game.Status.RESIGNED
    game = Game.objects.create(
        player=player,
        code=code,
        daily=deal,
        ranked=ranked,
        status=status,
        started_at=finished - datetime.timedelta(seconds=seconds),
        finished_at=finished,
    )
    values = {"score": 250 if won else 120, "moves": 40, "undos": 0, "placement_help": False}
    values.update(fields)
    return Result.objects.create(
        game=game,
        player=player,
        code=code,
        daily=deal,
        ranked=ranked,
        won=won,
        duration_ms=round(seconds * 1000),
        finished_at=finished,
        **values,
    )
