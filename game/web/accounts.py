"""Accounts on django-allauth: sign up with a public display name, log in by username or
e-mail (rate-limited), reset or change the password, change the e-mail address (with the
password, once a link to the new one is followed), rename.

allauth's views, with what is ours: a throttled login answers 429, a sign-up keeps the guest
games of its session, and a password change ends the player's other sessions at once.
"""

from allauth.account import views as allauth_views
from allauth.account.adapter import get_adapter
from allauth.core import ratelimit
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from game.models import Profile
from game.services.accounts import email_change_confirm, email_change_wanted
from game.services.guests import guest_adopt
from game.services.sessions import close_other_sessions
from game.web.forms import DisplayNameForm, EmailForm, save_unless_taken
from game.web.theme import ThemeForm


class LoginView(allauth_views.LoginView):
    """allauth's login page; an attempt its rate limit refuses is a 429 that says so."""

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "too_many_login_attempts"):
            response.status_code = 429
        return response


class SignupView(allauth_views.SignupView):
    """allauth's sign-up, in one transaction with the profile and the session's guest games.

    The database refuses a second display name of one skeleton, so of two look-alikes claimed
    at once one is stored; validating again tells the other which name took it.
    """

    def form_valid(self, form):
        try:
            with transaction.atomic():
                response = super().form_valid(form)
                if self.user is not None:
                    guest_adopt(session=self.request.session, player=self.user)
                return response
        except IntegrityError:
            form.full_clean()
            if form.is_valid():
                raise
            return self.form_invalid(form)


class PasswordChangeView(allauth_views.PasswordChangeView):
    """allauth's password change, ending the player's other sessions at once.

    Their sockets close now; their pages are logged out at their next request, where the
    session auth hash no longer matches (and Django deletes the session).
    """

    def form_valid(self, form):
        kept = self.request.session.session_key
        response = super().form_valid(form)  # saves, then gives this session a new key
        kept_as = self.request.session.session_key
        close_other_sessions(player_id=form.user.pk, keep=kept, kept_as=kept_as)
        return response


@login_required
def email(request: HttpRequest) -> HttpResponse:
    """A new e-mail address for the account: it counts once the link mailed to it is followed
    (email_confirm). Asked for at the login of an account made before sign-up asked for one.
    Attempts are limited per account and per client address (allauth's "manage_email")."""
    refused = request.method == "POST" and not ratelimit.consume(request, action="manage_email")
    form = EmailForm(None if refused else request.POST or None, user=request.user)
    if form.is_bound and form.is_valid():
        wanted = form.cleaned_data["email"]
        get_adapter(request).send_email_change_mail(request, request.user, wanted)
        messages.success(request, _link_sent(request.user, wanted))
        return redirect(_next_page(request) or "profile")
    context = {"form": form, "next": _next_page(request), "refused": refused}
    return render(request, "account/email.html", context, status=429 if refused else 200)


def _link_sent(user, email: str) -> str:
    """The same words whether or not another account uses `email`."""
    if user.email:
        message = _(
            "We sent a link to %(email)s: your address changes once you open it. "
            "Until then it stays %(old)s."
        )
        return message % {"email": email, "old": user.email}
    return _("We sent a link to %(email)s: it becomes your address once you open it.") % {
        "email": email
    }


@require_http_methods(["GET", "POST"])
def email_confirm(request: HttpRequest, key: str) -> HttpResponse:
    """The link mailed to a new address: a GET asks (mail scanners open links), a POST makes it
    the account's address."""
    found = (
        email_change_wanted(key=key) if request.method == "GET" else email_change_confirm(key=key)
    )
    if request.method == "POST" and found is not None:
        user, address = found
        messages.success(request, _("Your e-mail address is now %(email)s.") % {"email": address})
        return redirect("profile" if request.user == user else "login")
    context = {"email": found[1] if found else None, "key": key}
    return render(request, "account/email_change_confirm.html", context)


def _next_page(request: HttpRequest) -> str | None:
    wanted = request.POST.get("next") or request.GET.get("next")
    safe = url_has_allowed_host_and_scheme(wanted, {request.get_host()}, request.is_secure())
    return wanted if wanted and safe else None


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    current = Profile.objects.filter(user=request.user).first() or Profile(user=request.user)
    form = DisplayNameForm(request.POST or None, instance=current)
    if request.method == "POST" and form.is_valid() and save_unless_taken(form):
        messages.success(request, _("Your display name is now %(name)s.") % {"name": current})
        return redirect("profile")
    theme_form = ThemeForm(initial={"theme": current.theme})
    return render(request, "accounts/profile.html", {"form": form, "theme_form": theme_form})
