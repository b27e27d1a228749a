"""Where ratings show: a player's page (both ratings, "?" while provisional, a chart of each with
its table), the boards' names, the Ratings board, the export, and a deal's difficulty on the
calendar."""

import datetime
import json
import re

import pytest
from asgiref.sync import async_to_sync
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from game.models import DealRating, Game, Rating, RatingChange, RatingKind
from game.selectors.boards import board_snapshot
from tests.selectors.history import (  # noqa: F401  (the fixture)
    TODAY,
    deal_on,
    december_the_tenth,
    finish,
)
from tests.site import logged_in

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("december_the_tenth")]


def rate(player, rating, deviation=60.0, *, kind=RatingKind.DAILY, idle_days=0):
    return Rating.objects.create(
        player=player, kind=kind, rating=rating, deviation=deviation, volatility=0.06, games=9,
        rated_at=timezone.now() - datetime.timedelta(days=idle_days),
    )  # fmt: skip


def history(player, kind, ratings):
    """One rating period a day up to yesterday, for each of `ratings`, oldest first."""
    previous = 1500.0
    for n, rating in enumerate(ratings):
        ago = len(ratings) - n
        RatingChange.objects.create(
            player=player, kind=kind, at=timezone.now() - datetime.timedelta(days=ago),
            rating=rating, deviation=150, delta=rating - previous,
            date=TODAY - datetime.timedelta(days=ago) if kind == RatingKind.DAILY else None,
        )  # fmt: skip
        previous = rating


def figure(content: str, rating: str) -> str:
    return re.search(rf'<dd data-rating="{rating}"[^>]*>([^<]*)</dd>', content)[1]


def test_a_players_page_shows_both_ratings_with_a_question_mark_while_provisional(client, player):
    rate(player, 1623.2, deviation=140)
    rate(player, 1711.6, kind=RatingKind.RACE)
    content = client.get("/players/Ann/").content.decode()
    assert figure(content, "daily") == "1623?"
    assert figure(content, "race") == "1712"


def test_a_player_never_rated_shows_a_dash_for_each_rating(client, player):
    content = client.get("/players/Ann/").content.decode()
    assert (figure(content, "daily"), figure(content, "race")) == ("—", "—")
    assert "rating over time" not in content


def test_each_ratings_chart_has_a_table_of_its_changes(client, player):
    history(player, RatingKind.DAILY, [1480, 1530, 1522])
    history(player, RatingKind.RACE, [1560])
    content = client.get("/players/Ann/").content.decode()
    daily = re.search(r'aria-labelledby="rating-daily-title".*?</section>', content, re.S)[0]
    rows = re.findall(r"<tr data-rating-change><td>.*?</tr>", daily, re.S)
    cells = [re.findall(r"<td[^>]*>(?:<time[^>]*>)?([^<]*)", row) for row in rows]
    assert cells == [
        ["2026-12-07", "1480", "-20"],
        ["2026-12-08", "1530", "+50"],
        ["2026-12-09", "1522", "-8"],
    ]
    assert daily.count('<circle class="dot"') == 3
    assert 'role="img"' in daily
    assert 'aria-labelledby="rating-race-title"' in content


def row_of(content: str, name: str) -> str:
    return re.search(rf"<tr[^>]*>(?:(?!</tr>).)*>{name}</a>.*?</tr>", content, re.S)[0]


def test_the_daily_board_shows_each_players_daily_rating_beside_the_name(
    client, player, rival, make_player
):
    deal = deal_on(TODAY)
    for who in (player, rival, make_player("cat")):
        finish(who, deal)
    rate(player, 1640.4)
    rate(rival, 1500, deviation=300)
    content = client.get("/leaderboard/daily/").content.decode()
    assert "Daily rating </span>1640</span>" in row_of(content, "Ann")
    assert "Daily rating </span>1500?</span>" in row_of(content, "Bea")
    assert "data-rating" not in row_of(content, "Cat")


def test_the_deal_and_all_time_boards_show_the_daily_rating_too(client, player):
    deal = deal_on(TODAY)
    finish(player, deal)
    rate(player, 1702)
    for path in ("/leaderboard/all-time/", f"/leaderboard/deal/{deal.code}/"):
        assert "</span>1702</span>" in row_of(client.get(path).content.decode(), "Ann")


def test_a_boards_ratings_cost_one_read_however_many_players(client, make_player):
    deal = deal_on(TODAY)

    def queries_with(players: int) -> int:
        for n in range(players):
            rate(who := make_player(f"p{players}x{n}"), 1500 + n)
            finish(who, deal)
        with CaptureQueriesContext(connection) as captured:
            assert client.get("/leaderboard/daily/").status_code == 200
        return len(captured)

    assert queries_with(2) == queries_with(10)


def test_a_live_boards_rows_carry_the_players_rating(player, rival):
    deal = deal_on(TODAY)
    finish(player, deal)
    finish(rival, deal)
    rate(player, 1580, deviation=200)
    rows = board_snapshot(board=f"daily:{TODAY.isoformat()}")["rows"]
    assert {row["player"]: row["rating"] for row in rows} == {
        "Ann": {"value": 1580, "provisional": True},
        "Bea": None,
    }
    all_time = board_snapshot(board="all-time")["rows"]
    assert {row["player"]: row["rating"] for row in all_time}["Ann"]["value"] == 1580


def ratings_board_names(client) -> list[str]:
    content = client.get("/leaderboard/ratings/").content.decode()
    return re.findall(r'<td class="who"><a href="/players/[^"]+/">([^<]+)</a>', content)


def test_the_ratings_board_lists_active_settled_players_by_daily_rating(client, make_player):
    rate(make_player("steady"), 1550)
    rate(make_player("star"), 1810, idle_days=12)
    rate(make_player("newcomer"), 1900, deviation=250)  # provisional
    rate(make_player("gone"), 1850, idle_days=40)  # not active in the last 30 days
    assert ratings_board_names(client) == ["Star", "Steady"]


def test_the_ratings_board_says_when_nobody_is_settled_yet(client, player):
    rate(player, 1700, deviation=300)
    content = client.get("/leaderboard/ratings/").content.decode()
    assert "Nobody has an established Daily rating yet." in content


def test_the_ratings_board_is_linked_from_the_other_boards(client):
    content = client.get("/leaderboard/all-time/").content.decode()
    assert 'href="/leaderboard/ratings/"' in content
    ratings_page = client.get("/leaderboard/ratings/").content.decode()
    assert 'href="/leaderboard/ratings/" aria-current="page"' in ratings_page


def downloaded(response) -> str:
    async def read() -> bytes:
        return b"".join([part async for part in response.streaming_content])

    return async_to_sync(read)().decode()


def test_the_export_holds_both_ratings_and_their_history(player):
    rate(player, 1623, deviation=140)
    rate(player, 1711, kind=RatingKind.RACE)
    history(player, RatingKind.DAILY, [1560, 1623])
    history(player, RatingKind.RACE, [1711])
    response = logged_in(player).get("/accounts/export/")
    data = json.loads(downloaded(response))
    assert set(data["ratings"]) == {"daily", "race"}
    assert data["ratings"]["daily"]["rating"] == 1623
    assert data["ratings"]["daily"]["deviation"] == 140
    kinds = [(change["kind"], change["rating"]) for change in data["rating_history"]]
    assert sorted(kinds) == [("daily", 1560), ("daily", 1623), ("race", 1711)]
    assert data["rating_history"][0]["date"] is not None


def difficulty_in(content: str, date: datetime.date) -> str | None:
    cell = re.search(rf'<td [^>]*data-date="{date.isoformat()}"[^>]*>.*?</td>', content, re.S)[0]
    found = re.search(r"data-difficulty><span[^>]*>[^<]*</span>(\d+)</span>", cell)
    return found[1] if found else None


def test_the_calendar_shows_a_past_deals_difficulty_to_anyone(client):
    yesterday = deal_on(TODAY - datetime.timedelta(days=1))
    DealRating.objects.create(
        daily=yesterday, seed=1500, rating=1432.7, deviation=90, volatility=0.06
    )
    content = client.get("/daily/calendar/").content.decode()
    assert difficulty_in(content, yesterday.date) == "1433"


def test_the_calendar_shows_todays_difficulty_only_once_the_viewers_ranked_game_ended(
    player, rival
):
    today = deal_on(TODAY)
    DealRating.objects.create(daily=today, seed=1500, rating=1575, deviation=90, volatility=0.06)
    finish(player, today)
    Game.objects.create(player=rival, code=today.code, daily=today, ranked=True)
    assert (
        difficulty_in(logged_in(player).get("/daily/calendar/").content.decode(), TODAY) == "1575"
    )
    # Bea looks at Ann's calendar, her own game of the day still open: not yet.
    content = logged_in(rival).get("/daily/calendar/?player=Ann").content.decode()
    assert difficulty_in(content, TODAY) is None
