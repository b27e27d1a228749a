"""Use cases of the game (HackSoft style: keyword-only `<entity>_<action>`, one transaction each).

Consumers and views call only these; nothing else writes a Game, Action or Result row.
"""

from game.services.game_actions import (
    LockedGame,
    game_new,
    game_resign,
    game_set_help,
    game_start,
    game_tap,
    game_undo,
)
from game.services.games import game_daily_open, game_open, game_resume, games_close_day
from game.services.groups import game_group
from game.services.play import Reply

__all__ = [
    "LockedGame",
    "Reply",
    "game_daily_open",
    "game_group",
    "game_new",
    "game_open",
    "game_resign",
    "game_resume",
    "game_set_help",
    "game_start",
    "game_tap",
    "game_undo",
    "games_close_day",
]
