"""The daily deal: one winnable code a day for everyone, unknowable before its day."""

import datetime
import hashlib
import hmac
import io

import pytest
from django.conf import settings
from django.core.management import call_command
from django.utils import timezone

from game import engine, services
from game.domain.errors import GameError
from game.models import Action, DailyDeal, Game, Result
from game.selectors import daily
from game.selectors.games import game_snapshot
from game.services.daily import daily_code, daily_deal
from tests.site import reveals_stock

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 3, 14)


@pytest.fixture
def today(monkeypatch):
    """Freeze the daily calendar on DAY."""
    monkeypatch.setattr(daily, "daily_today", lambda: DAY)
    return DAY


def test_two_players_get_the_same_daily_code(today, player, rival):
    mine = services.game_daily_open(player=player)
    theirs = services.game_daily_open(player=rival)
    assert mine.code == theirs.code and mine.code.startswith("HH1-D-")
    assert mine.pk != theirs.pk and mine.daily == theirs.daily == DailyDeal.objects.get(date=DAY)


def test_the_daily_code_changes_with_the_date():
    codes = {daily_deal(DAY + datetime.timedelta(days=n)).code for n in range(5)}
    assert len(codes) == 5
    assert DailyDeal.objects.count() == 5


def test_the_daily_deal_is_certified_winnable():
    for n in range(10):
        code = daily_code(DAY + datetime.timedelta(days=n))
        plan = engine.solve(code, key=settings.DEAL_KEY)
        assert plan and engine.replay(code, plan, key=settings.DEAL_KEY).won


def test_the_code_is_the_first_winnable_candidate_of_the_documented_derivation():
    key = settings.DEAL_KEY.encode()
    candidates = []
    for n in range(50):
        digest = hmac.digest(key, f"h2h-daily:{DAY.isoformat()}:{n}".encode(), hashlib.sha256)
        candidates.append(engine.format_code("D", int.from_bytes(digest[:8], "big") % 26**7))
    winnable = [code for code in candidates if engine.solve(code, key=settings.DEAL_KEY)]
    assert daily_code(DAY) == winnable[0]


def test_the_code_depends_on_the_deal_key():
    assert daily_code(DAY, key="one deployment") != daily_code(DAY, key="another")


def test_the_stored_deal_wins_over_a_fresh_derivation():
    DailyDeal.objects.create(date=DAY, code="HH1-D-AAAAAAC")
    assert daily_deal(DAY).code == "HH1-D-AAAAAAC"


def test_the_first_daily_game_is_ranked_and_later_ones_practice(today, player):
    first = services.game_daily_open(player=player)
    assert first.ranked and services.game_daily_open(player=player).pk == first.pk
    services.game_start(game=services.LockedGame(first.pk), player=player, seq=1)
    services.game_resign(game=services.LockedGame(first.pk), player=player)
    second = services.game_daily_open(player=player)
    assert second.pk != first.pk and not second.ranked
    info = game_snapshot(game=second)["game"]
    assert info["practice"] and not info["ranked"] and info["kind"] == "D"
    assert info["daily_date"] == DAY.isoformat()


def test_a_past_days_deal_is_practice(today, monkeypatch, player, rival):
    code = services.game_daily_open(player=player).code
    monkeypatch.setattr(daily, "daily_today", lambda: DAY + datetime.timedelta(days=1))
    game = services.game_open(player=rival, code=code)
    assert not game.ranked and game.daily.date == DAY


def test_a_ranked_daily_result_is_ranked_on_the_days_board(today, player, rival):
    games = [services.game_daily_open(player=p) for p in (player, rival)]
    for game in games:
        services.game_start(game=services.LockedGame(game.pk), player=game.player, seq=1)
    services.game_resign(game=services.LockedGame(games[0].pk), player=player)
    practice = services.game_daily_open(player=player)
    reply = services.game_resign(game=services.LockedGame(practice.pk), player=player)
    assert reply.game["result"]["board"] == "deal" and reply.game["result"]["of"] == 2
    reply = services.game_resign(game=services.LockedGame(games[1].pk), player=rival)
    assert reply.game["result"] | {"board": "daily", "of": 2} == reply.game["result"]
    assert games[1].result.ranked


# The ranked attempt waits for Start: nothing of the deal is shown, and no clock runs, before.


def refusal(action) -> str:
    with pytest.raises(GameError) as caught:
        action()
    return caught.value.code


def test_the_ranked_game_shows_no_card_and_runs_no_clock_until_start(on_socket, today, player):
    game = services.game_daily_open(player=player)
    before = game_snapshot(game=game)
    assert before["game"] | {"started_at": None, "awaiting_start": True} == before["game"]
    assert before["view"]["heart"] is None and before["view"]["waste"]["top"] is None
    assert before["view"]["hints"] == [] and not reveals_stock(str(before), game.code)
    assert services.game_daily_open(player=player).started_at is None  # a reload starts nothing
    reply = on_socket.start(player=player, game_id=game.pk, seq=1)
    game.refresh_from_db()
    assert reply.event == "start" and reply.game["started_at"] == game.started_at.isoformat()
    assert abs(timezone.now() - game.started_at) < datetime.timedelta(seconds=5)
    after = game_snapshot(game=game)
    assert len(after["view"]["heart"]) == 25 and not after["game"]["awaiting_start"]
    assert reply.game["last_seq"] == 1 and game.action_count == 0


def test_every_action_before_the_start_is_refused_not_started(on_socket, today, player):
    game = services.game_daily_open(player=player)
    for action in (
        lambda: on_socket.tap(player=player, game_id=game.pk, seq=1, target="stock"),
        lambda: on_socket.undo(player=player, game_id=game.pk, seq=1),
        lambda: on_socket.resign(player=player, game_id=game.pk, seq=1),
        lambda: on_socket.set_help(player=player, game_id=game.pk, seq=1, on=False),
    ):
        assert refusal(action) == "not_started"
    game.refresh_from_db()
    assert (game.status, game.last_seq, game.action_count, game.started_at) == ("open", 0, 0, None)


def test_start_on_a_started_game_replies_its_state_and_changes_nothing(on_socket, today, player):
    game = services.game_daily_open(player=player)
    on_socket.start(player=player, game_id=game.pk, seq=1)
    on_socket.tap(player=player, game_id=game.pk, seq=2, target="stock")
    started_at = Game.objects.get(pk=game.pk).started_at
    again = on_socket.start(player=player, game_id=game.pk, seq=3)
    assert again.event == "start" and again.state.moves == 1 and again.game["last_seq"] == 2
    assert Game.objects.get(pk=game.pk).started_at == started_at


def test_another_players_start_is_refused(today, player, rival):
    game = services.game_daily_open(player=player)
    start = lambda: services.game_start(  # noqa: E731
        game=services.LockedGame(game.pk), player=rival, seq=1
    )
    assert refusal(start) == "not_your_game"
    assert Game.objects.get(pk=game.pk).started_at is None


def test_only_the_ranked_attempt_waits_for_start(today, monkeypatch, player, rival):
    normal = services.game_open(player=player, code="HH1-N-AAAAAAC")
    ranked = services.game_daily_open(player=player)
    services.game_start(game=services.LockedGame(ranked.pk), player=player, seq=1)
    services.game_resign(game=services.LockedGame(ranked.pk), player=player, seq=2)
    practice = services.game_daily_open(player=player)
    monkeypatch.setattr(daily, "daily_today", lambda: DAY + datetime.timedelta(days=1))
    past = services.game_open(player=rival, code=ranked.code)
    for game in (normal, practice, past):
        assert game.started_at is not None
        assert game_snapshot(game=game)["game"]["awaiting_start"] is False


def test_a_new_game_leaves_an_unstarted_ranked_game_waiting(today, player):
    game = services.game_daily_open(player=player)
    services.game_new(player=player, ending_game_id=game.pk)
    game.refresh_from_db()
    assert game.status == "open" and game.started_at is None


# The day ends at midnight on the daily calendar: a ranked game still open then is over.


def test_a_started_game_open_at_midnight_ends_resigned_and_ranked_at_midnight(
    on_socket, before_midnight, player
):
    game = services.game_daily_open(player=player)
    on_socket.start(player=player, game_id=game.pk, seq=1)
    on_socket.tap(player=player, game_id=game.pk, seq=2, target="stock")
    before_midnight.move_to(before_midnight.midnight + datetime.timedelta(seconds=1))
    tap = lambda seq: on_socket.tap(player=player, game_id=game.pk, seq=seq, target="stock")  # noqa: E731
    assert refusal(lambda: tap(3)) == "day_over"
    assert refusal(lambda: tap(4)) == "day_over"  # and ever after
    game.refresh_from_db()
    assert game.status == "resigned" and game.finished_at == before_midnight.midnight
    result = Result.objects.get(game=game)
    assert result.ranked and not result.won and result.moves == 1
    assert result.finished_at == before_midnight.midnight and result.duration_ms >= 0
    assert Action.objects.filter(game=game).count() == 1
    call_command("audit_results", stdout=io.StringIO())  # the replay agrees with the result


def test_a_game_never_started_by_midnight_ends_with_no_result(on_socket, before_midnight, player):
    game = services.game_daily_open(player=player)
    before_midnight.move_to(before_midnight.midnight)
    assert refusal(lambda: on_socket.start(player=player, game_id=game.pk, seq=1)) == "day_over"
    game.refresh_from_db()
    assert (game.status, game.started_at) == ("resigned", None)
    assert not Result.objects.exists()
    assert services.game_open(player=player, code=game.code).pk != game.pk  # practice now


def test_a_game_finished_before_midnight_stays_as_it_was(on_socket, before_midnight, player):
    game = services.game_daily_open(player=player)
    on_socket.start(player=player, game_id=game.pk, seq=1)
    on_socket.resign(player=player, game_id=game.pk, seq=2)
    finished_at = Game.objects.get(pk=game.pk).finished_at
    before_midnight.move_to(before_midnight.midnight + datetime.timedelta(hours=1))
    tap = lambda: on_socket.tap(player=player, game_id=game.pk, seq=3, target="stock")  # noqa: E731
    assert refusal(tap) == "game_over"
    assert Game.objects.get(pk=game.pk).finished_at == finished_at


def test_a_new_game_after_midnight_ends_the_ranked_game_at_midnight(before_midnight, player):
    """A page's way in: the day's end it meets is kept, though its resignation is refused."""
    game = services.game_daily_open(player=player)
    services.game_start(game=services.LockedGame(game.pk), player=player, seq=1)
    before_midnight.move_to(before_midnight.midnight + datetime.timedelta(seconds=1))
    services.game_new(player=player, ending_game_id=game.pk)
    game.refresh_from_db()
    assert game.status == "resigned" and game.finished_at == before_midnight.midnight
    assert Result.objects.get(game=game).finished_at == before_midnight.midnight


def test_expire_dailies_ends_the_days_leftovers(before_midnight, player, rival, make_player):
    started, unstarted = (services.game_daily_open(player=p) for p in (player, rival))
    services.game_start(game=services.LockedGame(started.pk), player=player, seq=1)
    services.game_open(player=make_player("cal"), code="HH1-N-AAAAAAC")  # not ranked: left
    call_command("expire_dailies")
    assert Game.objects.filter(status="open").count() == 3  # the day is not over yet
    before_midnight.move_to(before_midnight.midnight)
    out = io.StringIO()
    call_command("expire_dailies", stdout=out)
    assert "2 ranked daily games" in out.getvalue()
    assert list(Game.objects.filter(status="open").values_list("code", flat=True)) == [
        "HH1-N-AAAAAAC"
    ]
    assert list(Result.objects.values_list("game_id", "ranked")) == [(started.pk, True)]
    assert Game.objects.get(pk=unstarted.pk).finished_at == before_midnight.midnight
