"""Par as stored: read, never computed."""

import pytest

from game.models import DealPar
from game.selectors.par import par_of, par_searched, pars_of

pytestmark = pytest.mark.django_db

WON = "HH1-N-AAAAAAC"
LOST = "HH1-N-AAAAAAD"
UNSEARCHED = "HH1-N-AAAAAAE"


@pytest.fixture
def pars():
    DealPar.objects.create(code=WON, par=87)
    DealPar.objects.create(code=LOST, par=None)  # searched: no win exists


def test_a_stored_par_is_read_and_an_unknown_one_is_none(pars):
    assert par_of(WON) == 87
    assert par_of(LOST) is None and par_of(UNSEARCHED) is None
    assert DealPar.objects.count() == 2  # reading searched nothing


def test_a_deal_that_cannot_be_won_was_searched_already(pars):
    assert par_searched(WON) and par_searched(LOST)
    assert not par_searched(UNSEARCHED)


def test_many_pars_read_at_once_leave_out_the_codes_without_one(pars):
    assert pars_of({WON, LOST, UNSEARCHED}) == {WON: 87}
    assert pars_of(set()) == {}
