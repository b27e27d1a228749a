"""Sign up with a public display name, and change that name later."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from game.forms import DisplayNameForm, SignupForm
from game.models import Profile


def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        login(request, form.save())
        return redirect("home")
    return render(request, "accounts/signup.html", {"form": form})


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    current = Profile.objects.filter(user=request.user).first() or Profile(user=request.user)
    form = DisplayNameForm(request.POST or None, instance=current)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your display name is now %(name)s.") % {"name": current})
        return redirect("profile")
    return render(request, "accounts/profile.html", {"form": form})
