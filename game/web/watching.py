"""Watching a game live and replaying a finished one, with one refusal for both. Thin: a
selector, a page."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from game import engine
from game.domain.errors import WatchError
from game.selectors.replays import replay_steps
from game.selectors.watching import game_to_watch, player_name, spectator_snapshot
from game.web.problems import problem

REFUSAL_STATUS = {"no_such_game": 404, "not_finished": 409}


@require_GET
def watch(request: HttpRequest, game_id: int) -> HttpResponse:
    """Watch a game live, read-only; a finished one shows its end and links to its replay."""
    try:
        game = game_to_watch(viewer=request.user, game_id=game_id)
    except WatchError as error:
        return _refused(request, error)
    context = {
        "snapshot": spectator_snapshot(game_id=game.pk),
        "game_id": game.pk,
        "ws_path": f"/ws/watch/{game.pk}/",
        "layout": engine.table_layout(),
    }
    return render(request, "game/watch.html", context)


@require_GET
def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """A completed game move by move."""
    try:
        game = game_to_watch(viewer=request.user, game_id=game_id)
        steps = replay_steps(game=game)
    except WatchError as error:
        return _refused(request, error)
    context = {
        "game": game,
        "player": player_name(game.player_id),
        "result": getattr(game, "result", None),
        "steps": steps,
        "steps_url": request.path + "steps/",
        "layout": engine.table_layout(),
    }
    return render(request, "game/replay.html", context)


@require_GET
def replay_steps_json(request: HttpRequest, game_id: int) -> JsonResponse:
    """?start=N: the next chunk of a replay's steps (replays.replay_steps)."""
    start = request.GET.get("start", "0")
    if not start.isdigit() or len(start) > 6:
        return JsonResponse({"error": "bad_start"}, status=400)
    try:
        game = game_to_watch(viewer=request.user, game_id=game_id)
        return JsonResponse(replay_steps(game=game, start=int(start)))
    except WatchError as error:
        body = {"error": error.code, "message": error.message}
        return JsonResponse(body, status=REFUSAL_STATUS.get(error.code, 403))


def _refused(request, error: WatchError) -> HttpResponse:
    titles = {"no_such_game": _("No such game"), "not_finished": _("Still being played")}
    title = titles.get(error.code, _("Not yet"))
    status = REFUSAL_STATUS.get(error.code, 403)
    return problem(request, status, title, error.message)
