"""Leaderboards and player pages, from results written straight through the ORM."""

import datetime
import re
from operator import attrgetter

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.utils import timezone

from game import services
from game.models import DailyDeal, Game, Profile, Result
from game.selectors.abandoned import ABANDONED_AFTER
from game.selectors.daily import daily_today
from game.selectors.results import result_rank
from tests.selectors.history import deal_on, finish

pytestmark = pytest.mark.django_db

CODE = "HH1-N-AAAAAAM"


@pytest.fixture(autouse=True)
def english(settings):
    settings.LANGUAGE_CODE = "en"


def make_player(name: str):
    user = get_user_model().objects.create_user(username=f"user-{name}", password="pw-unused-1")
    Profile.objects.create(user=user, display_name=name)
    return user


def make_deal(days_ago: int) -> DailyDeal:
    return deal_on(daily_today() - datetime.timedelta(days=days_ago))


def names(response, key="results") -> list[str]:
    return [row.player.profile.display_name for row in response.context[key]]


def test_daily_board_ranks_by_score_then_time_then_moves(client):
    deal = make_deal(0)
    finish(make_player("slow"), deal=deal, seconds=90)
    finish(make_player("fast_more_moves"), deal=deal, seconds=50, moves=45)
    finish(make_player("fast"), deal=deal, seconds=50, moves=41)
    finish(make_player("lost"), deal=deal, won=False, seconds=10)
    response = client.get("/leaderboard/daily/")
    assert response.status_code == 200
    assert names(response) == ["fast", "fast_more_moves", "slow", "lost"]


def test_todays_board_before_anyone_has_played_shows_the_days_code(client):
    response = client.get("/leaderboard/daily/")
    assert response.status_code == 200
    deal = response.context["deal"]
    assert deal.date == daily_today() and deal.code.startswith("HH1-D-")
    assert response.context["results"] == []
    assert "No ranked result yet." in response.content.decode()


def test_daily_board_shows_times_as_minutes_and_seconds_and_a_play_link_per_row(client):
    deal = make_deal(0)
    finish(make_player("ann"), deal=deal, seconds=83)
    finish(make_player("bea"), deal=deal, seconds=600)
    content = client.get("/leaderboard/daily/").content.decode()
    assert "1:23" in content and "10:00" in content
    assert content.count(f'href="/play/{deal.code}/"') >= 2


def test_daily_board_leaves_practice_games_out(client):
    deal = make_deal(0)
    ann = make_player("ann")
    finish(ann, deal=deal, won=False)
    finish(ann, deal=deal, ranked=False, seconds=5)
    finish(make_player("bea"), deal=deal, ranked=False)
    response = client.get("/leaderboard/daily/")
    assert names(response) == ["ann"]
    assert [r.won for r in response.context["results"]] == [False]


def test_clean_mark_needs_no_undo_and_placement_help_off(client):
    deal = make_deal(0)
    finish(make_player("clean"), deal=deal, seconds=10)
    finish(make_player("undid"), deal=deal, seconds=20, undos=1)
    finish(make_player("helped"), deal=deal, seconds=30, placement_help=True)
    response = client.get("/leaderboard/daily/")
    assert [r.clean for r in response.context["results"]] == [True, False, False]
    assert response.content.decode().count('class="badge clean"') == 1


def test_a_past_day_has_its_own_board_and_links_to_its_neighbours(client):
    old, older = make_deal(1), make_deal(3)
    today = make_deal(0)
    finish(make_player("yesterday"), deal=old)
    finish(make_player("today"), deal=today)
    response = client.get(f"/leaderboard/daily/{old.date.isoformat()}/")
    assert response.status_code == 200
    assert names(response) == ["yesterday"]
    assert response.context["neighbours"] == (older.date, today.date)


@pytest.mark.parametrize("day", ["2001-01-01", "2024-02-30", "yesterday", "2024-1-1", "20240101"])
def test_an_unknown_or_malformed_day_is_a_clear_404(client, day):
    response = client.get(f"/leaderboard/daily/{day}/")
    assert response.status_code == 404
    assert "There is no daily deal for" in response.content.decode()


def test_deal_board_lists_every_finished_game_of_the_code(client):
    ann, bea = make_player("ann"), make_player("bea")
    finish(ann, seconds=70)
    finish(ann, seconds=40, won=False)
    finish(bea, seconds=65)
    finish(bea, code="HH1-N-BBBBBBB", seconds=1)
    response = client.get(f"/leaderboard/deal/{CODE}/")
    assert response.status_code == 200
    assert names(response) == ["bea", "ann", "ann"]
    assert [r.duration_ms for r in response.context["results"]] == [65_000, 70_000, 40_000]


def test_deal_board_of_a_daily_code_shows_practice_too(client):
    deal = make_deal(0)
    finish(make_player("ann"), deal=deal, ranked=False)
    assert names(client.get(f"/leaderboard/deal/{deal.code}/")) == ["ann"]


def test_a_malformed_code_is_a_400_saying_what_a_code_looks_like(client, settings):
    settings.LANGUAGE_CODE = "en"
    response = client.get("/leaderboard/deal/HH2-N-AAAAAAA/")
    assert response.status_code == 400
    assert "A deal code looks like HH1-N-ABCDEFG" in response.content.decode()


@pytest.mark.parametrize("typed", ["hh1-n-aaaaaam", "hh1 n aaaaaam", "HH1NAAAAAAM"])
def test_a_code_typed_loosely_redirects_to_its_canonical_board(client, typed):
    response = client.get(f"/leaderboard/deal/{typed}/")
    assert response.status_code == 301
    assert response.url == f"/leaderboard/deal/{CODE}/"


def test_boards_load_players_in_one_query(client, django_assert_max_num_queries):
    deal = make_deal(0)
    for n in range(12):
        finish(make_player(f"p{n}"), deal=deal, seconds=30 + n)
    with django_assert_max_num_queries(8):
        assert client.get("/leaderboard/daily/").status_code == 200


@pytest.fixture
def streak_history():
    """Six daily deals over seven days (none four days ago) and four players' outcomes."""
    d1, d2, d3, d4, d5, d6 = (make_deal(n) for n in (6, 5, 3, 2, 1, 0))
    alice, bob, carol, dave = (make_player(n) for n in ("alice", "bob", "carol", "dave"))
    for deal, seconds in ((d1, 90), (d2, 80), (d3, 70)):
        finish(alice, deal=deal, seconds=seconds)
    finish(alice, deal=d4, won=False)
    finish(alice, deal=d5, seconds=75)
    finish(bob, deal=d4, ranked=False, seconds=5)  # practice counts for nothing
    finish(bob, deal=d5, seconds=100)
    finish(bob, deal=d6, seconds=95)
    finish(carol, deal=d4)
    finish(carol, deal=d5)
    finish(carol, deal=d6, won=False)
    finish(dave, deal=d3)


RECORD_COLUMNS = attrgetter(
    "display_name", "wins", "played", "win_percent", "best_ms", "current_streak", "best_streak"
)


def record_table(response) -> list[tuple]:
    return [RECORD_COLUMNS(record) for record in response.context["records"]]


def test_all_time_board_counts_daily_wins_rates_best_times_and_streaks(client, streak_history):
    response = client.get("/leaderboard/all-time/")
    assert response.status_code == 200
    assert record_table(response) == [
        # The day without a deal broke alice's first run; her unplayed today waits.
        ("alice", 4, 5, 80, 70_000, 1, 2),
        ("bob", 2, 2, 100, 95_000, 2, 2),
        # carol lost today's deal: her current streak is over.
        ("carol", 2, 3, 67, 60_000, 0, 2),
        # dave missed two past deals.
        ("dave", 1, 1, 100, 60_000, 0, 1),
    ]


def test_all_time_board_ignores_games_that_are_not_daily(client):
    finish(make_player("ann"))
    assert record_table(client.get("/leaderboard/all-time/")) == []


def test_player_page_shows_the_record_and_recent_games_with_codes(client, streak_history):
    alice = Profile.objects.get(display_name="alice").user
    open_game = Game.objects.create(player=alice, code=CODE, started_at=timezone.now())
    response = client.get("/players/alice/")
    assert response.status_code == 200
    record = response.context["record"]
    assert (record.wins, record.current_streak, record.best_streak) == (4, 1, 2)
    games = response.context["games"]
    assert games[0] == open_game and len(games) == 6
    content = response.content.decode()
    assert f'href="/play/{CODE}/"' in content
    for game in games:
        assert f'href="/play/{game.code}/"' in content


def test_player_page_without_games_renders(client):
    make_player("newbie")
    response = client.get("/players/newbie/")
    assert response.status_code == 200
    assert response.context["record"] is None


def test_an_unknown_player_is_a_clear_404(client):
    response = client.get("/players/nobody/")
    assert response.status_code == 404
    assert "No player is called" in response.content.decode()


def test_a_game_left_a_day_without_a_move_is_abandoned_with_no_watch_link(client):
    ann = make_player("ann")
    with time_machine.travel(timezone.now() - ABANDONED_AFTER, tick=False):
        left = services.game_open(player=ann, code=CODE)
    playing = services.game_open(player=ann, code="HH1-N-BBBBBBB")
    content = client.get("/players/ann/").content.decode()
    rows = re.findall(r"<tr>(.*?)</tr>", content, re.S)
    row_of = {game.pk: next(row for row in rows if game.code in row) for game in (left, playing)}
    assert ">abandoned</span>" in row_of[left.pk] and "playing" not in row_of[left.pk]
    assert f"/watch/{left.pk}/" not in content
    assert ">playing</span>" in row_of[playing.pk] and f"/watch/{playing.pk}/" in content
    assert f'href="/play/{CODE}/"' in row_of[left.pk]  # its player resumes it from here
    client.cookies["django_language"] = "ms"
    assert ">ditinggalkan</span>" in client.get("/players/ann/").content.decode()


def test_an_abandoned_game_finished_later_stays_in_its_history_and_off_the_deal_board(client):
    ann, bea = make_player("ann"), make_player("bea")
    with time_machine.travel(timezone.now() - 2 * ABANDONED_AFTER, tick=False):
        late = services.game_open(player=ann, code=CODE)
    # resumed and ended, two days on
    services.game_tap(game=services.LockedGame(late.pk), player=ann, seq=1, target="stock")
    services.game_resign(game=services.LockedGame(late.pk), player=ann)
    finish(bea, code=CODE, seconds=30, won=False)
    result = Result.objects.get(game=late)
    assert result.duration_ms >= 2 * ABANDONED_AFTER.total_seconds() * 1000
    assert names(client.get(f"/leaderboard/deal/{CODE}/")) == ["bea"]
    assert result_rank(result=result) == {"rank": None, "of": 1, "board": "deal"}
    page = client.get("/players/ann/")
    assert page.context["games"][0] == late and ">ended</span>" in page.content.decode()
