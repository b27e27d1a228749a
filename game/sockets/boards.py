"""Live leaderboards and "N playing now": /ws/live/home/, /ws/live/daily/<YYYY-MM-DD>/,
/ws/live/deal/<CODE>/ and /ws/live/all-time/. Open to everyone, like the boards themselves.

With `?players=following` a board socket shows only the results of the players its user
follows, and the user's own: it needs a login, and its ranks are among those players.
"""

import datetime
from urllib.parse import parse_qs

from game import engine
from game.domain.errors import BoardError, GameError
from game.selectors import boards
from game.selectors.daily import daily_today
from game.selectors.follows import following_board_players
from game.selectors.presence import presence_snapshot
from game.services.groups import PRESENCE, board_group
from game.sockets.base import CLOSE_LOGIN_REQUIRED, CLOSE_NOT_FOUND
from game.sockets.public import PublicSocket
from game.storage.db import db


class BoardConsumer(PublicSocket):
    """One page's live data: its board's rows and updates, and presence where it shows it.

    On connect it joins the groups first and reads the snapshot second, so no update falls
    between them; updates carry the board's version and the client asks for a snapshot
    ({"type": "sync"}) when it sees a gap. Channels leaves `self.groups` on disconnect.
    """

    kind = "boards"
    frames = {"sync": "resync"}
    # A logged-in board joins its player's group, so that a deleted account's boards close;
    # a logout closes only a following board (player_logout): the public ones stay open.
    closes_on_logout = True

    def __init__(self, *args, board_kind: str = "home", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.board_kind = board_kind  # which board the route names; `kind` labels metrics
        self.players: frozenset[int] | None = None  # a following board's players; None: all

    async def connect(self) -> None:
        try:
            route = self.scope["url_route"]["kwargs"]
            self.board, self.shows_presence = _board_of(self.board_kind, route)
            following = _follows_only(self.scope)
        except BoardError as error:
            return await self.refuse(error, CLOSE_NOT_FOUND)
        if following and not self.user.is_authenticated:
            return await self.refuse(GameError("login_required"), CLOSE_LOGIN_REQUIRED)
        if following:
            self.players = frozenset()  # read with each snapshot, so a new follow shows
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
            await self.send_presence(await db(presence_snapshot)())

    async def send_board(self, frame: dict | None = None, *, at_least=None, fresh=None) -> None:
        """The board's snapshot; `fresh` names the player whose new result it shows."""
        if self.players is None:
            snapshot = await db(boards.board_snapshot)(board=self.board, at_least=at_least)
        else:
            snapshot = await db(self._following_snapshot)()
        rows = [self._row(row) for row in snapshot["rows"]]
        await self.send_json({"type": "board", **snapshot, "rows": rows, "fresh": fresh})

    def _following_snapshot(self) -> dict:
        self.players = following_board_players(user=self.user)
        return boards.following_snapshot(board=self.board, players=self.players)

    async def board_update(self, message: dict) -> None:
        """A result joined the board, or results left it (after the commit)."""
        row, version = message["row"], message["version"]
        if row is None:  # all-time, or results left: the whole board goes out again
            if self._shows(message["player_id"], default=True):
                await self.send_board(at_least=version, fresh=message["player"])
            return
        shown = self._row(row) if self._shows(row["player_id"]) else None
        await self.send_json({"type": "update", "version": version, "row": shown})

    def _shows(self, player_id: int | None, *, default: bool = False) -> bool:
        """Whether this board shows the player's results; `default` for no player named."""
        if player_id is None:
            return default
        return self.players is None or player_id in self.players

    async def player_logout(self, message: dict) -> None:
        """A following board is its user's, so it ends with the session; a public one stays
        open, unless the account itself is gone."""
        if self.players is not None or message.get("deleted"):
            await super().player_logout(message)

    async def presence_update(self, message: dict) -> None:
        await self.send_presence(message)

    async def send_presence(self, snapshot: dict) -> None:
        keys = ("playing", "daily_playing", "daily")
        await self.send_json({"type": "presence", **{key: snapshot[key] for key in keys}})

    def _row(self, row: dict) -> dict:
        """A row as this socket's user sees it: marked if it is theirs, without the user id."""
        you = self.user.is_authenticated and row["player_id"] == self.user.pk
        return {key: value for key, value in row.items() if key != "player_id"} | {"you": you}


def _follows_only(scope: dict) -> bool:
    """Whether the socket's query asks for `players=following` (BoardError bad_players if
    it asks for anything else)."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
    players = query.get("players")
    if players is None:
        return False
    if players != ["following"]:
        raise BoardError("bad_players")
    return True


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
            raise BoardError("bad_board", str(error)) from error
    try:
        day = datetime.date.fromisoformat(kwargs["day"])
    except ValueError as error:
        raise BoardError("bad_board") from error
    return f"daily:{day.isoformat()}", day == daily_today()
