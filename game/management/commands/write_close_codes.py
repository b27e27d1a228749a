"""Write static/socket/close-codes.js, the browser's copy of the sockets' close codes, from
game.sockets.base. A refused socket gets no greeting to learn them from, so the browser takes
them from this generated module; tests/sockets/test_close_codes.py fails while the committed
file differs from what this would write."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from game.sockets import base

MODULE = Path(settings.BASE_DIR) / "static" / "socket" / "close-codes.js"
HEADER = """\
// The sockets' close codes (docs/protocol.md), written by `manage.py write_close_codes` from
// game/sockets/base.py: change them there. A test fails while this file differs from them.
"""


def close_codes() -> dict[str, int]:
    """game.sockets.base's CLOSE_* constants, in the order they are written there."""
    prefix = "CLOSE_"
    return {
        name.removeprefix(prefix): value
        for name, value in vars(base).items()
        if name.startswith(prefix) and isinstance(value, int)
    }


def close_codes_module() -> str:
    lines = [f"export const {name} = {code};" for name, code in close_codes().items()]
    return HEADER + "\n".join(lines) + "\n"


class Command(BaseCommand):
    help = "Write static/socket/close-codes.js from the close codes in game/sockets/base.py."

    def handle(self, *args, **options):
        MODULE.write_text(close_codes_module())
        self.stdout.write(f"{len(close_codes())} close codes written to {MODULE}")
