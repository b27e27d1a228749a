"""The board pages: today's daily deal, a fresh deal, and any deal by its code."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from game import services
from game.models import Game
from game.services import GameError
from game.services.errors import RealtimeError
from game.services.races import race_lobby_check
from game.web.problems import problem


@login_required
def daily(request: HttpRequest) -> HttpResponse:
    """Today's daily deal: the player's first game of it is ranked, later ones practice.

    Opening it shows no card of a ranked game and starts no clock: a page that other sites can
    open in a pop-up must not start anyone's clock. The player's Start does (game_start)."""
    return _board(request, services.game_daily_open(player=request.user))


@login_required
@require_http_methods(["GET", "POST"])
def new(request: HttpRequest) -> HttpResponse:
    """A fresh random deal; a POST with `ending` first ends that unfinished game."""
    ending = request.POST.get("ending") if request.method == "POST" else None
    if ending is not None and not ending.isdigit():
        return problem(request, 400, _("No such game"), _("“ending” must be a game number."))
    try:
        code = services.game_new(player=request.user, ending_game_id=ending and int(ending))
    except GameError as error:
        return problem(request, 403, _("Not your game"), error.message)
    return redirect("play", code=code)


@login_required
def play(request: HttpRequest, code: str) -> HttpResponse:
    """Any deal by its code; a typed variant of a code redirects to the canonical one."""
    try:
        race_lobby_check(player=request.user, code=code)
        game = services.game_open(player=request.user, code=code)
    except RealtimeError as error:
        return problem(request, 403, _("You are waiting to race this deal"), error.message)
    except GameError as error:
        return problem(request, 400, _("Not a deal code"), error.message)
    if game.code != code:
        return redirect("play", code=game.code)
    return _board(request, game)


def _board(request: HttpRequest, game: Game) -> HttpResponse:
    snapshot = services.game_snapshot(game=game)
    context = {
        **snapshot,
        "code": game.code,
        "day": game.daily.date if game.daily_id else None,  # named on a ranked game's Start
        "ws_path": f"/ws/play/{game.code}/",
    }
    return render(request, "game/play.html", context)
