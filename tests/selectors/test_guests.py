"""Who plays in a browser session without an account, and who is a guest."""

import pytest
from django.utils import timezone

from game.models import Guest
from game.selectors.guests import SESSION_GUEST, guest_player, is_guest

pytestmark = pytest.mark.django_db


@pytest.fixture
def guest(make_player):
    user = make_player("guest-1")
    Guest.objects.create(user=user, session_key="k" * 32, created_at=timezone.now())
    return user


def test_the_guest_of_a_session_is_the_guest_it_names(guest):
    assert guest_player(session={SESSION_GUEST: guest.pk}) == guest


def test_a_session_naming_no_guest_or_an_account_has_no_guest(player):
    assert guest_player(session={}) is None
    assert guest_player(session={SESSION_GUEST: player.pk}) is None


def test_a_guest_is_a_guest_and_an_account_is_not(guest, player):
    assert is_guest(player_id=guest.pk)
    assert not is_guest(player_id=player.pk)
