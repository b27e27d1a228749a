"""Live leaderboards and "N playing now": /ws/live/home/, /ws/live/daily/<YYYY-MM-DD>/,
/ws/live/deal/<CODE>/ and /ws/live/all-time/. Open to everyone, like the boards themselves."""

import datetime

from game import engine
from game.daily import daily_today
from game.services import boards, presence
from game.services.errors import RealtimeError
from game.services.groups import PRESENCE, board_group
from game.sockets.base import CLOSE_NOT_FOUND
from game.sockets.realtime import RealtimeConsumer
from game.storage.db import db


class BoardConsumer(RealtimeConsumer):
    """One page's live data: its board's rows and updates, and presence where it shows it.

    On connect it joins the groups first and reads the snapshot second, so no update falls
    between them; updates carry the board's version and the client asks for a snapshot
    ({"type": "sync"}) when it sees a gap. Channels leaves `self.groups` on disconnect.
    """

    kind = "boards"
    frames = {"sync": "resync"}
    closes_on_logout = False  # the boards are public: a board stays open when its session ends

    def __init__(self, *args, kind: str = "home", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.kind = kind

    async def connect(self) -> None:
        try:
            route = self.scope["url_route"]["kwargs"]
            self.board, self.shows_presence = _board_of(self.kind, route)
        except RealtimeError as error:
            return await self.refuse(error, CLOSE_NOT_FOUND)
        if self.board:
            await self.listen(board_group(self.board))
        if self.shows_presence:
            await self.listen(PRESENCE)
        await self.accept()
        await self.resync()

    async def resync(self, frame: dict | None = None) -> None:
        """Everything the page shows, afresh: on connect and in answer to {"type": "sync"}."""
        if self.board:
            await self.send_board()
        if self.shows_presence:
            await self.send_presence(await db(presence.presence_snapshot)())

    async def send_board(self, frame: dict | None = None, *, at_least=None, fresh=None) -> None:
        """The board's snapshot; `fresh` names the player whose new result it shows."""
        snapshot = await db(boards.board_snapshot)(board=self.board, at_least=at_least)
        rows = [self._row(row) for row in snapshot["rows"]]
        await self.send_json({"type": "board", **snapshot, "rows": rows, "fresh": fresh})

    async def board_update(self, message: dict) -> None:
        """A result joined the board (after its commit)."""
        if message["row"] is None:  # all-time: aggregates change, so the snapshot goes out
            return await self.send_board(at_least=message["version"], fresh=message["player"])
        frame = {"type": "update", "version": message["version"], "row": self._row(message["row"])}
        await self.send_json(frame)

    async def presence_update(self, message: dict) -> None:
        await self.send_presence(message)

    async def send_presence(self, snapshot: dict) -> None:
        keys = ("playing", "daily_playing", "daily")
        await self.send_json({"type": "presence", **{key: snapshot[key] for key in keys}})

    def _row(self, row: dict) -> dict:
        """A row as this socket's user sees it: marked if it is theirs, without the user id."""
        you = self.user.is_authenticated and row["player_id"] == self.user.pk
        return {key: value for key, value in row.items() if key != "player_id"} | {"you": you}


def _board_of(kind: str, kwargs: dict) -> tuple[str | None, bool]:
    """(the board's key or None, whether the page shows presence) of a socket's route."""
    if kind == "home":
        return None, True
    if kind == "all-time":
        return boards.ALL_TIME, False
    if kind == "deal":
        try:
            return f"deal:{engine.parse_code(kwargs['code'])}", False
        except engine.ParseError as error:
            raise RealtimeError("bad_board", str(error)) from error
    try:
        day = datetime.date.fromisoformat(kwargs["day"])
    except ValueError as error:
        raise RealtimeError("bad_board") from error
    return f"daily:{day.isoformat()}", day == daily_today()
