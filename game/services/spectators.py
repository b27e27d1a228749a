"""A player who opens a deal stops watching it: their watch sockets on games of its code close.

Each watch socket of a logged-in spectator listens to its user's spectator group
(groups.spectator_group). Whatever opens a game of a deal for a player, or enters them in a
race of it, calls `spectator_opened_deal`; the channel layer carries the word to the sockets
on every server process. Imported by the game services, so it imports no service itself.
"""

from game.services.groups import spectator_group
from game.services.publish import publish_on_commit


def spectator_opened_deal(*, player_id: int, code: str) -> None:
    """After commit: the player's watch sockets on games of `code` close (playing_this_deal)."""
    message = {"type": "spectator.opened_deal", "code": code}
    publish_on_commit(spectator_group(player_id=player_id), message)
