"""Presence's rows: a dead process's rows stop counting and are swept, the play sockets that
came and went are written in one go, and a row whose game is gone stops no other."""

import pytest
from django.utils import timezone

from game import services
from game.models import Presence
from game.selectors.presence import STALE_AFTER, playing_now, presence_snapshot
from game.services import presence

pytestmark = pytest.mark.django_db(transaction=True)

CODE = "HH1-N-AAAAAAC"


def test_a_process_that_stopped_beating_stops_counting(player, rival):
    game = services.game_open(player=player, code=CODE)
    other = services.game_open(player=rival, code=CODE)
    presence.presence_enter(channel="here", kind="play", user_id=player.pk, game_id=game.pk)
    presence.presence_enter(channel="dead", kind="play", user_id=rival.pk, game_id=other.pk)
    Presence.objects.filter(channel="dead").update(
        process="gone", seen_at=timezone.now() - 2 * STALE_AFTER
    )
    assert playing_now() == 1
    Presence.objects.filter(channel="here").update(seen_at=timezone.now() - STALE_AFTER / 2)
    assert presence.presence_beat() == 1  # the dead row is swept, this process's row refreshed
    assert list(Presence.objects.values_list("channel", flat=True)) == ["here"]
    assert Presence.objects.get().seen_at > timezone.now() - STALE_AFTER / 4


def test_a_socket_whose_game_was_deleted_before_its_row_does_not_stop_the_others(player, rival):
    kept, gone = (services.game_open(player=p, code=CODE) for p in (player, rival))
    row = {"process": presence.PROCESS, "kind": "play", "seen_at": timezone.now()}
    entered = [
        row | {"channel": "kept", "user_id": player.pk, "game_id": kept.pk},
        row | {"channel": "gone", "user_id": rival.pk, "game_id": gone.pk},
    ]
    rival.delete()  # the account and its game, while the rows waited to be written
    presence.presence_apply(entered=entered, left=[])
    assert list(Presence.objects.values_list("channel", flat=True)) == ["kept"]


def test_sockets_that_came_and_went_are_written_in_one_go(player, rival):
    game = services.game_open(player=player, code=CODE)
    other = services.game_open(player=rival, code=CODE)
    presence.presence_enter(channel="old", kind="play", user_id=rival.pk, game_id=other.pk)
    row = {"process": presence.PROCESS, "kind": "play", "seen_at": timezone.now()}
    entered = [row | {"channel": "new", "user_id": player.pk, "game_id": game.pk}]
    presence.presence_apply(entered=entered, left=["old"])
    assert list(Presence.objects.values_list("channel", flat=True)) == ["new"]
    assert presence_snapshot()["playing"] == 1
    presence.presence_apply(entered=entered, left=[])  # written twice: still one row
    assert Presence.objects.count() == 1
