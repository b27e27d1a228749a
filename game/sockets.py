"""What the site's sockets do alike: choose their language, and decode a client's frame.

docs/protocol.md gives the error codes; a refused frame never closes the socket.
"""

import json
from types import SimpleNamespace

from django.utils import translation

from game.services import GameError

MAX_FRAME_BYTES = 1024


def socket_language(scope: dict) -> str:
    """The socket's language, chosen as Django chooses a page's: cookie, then Accept-Language."""
    headers = dict(scope.get("headers", []))
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    request = SimpleNamespace(
        COOKIES=scope.get("cookies", {}), META={"HTTP_ACCEPT_LANGUAGE": accept}
    )
    return translation.get_language_from_request(request)


def decode_frame(text_data: str | None, *, refusal: type[GameError] = GameError) -> dict:
    """A text frame's JSON object, or GameError `binary`, `too_large` or `bad_json`; a frame
    that is not an object is `refusal("bad_frame")`, whose text says what that socket wants."""
    if text_data is None:
        raise GameError("binary")
    # The character count first: a huge frame is refused without encoding it.
    if len(text_data) > MAX_FRAME_BYTES or len(text_data.encode("utf-8")) > MAX_FRAME_BYTES:
        raise GameError("too_large")
    try:
        frame = json.loads(text_data)
    except (ValueError, RecursionError) as error:  # 1 KiB of "[" nests deeper than the stack
        raise GameError("bad_json") from error
    if not isinstance(frame, dict):
        raise refusal("bad_frame")
    return frame
