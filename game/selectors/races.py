"""What a race room shows: its racers in table order, their live progress and results, and
the rules the room shows with them."""

from datetime import timedelta
from math import inf

from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone

from game import engine
from game.models import Game, RaceEntry, RaceRoom, RatingChange, RatingKind
from game.selectors.log import game_replay
from game.selectors.quick import quick_span

MIN_RACERS, MAX_RACERS = 2, 8  # racers in a room
COUNTDOWN = timedelta(seconds=3)  # from the last racer's ready to the start instant
QUICK_COUNTDOWN = timedelta(seconds=10)  # a quick room's (no Ready): from its second racer in
REMATCH_WINDOW = timedelta(seconds=30)  # after the end, "Race again" opens or joins the rematch
Status = RaceRoom.Status

# The table's order, sent to the pages with the room so that they re-sort live progress the
# server's way: score desc, time asc (a racer still playing has no time: None sorts last), moves.
RACE_ORDER = ("-score", "duration_ms", "moves")


def race_room_snapshot(*, room: str) -> dict:
    """The room of this canonical code (races.room_parse) as its page and sockets show it."""
    return race_snapshot(room=RaceRoom.objects.select_related("rematch").get(room=room))


def race_snapshot(*, room: RaceRoom) -> dict:
    """The whole room as its page and its socket show it (a racer finds itself by "player")."""
    now = timezone.now()
    started = room.starts_at is not None and room.starts_at <= now
    entries = list(room.entries.select_related("player__profile", "game__result"))
    racing = racing_game_ids(game_ids=[entry.game_id for entry in entries if entry.game_id])
    before = _played_before(room, [entry.player_id for entry in entries])
    ordered = standings([_entry(entry, room, racing=racing, before=before) for entry in entries])
    _with_rating_changes(room, ordered)
    return {
        "room": room.room,
        "version": room.version,
        "status": room.status,
        "started": started,
        # A fresh deal's code shows only at the start: nobody can study it in another tab.
        "code": room.code if started or not room.fresh else None,
        "fresh": room.fresh,
        "starts_at": room.starts_at.isoformat() if room.starts_at else None,
        "finished_at": room.finished_at.isoformat() if room.finished_at else None,
        "server_now": now.isoformat(),
        "countdown_ms": int(_countdown(room).total_seconds() * 1000),
        "quick": room.quick,  # it starts by itself: no Join, no Ready
        "min": MIN_RACERS,
        "max": MAX_RACERS,
        "url": reverse("race_room", args=[room.room]),
        "order": list(RACE_ORDER),
        "entries": ordered,
        "winner": race_winner(ordered),
        "again_until": _again_until(room),
        "rematch": room_link(room.rematch) if room.rematch_id else None,
    }


def room_link(room: RaceRoom) -> dict:
    """A room as another room's page links to it: its code and its page."""
    return {"room": room.room, "url": reverse("race_room", args=[room.room])}


def rematch_open_until(room: RaceRoom):
    """Until when this room's racers may still race again, or None while it is not over."""
    if room.status != Status.FINISHED or room.finished_at is None:
        return None
    return room.finished_at + REMATCH_WINDOW


def _again_until(room: RaceRoom) -> str | None:
    until = rematch_open_until(room)
    return until.isoformat() if until else None


def _with_rating_changes(room: RaceRoom, entries: list[dict]) -> None:
    """Each racer's Race rating change from this race, rounded, or None until it is rated."""
    deltas = {}
    if room.status == Status.FINISHED:
        changes = RatingChange.objects.filter(room=room, kind=RatingKind.RACE)
        deltas = dict(changes.values_list("player_id", "delta"))
    for entry in entries:
        delta = deltas.get(entry["player"])
        entry["rating_change"] = None if delta is None else round(delta)


def _countdown(room: RaceRoom) -> timedelta:
    return quick_span(QUICK_COUNTDOWN) if room.quick else COUNTDOWN


def standings(entries: list[dict]) -> list[dict]:
    """Entries in table order with their `place`: RACE_ORDER (score desc, time asc, moves asc),
    where a racer still playing has no time yet and so follows everyone finished on the same
    score. The first to clear the heart has the best time among the 250s: the winner."""
    ordered = sorted(entries, key=_rank_key)
    for place, entry in enumerate(ordered, start=1):
        entry["place"] = place
    return ordered


def race_winner(ordered: list[dict]) -> int | None:
    """The player who cleared the heart first, or None yet: a cleared heart scores 250, the
    most there is, so the winner is the first in table order if that racer won."""
    return ordered[0]["player"] if ordered and ordered[0]["status"] == "won" else None


def _rank_key(entry: dict) -> tuple:
    return tuple(_sort_value(entry, key) for key in RACE_ORDER)


def _sort_value(entry: dict, key: str) -> float:
    value = entry[key.removeprefix("-")]
    if value is None:
        return inf
    return -value if key.startswith("-") else value


def _played_before(room: RaceRoom, player_ids: list[int]) -> set[int]:
    """The racers who had a game of the room's deal before the race: anyone may join, and
    everyone sees who knew the deal already."""
    earlier = Game.objects.filter(code=room.code, player_id__in=player_ids)
    if room.starts_at is not None:  # the race games start then; later games came after it
        earlier = earlier.filter(started_at__lt=room.starts_at)
    return set(earlier.values_list("player_id", flat=True))


def _entry(entry: RaceEntry, room: RaceRoom, *, racing: set[int], before: set[int]) -> dict:
    profile = getattr(entry.player, "profile", None)
    info = {
        "player": entry.player_id,
        "name": profile.display_name if profile else None,
        "ready": entry.ready,
        "status": "waiting" if room.status in (Status.LOBBY, Status.RUNNING) else "out",
        "game": entry.game_id,
        "heart_left": 25,
        "score": 0,
        "moves": 0,
        "stuck": False,
        "duration_ms": None,
        "replay_url": None,
        "watch_url": None,
        "played_before": entry.player_id in before,
    }
    if entry.game_id:
        info |= _progress(entry.game) | _links(entry.game, watchable=entry.game_id not in racing)
    return info | {"state": entry_state(info)}


def entry_state(entry: dict) -> str:
    """One word for a racer's row: waiting, ready, playing, stuck, won, resigned or out."""
    if entry["status"] == "waiting":
        return "ready" if entry["ready"] else "waiting"
    if entry["status"] == "playing" and entry["stuck"]:
        return "stuck"
    return entry["status"]


def _progress(game) -> dict:
    view = engine.public_view(game_replay(game=game))
    result = getattr(game, "result", None)  # a game without a result has no `result` attribute
    return view_progress(view, status=game.status, duration_ms=result and result.duration_ms)


def _links(game, *, watchable: bool) -> dict:
    """A racer's watch or replay link: none while the race runs (watching.racing_game_ids)."""
    if not watchable:
        return {}
    if game.status == game.Status.OPEN:
        return {"watch_url": reverse("watch", args=[game.pk])}
    return {"replay_url": reverse("replay", args=[game.pk])}


def view_progress(view: dict, *, status: str, duration_ms: int | None) -> dict:
    """What rivals see of a racer's board: cards left in the heart, score, moves, stuck or done.

    Never the board itself: rivals play the same deal, so a waste card would show them the stock.
    Its `state` is the row's word (entry_state), so that a page never works it out itself.
    """
    progress = {
        "status": "playing" if status == "open" else status,
        "heart_left": sum(1 for card in view["heart"] if card),
        "score": view["score"],
        "moves": view["moves"],
        "stuck": view["deadlocked"] and not view["won"],
        "duration_ms": duration_ms,
    }
    return progress | {"state": entry_state(progress)}


def racing_game_ids(*, game_ids) -> set[int]:
    """Which of these games belong to a race still being run: nobody else may watch them,
    and a racer who finished early still may not hand the stock order to those racing on."""
    running = Game.objects.filter(pk__in=game_ids, race_entry__room__status=RaceRoom.Status.RUNNING)
    return set(running.values_list("pk", flat=True))


def entries_waiting(*, player, code: str) -> QuerySet[RaceEntry]:
    """The player's entries in rooms of `code` that have not begun: they wait for its deal.

    An entry has its game from the start instant on, so the countdown counts as waiting.
    """
    unstarted = (RaceRoom.Status.LOBBY, RaceRoom.Status.RUNNING)
    return RaceEntry.objects.filter(
        player=player, game__isnull=True, room__code=code, room__status__in=unstarted
    )


def room_racing(room: RaceRoom) -> bool:
    """Whether some racer's game is still open."""
    return room.entries.filter(game__isnull=False, game__result__isnull=True).exists()
