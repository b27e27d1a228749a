"""A daily deal's difficulty (game.domain.deal_difficulty): seeded from par, rated as a puzzle."""

import pytest

from game import engine
from game.domain.deal_difficulty import (
    MEDIAN_PAR,
    MEDIAN_PASSES,
    SEED_DEVIATION,
    Line,
    deal_expected_place,
    deal_line,
    deal_rated,
    deal_seed,
)
from game.domain.glicko2 import START, Glicko, Outcome, rated


def test_a_deal_needing_more_moves_or_more_passes_than_most_is_seeded_harder():
    median = deal_seed(Line(MEDIAN_PAR, MEDIAN_PASSES))
    assert median.rating == START.rating
    assert deal_seed(Line(MEDIAN_PAR + 10, MEDIAN_PASSES)).rating == START.rating + 80
    assert deal_seed(Line(MEDIAN_PAR, MEDIAN_PASSES + 1)).rating == START.rating + 60
    assert deal_seed(Line(MEDIAN_PAR - 10, MEDIAN_PASSES - 1)).rating < START.rating
    assert deal_seed(None).rating == START.rating
    assert median.deviation == SEED_DEVIATION


def test_a_deals_line_is_its_par_and_its_passes_through_the_stock():
    code = next(c for n in range(100) if engine.solve(c := engine.format_code("N", n)))
    line = deal_line(code, key="k")
    assert line.par == engine.min_moves(code, key="k")
    state, redeals = engine.new_game(code, key="k"), 0
    for action in engine.min_moves_plan(code, key="k"):
        state, event = engine.step(state, action)
        redeals += event == engine.Event.REDEAL
    assert state.won
    assert line.passes == redeals + 1


def test_a_deal_nobody_can_win_has_no_line():
    code = next(c for n in range(1000) if not engine.solve(c := engine.format_code("N", n)))
    assert deal_line(code, key="k") is None


def test_a_player_who_cleared_the_heart_beat_the_deal_and_every_other_lost_to_it():
    deal = deal_seed(Line(78, 3))
    strong, weak = Glicko(1800, 60, 0.06), Glicko(1300, 60, 0.06)
    expected = rated(deal, [Outcome(1800, 60, 0), Outcome(1300, 60, 1)])
    assert deal_rated(deal, [(strong, True), (weak, False)]) == expected


def test_beaten_by_more_than_its_expected_place_says_a_deal_grows_easier():
    deal, field = deal_seed(Line(78, 3)), [START] * 10
    expected_beaten = deal_expected_place(deal, field) - 1
    assert expected_beaten == pytest.approx(5)
    beaten_by_seven = deal_rated(deal, [(player, n < 7) for n, player in enumerate(field)])
    beaten_by_three = deal_rated(deal, [(player, n < 3) for n, player in enumerate(field)])
    assert beaten_by_seven.rating < deal.rating < beaten_by_three.rating
