"""Par in the product: stored when the daily deal is certified, computed once per other code
after a game of it ends, and part of a game's result only once the game has ended."""

import asyncio
import datetime
import json
import threading
import time

import pytest
from django.conf import settings
from prometheus_client import REGISTRY

from game import engine, services
from game.models import DealPar
from game.runtime import par_process, par_searcher
from game.selectors.boards import board_snapshot
from game.selectors.games import game_snapshot
from game.selectors.par import par_of
from game.selectors.watching import spectator_snapshot
from game.services.daily import daily_deal

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 3, 14)


class Inline:
    """The par thread, run in the caller: these tests' transaction is not visible elsewhere."""

    def submit(self, fn, /, *args, **kwargs):
        fn(*args, **kwargs)


@pytest.fixture
def searches(monkeypatch, django_capture_on_commit_callbacks):
    """Par searches run inline once the ending transaction commits; returns the codes searched."""
    searched, search = [], par_process.min_moves

    def counted(code, **kwargs):
        searched.append(code)
        return search(code, **kwargs)

    monkeypatch.setattr(par_searcher, "_searcher", Inline())
    DealPar.objects.all().delete()  # none left by a par thread of another test's game
    monkeypatch.setattr(par_process, "min_moves", counted)
    return searched


def sample(name: str, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def win(player, code, plan):
    """Open a game of `code` and play `plan` to its end on its locked row (a socket's database
    thread would not see these tests' transaction); the last reply."""
    game = services.game_open(player=player, code=code)
    reply = None
    for seq, action in enumerate(plan, start=1):
        selected = reply.state.selected if reply else None
        reply = services.game_tap(
            game=services.LockedGame(game.pk),
            player=player,
            seq=seq,
            target=action,
            selected=selected,
        )
    return game, reply


def test_the_daily_par_is_stored_when_the_days_deal_is_certified():
    deal = daily_deal(DAY)
    assert par_of(deal.code) == engine.min_moves(deal.code, key=settings.DEAL_KEY)
    assert par_of(deal.code) is not None  # a certified deal can be won


def test_par_of_reads_and_never_computes(searches):
    assert par_of("HH1-N-AAAAAAC") is None
    assert not searches and not DealPar.objects.exists()


def test_a_game_carries_no_par_until_it_has_ended(player, winnable, searches):
    code, plan = winnable
    game = services.game_open(player=player, code=code)
    DealPar.objects.create(code=code, par=engine.min_moves(code, key=settings.DEAL_KEY))
    reply = services.game_tap(
        game=services.LockedGame(game.pk), player=player, seq=1, target=plan[0]
    )
    assert "par" not in json.dumps(game_snapshot(game=game))
    assert reply.game is None or reply.game["result"] is None


def test_a_game_that_ends_gets_its_deals_par_after_its_result(
    player, winnable, searches, django_capture_on_commit_callbacks
):
    code, plan = winnable
    settled = sample("h2h_par_searches_total", outcome="settled")
    with django_capture_on_commit_callbacks(execute=True):
        game, reply = win(player, code, plan)
    assert reply.game["result"]["won"] and searches == [code]
    assert sample("h2h_par_searches_total", outcome="settled") == settled + 1
    par = engine.min_moves(code, key=settings.DEAL_KEY)
    assert par_of(code) == par <= reply.game["result"]["moves"]
    game.refresh_from_db()
    assert game_snapshot(game=game)["game"]["result"]["par"] == par


def test_a_second_game_of_a_code_reads_the_stored_par(
    player, rival, winnable, searches, django_capture_on_commit_callbacks
):
    code, plan = winnable
    with django_capture_on_commit_callbacks(execute=True):
        win(player, code, plan)
    with django_capture_on_commit_callbacks(execute=True):
        _game, reply = win(rival, code, plan)
    assert searches == [code]  # computed once, for the first game
    assert reply.game["result"]["par"] == par_of(code) is not None


def test_a_resigned_game_gets_par_too(
    player, winnable, searches, django_capture_on_commit_callbacks
):
    code, _plan = winnable
    game = services.game_open(player=player, code=code)
    with django_capture_on_commit_callbacks(execute=True):
        reply = services.game_resign(game=services.LockedGame(game.pk), player=player)
    assert reply.game["result"]["par"] is None  # not known yet when the result was made
    assert searches == [code] and par_of(code) is not None


def test_a_deal_that_cannot_be_won_is_stored_without_par_and_searched_once(
    player, searches, django_capture_on_commit_callbacks
):
    code = next(c for c in (engine.format_code("N", s) for s in range(50))
                if engine.solve(c, key=settings.DEAL_KEY) is None)  # fmt: skip
    for _ in range(2):
        game = services.game_open(player=player, code=code)
        with django_capture_on_commit_callbacks(execute=True):
            services.game_resign(game=services.LockedGame(game.pk), player=player)
    assert DealPar.objects.get(code=code).par is None and searches == [code]
    assert par_searcher.par_settle(code=code, game_id=game.pk) is None


def test_spectators_and_boards_are_never_told_par(
    player, winnable, searches, django_capture_on_commit_callbacks
):
    code, plan = winnable
    with django_capture_on_commit_callbacks(execute=True):
        game, reply = win(player, code, plan)
    assert reply.game["result"]["par"] is None and par_of(code) is not None
    watched = spectator_snapshot(game_id=game.pk)
    assert watched["game"]["result"]["won"] and "par" not in watched["game"]["result"]
    board = board_snapshot(board=f"deal:{code}")
    assert board["rows"] and '"par"' not in json.dumps(board)


def test_a_game_that_ends_while_many_codes_wait_for_their_search_waits_for_the_next(
    player, winnable, searches, monkeypatch, django_capture_on_commit_callbacks
):
    code, plan = winnable
    skipped = sample("h2h_par_searches_total", outcome="skipped")
    full = threading.BoundedSemaphore(1)
    full.acquire()
    monkeypatch.setattr(par_searcher, "_places", full)
    with django_capture_on_commit_callbacks(execute=True):
        win(player, code, plan)
    assert searches == [] and par_of(code) is None
    assert sample("h2h_par_searches_total", outcome="skipped") == skipped + 1
    full.release()
    with django_capture_on_commit_callbacks(execute=True):
        win(player, code, plan)
    assert searches == [code] and par_of(code) is not None


def test_a_search_that_fails_is_logged_and_frees_its_place(
    player, winnable, searches, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    code, plan = winnable

    def broken(code, **kwargs):
        raise OSError("the search process is gone")

    monkeypatch.setattr(par_process, "min_moves", broken)
    failed = sample("h2h_par_searches_total", outcome="failed")
    with django_capture_on_commit_callbacks(execute=True):
        win(player, code, plan)
    assert f"the par of {code} was not settled" in caplog.text and par_of(code) is None
    assert sample("h2h_par_searches_total", outcome="failed") == failed + 1
    assert sample("h2h_par_waiting") == 0
    assert par_searcher._places.acquire(blocking=False)  # no place kept by the failed search
    par_searcher._places.release()


@pytest.fixture
def stalled_loop():
    """A running event loop stuck in a callback for three seconds, as a socket loop that stops
    or stalls after a par search saw it running."""
    loop, released = asyncio.new_event_loop(), threading.Event()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    loop.call_soon_threadsafe(released.wait, 3)
    while not loop.is_running():
        time.sleep(0.001)
    yield loop
    released.set()
    loop.call_soon_threadsafe(loop.stop)
    thread.join()
    loop.close()


@pytest.mark.filterwarnings("ignore:coroutine 'publish' was never awaited")  # cancelled unrun
def test_a_loop_that_does_not_run_the_publish_never_holds_the_par_thread(
    player, winnable, stalled_loop, monkeypatch, caplog
):
    code, _plan = winnable
    game = services.game_open(player=player, code=code)
    DealPar.objects.create(code=code, par=engine.min_moves(code, key=settings.DEAL_KEY))
    monkeypatch.setattr(par_searcher, "PUBLISH_WAIT", 0.2)
    started = time.monotonic()
    assert par_searcher.par_settle(code=code, game_id=game.pk, loop=stalled_loop) == par_of(code)
    assert time.monotonic() - started < 1.5
    assert "was not published" in caplog.text
