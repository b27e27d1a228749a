"""The play socket: transport only. Decode a frame, check its seq, call one service, reply.

docs/protocol.md describes every frame, error code and close code. Every error frame is made
in `_error_frame`; every failure on the way is a GameError carrying its stable code.
The game itself lives in memory while sockets show it (game.services.live): a tap that
stores nothing is answered on the event loop; docs/performance.md says why.
"""

import json

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import translation
from django.utils.functional import empty
from django.utils.translation import gettext as _

from game import services
from game.presence import CLOSE_TOO_MANY_SOCKETS, PlayerSockets
from game.ratelimit import CLOSE_FLOODING, FrameLimiter, Verdict
from game.realtime.db import db
from game.realtime.presence import play_opened, socket_closed
from game.realtime.races import race_lobby_check
from game.services import GameError
from game.sockets import decode_frame, socket_language

MAX_SEQ = 2**53  # the largest integer a browser's JSON keeps exact
CLOSE_LOGIN_REQUIRED = 4001
CLOSE_FORBIDDEN = 4003
CLOSE_BAD_CODE = 4004
CLOSE_CODES = {"race_lobby": CLOSE_FORBIDDEN}  # a refusal on connect's close, if not 4004


class PlayConsumer(PlayerSockets, AsyncJsonWebsocketConsumer):
    """One socket on one player's game of one code: /ws/play/<CODE>/."""

    async def connect(self) -> None:
        self.language = socket_language(self.scope)
        self.user = _unwrapped(self.scope["user"])
        if not self.user.is_authenticated:
            return await self._refuse(GameError("login_required"), CLOSE_LOGIN_REQUIRED)
        if not await self.player_join():  # game.presence: the cap, and logout closes it
            return await self._refuse(GameError("too_many_sockets"), CLOSE_TOO_MANY_SOCKETS)
        code = self.scope["url_route"]["kwargs"]["code"]
        try:
            await db(race_lobby_check)(player=self.user, code=code)
            self.live = await services.live_open(
                player=self.user, code=code, channel=self.channel_name
            )
        except GameError as error:
            return await self._refuse(error, CLOSE_CODES.get(error.code, CLOSE_BAD_CODE))
        self.game_id = self.live.id
        self.group = services.game_group(game_id=self.game_id)
        self.selected, self.last_seq = None, 0
        self.limiter = FrameLimiter.from_settings()
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_json({"type": "state", **self.live.snapshot()})
        await play_opened(self)  # game.realtime: "N playing now", and how many watch

    async def disconnect(self, code: int) -> None:
        await socket_closed(self)
        await self.player_leave()
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if hasattr(self, "live"):
            services.live_close(self.live, channel=self.channel_name)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        # Decoded here, not by the JSON consumer, so malformed JSON gets an error frame
        # instead of an exception that closes the socket with 1011.
        seq = None
        try:
            verdict = self._throttle()
            frame = decode_frame(text_data)
            seq = _seq(frame)
            if verdict is Verdict.REFUSE:  # decoded first, so the refusal names its seq
                raise GameError("rate_limited")
            self._admit(seq)
            reply = await self._dispatch(frame, seq)
        except GameError as error:
            await self.send_json(self._error_frame(seq, error))
            if error.code == "flooding":
                await self.close(code=CLOSE_FLOODING)
            return
        self.selected = reply.state.selected
        await self.send_json(self._state_frame(seq, reply))
        await services.live_publish(self.live, reply, origin=self.channel_name)

    async def game_state(self, message: dict) -> None:
        """Another socket changed this game: show it, and drop this socket's selection."""
        if message["origin"] == self.channel_name or not services.live_heard(self.live, message):
            return
        self.selected = None
        keys = ("event", "view", "game")
        await self.send_json({"type": "state", **{key: message[key] for key in keys}})

    async def game_watchers(self, message: dict) -> None:
        """Spectators came or went (game.realtime): tell the player how many watch."""
        services.live_audience_changed(self.live)
        await self.send_json({"type": "watchers", "count": message["count"]})

    async def dispatch(self, message: dict) -> None:
        # Channels' own dispatch first runs close_old_connections on its sync thread: a thread
        # hop for every frame. This consumer touches no connection of that thread: its
        # database work runs on game.services.dbthread, which keeps its own.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)

    async def _dispatch(self, frame: dict, seq: int) -> services.Reply:
        kind, selected = frame.get("type"), self.selected
        if kind == "start":
            return await self._call(services.live_start, seq)
        if kind == "tap":
            target = frame.get("target")
            return await self._call(services.live_tap, seq, target=target, selected=selected)
        if kind == "settings":
            on = frame.get("placement_help")
            return await self._call(services.live_set_help, seq, on=on, selected=selected)
        if kind == "undo":
            return await self._call(services.live_undo, seq)
        if kind == "resign":
            return await self._call(services.live_resign, seq)
        raise GameError("unknown_type")

    async def _call(self, service, seq: int, **arguments) -> services.Reply:
        return await service(self.live, player=self.user, seq=seq, **arguments)

    @classmethod
    async def encode_json(cls, content) -> str:
        return _encode(content)

    def _throttle(self) -> Verdict:
        verdict = self.limiter.take()  # game.ratelimit: a token bucket per socket
        if verdict is Verdict.CLOSE:
            raise GameError("flooding")
        return verdict

    def _admit(self, seq: int) -> None:
        # Selections are never stored, so the game's last_seq cannot catch their resends.
        if seq <= self.last_seq:
            raise GameError("duplicate_seq")
        self.last_seq = seq

    def _state_frame(self, seq: int, reply: services.Reply) -> dict:
        frame = {"type": "state", "seq": seq, "event": str(reply.event), "view": reply.view}
        if reply.game is not None:
            frame["game"] = reply.game
        if reply.event == "mismatch":
            with translation.override(self.language):
                frame |= {"reason": "same_rank", "message": _("Must be same rank")}
        return frame

    def _error_frame(self, seq: int | None, error: GameError) -> dict:
        with translation.override(self.language):
            return {"type": "error", "seq": seq, "error": error.code, "message": error.message}

    async def _refuse(self, error: GameError, close_code: int) -> None:
        """Accept only to say why, then close: a browser never sees a refused handshake's code."""
        await self.accept()
        await self.send_json(self._error_frame(None, error))
        await self.close(code=close_code)


def _unwrapped(user):
    """The user behind Channels' lazy object: each attribute read through it costs a call."""
    wrapped = getattr(user, "_wrapped", empty)
    return user if wrapped is empty else wrapped


_ENCODER = json.JSONEncoder(separators=(",", ":"))  # compact: an eighth smaller than the default
_CARDS = {
    (rank, free): _ENCODER.encode({"rank": rank, "free": free})
    for rank in range(1, 14)
    for free in (True, False)
}


def _encode(content: dict) -> str:
    """A frame as compact JSON; a view's heart (25 small objects, most of a state frame's bytes
    and encoding time) is joined from pieces encoded once."""
    view = content.get("view")
    try:
        cards = ",".join(
            "null" if c is None else _CARDS[c["rank"], c["free"]] for c in view["heart"]
        )
    except (KeyError, TypeError):
        return _ENCODER.encode(content)
    text = _ENCODER.encode({**content, "view": {**view, "heart": None}})
    return text.replace('"heart":null', f'"heart":[{cards}]', 1)  # the first: the view's own


def _seq(frame: dict) -> int:
    seq = frame.get("seq")
    if type(seq) is not int or not 1 <= seq <= MAX_SEQ:
        raise GameError("bad_seq")
    return seq
