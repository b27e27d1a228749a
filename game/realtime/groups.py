"""Channel-layer group names of the realtime features (docs/protocol.md, "Groups").

A game's own group is `game.services.game_group`: its player's tabs, its spectators and the
race rooms that follow it all listen there.
"""

PRESENCE = "presence"  # pages that show "N playing now"


def board_group(board: str) -> str:
    """The group of one live leaderboard.

    >>> board_group("daily:2025-01-01"), board_group("all-time")
    ('board.daily.2025-01-01', 'board.all-time')
    """
    return "board." + board.replace(":", ".")


def race_group(room: str) -> str:
    """The group of one race room: its racers' and onlookers' room sockets.

    >>> race_group("K7P2QX")
    'race.K7P2QX'
    """
    return f"race.{room}"


def spectator_group(*, player_id: int) -> str:
    """The group of one logged-in player's watch sockets: opening a deal closes those on it.

    >>> spectator_group(player_id=7)
    'spectator.7'
    """
    return f"spectator.{player_id}"
