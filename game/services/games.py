"""Opening games and describing them: resume or start, today's daily deal, the snapshot."""

from django.db import IntegrityError, transaction
from django.utils import timezone

from game import daily, engine
from game.models import DailyDeal, Game
from game.realtime.spectators import spectator_opened_deal
from game.services.log import code_parse, game_replay
from game.services.results import result_summary


def game_open(*, player, code: str) -> Game:
    """The player's open game of `code`, else a new one whose clock starts now.

    The player's first game of today's daily deal is their ranked attempt; later ones are
    practice. GameError("bad_code") if `code` is no deal code.
    """
    code = code_parse(code=code)
    try:
        return _game_open_or_create(player=player, code=code)
    except IntegrityError:
        # Another tab created it between our look and our insert: take that one.
        return _game_open_or_create(player=player, code=code)


def _game_open_or_create(*, player, code: str) -> Game:
    with transaction.atomic():
        game = Game.objects.filter(player=player, code=code, status=Game.Status.OPEN).first()
        return game or _game_create(player=player, code=code)


def _game_create(*, player, code: str) -> Game:
    # Only a "D" code can be a daily deal's: a normal game needs no look-up (sockets open many).
    is_daily = code.split("-")[1] == "D"
    deal = DailyDeal.objects.filter(code=code).first() if is_daily else None
    ranked = (
        deal is not None
        and deal.date == daily.daily_today()
        and not Game.objects.filter(player=player, daily=deal).exists()
    )
    game = Game.objects.create(
        player=player, code=code, daily=deal, ranked=ranked, started_at=timezone.now()
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
    games = Game.objects.filter(player=player, code=code).order_by("-started_at", "-pk")
    return games.first() or game_open(player=player, code=code)


def game_snapshot(*, game: Game, state: engine.State | None = None) -> dict:
    """{"view", "game"}: what the play page renders and a socket receives on connect."""
    if state is None:
        state = game_replay(game=game)
    return {"view": engine.public_view(state), "game": _game_info(game=game, state=state)}


def _game_info(*, game: Game, state: engine.State) -> dict:
    return {
        "id": game.pk,
        "code": game.code,
        "kind": game.code.split("-")[1],
        "ranked": game.ranked,
        "practice": game.daily_id is not None and not game.ranked,
        "status": game.status,
        "started_at": game.started_at.isoformat(),
        "server_now": timezone.now().isoformat(),
        "last_seq": game.last_seq,
        "daily_date": game.daily.date.isoformat() if game.daily_id else None,
        "placement_help": state.placement_help,
        # An open game has no result: skip the query (every socket connect pays it).
        "result": None if game.status == Game.Status.OPEN else result_summary(game=game),
    }
