"""The play socket: transport only. Check a frame's seq, call one service, reply.

It stands on game.sockets.base.Socket, which decodes and rate-limits every frame and makes every
error frame; docs/protocol.md describes every frame, error code and close code. Every failure
on the way is a GameError carrying its stable code.
The game itself lives in memory while sockets show it (game.runtime.open_games): a tap that
stores nothing is answered on the event loop; docs/performance.md says why.
"""

from collections.abc import Hashable
from urllib.parse import parse_qs

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy

from game import engine, services
from game.domain.errors import GameError
from game.runtime import open_games
from game.runtime.ghosts import GhostRun
from game.runtime.metrics import play_event
from game.runtime.presence import play_opened, socket_closed
from game.selectors.ghosts import Ghost, first_move_at, ghost_outcome, ghost_to_race
from game.selectors.guests import guest_player
from game.sockets.base import CLOSE_FORBIDDEN, CLOSE_NOT_FOUND, Socket
from game.sockets.counts import SocketCount
from game.sockets.ratelimit import FrameLimiter
from game.storage.db import db

MAX_SEQ = 2**53  # the largest integer a browser's JSON keeps exact
# A refusal on connect's close code, if not 4004.
CLOSE_CODES = {
    "race_lobby": CLOSE_FORBIDDEN,
    "daily_today": CLOSE_FORBIDDEN,
    "ghost_daily_locked": CLOSE_FORBIDDEN,
    "ghost_racing": CLOSE_FORBIDDEN,
    "ghost_in_race": CLOSE_FORBIDDEN,
}

# A refused tap says why: the engine's stable code (Event.reason_code) and its text, in the
# player's language. Keyed by event so that the frame costs one lookup.
REASONS = {event: event.reason_code for event in engine.Event if event.reason_code}
REASON_TEXTS = {engine.MISMATCH_CODE: gettext_lazy("Must be same rank")}

# The greeting lays the board out: the heart's geometry, from the engine (docs/protocol.md).
LAYOUT = engine.table_layout()

# At most SOCKETS_PER_PLAYER play sockets per player on one server process (settings,
# H2H_SOCKETS_PER_PLAYER, default 5).
play_sockets = SocketCount(lambda: settings.SOCKETS_PER_PLAYER)


class PlayConsumer(Socket):
    """One socket on one player's game of one code: /ws/play/<CODE>/, an account's or a
    guest's (game.services.guests)."""

    kind = "play"
    numbered = True
    login_required = True
    unstored: int | None = None  # the last seq answered storage_unavailable
    ghost_run: GhostRun | None = None  # the ghost raced beside the game (?ghost=<game id>)

    def frame_limiter(self) -> FrameLimiter:
        return FrameLimiter.from_settings()

    async def player_of(self, user):
        """An account plays as itself; a visitor as the guest of their session, if it has one
        (made by the play page: a socket never makes one)."""
        session = self.scope.get("session")
        if user.is_authenticated or session is None:
            return user
        return await db(guest_player)(session=session) or user

    def counted_in(self) -> tuple[SocketCount, Hashable]:
        return play_sockets, self.user.pk

    async def connect(self) -> None:
        code = self.scope["url_route"]["kwargs"]["code"]
        try:
            ghost = await self._ghost_asked(code)  # before the game: a refusal opens none
            self.live = await open_games.live_open(
                player=self.user, code=code, channel=self.channel_name
            )
        except GameError as error:
            return await self.refuse(error, CLOSE_CODES.get(error.code, CLOSE_NOT_FOUND))
        self.game_id = self.live.id
        self.group = services.game_group(game_id=self.game_id)
        self.selected, self.last_seq = None, 0
        await self.listen(self.group)
        await self.accept()
        await self.send_json({"type": "state", **self.live.snapshot(), "layout": LAYOUT})
        if ghost is not None:
            await self._ghost_start(ghost)
        # "N playing now", and how many watch
        await play_opened(channel=self.channel_name, user_id=self.user.pk, game_id=self.game_id)

    async def disconnect(self, code: int) -> None:
        await socket_closed(channel=self.channel_name)
        if self.ghost_run is not None:
            self.ghost_run.stop()
        if hasattr(self, "live"):
            open_games.live_close(self.live, channel=self.channel_name)

    async def resumed(self) -> None:
        """The channel layer is back: other tabs' moves made meanwhile were never heard here,
        so the game is read from its log again and shown, as after a reconnect."""
        await open_games.live_reload(self.live)
        self.selected = None
        await self.send_json({"type": "state", **self.live.snapshot()})

    def seq_of(self, frame: dict) -> int:
        seq = frame.get("seq")
        if type(seq) is not int or not 1 <= seq <= MAX_SEQ:
            raise GameError("bad_seq")
        return seq

    async def receive_frame(self, frame: dict, seq: int) -> None:
        # Selections are never stored, so the game's last_seq cannot catch their resends.
        if seq <= self.last_seq:
            raise GameError("duplicate_seq")
        used, self.last_seq = self.last_seq, seq
        try:
            reply = await self._act(frame, seq)
        except GameError as error:
            return await self._not_applied(error, seq, used)
        play_event(reply.event)
        self.selected = reply.state.selected
        await self.send_json(self._state_frame(seq, reply))
        await open_games.live_publish(self.live, reply, origin=self.channel_name)
        if reply.game is not None:
            await self._ghost_follow(reply.game)

    async def game_state(self, message: dict) -> None:
        """Another socket changed this game: show it, and drop this socket's selection."""
        if message["origin"] == self.channel_name or not open_games.live_heard(self.live, message):
            return
        self.selected = None
        keys = ("event", "view", "game")
        await self.send_json({"type": "state", **{key: message[key] for key in keys}})
        await self._ghost_follow(message["game"])

    async def game_par(self, message: dict) -> None:
        """The finished game's deal has its par now (game.runtime.par_searcher): show it."""
        open_games.live_par_heard(self.live, par=message["par"])
        await self.send_json({"type": "par", "game": message["game"], "par": message["par"]})

    async def game_watchers(self, message: dict) -> None:
        """Spectators came or went: tell the player how many watch."""
        open_games.live_audience_changed(self.live)
        await self.send_json({"type": "watchers", "count": message["count"]})

    async def _ghost_asked(self, code: str) -> Ghost | None:
        """The ghost the socket's URL asks for (`?ghost=<game id>`), if any; GhostError if the
        player may not race it (game.selectors.ghosts)."""
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        asked = query.get("ghost")
        if not asked:
            return None
        return await db(ghost_to_race)(player=self.user, code=code, ghost_id=asked[0])

    async def _ghost_start(self, ghost: Ghost) -> None:
        self.ghost_run = GhostRun(ghost, self.send_json)
        await self._ghost_follow(self.live.info)
        if self.ghost_run is not None and self.ghost_run.first_move is None:
            await self.ghost_run.show()  # waiting at the start for the player's first move

    async def _ghost_follow(self, game: dict) -> None:
        """The game (its snapshot's game object) moved: the ghost starts at the player's first
        move, and the race ends with the player's game, saying who won."""
        run = self.ghost_run
        if run is None:
            return
        if run.first_move is None:
            first = await db(first_move_at)(game_id=self.game_id)
            if first is not None:
                run.begin(first)
        if game["status"] != "open":
            winner = await db(ghost_outcome)(ghost=run.ghost, game_id=self.game_id)
            self.ghost_run = None
            await run.end(winner or "ghost")

    async def _act(self, frame: dict, seq: int) -> services.Reply:
        kind, game, player, selected = frame.get("type"), self.live, self.user, self.selected
        if kind == "start":
            return await services.game_start(game=game, player=player, seq=seq)
        if kind == "tap":
            target = frame.get("target")
            return await services.game_tap(
                game=game, player=player, seq=seq, target=target, selected=selected
            )
        if kind == "settings":
            on = frame.get("placement_help")
            return await services.game_set_help(
                game=game, player=player, seq=seq, on=on, selected=selected
            )
        if kind == "undo":
            return await services.game_undo(game=game, player=player, seq=seq)
        if kind == "resign":
            return await services.game_resign(game=game, player=player, seq=seq)
        raise GameError("unknown_type")

    async def _not_applied(self, error: GameError, seq: int, used: int) -> None:
        """A frame refused or not stored. A move the database could not take leaves its seq
        unused, so the client may send it again; if that resend finds the move stored after
        all (a commit whose answer was lost), the game as stored follows its refusal."""
        if error.code == "storage_unavailable":
            self.last_seq, self.unstored = used, seq
        if error.code != "duplicate_seq" or seq != self.unstored:
            raise error
        await self.send_json(self.error_frame(error, seq))
        self.selected = None
        await self.send_json({"type": "state", **self.live.snapshot()})

    def _state_frame(self, seq: int, reply: services.Reply) -> dict:
        frame = {"type": "state", "seq": seq, "event": str(reply.event), "view": reply.view}
        if reply.game is not None:
            frame["game"] = reply.game
        reason = REASONS.get(reply.event)
        if reason is not None:
            with translation.override(self.language):
                frame |= {"reason": reason, "message": str(REASON_TEXTS[reason])}
        return frame
