"""The board pages: today's daily deal, a fresh deal, and any deal by its code.

A visitor without an account plays a fresh deal or any deal by its code as a guest of their
browser session (game.services.guests); today's daily is ranked, so it asks them to sign up.
"""

from functools import wraps

from allauth.core.ratelimit import consume_or_429
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from game import engine, services
from game.domain.deal_codes import code_parse
from game.domain.errors import GameError, GhostError, RaceError
from game.models import Game
from game.selectors.daily import daily_is_today
from game.selectors.finish import daily_ranked_ended
from game.selectors.games import game_snapshot
from game.selectors.ghosts import Ghost, ghost_to_race
from game.selectors.guests import guest_player
from game.services.guests import guest_for_session
from game.services.rooms import race_lobby_check
from game.web.problems import problem


def as_player_or_guest(view):
    """The view plays as the account, else as the session's guest (made on the first visit,
    at most GUESTS_PER_ADDRESS a window from one address: allauth's rate limit "guest")."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.user.is_authenticated:
            return view(request, request.user, *args, **kwargs)
        guest = guest_player(session=request.session)
        if guest is None:
            refused = consume_or_429(request, action="guest", limit_get=True)
            if refused is not None:
                return refused
            guest = guest_for_session(session=request.session)
        return view(request, guest, *args, **kwargs)

    return wrapped


def daily(request: HttpRequest) -> HttpResponse:
    """Today's daily deal: the player's first game of it is ranked, later ones practice.

    Opening it shows no card of a ranked game and starts no clock: a page that other sites can
    open in a pop-up must not start anyone's clock. The player's Start does (game_start).
    Once the ranked game has ended the page shows it, finished, with its result: practice is a
    button away (`/play/<code>/`), never started by coming back.
    A visitor without an account is asked to sign up or log in, or to play a fresh deal."""
    if not request.user.is_authenticated:
        return render(request, "game/daily_guest.html")
    ended = daily_ranked_ended(player=request.user)
    if ended is not None:
        return _board(request, ended, finished=True)
    return _board(request, services.game_daily_open(player=request.user))


@require_http_methods(["GET", "POST"])
@as_player_or_guest
def new(request: HttpRequest, player) -> HttpResponse:
    """A fresh random deal; a POST with `ending` first ends that unfinished game."""
    ending = request.POST.get("ending") if request.method == "POST" else None
    if ending is not None and not ending.isdigit():
        return problem(request, 400, _("No such game"), _("“ending” must be a game number."))
    try:
        code = services.game_new(player=player, ending_game_id=ending and int(ending))
    except GameError as error:
        return problem(request, 403, _("Not your game"), error.message)
    return redirect("play", code=code)


def play(request: HttpRequest, code: str) -> HttpResponse:
    """Any deal by its code; a typed variant of a code redirects to the canonical one.

    Today's daily deal is played once, by signed-in players: a visitor is told so, with no
    card and without becoming a guest (game.services.games.daily_today_check)."""
    if not request.user.is_authenticated and _todays_daily(code):
        return daily_refused(request)
    return _play(request, code)


def _todays_daily(code: str) -> bool:
    try:
        return daily_is_today(code_parse(code=code))
    except GameError:
        return False  # not a code: the board's page says what is wrong with it


def daily_refused(request: HttpRequest) -> HttpResponse:
    """Today's deal asked for without an account: sign up, log in, or play a fresh deal."""
    return render(request, "game/daily_guest.html", {"refused": True}, status=403)


@as_player_or_guest
def _play(request: HttpRequest, player, code: str) -> HttpResponse:
    ghost_id = request.GET.get("ghost")
    try:
        race_lobby_check(player=player, code=code)
        # The ghost first: a refused one opens no game (today's ranked game above all).
        ghost = ghost_id and ghost_to_race(player=player, code=code, ghost_id=ghost_id)
        game = services.game_open(player=player, code=code)
    except RaceError as error:
        return problem(request, 403, _("You are waiting to race this deal"), error.message)
    except GhostError as error:
        status = 404 if error.code == "no_such_ghost" else 403
        return problem(request, status, _("This ghost cannot be raced"), error.message)
    except GameError as error:
        if error.code == "daily_today":
            return daily_refused(request)
        return problem(request, 400, _("Not a deal code"), error.message)
    if game.code != code:
        return _canonical(game.code, ghost_id)
    return _board(request, game, ghost=ghost or None)


def _canonical(code: str, ghost_id: str | None) -> HttpResponse:
    response = redirect("play", code=code)
    if ghost_id:  # only a digit string gets this far: ghost_to_race took it
        response["Location"] += f"?ghost={ghost_id}"
    return response


def _board(
    request: HttpRequest, game: Game, *, finished: bool = False, ghost: Ghost | None = None
) -> HttpResponse:
    """The board of `game`; a `finished` one is shown as it ended, with no socket (the socket
    of a code is on the player's latest game of it, which may be a practice game by now).
    With a `ghost`, its panel beside the board, played back over the socket."""
    snapshot = game_snapshot(game=game)
    if finished:  # over: no move of it is to be made, so none is hinted at
        snapshot["view"] = snapshot["view"] | {"hints": []}
    context = {
        **snapshot,
        "guest": not request.user.is_authenticated,  # asked to sign up to keep the game
        "guest_days": settings.SESSION_COOKIE_AGE // (24 * 3600),
        "code": game.code,
        "day": game.daily.date if game.daily_id else None,  # named on a ranked game's Start
        "finished": finished,
        "ws_path": None if finished else _socket_path(game.code, ghost),
        "ghost": ghost,
        "layout": engine.table_layout(),  # as the socket's greeting carries it
    }
    return render(request, "game/play.html", context)


def _socket_path(code: str, ghost: Ghost | None) -> str:
    path = f"/ws/play/{code}/"
    return f"{path}?ghost={ghost.game_id}" if ghost else path
