"""The play socket's refusals and errors: each is clear, and none changes the game."""

import json
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from django.conf import settings

from game import engine
from game.models import Game
from h2h_site.asgi import application
from tests.site import game_log, greeted, open_socket, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

CODE = "HH1-N-AAAAAAC"  # tip 4, waste 9; position 1 is covered at the start


async def connected(cookie, code=CODE):
    """A socket on `code` past its first state frame, and that frame."""
    return await greeted(cookie, code)


async def error_of(socket, text=None, binary=None):
    if binary is not None:
        await socket.send_to(bytes_data=binary)
    else:
        await socket.send_to(text_data=text)
    frame = await socket.receive_json_from()
    assert frame["type"] == "error" and frame["message"]
    return frame


async def test_connecting_sends_the_state_of_the_players_game(player_cookie):
    socket, frame = await connected(player_cookie)
    assert frame["type"] == "state" and frame["view"]["code"] == CODE
    assert frame["game"]["code"] == CODE and frame["game"]["status"] == "open"
    assert frame["view"]["stock"] == 26 and frame["view"]["selected"] is None
    await socket.disconnect()


async def test_a_socket_without_a_login_is_told_and_closed():
    socket = await open_socket(application, CODE)
    assert socket.connected
    frame = await socket.receive_json_from()
    assert (frame["type"], frame["seq"], frame["error"]) == ("error", None, "login_required")
    assert frame["message"]
    assert (await socket.receive_output())["code"] == 4001
    assert not await database_sync_to_async(Game.objects.exists)()


@pytest.mark.parametrize("code", ["HH9-N-AAAAAAA", "nonsense", "HH1-N-AAAA", "HH1-X-AAAAAAA"])
async def test_a_malformed_code_is_told_and_closed(player_cookie, code):
    socket = await open_socket(application, code, player_cookie)
    frame = await socket.receive_json_from()
    assert frame["error"] == "bad_code"
    assert frame["message"] == (
        "A deal code looks like HH1-N-ABCDEFG: HH1, then N or D, then seven letters."
    )
    assert (await socket.receive_output())["code"] == 4004
    assert not await database_sync_to_async(Game.objects.exists)()


async def test_a_malformed_code_is_told_in_the_players_language(player):
    cookie = await database_sync_to_async(session_cookie)(player, "ms")
    socket = await open_socket(application, "HH1-N-BAD", cookie)
    frame = await socket.receive_json_from()
    assert frame["error"] == "bad_code"
    assert frame["message"].startswith("Kod agihan kelihatan seperti HH1-N-ABCDEFG")
    assert (await socket.receive_output())["code"] == 4004


async def test_a_foreign_origin_is_refused_before_the_handshake(player_cookie):
    socket = await open_socket(application, CODE, player_cookie, origin=b"https://evil.example")
    assert not socket.connected
    assert not await database_sync_to_async(Game.objects.exists)()


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("{not json", "bad_json"),
        (" ", "bad_json"),
        ("[1, 2]", "bad_frame"),
        ('"tap"', "bad_frame"),
        ('{"type": "tap", "target": 25}', "bad_seq"),
        ('{"type": "tap", "seq": 0, "target": 25}', "bad_seq"),
        ('{"type": "tap", "seq": -3, "target": 25}', "bad_seq"),
        ('{"type": "tap", "seq": 1.5, "target": 25}', "bad_seq"),
        ('{"type": "tap", "seq": "7", "target": 25}', "bad_seq"),
        ('{"type": "tap", "seq": true, "target": 25}', "bad_seq"),
        ('{"type": "tap", "seq": 9007199254740993, "target": 25}', "bad_seq"),
        ('{"type": "fly", "seq": 1}', "unknown_type"),
        ('{"type": ["tap"], "seq": 1}', "unknown_type"),
        ('{"seq": 1}', "unknown_type"),
        ('{"type": "tap", "seq": 1, "target": 26}', "bad_target"),
        ('{"type": "tap", "seq": 1, "target": 0}', "bad_target"),
        ('{"type": "tap", "seq": 1, "target": "heart"}', "bad_target"),
        ('{"type": "tap", "seq": 1, "target": true}', "bad_target"),
        ('{"type": "tap", "seq": 1}', "bad_target"),
        ('{"type": "undo", "seq": 1}', "cannot_undo"),
        ('{"type": "settings", "seq": 1, "placement_help": "off"}', "bad_setting"),
        (json.dumps({"type": "tap", "seq": 1, "target": "x" * 1100}), "too_large"),
        (json.dumps({"type": "tap", "seq": 1, "pad": "é" * 600}), "too_large"),
    ],
)
async def test_every_bad_frame_gets_its_error_and_changes_nothing(player_cookie, text, error):
    socket, first = await connected(player_cookie)
    frame = await error_of(socket, text)
    assert frame["error"] == error
    assert await game_log(first["game"]["id"]) == (0, 0, [])
    await socket.disconnect()


async def test_the_error_echoes_a_valid_seq(player_cookie):
    socket, _ = await connected(player_cookie)
    frame = await error_of(socket, '{"type": "fly", "seq": 3}')
    assert frame["seq"] == 3 and (await error_of(socket, "{"))["seq"] is None
    await socket.disconnect()


async def test_a_binary_frame_is_refused(player_cookie):
    socket, first = await connected(player_cookie)
    frame = await error_of(socket, binary=b'{"type": "tap", "seq": 1, "target": 25}')
    assert frame["error"] == "binary" and frame["seq"] is None
    assert await game_log(first["game"]["id"]) == (0, 0, [])
    await socket.disconnect()


async def test_the_socket_stays_open_after_errors(player_cookie):
    socket, first = await connected(player_cookie)
    await error_of(socket, "{not json")
    await error_of(socket, binary=b"\x00")
    await socket.send_json_to({"type": "tap", "seq": 1, "target": "stock"})
    frame = await socket.receive_json_from()
    assert frame["event"] == "draw" and frame["game"]["last_seq"] == 1
    await socket.disconnect()


async def test_a_covered_card_is_the_event_none(player_cookie):
    socket, first = await connected(player_cookie)
    await socket.send_json_to({"type": "tap", "seq": 1, "target": 1})
    frame = await socket.receive_json_from()
    assert frame["type"] == "state" and frame["event"] == "none" and "game" not in frame
    assert frame["view"] == first["view"]
    assert await game_log(first["game"]["id"]) == (0, 0, [])
    await socket.disconnect()


async def test_a_repeated_seq_is_applied_once(player_cookie):
    socket, first = await connected(player_cookie)
    await socket.send_json_to({"type": "tap", "seq": 1, "target": "stock"})
    assert (await socket.receive_json_from())["event"] == "draw"
    for seq in (1, 1):
        await socket.send_json_to({"type": "tap", "seq": seq, "target": "stock"})
        frame = await socket.receive_json_from()
        assert frame["error"] == "duplicate_seq" and frame["seq"] == 1
    assert await game_log(first["game"]["id"]) == (1, 1, ["stock"])
    await socket.disconnect()


async def test_a_resent_seq_after_a_reconnect_is_applied_once(player_cookie):
    socket, first = await connected(player_cookie)
    await socket.send_json_to({"type": "tap", "seq": 4, "target": "stock"})
    await socket.receive_json_from()
    await socket.disconnect()
    socket, again = await connected(player_cookie)
    assert again["game"]["last_seq"] == 4
    await socket.send_json_to({"type": "tap", "seq": 4, "target": "stock"})
    assert (await socket.receive_json_from())["error"] == "duplicate_seq"
    assert await game_log(first["game"]["id"]) == (4, 1, ["stock"])
    await socket.disconnect()


async def test_another_players_socket_on_the_same_code_has_its_own_game(
    player_cookie, rival_cookie
):
    mine, my_first = await connected(player_cookie)
    theirs, their_first = await connected(rival_cookie)
    assert my_first["game"]["id"] != their_first["game"]["id"]
    await theirs.send_json_to({"type": "tap", "seq": 1, "target": "stock"})
    assert (await theirs.receive_json_from())["event"] == "draw"
    assert await mine.receive_nothing()
    assert await game_log(my_first["game"]["id"]) == (0, 0, [])
    await mine.disconnect()
    await theirs.disconnect()


MALAY_CATALOG = Path(settings.BASE_DIR, "game", "locale", "ms", "LC_MESSAGES", "django.mo")


async def mismatch_frame(cookie):
    socket, _ = await connected(cookie)
    await socket.send_json_to({"type": "tap", "seq": 1, "target": 25})
    assert (await socket.receive_json_from())["event"] == "selected"
    await socket.send_json_to({"type": "tap", "seq": 2, "target": "waste"})
    frame = await socket.receive_json_from()
    await socket.disconnect()
    assert frame["event"] == "mismatch" and frame["view"]["selected"] == "waste"
    return frame


async def test_a_mismatch_says_why_in_english(player_cookie):
    frame = await mismatch_frame(player_cookie)
    assert (frame["reason"], frame["message"]) == ("same_rank", "Must be same rank")


async def test_a_mismatchs_reason_is_the_engines_code_for_it(player_cookie):
    frame = await mismatch_frame(player_cookie)
    assert frame["reason"] == engine.Event.MISMATCH.reason_code


@pytest.mark.skipif(not MALAY_CATALOG.exists(), reason="run compilemessages (make test does)")
async def test_a_mismatch_says_why_in_malay(player):
    frame = await mismatch_frame(await database_sync_to_async(session_cookie)(player, "ms"))
    assert (frame["reason"], frame["message"]) == ("same_rank", "Mesti sama pangkat")


async def test_a_flood_of_frames_is_rate_limited(player_cookie, settings):
    settings.TAP_BURST, settings.TAP_RATE = 3, 0.001
    socket, _ = await connected(player_cookie)
    for seq in (1, 2, 3):
        await socket.send_json_to({"type": "tap", "seq": seq, "target": 1})
        assert (await socket.receive_json_from())["event"] == "none"
    await socket.send_json_to({"type": "tap", "seq": 4, "target": 1})
    assert (await socket.receive_json_from())["error"] == "rate_limited"
    await socket.disconnect()
