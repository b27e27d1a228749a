"""Presence in a process's memory: the play rows waiting to be written go in one batch, a socket
that comes and goes between two writes costs none, and a failed write loses no change."""

from game.runtime import presence


def test_a_play_socket_that_closes_before_its_row_is_written_costs_no_write():
    rows = presence._PlayRows()
    rows.enter("brief", {"kind": "play", "user_id": 1, "game_id": 1})
    rows.enter("stays", {"kind": "play", "user_id": 2, "game_id": 2})
    rows.leave("brief")
    rows.leave("written-earlier")
    entered, left = rows.take()
    assert [row["channel"] for row in entered] == ["stays"]
    assert left == ["written-earlier"]
    assert rows.take() == ([], [])


def test_a_failed_presence_write_is_retried_with_the_next_change():
    rows = presence._PlayRows()
    rows.enter("a", {"kind": "play", "user_id": 1, "game_id": 1})
    rows.leave("gone")
    entered, left = rows.take()
    rows.give_back(entered, left)
    rows.leave("later")
    entered, left = rows.take()
    assert [row["channel"] for row in entered] == ["a"]
    assert left == ["gone", "later"]


def test_a_socket_that_closes_during_a_failed_write_is_never_written():
    rows = presence._PlayRows()
    rows.enter("brief", {"kind": "play", "user_id": 1, "game_id": 1})
    entered, left = rows.take()
    rows.leave("brief")  # while the write runs
    rows.give_back(entered, left)  # and fails
    assert rows.take() == ([], [])
