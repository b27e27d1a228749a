"""Every channel-layer group name (docs/protocol.md, "Groups"): services publish to them and
sockets join them, so both read the names from here.
"""

PRESENCE = "presence"  # pages that show "N playing now"


def game_group(*, game_id: int) -> str:
    """The group of one game: its player's tabs, its spectators and the race rooms that follow
    it all listen there.

    >>> game_group(game_id=7)
    'game.7'
    """
    return f"game.{game_id}"


def player_group(*, player_id: int) -> str:
    """The group of one player's logged-in sockets: a session that ends closes its own.

    >>> player_group(player_id=7)
    'player.7'
    """
    return f"player.{player_id}"


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
