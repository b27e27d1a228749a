"""Sign up with a public display name, log in (throttled), change that name or the password."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from game.models import Profile
from game.services.sessions import close_other_sessions
from game.web import throttle
from game.web.forms import DisplayNameForm, LoginForm, SignupForm, save_unless_taken


def signup(request: HttpRequest) -> HttpResponse:
    """A throttled sign-up (game.web.throttle: accounts per address) is a 429, as a login is."""
    form = SignupForm(request.POST or None, address=throttle.client_address(request))
    if request.method == "POST" and form.is_valid() and (user := save_unless_taken(form)):
        login(request, user)
        return redirect("home")
    status = 429 if form.has_error(NON_FIELD_ERRORS, "throttled") else 200
    return render(request, "accounts/signup.html", {"form": form}, status=status)


class LoginView(auth_views.LoginView):
    """Django's login page with game.web.throttle's limit: a throttled attempt is a 429."""

    template_name = "accounts/login.html"
    authentication_form = LoginForm

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "throttled"):
            response.status_code = 429
        return response


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's password change, ending the player's other sessions at once.

    Their sockets close now; their pages are logged out at their next request, where the
    session auth hash no longer matches (and Django deletes the session).
    """

    template_name = "accounts/password_change.html"

    def form_valid(self, form):
        kept = self.request.session.session_key
        response = super().form_valid(form)  # saves, then gives this session a new key
        kept_as = self.request.session.session_key
        close_other_sessions(player_id=form.user.pk, keep=kept, kept_as=kept_as)
        return response


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    current = Profile.objects.filter(user=request.user).first() or Profile(user=request.user)
    form = DisplayNameForm(request.POST or None, instance=current)
    if request.method == "POST" and form.is_valid() and save_unless_taken(form):
        messages.success(request, _("Your display name is now %(name)s.") % {"name": current})
        return redirect("profile")
    return render(request, "accounts/profile.html", {"form": form})
