"""Replays: every step is the public view of the log's prefix, computed on the server; the
stock is shown as the game drew it and never ahead."""

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from game import engine, services
from game.models import Action, Game
from game.selectors.replays import replay_steps

pytestmark = pytest.mark.django_db


@pytest.fixture
def won_game(player, winnable) -> tuple[Game, list]:
    code, plan = winnable
    game = services.game_open(player=player, code=code)
    selected = None
    for seq, action in enumerate(plan, start=1):
        reply = services.game_tap(
            game=services.LockedGame(game.pk),
            player=player,
            seq=seq,
            target=action,
            selected=selected,
        )
        selected = reply.state.selected
    game.refresh_from_db()
    assert game.status == "won"
    return game, list(game.actions.order_by("index").values_list("action", flat=True))


def all_steps(game) -> list[dict]:
    first = replay_steps(game=game)
    steps = list(first["steps"])
    while len(steps) < first["total"]:
        steps += replay_steps(game=game, start=len(steps))["steps"]
    return steps


def test_each_step_is_the_public_view_of_the_logs_prefix(won_game):
    game, log = won_game
    steps = all_steps(game)
    assert [step["index"] for step in steps] == list(range(len(log) + 1))
    for step in steps:
        state = engine.replay(game.code, log[: step["index"]], key=settings.DEAL_KEY)
        assert step["view"] == engine.public_view(state)
    assert steps[0]["action"] is None and steps[-1]["view"]["won"]
    assert {step["event"] for step in steps[1:]} <= {"selected", "pair", "draw", "redeal"}
    assert all(set(step) == {"index", "action", "event", "at_ms", "view"} for step in steps)
    assert [s["at_ms"] for s in steps] == sorted(s["at_ms"] for s in steps)


def test_the_steps_come_in_chunks_over_http(won_game):
    game, log = won_game
    client = Client()
    chunk = client.get(f"/replay/{game.pk}/steps/", {"start": 3}).json()
    assert chunk["total"] == len(log) + 1 and chunk["start"] == 3
    assert chunk["steps"][0]["index"] == 3
    assert client.get(f"/replay/{game.pk}/steps/", {"start": "x"}).status_code == 400
    assert client.get("/replay/999999/steps/").status_code == 404
    past_the_end = client.get(f"/replay/{game.pk}/steps/", {"start": 100_000}).json()
    assert past_the_end["steps"] == []


@pytest.fixture
def long_game(player) -> Game:
    """A resigned game of 1,000 draws."""
    game = services.game_open(player=player, code="HH1-N-AAAAAAC")
    now = timezone.now()
    Action.objects.bulk_create(
        Action(game=game, index=i, action="stock", at=now) for i in range(1000)
    )
    Game.objects.filter(pk=game.pk).update(action_count=1000)
    services.game_resign(game=services.LockedGame(game.pk), player=player)
    game.refresh_from_db()
    return game


def test_an_undo_and_a_settings_change_are_steps_of_their_own(player):
    game = services.game_open(player=player, code="HH1-N-AAAAAAC")
    log = ["stock", "undo", "help-off", "stock"]
    now = timezone.now()
    Action.objects.bulk_create(
        Action(game=game, index=i, action=action, at=now) for i, action in enumerate(log)
    )
    Game.objects.filter(pk=game.pk).update(action_count=len(log))
    services.game_resign(game=services.LockedGame(game.pk), player=player)
    game.refresh_from_db()
    steps = replay_steps(game=game)["steps"]
    assert [step["event"] for step in steps] == [None, "draw", "undo", "settings", "draw"]
    assert [step["view"]["moves"] for step in steps] == [0, 1, 0, 0, 1]


def rows_read(queries) -> list[tuple[int, int]]:
    """(rows, columns) each captured query read, found by running it again."""
    shapes = []
    with connection.cursor() as cursor:
        for query in queries:
            cursor.execute(query["sql"])
            rows = cursor.fetchall()
            shapes.append((len(rows), len(rows[0]) if rows else 0))
    return sorted(shapes)


def test_a_chunk_reads_only_its_own_rows_and_the_actions_before_it(long_game):
    with CaptureQueriesContext(connection) as captured:
        chunk = replay_steps(game=long_game, start=300)
    assert [step["index"] for step in chunk["steps"]] == list(range(300, 400))
    assert chunk["total"] == 1001
    # the 299 actions before the chunk without their times, the chunk's 100 with them
    assert rows_read(captured.captured_queries) == [(100, 3), (299, 1)]


def test_a_replay_of_todays_deal_waits_for_ones_own_ranked_game(player, rival):
    game = services.game_daily_open(player=player)
    services.game_start(game=services.LockedGame(game.pk), player=player, seq=1)
    services.game_resign(game=services.LockedGame(game.pk), player=player)
    client = Client()
    client.force_login(rival)
    assert client.get(f"/replay/{game.pk}/").status_code == 403
    assert client.get(f"/replay/{game.pk}/steps/").json()["error"] == "daily_locked"
    own = services.game_daily_open(player=rival)
    services.game_start(game=services.LockedGame(own.pk), player=rival, seq=1)
    services.game_resign(game=services.LockedGame(own.pk), player=rival)
    assert client.get(f"/replay/{game.pk}/").status_code == 200
