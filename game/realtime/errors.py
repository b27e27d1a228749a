"""The realtime features' refusals: stable codes with human text, as in game.services.errors.

RealtimeError is a GameError, so the realtime sockets turn both into one kind of error frame.
"""

from django.utils.translation import gettext_lazy as _

from game.services.errors import MESSAGES as GAME_MESSAGES
from game.services.errors import GameError

MESSAGES = {
    "unknown_frame": _("Unknown message type for this socket."),
    "bad_frame": _("The message must be a JSON object with a type."),
    "bad_board": _("There is no such leaderboard."),
    "no_such_game": _("There is no such game."),
    "daily_locked": _(
        "Games of today's deal can be watched once you have finished your own ranked game of it."
    ),
    "playing_this_deal": _("You are playing this deal: finish your game before watching another."),
    "not_finished": _("This game is still being played: watch it live instead."),
    "race_running": _(
        "This is a race game: it can be watched and replayed once every racer has finished."
    ),
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
}


class RealtimeError(GameError):
    """A realtime request that is malformed or not allowed now; `code` is a key of MESSAGES
    here or of game.services.errors'."""

    @property
    def message(self) -> str:
        text = str(MESSAGES.get(self.code) or GAME_MESSAGES[self.code])
        return f"{text}: {self.detail}" if self.detail else text
