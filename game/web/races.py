"""The race pages: open a room, find one by its code, and a room's own. Thin: a service, a page."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from game.domain.errors import GameError, RaceError
from game.selectors.races import race_room_snapshot
from game.services import races
from game.web.problems import problem


@require_GET
def race_home(request: HttpRequest) -> HttpResponse:
    """Open a race room (for a code, or a fresh deal), or join one by its room code."""
    return _race_home(request, code=request.GET.get("code", ""))


def _race_home(request, *, code="", room="", error="", status=200) -> HttpResponse:
    context = {"code": code, "room": room, "error": error}
    return render(request, "race/home.html", context, status=status)


@login_required
@require_POST
def race_new(request: HttpRequest) -> HttpResponse:
    code = request.POST.get("code", "")
    try:
        room = races.race_create(player=request.user, code=code)
    except GameError as error:  # the form again, with why: not an error in the console
        return _race_home(request, code=code, error=error.message)
    return redirect("race_room", room=room.room)


@login_required
@require_GET
def race_quick(request: HttpRequest) -> HttpResponse:
    """The quick race's queue: its socket finds a rival and the page goes to their room."""
    return render(request, "race/quick.html", {"labels": quick_labels()})


def quick_labels() -> dict[str, str]:
    """The queue page's words, for its script to show (static/pages/quick.js)."""
    return {
        "connecting": _("Joining the queue…"),
        "waiting": _("Looking for a rival… %(n)s waiting"),
        "matched": _("Rival found! Going to the race…"),
    }


@require_GET
def race_find(request: HttpRequest) -> HttpResponse:
    """A typed room code leads to its room."""
    typed = request.GET.get("room", "")
    try:
        return redirect("race_room", room=races.room_parse(room=typed))
    except RaceError as error:
        return _race_home(request, room=typed, error=error.message, status=400)


@require_GET
def race_room(request: HttpRequest, room: str) -> HttpResponse:
    try:
        found = races.room_parse(room=room)
        races.race_expire_if_idle(room=found)
    except RaceError as error:
        return problem(request, 404, _("No such race"), error.message)
    if found != room:
        return redirect("race_room", room=found)
    race, labels = race_room_snapshot(room=found), race_labels()
    for entry in race["entries"]:  # what the page shows before its script runs
        entry |= {"label": labels[entry["state"]], "cleared": 25 - entry["heart_left"]}
    context = {"race": race, "labels": labels, "ws_path": f"/ws/race/{found}/"}
    return render(request, "race/room.html", context)


def race_labels() -> dict[str, str]:
    """The race page's words, for its script to show (static/pages/race.js)."""
    return {
        "waiting": _("waiting"),
        "ready": _("ready"),
        "playing": _("racing"),
        "stuck": _("stuck"),
        "won": _("cleared"),
        "resigned": _("resigned"),
        "out": _("out"),
        "lobby": _("Waiting for players: the race starts when 2 to 8 players are all ready."),
        "quick_lobby": _("Waiting for a rival: the race starts by itself 10 s after one comes in."),
        "countdown": _("Starting in %(n)s…"),
        "go": _("Go!"),
        "racing": _("Race on! The first to clear the heart wins."),
        "winner": _("%(name)s cleared the heart first!"),
        "stuck_you": _("No more moves: undo, or resign to take your place."),
        "finished": _("The race is over."),
        "expired": _("This room closed after sitting idle."),
        "you": _("you"),
        "copied": _("Copied"),
    } | _finish_labels()


def _finish_labels() -> dict[str, str]:
    """The finish window's words (static/windows/race-finish.js)."""
    return {
        "finish_won": _("You won the race!"),
        "finish_over": _("Race over"),
        "of": _("of %(n)s"),
        "nobody_won": _("Nobody cleared the heart."),
        "again_left": _(
            "Race again in the next %(n)s s: everyone who does races a new deal together."
        ),
        "again_closed": _("The time to race again is over."),
        "rematch_open": _("A rematch is open: race again to join it."),
        "rematch": _("Rematch: %(room)s"),
    }
