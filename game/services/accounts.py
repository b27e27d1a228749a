"""Accounts' own data beyond allauth's flows: the e-mail address of an account made before
sign-up asked for one."""

from allauth.account.models import EmailAddress
from django.db import transaction


@transaction.atomic
def account_email_set(*, user, email: str) -> None:
    """`email` becomes the account's one address, primary as allauth keeps it (User.email too),
    so a password reset reaches it."""
    EmailAddress.objects.filter(user=user).exclude(email=email).delete()
    address, _created = EmailAddress.objects.get_or_create(user=user, email=email)
    address.set_as_primary()
