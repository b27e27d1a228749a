"""What rivals see of a racer's board as it moves: numbers and the row's word, never a card."""

from game import engine
from game.selectors.races import view_progress


def _view(**fields) -> dict:
    return engine.public_view(engine.new_game("HH1-N-AAAAAAM")) | fields


def test_a_racer_playing_on_is_playing_and_one_with_no_move_left_is_stuck():
    playing = view_progress(_view(), status="open", duration_ms=None)
    assert (playing["status"], playing["state"], playing["stuck"]) == ("playing", "playing", False)
    stuck = view_progress(_view(deadlocked=True), status="open", duration_ms=None)
    assert (stuck["state"], stuck["stuck"]) == ("stuck", True)


def test_a_finished_racer_is_their_result_whatever_the_heart_shows():
    won = view_progress(_view(won=True, deadlocked=True), status="won", duration_ms=9000)
    assert (won["state"], won["stuck"], won["duration_ms"]) == ("won", False, 9000)
    resigned = view_progress(_view(deadlocked=True), status="resigned", duration_ms=4000)
    assert resigned["state"] == "resigned"
