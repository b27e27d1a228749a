"""Hostile frames on a real daphne: each is answered or closed properly, honest play goes on."""

import pytest
from websockets.exceptions import ConnectionClosed

from tests.harness import hostile
from tests.system.conftest import in_thread

pytestmark = pytest.mark.slow

FRAMES = 10_000  # the figure: about 20 s here; `python -m bench.hostile` runs it alone


# The websocket client's keepalive pings, on the honest players' threads, draw their payload
# from the global `random` while Hypothesis generates frames; no strategy uses it.
@pytest.mark.filterwarnings("ignore:Do not use the `random` module inside strategies")
def test_hostile_frames_are_refused_while_honest_players_play_on(daphne):
    server, players = daphne
    report = in_thread(hostile.attack, server, players[1:6], frames=FRAMES, honest=4, seed=6)
    assert report["problems"] == []
    assert report["frames"] == FRAMES
    assert set(report["closes"]) <= {"1007", "1009"}  # never 1011
    assert report["closes"] and report["errors"]["binary"] and report["errors"]["too_large"]
    assert report["honest_frames"] > 0
    assert report["rss_growth_mb"] < 20


def test_over_one_kib_is_refused_by_the_app_and_over_four_by_daphne(daphne):
    server, players = daphne
    ws, _ = hostile.open_socket(server, players[6]["sessionid"])
    ws.send('{"type": "tap", "seq": 1, "target": "' + "x" * 1100 + '"}')
    assert '"too_large"' in ws.recv(timeout=5)
    ws.send("x" * 4097)
    with pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=5)
    assert closed.value.rcvd.code == 1009
