"""The use cases: opening games, taps, undo, help, resign, new game, results and their rank.

The play actions' tests make each action as a player's socket does (the `on_socket` fixture):
on the game kept in memory, through the one play sequence. A page's way in (a locked row) is
tested where pages and races take it: resigning, a new game, races ending games."""

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.utils import translation

from game import engine, services
from game.domain.errors import GameError
from game.models import Action, Game, Result, ResultFlag
from game.selectors.games import game_snapshot
from game.selectors.results import result_rank

pytestmark = pytest.mark.django_db

CODE = "HH1-N-AAAAAAC"  # tip 4, waste 9: tapping the tip then the waste is a mismatch


def log(game):
    game.refresh_from_db()
    return game.last_seq, game.action_count, list(game.actions.values_list("action", flat=True))


def play(socket, player, game, actions, first_seq=1):
    """Tap each action of a plan in turn, as the player's `socket` does; the last reply."""
    reply = None
    for seq, action in enumerate(actions, start=first_seq):
        reply = socket.tap(
            player=player,
            game_id=game.pk,
            seq=seq,
            target=action,
            selected=reply.state.selected if reply else None,
        )
    return reply


def test_opening_a_code_twice_resumes_the_same_open_game(player):
    first = services.game_open(player=player, code="hh1-n-aaaaaac")
    again = services.game_open(player=player, code=CODE)
    assert first.pk == again.pk and first.code == CODE
    assert first.status == "open" and not first.ranked and first.started_at is not None


def test_a_malformed_code_is_a_bad_code_error_saying_what_a_code_looks_like(player):
    with pytest.raises(GameError) as caught:
        services.game_open(player=player, code="HH2-N-AAAAAAA")
    assert caught.value.code == "bad_code"
    with translation.override("en"):
        assert caught.value.message.startswith("A deal code looks like HH1-N-ABCDEFG")
    with translation.override("ms"):
        assert caught.value.message.startswith("Kod agihan kelihatan seperti HH1-N-ABCDEFG")
    assert not Game.objects.exists()


def test_a_selection_writes_nothing_and_a_draw_is_stored_with_its_seq(on_socket, player):
    game = services.game_open(player=player, code=CODE)
    reply = on_socket.tap(player=player, game_id=game.pk, seq=1, target=25)
    assert reply.event == "selected" and reply.game is None and log(game) == (0, 0, [])
    reply = on_socket.tap(player=player, game_id=game.pk, seq=2, target="stock", selected=25)
    assert reply.event == "draw" and reply.state.selected is None
    assert log(game) == (2, 1, ["stock"]) and reply.game["last_seq"] == 2


def test_a_pair_is_stored_as_the_selected_target_then_the_completing_one(
    on_socket, player, winnable
):
    code, plan = winnable
    game = services.game_open(player=player, code=code)
    first_pair = next(i for i, action in enumerate(plan) if action != "stock")
    reply = play(on_socket, player, game, plan[: first_pair + 2])
    assert reply.event == "pair"
    assert log(game)[2] == [str(action) for action in plan[: first_pair + 2]]
    assert engine.replay(code, log(game)[2], key=settings.DEAL_KEY) == reply.state


def test_a_mismatch_moves_the_selection_and_stores_nothing(on_socket, player):
    game = services.game_open(player=player, code=CODE)
    reply = on_socket.tap(player=player, game_id=game.pk, seq=1, target="waste", selected=25)
    assert reply.event == "mismatch" and reply.state.selected == "waste"
    assert log(game) == (0, 0, [])


def test_a_remembered_selection_that_is_no_longer_free_is_dropped(on_socket, player):
    game = services.game_open(player=player, code=CODE)
    reply = on_socket.tap(player=player, game_id=game.pk, seq=1, target=25, selected=1)
    assert reply.event == "selected" and reply.state.selected == 25


def test_a_covered_card_is_the_event_none_not_an_error(on_socket, player):
    game = services.game_open(player=player, code=CODE)
    reply = on_socket.tap(player=player, game_id=game.pk, seq=1, target=1)
    assert reply.event == "none" and log(game) == (0, 0, [])


@pytest.mark.parametrize("target", [0, 26, "26", "heart", None, True, 3.0, [1]])
def test_a_target_out_of_range_or_of_the_wrong_type_is_refused(on_socket, player, target):
    game = services.game_open(player=player, code=CODE)
    with pytest.raises(GameError) as caught:
        on_socket.tap(player=player, game_id=game.pk, seq=1, target=target)
    assert caught.value.code == "bad_target" and log(game) == (0, 0, [])


def test_a_repeated_seq_is_applied_once(on_socket, player):
    game = services.game_open(player=player, code=CODE)
    on_socket.tap(player=player, game_id=game.pk, seq=5, target="stock")
    for seq in (5, 4):
        with pytest.raises(GameError) as caught:
            on_socket.tap(player=player, game_id=game.pk, seq=seq, target="stock")
        assert caught.value.code == "duplicate_seq"
    assert log(game) == (5, 1, ["stock"])


def test_another_players_game_is_refused(player, rival):
    game = services.game_open(player=player, code=CODE)
    for action in (
        lambda: services.game_resign(game=services.LockedGame(game.pk), player=rival),
        lambda: services.game_new(player=rival, ending_game_id=game.pk),
        lambda: services.game_resign(game=services.LockedGame(game.pk + 99), player=rival),
    ):
        with pytest.raises(GameError) as caught:
            action()
        assert caught.value.code == "not_your_game"
    assert log(game) == (0, 0, []) and game.status == "open"


def test_undo_is_stored_and_nothing_to_undo_is_an_error(on_socket, player):
    game = services.game_open(player=player, code=CODE)
    with pytest.raises(GameError) as caught:
        on_socket.undo(player=player, game_id=game.pk, seq=1)
    assert caught.value.code == "cannot_undo"
    on_socket.tap(player=player, game_id=game.pk, seq=2, target="stock")
    reply = on_socket.undo(player=player, game_id=game.pk, seq=3)
    assert reply.event == "undo" and reply.state.undos == 1 and reply.state.moves == 0
    assert log(game) == (3, 2, ["stock", "undo"])


def test_placement_help_is_stored_only_when_it_changes(on_socket, player):
    game = services.game_open(player=player, code=CODE)
    reply = on_socket.set_help(player=player, game_id=game.pk, seq=1, on=True)
    assert reply.game is None and log(game) == (0, 0, [])
    reply = on_socket.set_help(player=player, game_id=game.pk, seq=2, on=False, selected=25)
    assert reply.view["hints"] == [] and reply.state.selected == 25
    assert reply.game["placement_help"] is False and log(game) == (2, 1, ["help-off"])
    with pytest.raises(GameError) as caught:
        on_socket.set_help(player=player, game_id=game.pk, seq=3, on="no")
    assert caught.value.code == "bad_setting"


def test_a_game_whose_log_is_full_refuses_moves_but_undoes_and_resigns(on_socket, player, settings):
    settings.ACTIONS_PER_GAME = 3
    game = services.game_open(player=player, code=CODE)
    play(on_socket, player, game, ["stock", "stock", "stock"])
    refused = [
        lambda: on_socket.tap(player=player, game_id=game.pk, seq=4, target="stock"),
        lambda: on_socket.set_help(player=player, game_id=game.pk, seq=4, on=False),
    ]
    for action in refused:
        with pytest.raises(GameError) as caught:
            action()
        assert caught.value.code == "too_many_moves"
    assert on_socket.tap(player=player, game_id=game.pk, seq=4, target=25).event == "selected"
    on_socket.undo(player=player, game_id=game.pk, seq=5)
    on_socket.resign(player=player, game_id=game.pk, seq=6)
    assert log(game) == (6, 4, ["stock", "stock", "stock", "undo"])


def test_resigning_completes_the_game_with_the_replays_numbers(on_socket, player):
    game = services.game_open(player=player, code=CODE)
    on_socket.tap(player=player, game_id=game.pk, seq=1, target="stock")
    reply = on_socket.resign(player=player, game_id=game.pk, seq=2)
    result = Result.objects.get(game=game)
    assert reply.game["status"] == "resigned" and reply.game["result"]["rank"] == 1
    assert (result.won, result.score, result.moves, result.undos) == (False, 0, 1, 0)
    assert result.placement_help is True  # the help is on by default
    game.refresh_from_db()
    assert result.duration_ms == (game.finished_at - game.started_at) // timedelta(milliseconds=1)
    with pytest.raises(GameError) as caught:
        on_socket.tap(player=player, game_id=game.pk, seq=3, target="stock")
    assert caught.value.code == "game_over"


def test_winning_writes_the_result_in_the_same_transaction(on_socket, player, winnable):
    code, plan = winnable
    game = services.game_open(player=player, code=code)
    Game.objects.filter(pk=game.pk).update(started_at=game.started_at - timedelta(minutes=3))
    reply = play(on_socket, player, game, plan)
    result = Result.objects.get(game=game)
    assert reply.state.won and reply.game["status"] == "won"
    assert (result.won, result.score, result.moves) == (True, 250, reply.state.moves)
    assert 180_000 <= result.duration_ms < 240_000
    assert reply.game["result"] | {"rank": 1, "of": 1, "board": "deal"} == reply.game["result"]
    with pytest.raises(GameError) as caught:
        on_socket.undo(player=player, game_id=game.pk, seq=len(plan) + 1)
    assert caught.value.code == "game_over"


def test_rank_follows_score_then_time_then_moves(on_socket, player, rival, make_player, winnable):
    code, plan = winnable
    slow, fast = (services.game_open(player=p, code=code) for p in (player, rival))
    Game.objects.filter(pk=slow.pk).update(started_at=slow.started_at - timedelta(hours=1))
    play(on_socket, player, slow, plan)
    reply = play(on_socket, rival, fast, plan)
    assert reply.game["result"]["rank"] == 1 and reply.game["result"]["of"] == 2
    quitter = make_player("cal")
    resigned = services.game_open(player=quitter, code=code)
    reply = on_socket.resign(player=quitter, game_id=resigned.pk, seq=1)
    assert reply.game["result"]["rank"] == 3
    slow_result = Result.objects.get(game=slow)
    assert result_rank(result=slow_result) == {"rank": 2, "of": 3, "board": "deal"}


def test_a_new_game_ends_the_unfinished_one_and_deals_a_fresh_code(player):
    game = services.game_open(player=player, code=CODE)
    code = services.game_new(player=player, ending_game_id=game.pk)
    assert engine.parse_code(code) == code and code != CODE
    game.refresh_from_db()
    assert game.status == "resigned" and Result.objects.filter(game=game).exists()
    assert services.game_new(player=player, ending_game_id=game.pk) != code  # already ended
    assert services.game_open(player=player, code=CODE).pk != game.pk


def test_a_new_game_is_never_a_deal_without_a_first_move(player, deals_drawn):
    dead, playable = deals_drawn
    assert services.game_new(player=player) == playable
    # A deadlocked code typed in is dealt as it is, and says so at once.
    typed_in = services.game_open(player=player, code=dead[0])
    assert game_snapshot(game=typed_in)["view"]["deadlocked"]


def test_resuming_a_code_shows_the_latest_game_even_when_finished(player):
    game = services.game_open(player=player, code=CODE)
    services.game_resign(game=services.LockedGame(game.pk), player=player)
    assert services.game_resume(player=player, code=CODE).pk == game.pk
    assert services.game_resume(player=player, code="HH1-N-AAAAAAD").status == "open"


def test_a_page_publishes_only_what_it_stored_and_only_after_commit(
    player, django_capture_on_commit_callbacks
):
    game = services.game_open(player=player, code=CODE)
    with django_capture_on_commit_callbacks() as callbacks:
        services.game_new(player=player, ending_game_id=game.pk)
    assert callbacks  # the game's news (and its result's boards') wait for the commit
    with django_capture_on_commit_callbacks() as callbacks:
        services.game_new(player=player, ending_game_id=game.pk)  # ended already: nothing stored
    assert callbacks == []


def test_the_audit_agrees_with_honest_results_and_finds_a_forged_one(
    on_socket, player, winnable, capsys
):
    code, plan = winnable
    play(on_socket, player, services.game_open(player=player, code=code), plan)
    services.game_new(player=player, ending_game_id=services.game_open(player=player, code=CODE).pk)
    call_command("audit_results")
    assert "2 results audited, 0 disagreements" in capsys.readouterr().out
    Result.objects.filter(code=CODE).update(score=250)
    Action.objects.filter(game__code=code, index=0).delete()
    with pytest.raises(CommandError):
        call_command("audit_results")
    assert "score is 250, the replay says 0" in capsys.readouterr().err


def test_the_audit_flags_results_stored_before_flags_existed_and_prints_each_flag(
    on_socket, player, winnable, capsys
):
    code, plan = winnable
    game = services.game_open(player=player, code=code)
    play(on_socket, player, game, plan)  # a tap per frame, at machine speed
    ResultFlag.objects.all().delete()  # as a result stored before flags existed
    call_command("audit_results")
    printed = capsys.readouterr()
    flag = f"flag: result {game.result.pk} (game {game.pk}, /replay/{game.pk}/): fast_taps: "
    assert flag in printed.err and "1 results flagged for review" in printed.err
    assert printed.out == "1 results audited, 0 disagreements\n"  # flags never fail the audit
    assert set(game.result.flags.values_list("reason", flat=True)) == {"fast_taps", "fast_pairs"}
    call_command("audit_results")  # again: the stored flags stay, none twice
    assert game.result.flags.count() == 2


def in_threads(count, work):
    """Run `work()` in `count` threads started together; their results."""
    barrier = threading.Barrier(count)

    def run():
        barrier.wait()
        try:
            return work()
        finally:
            connection.close()

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(lambda _: run(), range(count)))


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_tabs_opening_a_code_at_once_share_one_game(player):
    games = in_threads(8, lambda: services.game_open(player=player, code=CODE))
    assert len({game.pk for game in games}) == 1 and Game.objects.count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_sockets_connecting_to_a_new_code_at_once_share_one_game(player):
    games = in_threads(8, lambda: services.game_resume(player=player, code=CODE))
    assert len({game.pk for game in games}) == 1 and Game.objects.count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_pages_ending_a_game_at_once_end_it_once(player):
    game = services.game_open(player=player, code=CODE)

    def resign():
        try:
            return services.game_resign(game=services.LockedGame(game.pk), player=player).event
        except GameError as error:
            return error.code

    assert sorted(in_threads(8, resign)) == ["game_over"] * 7 + ["resign"]
    assert Result.objects.filter(game=game).count() == 1
