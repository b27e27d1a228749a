"""A race room: /ws/race/<ROOM>/. Anyone may follow a room; logged-in players join, get
ready and race. The race itself is played over the play socket, on the racer's race game."""

from game.domain.errors import RaceError
from game.runtime import presence
from game.runtime.races import race_clock
from game.selectors.races import race_room_snapshot, room_link, view_progress
from game.services import game_group, races, rematches
from game.services.groups import race_group
from game.sockets.base import CLOSE_NOT_FOUND
from game.sockets.public import PublicSocket
from game.storage.db import db


class RaceConsumer(PublicSocket):
    """Sends the whole room on connect and after every change (each carries the room's
    version), and each racer's progress as their games move: it follows the racers' game
    groups and passes on only what rivals may see (race_view.view_progress).

    A room it shows counting down goes to its process's race clock (game.runtime.races), which
    times the start once for all the room's sockets.
    """

    kind = "race"
    frames = {
        "join": "join",
        "leave": "leave",
        "ready": "ready",
        "again": "again",
        "sync": "send_room",
    }

    async def connect(self) -> None:
        try:
            self.room = races.room_parse(room=self.scope["url_route"]["kwargs"]["room"])
        except RaceError as error:
            return await self.refuse(error, CLOSE_NOT_FOUND)
        self.following: dict[int, int] = {}  # game id -> its racer's id
        self.sent = -1
        await self.listen(race_group(self.room))
        try:
            snapshot = await db(_room_opened)(self.room)
        except RaceError as error:
            return await self.refuse(error, CLOSE_NOT_FOUND)
        await self.accept()
        await self._send(snapshot)

    async def join(self, frame: dict) -> None:
        self.require_login()
        await db(races.race_join)(player=self.user, room=self.room)
        await self.send_room()

    async def leave(self, frame: dict) -> None:
        self.require_login()
        await db(races.race_leave)(player=self.user, room=self.room)
        await self.send_room()

    async def ready(self, frame: dict) -> None:
        self.require_login()
        ready = frame.get("ready", True)
        await db(races.race_ready)(player=self.user, room=self.room, ready=ready)
        await self.send_room()

    async def again(self, frame: dict) -> None:
        """Race again: the answer names the rematch the racer is now entered in."""
        self.require_login()
        rematch = await db(rematches.race_again)(player=self.user, room=self.room)
        await self.send_json({"type": "again", **room_link(rematch)})

    async def send_room(self, frame: dict | None = None) -> None:
        await self._send(await db(race_room_snapshot)(room=self.room))

    async def race_room(self, message: dict) -> None:
        """The room changed (after its commit): send it, unless this socket already has it."""
        if message["version"] > self.sent:
            await self.send_room()

    async def game_state(self, message: dict) -> None:
        """A racer's game moved: pass on their progress, never their board."""
        game = message.get("game") or {}
        player = self.following.get(game.get("id"))
        if player is None or "view" not in message:
            return await self.send_room()
        result = game.get("result") or {}
        progress = view_progress(
            message["view"], status=game["status"], duration_ms=result.get("duration_ms")
        )
        await self.send_json({"type": "progress", "player": player, **progress})

    async def game_watchers(self, message: dict) -> None:
        """Spectators of a racer's game: nothing the room shows."""

    async def game_par(self, message: dict) -> None:
        """A racer's finished game learnt its deal's par: for that player alone to see."""

    async def _send(self, snapshot: dict) -> None:
        for entry in snapshot["entries"]:
            if entry["game"] and entry["game"] not in self.following:
                self.following[entry["game"]] = entry["player"]
                await self.listen(game_group(game_id=entry["game"]))
                await presence.listener_added(game_id=entry["game"])
        self.sent = max(self.sent, snapshot["version"])
        me = self.user.pk if self.user.is_authenticated else None
        await self.send_json({"type": "room", **snapshot, "me": me})
        race_clock.time_start(snapshot)  # the games' creation comes back as a room change


def _room_opened(room: str) -> dict:
    """The room as it is shown, once a room that sat idle too long has been ended."""
    races.race_expire_if_idle(room=room)
    return race_room_snapshot(room=room)
