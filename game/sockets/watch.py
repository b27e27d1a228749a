"""Spectating: /ws/watch/<game id>/, read-only, the player's public view as it changes."""

from game.domain.errors import WatchError
from game.runtime import presence
from game.selectors.watching import game_to_watch, spectator_game, spectator_snapshot
from game.services import game_group
from game.services.groups import spectator_group
from game.sockets.base import CLOSE_FORBIDDEN, CLOSE_NOT_FOUND
from game.sockets.public import PublicSocket
from game.storage.db import db


class WatchConsumer(PublicSocket):
    """A spectator of one game: in the game's group with the player's tabs, but sends nothing.

    Every state frame is the whole public view, so a missed one costs nothing and a reconnect
    starts from a fresh snapshot. The player hears how many watch (presence.watch_opened).
    A logged-in spectator who opens a game of the same deal stops watching at once
    (game.services.publish.spectator_opened_deal), whichever process serves the socket.
    """

    kind = "watch"
    frames = {"sync": "send_snapshot"}

    async def connect(self) -> None:
        game_id = self.scope["url_route"]["kwargs"]["game_id"]
        if self.user.is_authenticated:  # before the check: a deal opened meanwhile is heard
            await self.listen(spectator_group(player_id=self.user.pk))
        try:
            self.game = await db(game_to_watch)(viewer=self.user, game_id=game_id)
        except WatchError as error:
            close = CLOSE_NOT_FOUND if error.code == "no_such_game" else CLOSE_FORBIDDEN
            return await self.refuse(error, close)
        await self.listen(game_group(game_id=game_id))
        await self.accept()
        await self.send_snapshot()
        await presence.watch_opened(
            channel=self.channel_name, user_id=self.user.pk, game_id=game_id
        )

    async def disconnect(self, code: int) -> None:
        await presence.socket_closed(channel=self.channel_name)

    async def send_snapshot(self, frame: dict | None = None) -> None:
        snapshot = await db(spectator_snapshot)(game_id=self.game.pk)
        await self.send_json({"type": "state", "event": None, **snapshot})

    async def game_state(self, message: dict) -> None:
        """The player stored a move (or another tab did): show what their board shows."""
        if "view" not in message:  # a publication that only says "changed": read it afresh
            return await self.send_snapshot()
        game = spectator_game(message["game"])
        await self.send_json(
            {"type": "state", "event": message["event"], "view": message["view"], "game": game}
        )

    async def game_watchers(self, message: dict) -> None:
        await self.send_json({"type": "watchers", "count": message["count"]})

    async def game_par(self, message: dict) -> None:
        """The game learnt its deal's par: its player's to see, not a spectator's, who may
        still play that deal (spectator_game leaves it out of the result too)."""

    async def spectator_opened_deal(self, message: dict) -> None:
        """The spectator opened a game of a deal, or entered a race of it: if it is this game's
        deal, no further move of it reaches them."""
        game = self.__dict__.get("game")  # none: this socket was refused on connect
        if game is None or message["code"] != game.code:
            return
        await self.leave_groups()
        await self.close_saying(WatchError("playing_this_deal"), CLOSE_FORBIDDEN)
