"""A frame's text: decoded from the client, encoded for it.

Decoding stays with `json`, so that every malformed frame gets the same error code whatever
the JSON library; encoding is orjson's, compact (an eighth smaller than json's default) and a
fifth of the time (docs/performance.md).
"""

import json

import orjson

from game.domain.errors import GameError

MAX_FRAME_BYTES = 1024


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


_CARDS = {
    (rank, free): orjson.dumps({"rank": rank, "free": free}).decode()
    for rank in range(1, 14)
    for free in (True, False)
}


def encode_frame(content: dict) -> str:
    """A frame as compact JSON; a view's heart (25 small objects, most of a state frame's bytes
    and encoding time) is joined from pieces encoded once."""
    view = content.get("view")
    try:
        cards = ",".join(
            "null" if c is None else _CARDS[c["rank"], c["free"]] for c in view["heart"]
        )
    except (KeyError, TypeError):
        return _dumps(content)
    text = _dumps({**content, "view": {**view, "heart": None}})
    return text.replace('"heart":null', f'"heart":[{cards}]', 1)  # the first: the view's own


def _dumps(content: dict) -> str:
    return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS).decode()
