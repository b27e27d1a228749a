"""The metrics move with real play: a whole game over the site's ASGI app, then /metrics shows
its frames, events, group commits, result, flags, error frames and open sockets."""

import pytest
from django.test import AsyncClient
from prometheus_client.parser import text_string_to_metric_families

from game import engine
from tests.layers import fresh_channel_layer  # noqa: F401  (an autouse fixture)
from tests.site import connect, frame_of, greeted, send

pytestmark = pytest.mark.django_db(transaction=True)


async def scrape() -> dict[tuple, float]:
    """(sample name, its labels as sorted pairs) -> value, as a scraper on loopback reads it."""
    response = await AsyncClient().get("/metrics")
    assert response.status_code == 200
    text = response.content.decode()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def moved(before: dict, after: dict, name: str, **labels: str) -> float:
    key = (name, tuple(sorted(labels.items())))
    return after.get(key, 0.0) - before.get(key, 0.0)


def events_of(code: str, plan: list, key: str) -> list[str]:
    """The event of each tap of `plan`, as the engine decides them."""
    state, events = engine.new_game(code, key=key), []
    for target in plan:
        state, event = engine.tap(state, engine.parse_target(target))
        events.append(str(event))
    return events


async def test_a_game_over_the_socket_moves_the_counters(player_cookie, winnable, settings):
    settings.TAP_RATE = 0  # a bot's pace, so that its result is flagged too
    code, plan = winnable
    before = await scrape()
    socket, _ = await greeted(player_cookie, code)
    assert moved(before, await scrape(), "h2h_open_sockets", socket="play") == 1
    for seq, target in enumerate(plan, start=1):
        reply = await send(socket, {"type": "tap", "seq": seq, "target": target})
        assert reply["type"] == "state"
    await socket.send_json_to({"type": "tap", "seq": 1, "target": "stock"})
    refused = await frame_of(socket, "error")  # past the deal's par, pushed once computed
    assert refused["error"] == "duplicate_seq"
    await socket.disconnect()
    after = await scrape()

    events = events_of(code, plan, settings.DEAL_KEY)
    for event in ("pair", "draw", "selected"):
        assert moved(before, after, "h2h_play_events_total", event=event) == events.count(event)
    replies = moved(before, after, "h2h_reply_seconds_count", socket="play")
    assert replies == len(plan) + 1  # every tap and the refusal were answered
    assert moved(before, after, "h2h_reply_seconds_sum", socket="play") > 0
    stored = sum(event in ("pair", "draw", "redeal") for event in events) - 1  # the last: a
    assert moved(before, after, "h2h_db_batch_moves_sum") == stored  # transaction of its own
    assert moved(before, after, "h2h_db_commit_seconds_count") >= 1
    assert moved(before, after, "h2h_results_total", status="won") == 1
    assert moved(before, after, "h2h_result_flags_total", reason="fast_taps") == 1
    code_moved = moved(before, after, "h2h_error_frames_total", socket="play", code="duplicate_seq")
    assert code_moved == 1
    assert moved(before, after, "h2h_open_sockets", socket="play") == 0


async def test_a_refused_socket_counts_its_error_frame_and_is_not_left_open():
    before = await scrape()
    socket, frame = await greeted("", "HH1-N-AAAAAAC")  # anonymous: the play socket needs a login
    assert frame["error"] == "login_required"
    await socket.disconnect()
    after = await scrape()
    assert moved(before, after, "h2h_error_frames_total", socket="play", code="login_required") == 1
    assert moved(before, after, "h2h_open_sockets", socket="play") == 0


async def test_a_live_board_counts_as_a_boards_socket_whatever_board_it_shows():
    before = await scrape()
    sockets = [await connect(path) for path in ("/ws/live/all-time/", "/ws/live/home/")]
    assert moved(before, await scrape(), "h2h_open_sockets", socket="boards") == 2
    for socket in sockets:
        await socket.disconnect()
    assert moved(before, await scrape(), "h2h_open_sockets", socket="boards") == 0
