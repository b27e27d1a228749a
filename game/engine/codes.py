"""Deal codes and the keyed shuffle that turns a code into a deal (docs/deal-codes.md).

A code is ``HH1-<kind>-<7 letters>``: the game, the deal algorithm's version, the kind (``N`` a
normal game, ``D`` a daily deal) and a 26**7 seed. The deal comes from the whole canonical code
through HMAC-SHA-256 under the deployment's deal key (the caller passes it; the engine reads no
environment), so nobody can deal a deployment's codes
offline from the open source, and the algorithm is written down so any implementation agrees.

>>> parse_code(" hh1-n-aaaaaam ")
'HH1-N-AAAAAAM'
>>> deal_for_code("HH1-N-AAAAAAM")[:5]
(10, 13, 11, 9, 1)
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import re
import secrets

from .errors import ParseError
from .geometry import COPIES, PACK_SIZE, RANKS

DEFAULT_DEAL_KEY = "heart-to-heart-public-development-deal-key"
VERSION = 1
KINDS = ("N", "D")
SEED_LETTERS = 7
SEED_SPACE = 26**SEED_LETTERS
_MAX_INPUT = 64  # longer text is no code; refuse it before any pattern work
_SHAPE = re.compile(r"HH(\d+)-?([A-Z0-9]?)-?(.*)", re.ASCII)
_SEED = re.compile(r"[A-Z]{7}", re.ASCII)
_WORD = 2**32


def parse_code(text: object) -> str:
    """The canonical form of a deal code; ParseError naming what is wrong otherwise.

    Case, spaces and missing dashes are forgiven; anything else is refused.

    >>> parse_code("HH1 D QWERTYU")
    'HH1-D-QWERTYU'
    >>> parse_code("HH2-N-AAAAAAA")
    Traceback (most recent call last):
    ...
    game.engine.errors.ParseError: unknown deal version 2: this server deals version 1
    """
    if not isinstance(text, str):
        raise ParseError("a deal code is text, like HH1-N-ABCDEFG")
    squeezed = "".join(text.split())
    if not squeezed:
        raise ParseError("the deal code is empty")
    if len(squeezed) > _MAX_INPUT:
        raise ParseError("the deal code is too long: it looks like HH1-N-ABCDEFG")
    # Checked before upper-casing: "ſ".upper() is "S", and no such letter is in any code.
    if not squeezed.isascii():
        raise ParseError("a deal code has only letters A-Z, digits and dashes")
    return _canonical(squeezed.upper())


def _canonical(squeezed: str) -> str:
    shape = _SHAPE.fullmatch(squeezed)
    if shape is None:
        raise ParseError("a deal code starts with HH and a version, like HH1-N-ABCDEFG")
    version, kind, seed = shape.groups()
    if version != str(VERSION):  # "01" too: the canonical form has no leading zeros
        raise ParseError(f"unknown deal version {version}: this server deals version {VERSION}")
    if kind not in KINDS:
        raise ParseError(f"unknown deal kind {kind or '(none)'!r}: N (new game) or D (daily)")
    if not _SEED.fullmatch(seed):
        raise ParseError(f"the seed must be 7 letters A-Z, not {seed!r}")
    return f"HH{VERSION}-{kind}-{seed}"


def format_code(kind: str, seed: int) -> str:
    """The code of a kind and a seed number in [0, 26**7), letters big-endian with A = 0.

    >>> format_code("N", 12)
    'HH1-N-AAAAAAM'
    """
    if kind not in KINDS:
        raise ParseError(f"unknown deal kind {kind!r}: N (new game) or D (daily)")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < SEED_SPACE:
        raise ParseError(f"the seed number must be an int in [0, 26**7), not {seed!r}")
    letters = []
    for _ in range(SEED_LETTERS):
        seed, digit = divmod(seed, 26)
        letters.append(chr(ord("A") + digit))
    return f"HH{VERSION}-{kind}-{''.join(reversed(letters))}"


def random_code(kind: str = "N") -> str:
    """A fresh code drawn from `secrets`, so players cannot predict each other's deals.

    >>> parse_code(random_code()) .startswith("HH1-N-")
    True
    """
    return format_code(kind, secrets.randbelow(SEED_SPACE))


def deal_key(key: str | bytes | None = None) -> bytes:
    """The deal key as bytes: the given one, else the public development key (a deployment
    passes its own, as the site passes settings.DEAL_KEY).

    >>> deal_key("k"), deal_key() == DEFAULT_DEAL_KEY.encode()
    (b'k', True)
    """
    if key is None:
        key = DEFAULT_DEAL_KEY
    return key.encode("utf-8") if isinstance(key, str) else bytes(key)


def deal_for_code(code: str, key: str | bytes | None = None) -> tuple[int, ...]:
    """The 52 ranks of a code's deal: heart positions 1-25, the stock top first, the waste card.

    >>> deal = deal_for_code("hh1-n-aaaaaam")
    >>> len(deal), sorted(set(deal)) == list(range(1, 14)), deal.count(7)
    (52, True, 4)
    """
    return shuffled_deal(parse_code(code), deal_key(key))


@functools.lru_cache(maxsize=4096)
def shuffled_deal(code: str, key: bytes) -> tuple[int, ...]:
    """The keyed Fisher-Yates shuffle of a canonical code (unchecked: deal_for_code checks).

    Replays deal the same code again and again; the cache keeps that off the hot path.
    """
    deck = [rank for rank in RANKS for _ in range(COPIES)]
    words = WordStream(code, key)
    for i in range(PACK_SIZE - 1, 0, -1):
        j = uniform_below(i + 1, words)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def uniform_below(n: int, words: WordStream) -> int:
    """A uniform integer in [0, n): reject the top partial range of 32-bit words, so no bias."""
    limit = _WORD - _WORD % n
    while True:
        word = words.next()
        if word < limit:
            return word % n


class WordStream:
    """Big-endian 32-bit words of HMAC-SHA-256(key, code || 0x00 || counter as 4 bytes BE)."""

    __slots__ = ("_code", "_key", "_counter", "_buffer", "_at")

    def __init__(self, code: str, key: bytes) -> None:
        self._code = code.encode("ascii") + b"\x00"
        self._key = key
        self._counter = 0
        self._buffer = b""
        self._at = 0

    def next(self) -> int:
        if self._at == len(self._buffer):
            block = self._code + self._counter.to_bytes(4, "big")
            self._buffer = hmac.digest(self._key, block, hashlib.sha256)
            self._counter += 1
            self._at = 0
        word = int.from_bytes(self._buffer[self._at : self._at + 4], "big")
        self._at += 4
        return word
