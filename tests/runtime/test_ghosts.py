"""A ghost's playback on one socket: its points on the server's clock from the player's first
move, where it is now for a socket that opens late, and nothing more once the game is over."""

import asyncio
import datetime

from game.runtime.ghosts import GhostRun, ghost_end_frame, ghost_frame, point_at
from game.selectors.ghosts import Ghost, GhostPoint

START = GhostPoint(0, 25, 0, 0)
GHOST = Ghost(
    game_id=7,
    player="Bea",
    timeline=(START, GhostPoint(0, 25, 0, 1), GhostPoint(40, 23, 20, 2), GhostPoint(80, 0, 250, 3)),
    end_ms=80,
)


def frames_to(sent: list):
    async def send(frame: dict) -> None:
        sent.append(frame)

    return send


def progress(frames: list) -> list[tuple]:
    return [(f["heart_left"], f["score"], f["moves"]) for f in frames]


def test_a_frame_carries_progress_numbers_and_nothing_else():
    frame = ghost_frame(GhostPoint(1500, 21, 40, 6))
    assert frame == {"type": "ghost", "t_ms": 1500, "heart_left": 21, "score": 40, "moves": 6}
    end = ghost_end_frame(GHOST, "you")
    assert set(end) == {"type", "winner", "t_ms", "heart_left", "score", "moves"}


def test_the_ghost_is_where_its_last_point_before_the_time_left_it():
    assert point_at(GHOST, 0) == GhostPoint(0, 25, 0, 1)
    assert point_at(GHOST, 79) == GhostPoint(40, 23, 20, 2)
    assert point_at(GHOST, 10**9) == GHOST.last


async def test_before_the_first_move_the_ghost_waits_at_the_start():
    sent = []
    run = GhostRun(GHOST, frames_to(sent))
    await run.show()
    assert sent == [ghost_frame(START)]  # not its first move, made at its 0 ms
    assert run.task is None


async def test_from_the_first_move_each_point_comes_on_the_servers_clock():
    sent = []
    first = datetime.datetime.now(datetime.UTC)
    run = GhostRun(GHOST, frames_to(sent), now=lambda: datetime.datetime.now(datetime.UTC))
    run.begin(first)
    await asyncio.wait_for(run.task, timeout=2)
    assert progress(sent) == [(25, 0, 1), (23, 20, 2), (0, 250, 3)]
    elapsed = datetime.datetime.now(datetime.UTC) - first
    assert elapsed >= datetime.timedelta(milliseconds=80)


async def test_a_socket_that_opens_late_shows_the_ghost_where_it_is_now():
    sent = []
    clock = {"now": datetime.datetime(2026, 12, 4, 12, tzinfo=datetime.UTC)}
    first = clock["now"] - datetime.timedelta(milliseconds=60)
    run = GhostRun(GHOST, frames_to(sent), now=lambda: clock["now"])
    run.begin(first)
    await asyncio.sleep(0)  # the task shows where the ghost is, then waits for the next point
    await asyncio.sleep(0)
    assert progress(sent) == [(23, 20, 2)]
    clock["now"] += datetime.timedelta(milliseconds=25)
    await asyncio.wait_for(run.task, timeout=2)
    assert progress(sent) == [(23, 20, 2), (0, 250, 3)]


async def test_the_end_stops_the_playback_and_says_who_won():
    sent = []
    run = GhostRun(GHOST, frames_to(sent), now=lambda: datetime.datetime.now(datetime.UTC))
    run.begin(datetime.datetime.now(datetime.UTC))
    await asyncio.sleep(0.01)
    await run.end("you")
    await asyncio.sleep(0.1)
    assert sent[-1] == ghost_end_frame(GHOST, "you") and run.task.cancelled()
    assert sent[-1]["heart_left"] == 0  # where the ghost ended, whenever the player did


async def test_a_second_first_move_changes_nothing():
    run = GhostRun(GHOST, frames_to([]))
    first = datetime.datetime.now(datetime.UTC)
    run.begin(first)
    task = run.task
    run.begin(first + datetime.timedelta(seconds=5))
    assert run.first_move == first and run.task is task
    run.stop()
