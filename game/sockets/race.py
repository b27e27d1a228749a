"""A race room: /ws/race/<ROOM>/. Anyone may follow a room; logged-in players join, get
ready and race. The race itself is played over the play socket, on the racer's race game."""

import asyncio
import datetime

from django.utils import timezone

from game.domain.errors import RaceError
from game.runtime import presence
from game.selectors.races import race_snapshot, view_progress
from game.services import game_group, races
from game.services.groups import race_group
from game.sockets.base import CLOSE_NOT_FOUND
from game.sockets.public import PublicSocket
from game.storage.db import db


class RaceConsumer(PublicSocket):
    """Sends the whole room on connect and after every change (each carries the room's
    version), and each racer's progress as their games move: it follows the racers' game
    groups and passes on only what rivals may see (race_view.view_progress).

    Each socket also waits for the start instant and then creates the race games (the first
    to get there does it, on whatever process it runs; the others find them made).
    """

    kind = "race"
    frames = {"join": "join", "leave": "leave", "ready": "ready", "sync": "send_room"}

    async def connect(self) -> None:
        try:
            self.room = races.room_parse(room=self.scope["url_route"]["kwargs"]["room"])
        except RaceError as error:
            return await self.refuse(error, CLOSE_NOT_FOUND)
        self.following: dict[int, int] = {}  # game id -> its racer's id
        self.sent, self.timer = -1, None
        await self.listen(race_group(self.room))
        try:
            snapshot = await db(_room_state)(self.room)
        except RaceError as error:
            return await self.refuse(error, CLOSE_NOT_FOUND)
        await self.accept()
        await self._send(snapshot)

    async def disconnect(self, code: int) -> None:
        if self.__dict__.get("timer"):
            self.timer.cancel()

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

    async def send_room(self, frame: dict | None = None) -> None:
        await self._send(await db(_room_state)(self.room))

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
        self._wait_for_start(snapshot)

    def _wait_for_start(self, snapshot: dict) -> None:
        if snapshot["status"] != "running" or snapshot["started"] or self.timer:
            return
        starts_at = datetime.datetime.fromisoformat(snapshot["starts_at"])
        delay = max(0.0, (starts_at - timezone.now()).total_seconds())
        self.timer = asyncio.get_running_loop().create_task(self._begin_after(delay))

    async def _begin_after(self, delay: float) -> None:
        await asyncio.sleep(delay)
        # The games' creation is published to the room, to this socket too.
        await db(races.race_begin)(room=self.room)


def _room_state(room: str) -> dict:
    return race_snapshot(room=races.race_room(room=room))
