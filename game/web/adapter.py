"""How django-allauth behaves on this site: its messages in our words (and so in Malay), where
a login and a password change lead, an account without an e-mail asked for one, and the mails
of a change of address."""

import ipaddress

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.utils import get_login_redirect_url
from allauth.utils import build_absolute_uri
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext_lazy as _

from game.selectors.accounts import email_in_use
from game.services.accounts import email_change_key


def client_address(address: str) -> str:
    """The address a client is counted as: an IPv4-mapped IPv6 one as the IPv4 it carries.

    >>> client_address("::ffff:10.0.0.1"), client_address("2001:db8::1")
    ('10.0.0.1', '2001:db8::1')
    """
    ip = ipaddress.ip_address(address)
    mapped = getattr(ip, "ipv4_mapped", None)
    return str(mapped or ip)


def _signed_in(user, signup: bool) -> str:
    profile = getattr(user, "profile", None)  # an account made in the admin may have none yet
    name = profile.display_name if profile is not None else user.get_username()
    if signup:
        return _("Welcome, %(name)s: your account is ready.") % {"name": name}
    return _("You are logged in as %(name)s.") % {"name": name}


class AccountAdapter(DefaultAccountAdapter):
    error_messages = {
        **DefaultAccountAdapter.error_messages,
        "email_password_mismatch": _("That e-mail address and password do not match."),
        "email_taken": _("An account already uses that e-mail address."),
        "enter_current_password": _("Type your current password."),
        "invalid_login": _("That username or e-mail and password do not match."),
        "too_many_login_attempts": _(
            "Too many failed logins. Wait %(minutes)d minutes, then try again."
        ),
        "unknown_email": _("No account uses that e-mail address."),
        "username_password_mismatch": _("That username and password do not match."),
        "username_taken": _("That username is taken."),
        "rate_limited": _("Too many attempts. Wait a few minutes, then try again."),
    }

    def validation_error(self, code, *args) -> ValidationError:
        if code == "too_many_login_attempts":
            minutes = -(-settings.LOGIN_THROTTLE_SECONDS // 60)
            message = self.error_messages[code]
            return ValidationError(message, code=code, params={"minutes": minutes})
        return super().validation_error(code, *args)

    def add_message(self, *args, **kwargs) -> None:
        """allauth's own notices ("Successfully signed in as …") are not ours to show: our pages
        say what happened in both languages."""

    def post_login(self, request, user, *, redirect_url, signup, **kwargs):
        """A sign-up or a login says so on the next page, in our words. An account made before
        e-mail addresses were asked for is asked for one first."""
        messages.success(request, _signed_in(user, signup))
        if not user.email:
            after = get_login_redirect_url(request, redirect_url, signup=signup)
            redirect_url = f"{reverse('account_email')}?{urlencode({'next': after})}"
        return super().post_login(request, user, redirect_url=redirect_url, signup=signup, **kwargs)

    def get_client_ip(self, request) -> str:
        """REMOTE_ADDR (ALLAUTH_TRUSTED_PROXY_COUNT is 0: a client's X-Forwarded-For is never
        read), an IPv4-mapped IPv6 address as the IPv4 address it carries: allauth counts an
        IPv6 client by its /64, which would put every IPv4 client of a dual-stack socket in one."""
        return client_address(super().get_client_ip(request))

    def get_password_change_redirect_url(self, request) -> str:
        return reverse("password_change_done")

    def send_email_change_mail(self, request, user, email: str) -> None:
        """To the new address the link that makes it the account's or, if another account uses
        it, allauth's "an account already uses it", so the page that asked answers the same
        either way; to the address it would replace, a notice."""
        if email_in_use(email, besides=user):
            self.send_account_already_exists_mail(email)
        else:
            path = reverse("email_change_confirm", args=[email_change_key(user=user, email=email)])
            link = {"activate_url": build_absolute_uri(request, path)}
            self.send_mail("account/email/email_change", email, link)
        if user.email:
            reset = build_absolute_uri(request, reverse("account_reset_password"))
            notice = {"email": email, "username": user.get_username(), "password_reset_url": reset}
            self.send_mail("account/email/email_change_notice", user.email, notice)
