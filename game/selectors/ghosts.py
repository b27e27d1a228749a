"""Racing a ghost: which finished game a player may race on its deal, and that game's progress
over time (docs/protocol.md, "Racing a ghost").

A ghost is a finished game of the same deal whose result stands. Only its progress reaches
the racer's browser (hearts left, score, moves), never its cards or its taps: a stored log and
the public heart together give away the stock. Both clocks run from each game's first move, so
neither side's thinking before it counts. The fair-play rules are the watching rules' kin: no
ghost of today's deal before the player's own ranked game of it has ended, and no ghost of a
race still being run. One rule (`ghost_refusal`) decides for the play page, the play socket
and the pages that link to ghosts.
"""

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from django.conf import settings
from django.urls import reverse

from game import engine
from game.domain.deal_codes import code_parse
from game.domain.errors import GhostError
from game.models import Action, Game, Profile, RaceRoom, Result
from game.selectors.daily import daily_today
from game.selectors.races import racing_game_ids
from game.selectors.standing import standing_results

# Log entries that change a setting, not the game: a game's clock starts at its first move.
SETTINGS_ACTIONS = ("help-on", "help-off")
BEST_GAMES = 5  # the best games a player's page offers as ghosts
GHOST_CHOICES = 200  # the ghost offered after a long wait: of a deal won among the latest this many


class GhostPoint(NamedTuple):
    """The ghost's progress from `t_ms` after its first move on."""

    t_ms: int
    heart_left: int
    score: int
    moves: int


@dataclass(frozen=True)
class Ghost:
    """A game raced as a ghost: whose it is, and its progress as it was recorded."""

    game_id: int
    player: str | None  # its player's display name; None for a guest's game
    timeline: tuple[GhostPoint, ...]  # the first point is the deal as dealt, at 0 ms
    end_ms: int  # from its first move to its end (the winning pair, or its resignation)

    @property
    def last(self) -> GhostPoint:
        return self.timeline[-1]


def ghost_to_race(*, player, code: str, ghost_id: str) -> Ghost:
    """The ghost `ghost_id` (as typed in the URL) for `player` on the deal `code`; GhostError
    saying why not (GameError("bad_code") for a code that is none)."""
    code = code_parse(code=code)
    ghost = _finished_game(ghost_id)
    refusal = ghost_refusal(player=player, ghost=ghost, code=code)
    if refusal:
        raise GhostError(refusal)
    return ghost_of(game=ghost)


def _finished_game(ghost_id: str) -> Game | None:
    if not ghost_id.isdigit() or len(ghost_id) > 18:
        return None
    games = Game.objects.select_related("daily", "result").exclude(status=Game.Status.OPEN)
    return games.filter(pk=int(ghost_id)).first()


def ghost_refusal(*, player, ghost: Game | None, code: str) -> str | None:
    """Why `player` (an account, a guest, or a visitor not yet either) may not race `ghost` on
    the deal `code` now, or None.

    "no_such_ghost": no finished game of this code whose result stands; "ghost_racing": its
    race is running; "ghost_daily_locked": today's deal, before the player's own ranked game of
    it has ended; "ghost_in_race": the player's own game of the deal is a race's.
    """
    if ghost is None or ghost.code != code or not _stands(ghost):
        return "no_such_ghost"
    racing = racing_game_ids(game_ids=[ghost.pk])
    return _player_refusal(player, ghost, racing=racing)


def _player_refusal(player, ghost: Game, *, racing: set[int]) -> str | None:
    if ghost.pk in racing:
        return "ghost_racing"
    if _todays(ghost) and not _ranked_game_ended(player, ghost.daily_id):
        return "ghost_daily_locked"
    if _racing_the_deal(player, ghost.code):
        return "ghost_in_race"
    return None


def _stands(game: Game) -> bool:
    result = getattr(game, "result", None)
    voided_day = game.daily_id is not None and game.daily.voided_at is not None
    return result is not None and result.voided_at is None and not voided_day


def _todays(game: Game) -> bool:
    return game.daily_id is not None and game.daily.date >= daily_today()


def _ranked_game_ended(player, daily_id: int) -> bool:
    ended = Result.objects.filter(player_id=player.pk, daily_id=daily_id, ranked=True)
    return player.pk is not None and ended.exists()


def _racing_the_deal(player, code: str) -> bool:
    """The player's open game of the deal belongs to a race: a ghost beside it would make a
    rated race game a race against a ghost too."""
    open_games = Game.objects.filter(player_id=player.pk, code=code, status=Game.Status.OPEN)
    return player.pk is not None and open_games.filter(race_entry__isnull=False).exists()


def ghost_allowed_ids(*, viewer, games: list[Game]) -> set[int]:
    """Which of these games `viewer` may race as ghosts (the rule of `ghost_refusal`), so
    that the boards and the player pages link only those. Each game comes with its `daily` and
    `result` read."""
    standing = [game for game in games if game.status != Game.Status.OPEN and _stands(game)]
    racing = racing_game_ids(game_ids=[game.pk for game in standing])
    return {game.pk for game in standing if not _player_refusal(viewer, game, racing=racing)}


def raceable_ghost_ids(*, viewer, game_ids: list[int]) -> set[int]:
    """Which of these games `viewer` may race as ghosts, read at once (ghost_allowed_ids)."""
    games = Game.objects.select_related("daily", "result").filter(pk__in=game_ids)
    return ghost_allowed_ids(viewer=viewer, games=list(games))


def best_ghosts(*, player, viewer) -> list[Result]:
    """The player's best results that stand, one per deal and at most BEST_GAMES, by the
    boards' order (score, time, moves), that `viewer` may race as ghosts: a player's page
    offers them (one's own page, one's own best)."""
    best: dict[str, Result] = {}
    for result in standing_results().filter(player=player)[: BEST_GAMES * 4]:
        best.setdefault(result.code, result)
    results = list(best.values())
    allowed = raceable_ghost_ids(viewer=viewer, game_ids=[r.game_id for r in results])
    return [result for result in results if result.game_id in allowed][:BEST_GAMES]


def ghost_of(*, game: Game) -> Ghost:
    """The finished `game` as a ghost: its progress after each move of its stored log, replayed
    by the engine, timed from its first move."""
    rows = list(game.actions.order_by("index").values_list("action", "at"))
    first = first_move_at_of(rows)
    state = engine.new_game(game.code, key=settings.DEAL_KEY)
    timeline = [_point(0, state)]
    for action, at in rows:
        state, _ = engine.step(state, action)
        point = _point(_ms_between(first, at), state)
        if point[1:] != timeline[-1][1:]:
            timeline.append(point)
    end_ms = _ms_between(first, game.result.finished_at) if first else 0
    return Ghost(game.pk, _display_name(game.player_id), tuple(timeline), end_ms)


def _point(t_ms: int, state: engine.State) -> GhostPoint:
    return GhostPoint(t_ms, state.heart_left, state.score, state.moves)


def _ms_between(start: datetime | None, end: datetime) -> int:
    if start is None:
        return 0
    return max(0, int((end - start).total_seconds() * 1000))


def first_move_at_of(rows: list[tuple[str, datetime]]) -> datetime | None:
    """When the first move of a log's (action, at) rows was made: its first entry that is not
    a setting."""
    return next((at for action, at in rows if action not in SETTINGS_ACTIONS), None)


def first_move_at(*, game_id: int) -> datetime | None:
    """When the game's first move was stored, or None before it: the ghost starts then."""
    moves = Action.objects.filter(game_id=game_id).exclude(action__in=SETTINGS_ACTIONS)
    return moves.order_by("index").values_list("at", flat=True).first()


def _display_name(user_id: int) -> str | None:
    names = Profile.objects.filter(user_id=user_id).values_list("display_name", flat=True)
    return names.first()


def ghost_outcome(*, ghost: Ghost, game_id: int) -> str | None:
    """Who won the race of the player's finished game `game_id` against `ghost`: "you",
    "ghost" or "tie"; None while the game is open.

    The higher score wins. Between two cleared hearts the shorter time from the first move
    wins, then the fewer moves; two hearts left with the same score tie, so that resigning at
    once never beats a ghost that played on to the same score.
    """
    result = Result.objects.filter(game_id=game_id).first()
    if result is None:
        return None
    first = first_move_at(game_id=game_id)
    yours, theirs = (-result.score,), (-ghost.last.score,)
    if result.won and ghost.last.heart_left == 0:
        yours += (_ms_between(first, result.finished_at), result.moves)
        theirs += (ghost.end_ms, ghost.last.moves)
    if yours == theirs:
        return "tie"
    return "you" if yours < theirs else "ghost"


def ghost_offer_url(*, player) -> str | None:
    """A ghost race's page for `player`, left waiting: the best result of a deal that was won
    lately, never of a daily deal still running, nor a game of a race being run, and only one
    the ghost race's own rule lets them race."""
    won = Result.objects.filter(won=True, voided_at__isnull=True).exclude(
        daily__date__gte=daily_today()
    )
    won = won.exclude(game__race_entry__room__status=RaceRoom.Status.RUNNING)
    codes = list(won.order_by("-finished_at").values_list("code", flat=True)[:GHOST_CHOICES])
    if not codes:
        return None
    best = won.filter(code=secrets.choice(codes)).order_by(*Result._meta.ordering).first()
    if not raceable_ghost_ids(viewer=player, game_ids=[best.game_id]):
        return None
    return f"{reverse('play', args=[best.code])}?ghost={best.game_id}"
