"""Every channel-layer group name (docs/protocol.md, "Groups"): services publish to them and
sockets join them, so both read the names from here.

>>> game_group(game_id=7), player_group(player_id=7), spectator_group(player_id=7)
('game.7', 'player.7', 'spectator.7')
>>> board_group("daily:2025-01-01"), board_group("all-time"), race_group("K7P2QX")
('board.daily.2025-01-01', 'board.all-time', 'race.K7P2QX')
"""

PRESENCE = "presence"  # pages that show "N playing now"


def game_group(*, game_id: int) -> str:
    """One game: its player's tabs, its spectators and the race rooms that follow it."""
    return f"game.{game_id}"


def player_group(*, player_id: int) -> str:
    """One player's logged-in sockets: a session that ends closes its own."""
    return f"player.{player_id}"


def board_group(board: str) -> str:
    """One live leaderboard."""
    return "board." + board.replace(":", ".")


def race_group(room: str) -> str:
    """One race room: its racers' and onlookers' room sockets."""
    return f"race.{room}"


def spectator_group(*, player_id: int) -> str:
    """One logged-in player's watch sockets: opening a deal closes those on it."""
    return f"spectator.{player_id}"
