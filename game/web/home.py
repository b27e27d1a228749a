"""The front page, and the deal-code form that leads from it to a deal."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from game.web.forms import DealCodeForm


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"code_form": DealCodeForm()})


def open_deal(request: HttpRequest) -> HttpResponse:
    """Canonicalise a typed code, then go to its board page or its leaderboard.

    A mistyped code shows the front page again with what a code looks like under the field:
    a page the player asked for, so 200, not an error in the browser's console."""
    form = DealCodeForm(request.GET)
    if not form.is_valid():
        return render(request, "home.html", {"code_form": form})
    target = "deal_leaderboard" if request.GET.get("to") == "leaderboard" else "play"
    return redirect(target, code=form.cleaned_data["code"])
