"""Ratings in a real browser: a player's page with both ratings and their charts, the Ratings
board, the ratings the live boards draw beside the names, and a deal's difficulty in the end
window of its ranked daily; at 360 px in both languages and themes, with no accessibility
violation that axe-core finds."""

import datetime

import pytest
from playwright.sync_api import expect

from game import engine
from tests.e2e import deals
from tests.e2e.axe import axe_violations
from tests.e2e.conftest import PHONE, create_users

pytestmark = pytest.mark.e2e

RATED = ["rae", "sol", "tam", "una"]

SETUP = """
import datetime
from django.utils import timezone
from game.models import DailyDeal, DealRating, Game, Rating, RatingChange, Result
from game.selectors.daily import daily_today

User = __import__("django.contrib.auth", fromlist=["get_user_model"]).get_user_model()
now = timezone.now()
day = daily_today() - datetime.timedelta(days=1)
deal, _ = DailyDeal.objects.get_or_create(date=day, defaults={"code": "HH1-D-RATINGS"})
DealRating.objects.update_or_create(
    daily=deal, defaults={"seed": 1500, "rating": 1487.4, "deviation": 90, "volatility": 0.06}
)
# name: (Daily rating, its deviation, Race rating or None)
ratings = {"rae": (1623.2, 140, 1711.6), "sol": (1710, 60, None), "tam": (1580, 70, None)}
for place, (name, (daily, deviation, race)) in enumerate(ratings.items()):
    user = User.objects.get(username=name)
    Rating.objects.create(player=user, kind="daily", rating=daily, deviation=deviation,
                          volatility=0.06, games=9, rated_at=now)
    if race is not None:
        Rating.objects.create(player=user, kind="race", rating=race, deviation=80,
                              volatility=0.06, games=6, rated_at=now)
    game = Game.objects.create(player=user, code=deal.code, daily=deal, ranked=True,
                               status="won", started_at=now - datetime.timedelta(days=1),
                               finished_at=now - datetime.timedelta(days=1, seconds=-90))
    Result.objects.create(game=game, player=user, code=deal.code, daily=deal, ranked=True,
                          won=True, score=250, moves=40, undos=0, placement_help=False,
                          duration_ms=90_000 + 1000 * place, finished_at=game.finished_at)
rae = User.objects.get(username="rae")
previous = 1500
for n, rating in enumerate([1480, 1531, 1522, 1566, 1549, 1590, 1611, 1623]):
    ago = 8 - n
    RatingChange.objects.create(player=rae, kind="daily", at=now - datetime.timedelta(days=ago),
                                rating=rating, deviation=300 - 20 * n, delta=rating - previous,
                                date=daily_today() - datetime.timedelta(days=ago))
    previous = rating
for n, rating in enumerate([1560, 1602, 1655, 1690, 1712]):
    RatingChange.objects.create(player=rae, kind="race",
                                at=now - datetime.timedelta(days=5 - n, hours=3),
                                rating=rating, deviation=120, delta=30)
"""

LOOKS = [
    (locale, scheme) for locale in ("en-US", "ms-MY") for scheme in ("light", "dark")
]  # fmt: skip


@pytest.fixture(scope="module")
def rated(live_server_process):
    """Three rated players with yesterday's ranked results, rae with a history of both kinds;
    una is never rated."""
    create_users(live_server_process, RATED)
    live_server_process.manage("shell", "-c", SETUP)
    return "rae"


def look_at(page, artifacts, name: str) -> None:
    page.screenshot(path=str(artifacts / f"{name}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    assert axe_violations(page) == []


@pytest.mark.parametrize(("locale", "scheme"), LOOKS)
def test_a_players_page_shows_both_ratings_and_a_chart_of_each_on_a_phone(
    open_page, rated, artifacts, locale, scheme
):
    page = open_page(rated, "/daily/", locale=locale, device=PHONE, bypass_csp=True).page
    page.emulate_media(color_scheme=scheme)
    page.goto("/players/Rae/")
    expect(page.locator("dd[data-rating=daily]")).to_have_text("1623?")
    expect(page.locator("dd[data-rating=race]")).to_have_text("1712")
    for kind, dots in (("daily", 8), ("race", 5)):
        card = page.locator(f"section[aria-labelledby=rating-{kind}-title]")
        expect(card.locator("svg.chart[role=img] circle.dot")).to_have_count(dots)
        card.locator("details.chart-table summary").click()
        expect(card.locator("tr[data-rating-change]")).to_have_count(dots)
    name = f"player-ratings-{locale[:2]}-{scheme}-phone"
    for kind in ("daily", "race"):  # close up: a full page is too tall to read
        card = page.locator(f"section[aria-labelledby=rating-{kind}-title]")
        card.screenshot(path=str(artifacts / f"{name}-{kind}.png"))
    page.locator("main section.card").first.screenshot(path=str(artifacts / f"{name}-head.png"))
    look_at(page, artifacts, name)


@pytest.mark.parametrize(("locale", "scheme"), LOOKS)
def test_the_ratings_board_lists_the_settled_players_on_a_phone(
    open_page, rated, artifacts, locale, scheme
):
    page = open_page(rated, "/daily/", locale=locale, device=PHONE, bypass_csp=True).page
    page.emulate_media(color_scheme=scheme)
    page.goto("/leaderboard/ratings/")
    rows = page.locator("[data-ratings-board] tbody tr")
    expect(rows.locator("td.who")).to_have_text(["Sol", "Tam"])  # Rae's "?" keeps her off
    expect(rows.locator("td[data-rating]")).to_have_text(["1710", "1580"])
    look_at(page, artifacts, f"ratings-board-{locale[:2]}-{scheme}-phone")


def test_the_live_day_board_draws_each_rating_beside_the_name(open_page, rated, artifacts):
    page = open_page(rated, "/daily/", device=PHONE).page
    yesterday = datetime.datetime.now(datetime.UTC).date() - datetime.timedelta(days=1)
    page.goto(f"/leaderboard/daily/{yesterday.isoformat()}/")
    rows = page.locator("[data-live-rows] tr")
    # The socket's snapshot redraws the rows from its frame: these slots are the script's.
    for name, rating in (("Rae", "1623?"), ("Sol", "1710"), ("Tam", "1580")):
        expect(rows.filter(has_text=name).locator("[data-slot=rating-value]")).to_have_text(rating)
    page.screenshot(path=str(artifacts / "daily-board-ratings-en-phone.png"), full_page=True)


@pytest.fixture(scope="module")
def uma(live_server_process):
    """A player whose ranked daily only this module plays."""
    create_users(live_server_process, ["uma"])
    return "uma"


RATE_TODAY = """
from game.models import DailyDeal, DealRating
from game.selectors.daily import daily_today
DealRating.objects.update_or_create(
    daily=DailyDeal.objects.get(date=daily_today()),
    defaults={"seed": 1500, "rating": 1574.6, "deviation": 90, "volatility": 0.06},
)
"""


def test_the_end_window_of_a_ranked_daily_shows_the_deals_difficulty(
    open_page, server, uma, artifacts
):
    board = open_page(uma, "/daily/", device=PHONE)
    board.start()
    server.manage("shell", "-c", RATE_TODAY)
    board.play(engine.solve(board.code, key=deals.DEAL_KEY))
    win = board.page.locator("#h2h-win")
    expect(win).to_be_visible()
    expect(win.locator("[data-slot=difficulty-box]")).to_be_visible()
    expect(win.locator("[data-slot=difficulty]")).to_have_text("1575")
    board.page.screenshot(path=str(artifacts / "finish-difficulty-en-phone.png"))
    board.page.goto("/daily/calendar/")
    expect(board.page.locator("td.day.today [data-difficulty]")).to_contain_text("1575")
    board.page.screenshot(path=str(artifacts / "calendar-difficulty-en-phone.png"), full_page=True)
