"""Accounts, read: whether an e-mail address belongs to another account."""

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model


def email_in_use(email: str, *, besides) -> bool:
    """Another account than `besides` has `email`, whatever its case."""
    users = get_user_model().objects.exclude(pk=besides.pk).filter(email__iexact=email)
    addresses = EmailAddress.objects.exclude(user=besides).filter(email__iexact=email)
    return users.exists() or addresses.exists()
