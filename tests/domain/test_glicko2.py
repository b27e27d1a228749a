"""Glicko-2's rating period (game.domain.glicko2): the paper's example and its properties."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.domain.glicko2 import (
    MIN_DEVIATION,
    START,
    START_DEVIATION,
    Glicko,
    Outcome,
    expected_score,
    grown,
    is_provisional,
    rated,
)

ratings = st.floats(500, 2800)
deviations = st.floats(MIN_DEVIATION, START_DEVIATION)
players = st.builds(Glicko, ratings, deviations, st.floats(0.03, 0.12))
weights = st.floats(0.001, 1)
outcomes = st.builds(Outcome, ratings, deviations, st.sampled_from([0, 0.5, 1]), weights)


def test_the_papers_example_comes_out_as_published():
    player = Glicko(1500, 200, 0.06)
    games = [Outcome(1400, 30, 1), Outcome(1550, 100, 0), Outcome(1700, 300, 0)]
    after = rated(player, games, tau=0.5)
    assert abs(after.rating - 1464.06) < 0.015
    assert abs(after.deviation - 151.52) < 0.005
    assert abs(after.volatility - 0.05999) < 0.00001


@settings(max_examples=300)
@given(players, st.lists(st.builds(Outcome, ratings, deviations, st.just(1), weights), min_size=1))
def test_a_win_never_lowers_a_rating(player, wins):
    assert rated(player, wins).rating > player.rating


@settings(max_examples=300)
@given(players, outcomes, st.lists(outcomes, max_size=5))
def test_winning_a_game_instead_of_losing_it_never_lowers_the_rating(player, game, others):
    lost = Outcome(game.rating, game.deviation, 0, game.weight)
    won = Outcome(game.rating, game.deviation, 1, game.weight)
    assert rated(player, [*others, won]).rating > rated(player, [*others, lost]).rating


@settings(max_examples=300)
@given(players, st.lists(outcomes, min_size=1, max_size=8))
def test_rd_after_a_period_with_games_is_at_most_rd_after_the_same_period_without(player, games):
    assert rated(player, games).deviation <= rated(player, []).deviation + 1e-9


@given(players, st.lists(outcomes, max_size=8))
def test_rd_stays_between_its_floor_and_the_start(player, games):
    assert MIN_DEVIATION <= rated(player, games).deviation <= START_DEVIATION


def test_a_period_without_games_grows_only_the_deviation():
    player = Glicko(1800, 60, 0.06)
    after = rated(player, [])
    assert (after.rating, after.volatility) == (1800, 0.06)
    assert after.deviation > 60


def test_rd_grows_with_days_idle_up_to_the_start():
    player = Glicko(1800, 60, 0.06)
    assert grown(player, 0).deviation == pytest.approx(60)
    assert 60 < grown(player, 30).deviation < grown(player, 365).deviation
    assert grown(player, 10**6).deviation == START_DEVIATION


def test_a_newcomer_is_provisional_until_rd_falls_under_110():
    assert is_provisional(START.deviation)
    assert is_provisional(110)
    assert not is_provisional(109.9)


def test_a_weaker_opponent_is_expected_to_lose():
    assert expected_score(1500, 1500, 100) == 0.5
    assert expected_score(1700, 1500, 100) > 0.5 > expected_score(1300, 1500, 100)
    # An uncertain opponent's rating says less: the expectation is nearer one half.
    assert expected_score(1700, 1500, 350) < expected_score(1700, 1500, 50)


def test_a_lighter_game_moves_a_rating_less():
    whole = rated(START, [Outcome(1500, 60, 1)])
    tenth = rated(START, [Outcome(1500, 60, 1, weight=0.1)])
    assert START.rating < tenth.rating < whole.rating
    assert whole.deviation < tenth.deviation
