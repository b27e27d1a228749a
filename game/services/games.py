"""Opening games: resume or start, today's daily deal, and the day's end, which closes a ranked
daily game left unfinished at midnight (game.selectors.games describes a game)."""

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from game.domain.deal_codes import code_parse
from game.domain.errors import GameError
from game.models import DailyDeal, Game
from game.selectors import daily
from game.selectors.attempts import attempt_made
from game.selectors.games import game_day_over, game_snapshot
from game.selectors.guests import is_guest
from game.selectors.log import game_replay
from game.services.daily import daily_deal
from game.services.publish import game_publish, spectator_opened_deal
from game.services.results import result_create


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
    return game_open(player=player, code=daily_deal().code)


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
