"""Whether an e-mail address belongs to another account, by its account or its allauth address."""

import pytest
from allauth.account.models import EmailAddress

from game.selectors.accounts import email_in_use

pytestmark = pytest.mark.django_db


def test_another_accounts_address_is_in_use_whatever_its_case(player, rival):
    rival.email = "bea@example.org"
    rival.save()
    assert email_in_use("BEA@Example.org", besides=player)


def test_an_address_another_account_has_added_is_in_use(player, rival):
    EmailAddress.objects.create(user=rival, email="new@example.org", primary=False, verified=False)
    assert email_in_use("new@example.org", besides=player)


def test_ones_own_address_is_not_in_use_by_another(player):
    player.email = "ann@example.org"
    player.save()
    EmailAddress.objects.create(user=player, email="ann@example.org", primary=True, verified=True)
    assert not email_in_use("ann@example.org", besides=player)
    assert not email_in_use("nobody@example.org", besides=player)
