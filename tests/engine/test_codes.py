"""Deal codes: parsing, formatting, fresh codes, and the keyed shuffle pinned by test vectors."""

import hashlib
import hmac
from collections import Counter

import pytest

from game.engine import (
    DEFAULT_DEAL_KEY,
    ParseError,
    deal_for_code,
    format_code,
    parse_code,
    random_code,
)
from game.engine.codes import SEED_SPACE, uniform_below

# Code -> its 52 ranks under the default key (heart 1-25, stock top first, waste). These pin the
# version-1 algorithm: a change that moves any card is a new version, never an edit here.
VECTORS = {
    "HH1-N-AAAAAAA": (
        "7 2 8 2 8 11 10 3 12 12 10 5 6 13 1 1 9 10 1 13 7 12 2 13 2"  # heart 1-25
        " 1 9 6 9 6 3 6 4 12 8 7 3 5 11 11 5 4 8 13 9 3 10 11 4 4 5"  # stock, top first
        " 7"  # waste
    ),
    "HH1-N-AAAAAAM": (
        "10 13 11 9 1 7 6 3 1 5 9 2 7 3 7 2 6 1 8 11 2 10 12 3 12"  # heart 1-25
        " 4 13 8 8 6 3 9 5 4 5 13 13 10 10 5 9 7 4 6 12 1 12 11 11 2 8"  # stock, top first
        " 4"  # waste
    ),
    "HH1-N-ZZZZZZZ": (
        "7 2 12 13 13 12 5 7 2 13 4 1 1 11 4 6 3 12 8 7 6 11 4 1 2"  # heart 1-25
        " 5 9 8 9 3 5 13 3 12 10 8 8 4 11 10 9 2 6 6 1 10 11 5 10 9 3"  # stock, top first
        " 7"  # waste
    ),
    "HH1-N-HEARTSS": (
        "2 4 10 9 6 3 3 8 12 12 8 5 11 2 12 4 8 1 3 11 7 7 9 1 13"  # heart 1-25
        " 1 3 1 10 11 13 4 6 7 2 12 11 13 10 6 8 9 9 4 5 5 6 7 13 10 2"  # stock, top first
        " 5"  # waste
    ),
    "HH1-D-AAAAAAA": (
        "7 8 5 13 7 5 2 4 7 4 11 1 12 12 9 12 8 9 6 4 11 2 13 3 10"  # heart 1-25
        " 2 5 1 10 10 1 9 3 6 12 4 2 6 9 11 6 3 3 1 11 8 13 7 13 5 8"  # stock, top first
        " 10"  # waste
    ),
    "HH1-D-QWERTYU": (
        "12 2 13 11 8 12 2 1 5 11 10 3 5 7 6 8 6 7 10 12 13 12 4 4 13"  # heart 1-25
        " 6 9 1 10 9 8 3 2 7 5 8 7 4 1 13 11 10 1 6 2 9 9 11 3 4 3"  # stock, top first
        " 5"  # waste
    ),
    "HH1-N-BCDEFGH": (
        "2 6 7 2 2 6 7 12 10 7 1 4 3 12 13 11 1 10 3 13 10 12 6 4 8"  # heart 1-25
        " 3 9 5 10 7 8 13 5 9 1 12 9 6 5 2 13 11 11 1 4 3 4 5 8 11 8"  # stock, top first
        " 9"  # waste
    ),
    "HH1-D-MMMMMMM": (
        "10 2 12 2 9 6 8 1 7 10 13 3 11 6 4 13 5 13 5 8 4 3 6 13 2"  # heart 1-25
        " 9 8 2 6 7 3 10 12 1 1 12 4 9 11 11 12 7 7 5 5 4 10 3 11 1 8"  # stock, top first
        " 9"  # waste
    ),
    "HH1-N-PYRAMID": (
        "11 6 2 4 9 7 10 6 5 2 2 13 1 12 12 10 11 7 11 1 12 5 3 10 6"  # heart 1-25
        " 13 6 9 10 12 2 13 8 4 5 5 4 7 13 3 11 9 1 8 8 9 3 7 4 8 3"  # stock, top first
        " 1"  # waste
    ),
    "HH1-D-ZZZZZZZ": (
        "2 11 7 12 13 3 8 2 6 6 10 11 9 3 12 11 1 4 13 3 7 10 9 1 13"  # heart 1-25
        " 6 4 7 8 4 10 5 8 12 8 11 12 5 2 6 2 1 4 13 5 7 9 5 1 9 10"  # stock, top first
        " 3"  # waste
    ),
}


@pytest.mark.parametrize("code", sorted(VECTORS))
def test_pinned_vectors_keep_every_codes_deal_forever(code):
    assert deal_for_code(code, DEFAULT_DEAL_KEY) == tuple(map(int, VECTORS[code].split()))


def test_another_key_gives_another_deal():
    for code in VECTORS:
        assert deal_for_code(code, "another-deployment-key") != deal_for_code(code)


def test_without_a_key_the_public_key_deals_whatever_the_environment_says(monkeypatch):
    monkeypatch.setenv("H2H_DEAL_KEY", "another-deployment-key")
    assert deal_for_code("HH1-N-AAAAAAA") == deal_for_code("HH1-N-AAAAAAA", DEFAULT_DEAL_KEY)
    assert deal_for_code("HH1-N-AAAAAAA") != deal_for_code(
        "HH1-N-AAAAAAA", "another-deployment-key"
    )


def test_a_deal_is_the_whole_pack_four_of_each_rank():
    for code in VECTORS:
        assert Counter(deal_for_code(code)) == {rank: 4 for rank in range(1, 14)}


def test_the_deal_follows_the_whole_canonical_code():
    assert deal_for_code("hh1 n aaaaaam") == deal_for_code("HH1-N-AAAAAAM")
    assert deal_for_code("HH1-D-AAAAAAM") != deal_for_code("HH1-N-AAAAAAM")


def reference_deal(code, key):
    """docs/deal-codes.md, transcribed as plainly as possible."""
    stream = b"".join(
        hmac.new(key, code.encode() + b"\x00" + i.to_bytes(4, "big"), hashlib.sha256).digest()
        for i in range(64)
    )
    words = iter(int.from_bytes(stream[i : i + 4], "big") for i in range(0, len(stream), 4))
    deck = [rank for rank in range(1, 14) for _ in range(4)]
    for i in range(51, 0, -1):
        n = i + 1
        word = next(words)
        while word >= 2**32 - 2**32 % n:
            word = next(words)
        j = word % n
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def test_the_deal_matches_the_documented_algorithm():
    for seed in range(0, SEED_SPACE, SEED_SPACE // 200):
        code = format_code("N", seed)
        assert deal_for_code(code, "k") == reference_deal(code, b"k")


class FakeWords:
    def __init__(self, words):
        self.words = iter(words)

    def next(self):
        return next(self.words)


def test_rejection_sampling_skips_words_from_the_biased_top_range():
    # 2**32 % 3 == 1, so 2**32 - 1 would favour 0: it is drawn again instead.
    assert uniform_below(3, FakeWords([2**32 - 1, 5])) == 2
    assert uniform_below(3, FakeWords([2**32 - 2, 5])) == (2**32 - 2) % 3


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("HH1-N-AAAAAAM", "HH1-N-AAAAAAM"),
        ("hh1-n-aaaaaam", "HH1-N-AAAAAAM"),
        ("  HH1 - D - qwe rtyu \n", "HH1-D-QWERTYU"),
        ("HH1NAAAAAAM", "HH1-N-AAAAAAM"),
    ],
)
def test_codes_are_case_and_space_tolerant(text, canonical):
    assert parse_code(text) == canonical


@pytest.mark.parametrize(
    "text, problem",
    [
        ("", "empty"),
        ("   ", "empty"),
        ("XX1-N-AAAAAAA", "starts with HH"),
        ("HH2-N-AAAAAAA", "unknown deal version 2"),
        ("HH01-N-AAAAAAA", "unknown deal version 01"),
        ("HH0001-N-AAAAAAA", "unknown deal version 0001"),
        ("HH1-N-AAAAAAſ", "only letters A-Z"),  # "ſ".upper() == "S"
        ("HH1-N-AAAAAıA", "only letters A-Z"),  # "ı".upper() == "I"
        ("HH1-N-AAAAﬃ", "only letters A-Z"),  # "ﬃ".upper() == "FFI"
        ("HH1-X-AAAAAAA", "unknown deal kind 'X'"),
        ("HH1-N-AAAAAA", "7 letters"),
        ("HH1-N-AAAAAAAA", "7 letters"),
        ("HH1-N-AAAA1AA", "7 letters"),
        ("HH1-N-AAAAAÄA", "only letters A-Z"),
        ("HH1-N-" + "A" * 200, "too long"),
        (None, "is text"),
        (17, "is text"),
    ],
)
def test_a_malformed_code_is_a_parse_error_naming_the_problem(text, problem):
    with pytest.raises(ParseError, match=problem):
        parse_code(text)


def test_format_code_writes_the_seed_big_endian_from_a():
    assert format_code("N", 0) == "HH1-N-AAAAAAA"
    assert format_code("D", SEED_SPACE - 1) == "HH1-D-ZZZZZZZ"
    with pytest.raises(ParseError):
        format_code("N", SEED_SPACE)
    with pytest.raises(ParseError):
        format_code("Q", 0)


def test_a_fresh_code_comes_from_secrets(monkeypatch):
    monkeypatch.setattr("secrets.randbelow", lambda n: 12)
    assert random_code() == "HH1-N-AAAAAAM"
    assert random_code("D") == "HH1-D-AAAAAAM"


def test_fresh_codes_are_canonical_and_differ():
    codes = {random_code() for _ in range(50)}
    assert len(codes) == 50 and all(parse_code(code) == code for code in codes)
