"""A daily deal's difficulty (game.domain.deal_difficulty): seeded from par, rated as a puzzle."""

import pytest

from game.domain.deal_difficulty import (
    MEDIAN_PAR,
    SEED_DEVIATION,
    deal_expected_place,
    deal_rated,
    deal_seed,
)
from game.domain.glicko2 import START, Glicko, Outcome, rated


def test_a_deal_needing_more_moves_than_most_is_seeded_harder():
    assert deal_seed(par=MEDIAN_PAR).rating == START.rating
    assert deal_seed(par=MEDIAN_PAR + 13).rating == START.rating + 130
    assert deal_seed(par=MEDIAN_PAR - 10).rating < START.rating
    assert deal_seed(par=None).rating == START.rating
    assert deal_seed(par=90).deviation == SEED_DEVIATION


def test_a_player_who_cleared_the_heart_beat_the_deal_and_every_other_lost_to_it():
    deal = deal_seed(par=78)
    strong, weak = Glicko(1800, 60, 0.06), Glicko(1300, 60, 0.06)
    expected = rated(deal, [Outcome(1800, 60, 0), Outcome(1300, 60, 1)])
    assert deal_rated(deal, [(strong, True), (weak, False)]) == expected


def test_beaten_by_more_than_its_expected_place_says_a_deal_grows_easier():
    deal, field = deal_seed(par=78), [START] * 10
    expected_beaten = deal_expected_place(deal, field) - 1
    assert expected_beaten == pytest.approx(5)
    beaten_by_seven = deal_rated(deal, [(player, n < 7) for n, player in enumerate(field)])
    beaten_by_three = deal_rated(deal, [(player, n < 3) for n, player in enumerate(field)])
    assert beaten_by_seven.rating < deal.rating < beaten_by_three.rating
