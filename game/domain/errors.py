"""The refusals of the use cases and the sockets: a stable code the client can act on, and its
text.

Consumers turn one into an error frame and views into a page, each in one place; the text is
translated when it is read, so it speaks the language active at that moment. GameError is the
refusal of a game and of a socket's frame; the live boards, watching (and replaying) and race
rooms refuse with a GameError of their own kind, whose codes and texts are their own, so a
socket turns every one into the same kind of error frame (docs/protocol.md lists the codes).
"""

from typing import ClassVar

from django.utils.translation import gettext_lazy as _

MESSAGES = {
    "bad_json": _("The message is not valid JSON."),
    "bad_frame": _("The message must be a JSON object with a type and a seq."),
    "binary": _("Binary messages are not accepted: send JSON text."),
    "too_large": _("The message is longer than 1 KiB."),
    "unknown_type": _("Unknown message type: use start, tap, undo, resign or settings."),
    "bad_seq": _("seq must be a whole number from 1 to 2^53."),
    "duplicate_seq": _("This seq was already used: the action is not applied again."),
    "bad_target": _("The target must be a position 1-25, “stock” or “waste”."),
    "bad_setting": _("placement_help must be true or false."),
    "bad_code": _("A deal code looks like HH1-N-ABCDEFG: HH1, then N or D, then seven letters."),
    "game_over": _("This game is over."),
    "cannot_undo": _("There is nothing to undo."),
    "not_your_game": _("This game belongs to another player."),
    "login_required": _("Log in to play."),
    "rate_limited": _("Too many messages: slow down."),
    "flooding": _("Too many messages after being told to slow down: closing."),
    "too_many_sockets": _("Too many open connections: close another tab and reload."),
    "too_many_moves": _("This game has reached 2,000 moves: undo or resign, or start a new one."),
    "not_started": _("Press Start first: the clock of this ranked game has not started."),
    "day_over": _("This daily deal's day is over: the game ended at midnight."),
    "storage_unavailable": _(
        "Not stored: the server cannot save anything just now. It may be sent again shortly."
    ),
    "server_error": _("Something went wrong on the server: reconnecting."),
    "self_follow": _("You cannot follow yourself."),
    "daily_today": _(
        "Today's deal is played once, by signed-in players: sign up or log in to play it,"
        " or play a fresh deal."
    ),
    "live_paused": _("Live updates are paused: reconnecting shortly."),
}


class GameError(Exception):
    """Input that is malformed or not allowed now; `code` is one of its `messages`' keys."""

    messages: ClassVar[dict] = MESSAGES

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(code, detail)
        self.code = code
        self.detail = detail

    @property
    def message(self) -> str:
        """The human text in the active language, with the engine's detail when there is one."""
        text = str(self.messages[self.code])
        return f"{text}: {self.detail}" if self.detail else text


class FrameError(GameError):
    """A frame that a live board's, a spectator's or a race room's socket cannot take: their
    frames name a type and carry no seq."""

    messages: ClassVar[dict] = {
        "bad_frame": _("The message must be a JSON object with a type."),
        "unknown_frame": _("Unknown message type for this socket."),
    }


class BoardError(GameError):
    """A live leaderboard that does not exist, or a filter of it that is not one."""

    messages: ClassVar[dict] = {
        "bad_board": _("There is no such leaderboard."),
        "bad_players": _("players must be “following” or left out."),
    }


class WatchError(GameError):
    """A game that may not be watched or replayed, by this viewer or not yet."""

    messages: ClassVar[dict] = {
        "no_such_game": _("There is no such game."),
        "daily_locked": _(
            "Games of today's deal can be watched once you have finished your own ranked game"
            " of it."
        ),
        "playing_this_deal": _(
            "You are playing this deal: finish your game before watching another."
        ),
        "not_finished": _("This game is still being played: watch it live instead."),
        "race_running": _(
            "This is a race game: it can be watched and replayed once every racer has finished."
        ),
    }


class GhostError(GameError):
    """A ghost (a finished game raced on its deal) that this player may not race, or not yet."""

    messages: ClassVar[dict] = {
        "no_such_ghost": _(
            "There is no such ghost: a ghost is a finished game of this deal that stands."
        ),
        "ghost_daily_locked": _(
            "A ghost of today's deal can be raced once you have finished your own ranked game"
            " of it."
        ),
        "ghost_racing": _("This game's race is still running: race its ghost once it ends."),
        "ghost_in_race": _("You are racing this deal: race a ghost of it once your race ends."),
    }


class RaceError(GameError):
    """A race room that does not exist, or a step in it that is not allowed now."""

    messages: ClassVar[dict] = {
        "no_such_room": _("There is no race room with this code."),
        "room_full": _("This race is full: eight players at most."),
        "race_started": _("This race has already started."),
        "race_over": _("This race is over."),
        "not_in_room": _("Join the race first."),
        "bad_ready": _("ready must be true or false."),
        "daily_today": _("Today's daily deal cannot be raced: race it from tomorrow on."),
        "ranked_open": _("Finish your ranked game of this deal before racing it."),
        "race_lobby": _(
            "You are waiting to race this deal: it opens for every racer at once, at the start."
        ),
        "quick_room": _("This race starts by itself with the racers it was matched with."),
        "race_not_over": _("This race is not over yet."),
        "not_a_racer": _("Only this race's racers can race again."),
        "rematch_too_late": _(
            "Too late to race again: a rematch is open for 30 seconds after the race ends."
        ),
    }
