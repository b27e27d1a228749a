"""Appending moves to many games' logs at once (game.storage.appends): each move is stored only
if its game's log still has the length the move was made on, by statements built once and kept
within a bound."""

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from game import services
from game.storage import appends
from game.storage.appends import Append, appends_store
from game.storage.dbthread import MAX_BATCH
from tests.site import game_log

pytestmark = pytest.mark.django_db(transaction=True)

CODE = "HH1-N-AAAAAAC"  # tip 4, waste 9; the tip is free at the start


async def test_a_group_commit_stores_each_move_whose_game_did_not_move(player, rival):
    mine, theirs = await opened(player), await opened(rival)
    stored = await store([Append(mine, 0, ("stock",), 1), Append(theirs, 5, ("stock",), 1)])
    assert stored == [True, False]
    assert await game_log(mine) == (1, 1, ["stock"])
    assert await game_log(theirs) == (0, 0, [])


@database_sync_to_async
def opened(player) -> int:
    return services.game_open(player=player, code=CODE).pk


@database_sync_to_async
def store(appends):
    return appends_store(appends=appends, at=timezone.now())


def test_the_statements_built_for_batches_of_every_size_stay_bounded():
    for moves in range(1, MAX_BATCH + 1):
        for rows in (moves, 2 * moves):
            appends._update_sql(moves)
            appends._postgresql_sql(moves, rows)
    kept = [build.cache_info().currsize for build in appends.STATEMENT_BUILDERS]
    assert kept == [MAX_BATCH, appends.STATEMENTS]  # an UPDATE per batch size; the pairs capped
    assert appends.appends_statements_kept() == MAX_BATCH + appends.STATEMENTS
