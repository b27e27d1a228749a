"""Racing a ghost: which finished games a player may race on their deal (one rule for the play
page, the play socket and the links), and a ghost's progress as its log replays."""

import datetime

import pytest
import time_machine
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from game import engine, services
from game.domain.errors import GhostError
from game.models import DailyDeal, Game, RaceEntry, RaceRoom, Result
from game.selectors import daily
from game.selectors.ghosts import (
    GhostPoint,
    best_ghosts,
    first_move_at,
    ghost_allowed_ids,
    ghost_of,
    ghost_offer_url,
    ghost_outcome,
    ghost_refusal,
    ghost_to_race,
)
from game.services import races
from tests.selectors.history import finish

pytestmark = pytest.mark.django_db

CODE = "HH1-N-AAAAAAM"


def todays_deal() -> DailyDeal:
    return DailyDeal.objects.get_or_create(date=daily.daily_today(), code="HH1-D-AAAAAAB")[0]


def refusal(player, result, code=None) -> str | None:
    return ghost_refusal(player=player, ghost=result.game, code=code or result.code)


def played(player, code: str, actions, *, every_s: float = 2.0, resign: bool = False) -> Game:
    """The player's game of `code` with `actions` tapped `every_s` apart after a 30 s think."""
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        game = services.game_open(player=player, code=code)
        clock.shift(30)
        selected = None
        for seq, action in enumerate(actions, start=1):
            locked = services.LockedGame(game.pk)
            reply = services.game_tap(
                game=locked, player=player, seq=seq, target=action, selected=selected
            )
            selected = reply.state.selected
            clock.shift(every_s)
        if resign:
            services.game_resign(game=services.LockedGame(game.pk), player=player)
    return Game.objects.select_related("daily", "result").get(pk=game.pk)


def test_a_finished_game_of_the_deal_that_stands_may_be_raced(player, rival):
    result = finish(rival, code=CODE)
    assert refusal(player, result) is None
    assert refusal(player, finish(player, code=CODE)) is None  # one's own best


def test_a_ghost_must_be_a_finished_game_of_the_same_deal_that_stands(player, rival):
    result = finish(rival, code=CODE)
    assert refusal(player, result, code="HH1-N-AAAAAAC") == "no_such_ghost"
    assert ghost_refusal(player=player, ghost=None, code=CODE) == "no_such_ghost"
    result.voided_at = timezone.now()
    result.save()
    assert refusal(player, result) == "no_such_ghost"
    open_game = services.game_open(player=rival, code="HH1-N-AAAAAAC")
    assert ghost_refusal(player=player, ghost=open_game, code=open_game.code) == "no_such_ghost"


def test_a_voided_days_games_are_no_ghosts(player, rival):
    deal = DailyDeal.objects.create(
        date=daily.daily_today() - datetime.timedelta(days=2),
        code="HH1-D-AAAAAAC",
        voided_at=timezone.now(),
    )
    assert refusal(player, finish(rival, deal)) == "no_such_ghost"


def test_todays_deal_has_no_ghost_until_the_players_own_ranked_game_of_it_has_ended(player, rival):
    deal = todays_deal()
    result = finish(rival, deal)
    assert refusal(player, result) == "ghost_daily_locked"
    assert refusal(AnonymousUser(), result) == "ghost_daily_locked"
    finish(player, deal)
    assert refusal(player, result) is None


def test_a_past_days_games_are_ghosts_for_anyone(player, rival):
    deal = DailyDeal.objects.create(
        date=daily.daily_today() - datetime.timedelta(days=1), code="HH1-D-AAAAAAC"
    )
    assert refusal(AnonymousUser(), finish(rival, deal)) is None


def race_begun(*players, code: str) -> dict[str, int]:
    """A race of `code` between `players`, begun now: each racer's username and game id."""
    room = races.race_create(player=players[0], code=code)
    for racer in players[1:]:
        races.race_join(player=racer, room=room.room)
    for racer in players:
        races.race_ready(player=racer, room=room.room, ready=True)
    RaceRoom.objects.filter(pk=room.pk).update(starts_at=timezone.now())
    races.race_begin_if_due(room=room.room)
    entries = RaceEntry.objects.filter(room=room).select_related("player")
    return {entry.player.username: entry.game_id for entry in entries}


def test_a_running_races_game_is_no_ghost_until_the_race_ends(player, rival, make_player):
    games = race_begun(rival, make_player("cai"), code=CODE)
    services.game_resign(game=services.LockedGame(games["bea"]), player=rival)
    raced = Game.objects.select_related("daily", "result").get(pk=games["bea"])
    assert ghost_refusal(player=player, ghost=raced, code=CODE) == "ghost_racing"
    assert ghost_allowed_ids(viewer=player, games=[raced]) == set()


def test_a_player_racing_the_deal_races_no_ghost_beside_it(player, rival, make_player):
    result = finish(rival, code=CODE)
    race_begun(player, make_player("cai"), code=CODE)
    assert refusal(player, result) == "ghost_in_race"


def test_bad_ghost_ids_are_refused_with_a_code_never_a_crash(player):
    for typed in ("", "abc", "-1", "99999999999999999999999", "12a", "0"):
        with pytest.raises(GhostError) as refused:
            ghost_to_race(player=player, code=CODE, ghost_id=typed)
        assert refused.value.code == "no_such_ghost"


def test_the_links_offer_only_the_ghosts_the_viewer_may_race(player, rival):
    deal = todays_deal()
    past = finish(rival, code=CODE).game
    today = finish(rival, deal).game
    games = list(Game.objects.select_related("daily", "result").filter(pk__in=[past.pk, today.pk]))
    assert ghost_allowed_ids(viewer=player, games=games) == {past.pk}
    assert ghost_allowed_ids(viewer=AnonymousUser(), games=games) == {past.pk}


def test_a_ghosts_timeline_is_its_replayed_progress_from_its_first_move(player, winnable):
    code, plan = winnable
    game = played(player, code, plan[:6], every_s=2.0)
    services.game_resign(game=services.LockedGame(game.pk), player=player)
    ghost = ghost_of(game=Game.objects.select_related("result").get(pk=game.pk))
    state = engine.new_game(code, key=settings.DEAL_KEY)
    assert ghost.timeline[0] == GhostPoint(0, 25, 0, 0)
    expected = [ghost.timeline[0]]
    for index, action in enumerate(plan[:6]):
        state, _ = engine.step(state, action)
        point = GhostPoint(index * 2000, state.heart_left, state.score, state.moves)
        if point[1:] != expected[-1][1:]:
            expected.append(point)
    assert list(ghost.timeline) == expected  # a selection changes no number: no point of it
    assert ghost.player == "Ann"


def test_a_won_ghost_ends_with_the_heart_cleared_at_its_winning_pair(player, winnable):
    code, plan = winnable
    game = played(player, code, plan, every_s=1.0)
    ghost = ghost_of(game=game)
    assert ghost.last.heart_left == 0 and ghost.last.score == engine.WIN_SCORE
    assert ghost.end_ms == ghost.last.t_ms == (len(plan) - 1) * 1000
    assert all(a.t_ms <= b.t_ms for a, b in zip(ghost.timeline, ghost.timeline[1:], strict=False))


def test_the_first_move_is_the_first_entry_that_is_not_a_setting(player):
    game = services.game_open(player=player, code=CODE)
    locked = services.LockedGame(game.pk)
    services.game_set_help(game=locked, player=player, seq=1, on=False, selected=None)
    assert first_move_at(game_id=game.pk) is None
    services.game_tap(game=services.LockedGame(game.pk), player=player, seq=2, target="stock")
    assert first_move_at(game_id=game.pk) == game.actions.get(action="stock").at


def test_between_cleared_hearts_the_faster_from_its_first_move_wins(player, rival, winnable):
    code, plan = winnable
    ghost = ghost_of(game=played(rival, code, plan, every_s=1.0))
    slower = played(player, code, plan, every_s=1.5)
    assert ghost_outcome(ghost=ghost, game_id=slower.pk) == "ghost"
    Game.objects.filter(pk=slower.pk).delete()
    faster = played(player, code, plan, every_s=0.5)
    assert ghost_outcome(ghost=ghost, game_id=faster.pk) == "you"
    Game.objects.filter(pk=faster.pk).delete()
    same = played(player, code, plan, every_s=1.0)
    assert ghost_outcome(ghost=ghost, game_id=same.pk) == "tie"


def test_a_game_still_open_has_no_winner_yet(player, rival):
    ghost = ghost_of(game=finish(rival, code=CODE).game)
    game = services.game_open(player=player, code=CODE)
    assert ghost_outcome(ghost=ghost, game_id=game.pk) is None


def to_first_pair(code: str, plan: list) -> list:
    """The plan's actions up to its first pair: a game short of the heart, with a score."""
    state = engine.new_game(code, key=settings.DEAL_KEY)
    for count, action in enumerate(plan, start=1):
        state, _ = engine.step(state, action)
        if state.score:
            return plan[:count]
    raise AssertionError("the plan pairs nothing")


def test_a_higher_score_wins_and_equal_scores_short_of_the_heart_tie(player, rival, winnable):
    code, plan = winnable
    short = to_first_pair(code, plan)
    ghost = ghost_of(game=played(rival, code, short, every_s=1.0, resign=True))
    at_once = played(player, code, [], resign=True)  # no move: quicker, and no score
    assert ghost_outcome(ghost=ghost, game_id=at_once.pk) == "ghost"
    Game.objects.filter(pk=at_once.pk).delete()
    same = played(player, code, short, every_s=0.1, resign=True)
    assert ghost_outcome(ghost=ghost, game_id=same.pk) == "tie"
    Game.objects.filter(pk=same.pk).delete()
    won = played(player, code, plan, every_s=60)
    assert ghost_outcome(ghost=ghost, game_id=won.pk) == "you"


def test_a_players_best_ghosts_are_their_best_game_of_each_deal_they_may_race(player, rival):
    slow = finish(rival, code=CODE, seconds=90)
    fast = finish(rival, code=CODE, seconds=60)
    other = finish(rival, code="HH1-N-AAAAAAC", won=False)
    voided = finish(rival, code="HH1-N-AAAAAAD", voided_at=timezone.now())
    locked = finish(rival, todays_deal())
    best = best_ghosts(player=rival, viewer=player)
    assert [result.pk for result in best] == [fast.pk, other.pk]
    assert slow.pk not in {r.pk for r in best} and voided.pk not in {r.pk for r in best}
    assert locked.game_id not in {r.game_id for r in best}  # today's, before the viewer's own


def won_or_lost(player, code: str, *, score: int = 250, seconds: int = 90, daily=None) -> Game:
    now = timezone.now()
    status = Game.Status.WON if score == 250 else Game.Status.RESIGNED
    game = Game.objects.create(player=player, code=code, daily=daily, started_at=now, status=status)
    Result.objects.create(
        game=game,
        player=player,
        code=code,
        daily=daily,
        won=score == 250,
        score=score,
        moves=40,
        undos=0,
        placement_help=False,
        duration_ms=seconds * 1000,
        finished_at=now,
    )
    return game


def test_the_ghost_offered_is_the_best_result_of_a_deal_won(player, rival):
    won_or_lost(player, "HH1-N-AAAAAAC", seconds=120)
    best = won_or_lost(rival, "HH1-N-AAAAAAC", seconds=80)
    assert ghost_offer_url(player=player) == f"/play/HH1-N-AAAAAAC/?ghost={best.pk}"


def test_no_ghost_of_today_s_daily_deal_nor_of_a_race_being_run(player, rival):
    today = DailyDeal.objects.create(date=daily.daily_today(), code="HH1-D-AAAAAAB")
    won_or_lost(player, today.code, daily=today)
    raced = won_or_lost(rival, "HH1-N-AAAAAAC")
    room = RaceRoom.objects.create(
        room="K7P2QX",
        code=raced.code,
        status=RaceRoom.Status.RUNNING,
        created_at=timezone.now(),
        touched_at=timezone.now(),
    )
    RaceEntry.objects.create(room=room, player=rival, joined_at=timezone.now(), game=raced)
    assert ghost_offer_url(player=player) is None


def test_no_ghost_is_offered_that_the_ghost_rule_refuses_the_player(player, rival):
    won_or_lost(rival, "HH1-N-AAAAAAC")
    racing = Game.objects.create(player=player, code="HH1-N-AAAAAAC", started_at=timezone.now())
    room = RaceRoom.objects.create(
        room="K7P2QY", code=racing.code, created_at=timezone.now(), touched_at=timezone.now()
    )
    RaceEntry.objects.create(room=room, player=player, joined_at=timezone.now(), game=racing)
    assert ghost_offer_url(player=player) is None  # ghost_in_race: their own game is a race's
    assert ghost_offer_url(player=rival) is not None
