"""The heart: 25 cards in rows of 4, 6, 5, 4, 3, 2, 1, each covered by the row below."""

from game.engine import new_game, tap
from game.engine.geometry import (
    COVERED_BY,
    COVERS,
    POSITIONS,
    ROW_OF,
    ROWS,
    TIP,
    X2_OF,
    free_mask,
    positions_in,
)
from game.engine.pictures import draw_heart

from .pictures import SEED_DEAL


def test_the_heart_has_rows_of_4_6_5_4_3_2_1_cards_numbered_row_by_row():
    assert [len(row) for row in ROWS] == [4, 6, 5, 4, 3, 2, 1]
    assert [ROW_OF[p] for p in POSITIONS] == sorted(ROW_OF[p] for p in POSITIONS)
    assert len(POSITIONS) == 25 and TIP == 25


def test_a_card_is_covered_by_the_next_row_cards_half_a_card_either_side():
    for p in POSITIONS:
        expected = [
            q for q in POSITIONS if ROW_OF[q] == ROW_OF[p] + 1 and abs(X2_OF[q] - X2_OF[p]) == 1
        ]
        assert positions_in(COVERED_BY[p]) == expected


def test_row_one_cards_are_covered_by_two_cards():
    assert [positions_in(COVERED_BY[p]) for p in (1, 2, 3, 4)] == [
        [5, 6], [6, 7], [8, 9], [9, 10]
    ]  # fmt: skip


def test_edge_cards_are_covered_by_one_card():
    edges = [5, 10, 11, 15, 16, 19, 20, 22, 23, 24]
    assert [len(positions_in(COVERED_BY[p])) for p in edges] == [1] * len(edges)
    inner = [p for p in POSITIONS if p not in edges and p not in (1, 2, 3, 4, TIP)]
    assert all(len(positions_in(COVERED_BY[p])) == 2 for p in inner)


def test_the_tip_is_the_only_free_card_at_the_start():
    assert positions_in(free_mask(0)) == [TIP]
    assert COVERED_BY[TIP] == 0


def test_covers_is_the_inverse_of_covered_by():
    # q in COVERS[p] exactly when p in COVERED_BY[q]: checked both ways, so an extra or a missing
    # bit on either side fails.
    for p in POSITIONS:
        for q in POSITIONS:
            assert COVERS[p] >> q & 1 == COVERED_BY[q] >> p & 1, (p, q)
    assert COVERS[0] == COVERED_BY[0] == 0


def test_a_card_becomes_free_once_every_card_covering_it_is_removed():
    removed = 1 << 25 | 1 << 23
    assert 20 in positions_in(free_mask(removed))  # covered by 23 alone
    assert 21 not in positions_in(free_mask(removed))  # still covered by 24
    assert 21 in positions_in(free_mask(removed | 1 << 24))


def test_all_heart_cards_stay_visible_in_the_picture():
    state = tap(tap(tap(new_game(SEED_DEAL), "stock")[0], "stock")[0], 25)[0]
    state = tap(state, "waste")[0]
    assert draw_heart(state) == "\n".join([
        "   K   Q       J  10",
        " 9   8   7   6   5   3",
        "   3   2   A   K   Q",
        "     J  10   9   8",
        "       2   6   5",
        "         7*  7*",
        "          ..",
    ])  # fmt: skip
