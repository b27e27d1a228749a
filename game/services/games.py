"""Opening games and describing them: resume or start, today's daily deal, the snapshot, and
the day's end, which closes a ranked daily game left unfinished at midnight."""

from datetime import date

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from game import daily, engine
from game.domain.deal_codes import code_parse
from game.domain.errors import GameError
from game.models import DailyDeal, Game
from game.selectors.guests import is_guest
from game.selectors.log import game_replay
from game.services.attempts import attempt_made
from game.services.publish import game_publish
from game.services.results import result_create, result_summary
from game.services.spectators import spectator_opened_deal


def game_open(*, player, code: str) -> Game:
    """The player's open game of `code`, else a new one whose clock starts now.

    The player's first game of today's daily deal is their ranked attempt; its clock waits
    for Start (game_start). Later ones are practice. GameError("bad_code") if `code` is no
    deal code.
    """
    code = code_parse(code=code)
    daily_today_check(player=player, code=code)
    try:
        return _game_open_or_create(player=player, code=code)
    except IntegrityError:
        # Another tab created it between our look and our insert: take that one.
        return _game_open_or_create(player=player, code=code)


def daily_today_check(*, player, code: str) -> None:
    """GameError("daily_today") for a guest asking for today's daily deal by any route: it is
    played once, by signed-in players, and a guest's game of it would show every card of it
    (and its par) before the ranked game. From midnight on it is a past deal, open to all."""
    if daily.daily_is_today(code) and is_guest(player_id=player.pk):
        raise GameError("daily_today")


def _game_open_or_create(*, player, code: str) -> Game:
    with transaction.atomic():
        game = Game.objects.filter(player=player, code=code, status=Game.Status.OPEN).first()
        if game is not None and game_day_closed(game=game).status != Game.Status.OPEN:
            game = None  # its day ended: the deal is a past day's now, played as practice
        return game or _game_create(player=player, code=code)


def _game_create(*, player, code: str) -> Game:
    # Only a "D" code can be a daily deal's: a normal game needs no look-up (sockets open many).
    is_daily = code.split("-")[1] == "D"
    deal = DailyDeal.objects.filter(code=code).first() if is_daily else None
    ranked = (
        deal is not None
        and deal.date == daily.daily_today()
        and not Game.objects.filter(player=player, daily=deal).exists()
        and not attempt_made(player=player, day=deal.date)  # through a deleted account, say
    )
    game = Game.objects.create(
        player=player,
        code=code,
        daily=deal,
        ranked=ranked,
        # A ranked clock starts on Start, so a page opened for the player starts nothing.
        started_at=None if ranked else timezone.now(),
    )
    spectator_opened_deal(player_id=player.pk, code=code)  # watching it now would be studying
    return game


def game_daily_open(*, player) -> Game:
    """The player's game of today's daily deal (see game_open)."""
    return game_open(player=player, code=daily.daily_deal().code)


def game_resume(*, player, code: str) -> Game:
    """The player's latest game of `code`, finished or not, else a new one.

    A socket that reconnects after the last move still shows that game and its result; a
    fresh game of the same code starts from the play page (game_open).
    """
    code = code_parse(code=code)
    daily_today_check(player=player, code=code)
    games = Game.objects.filter(player=player, code=code)
    # A never started game is a ranked one, always the player's first of its code.
    latest = games.order_by(F("started_at").desc(nulls_last=True), "-pk").first()
    return game_day_closed(game=latest) if latest else _game_first(player=player, code=code)


def _game_first(*, player, code: str) -> Game:
    """The player's first game of `code`, unless another tab created it since the look."""
    try:
        with transaction.atomic():
            return _game_create(player=player, code=code)
    except IntegrityError:
        return _game_open_or_create(player=player, code=code)


def game_snapshot(*, game: Game, state: engine.State | None = None, standing: bool = True) -> dict:
    """{"view", "game"}: what the play page renders and a socket receives on connect
    (`standing`: see results.result_summary)."""
    if state is None:
        state = game_replay(game=game)
    view = engine.public_view(state)
    if game_awaiting_start(game=game):
        view = view_unseen(view)
    return {"view": view, "game": _game_info(game=game, state=state, standing=standing)}


def game_awaiting_start(*, game: Game) -> bool:
    """A ranked daily game whose player has not pressed Start: no card of it is shown yet."""
    return game.started_at is None and game.status == Game.Status.OPEN


def view_unseen(view: dict) -> dict:
    """A view before the start: the code and the piles' sizes, but no card and no hint."""
    waste = {"top": None, "size": view["waste"]["size"]}
    return view | {"heart": None, "waste": waste, "hints": [], "deadlocked": False}


def _game_info(*, game: Game, state: engine.State, standing: bool) -> dict:
    return {
        "id": game.pk,
        "code": game.code,
        "kind": game.code.split("-")[1],
        "ranked": game.ranked,
        "practice": game.daily_id is not None and not game.ranked,
        "status": game.status,
        "started_at": game.started_at and game.started_at.isoformat(),
        "awaiting_start": game_awaiting_start(game=game),
        "server_now": timezone.now().isoformat(),
        "last_seq": game.last_seq,
        "daily_date": game.daily.date.isoformat() if game.daily_id else None,
        "placement_help": state.placement_help,
        # An open game has no result: skip the query (every socket connect pays it).
        "result": None
        if game.status == Game.Status.OPEN
        else result_summary(game=game, standing=standing),
    }


def game_day(*, game: Game) -> date | None:
    """The day a ranked game is ranked on; None for other games (their day never ends)."""
    return game.daily.date if game.ranked else None


def game_day_over(*, game: Game) -> bool:
    """A ranked game that its day's end caught unfinished: no action applies to it any more."""
    day = game_day(game=game)
    if day is None or daily.daily_today() <= day:
        return False
    return game.finished_at is None or game.finished_at >= daily.daily_day_end(day)


def game_day_closed(*, game: Game) -> Game:
    """The game, ended first if its day ended while it was open (else untouched).

    A started game ends as resigned at its last state, at the day's end, with its ranked
    result; a never started one ends with no result (nothing was played). Its listeners hear
    the event "day_over".
    """
    if game.status != Game.Status.OPEN or not game_day_over(game=game):
        return game
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Game.Status.OPEN:
            return game  # another request ended it meanwhile
        state, ends = game_replay(game=game), daily.daily_day_end(game.daily.date)
        if game.started_at is None:
            game.status, game.finished_at = Game.Status.RESIGNED, ends
            game.save(update_fields=["status", "finished_at"])
        else:
            result_create(game=game, state=state, status=Game.Status.RESIGNED, at=ends)
        snapshot = game_snapshot(game=game, state=state)
        game_publish(game_id=game.pk, event="day_over", snapshot=snapshot, origin="")
        return game


def games_close_day() -> int:
    """End every ranked game its day left open (game_day_closed); returns how many."""
    today = daily.daily_today()
    leftovers = Game.objects.filter(ranked=True, status=Game.Status.OPEN, daily__date__lt=today)
    closed = 0
    for game in leftovers.select_related("daily").iterator(chunk_size=200):
        closed += game_day_closed(game=game).status != Game.Status.OPEN
    return closed
