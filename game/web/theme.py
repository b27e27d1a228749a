"""The site's theme: the device's own setting ("system"), or always light or dark.

A player's choice is kept on their profile, so it follows them to every device they log in on
and wins over what a browser remembers; a visitor's (or a guest's) is kept in a cookie of their
browser. Pages carry it from their first byte as <html data-theme>, so nothing flashes.
"""

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from game.models import Theme
from game.services.accounts import account_theme_set
from game.web.problems import problem

THEME_COOKIE = "h2h_theme"
THEME_COOKIE_MAX_AGE = 365 * 24 * 60 * 60


class ThemeForm(forms.Form):
    theme = forms.ChoiceField(
        label=gettext_lazy("Theme"), choices=Theme.choices, widget=forms.RadioSelect
    )


def theme_of(request: HttpRequest) -> str:
    """The player's profile's theme, else the browser's cookie's, else the system's."""
    profile = getattr(request.user, "profile", None)  # base.html reads it anyway: no query more
    if profile is not None:
        return profile.theme
    remembered = request.COOKIES.get(THEME_COOKIE)
    return remembered if remembered in Theme.values else Theme.SYSTEM


def theme(request: HttpRequest) -> dict:
    """Context processor: the page's theme and the switch's choices."""
    return {"theme": theme_of(request), "themes": Theme.choices}


@require_POST
def set_theme(request: HttpRequest) -> HttpResponse:
    """Keep the chosen theme (on the profile, and in the browser), then back to `next`."""
    form = ThemeForm(request.POST)
    if not form.is_valid():
        return problem(request, 400, _("No such theme"), _("Choose System, Light or Dark."))
    chosen = form.cleaned_data["theme"]
    if getattr(request.user, "profile", None) is not None:
        account_theme_set(user=request.user, theme=chosen)
    wanted = request.POST.get("next")
    safe = url_has_allowed_host_and_scheme(wanted, {request.get_host()}, request.is_secure())
    response = redirect(wanted if safe else "home")
    secure = request.is_secure()
    response.set_cookie(
        THEME_COOKIE, chosen, THEME_COOKIE_MAX_AGE, secure=secure, httponly=True, samesite="Lax"
    )
    return response
