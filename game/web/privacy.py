"""Your data: download everything the site keeps about your account, or delete the account."""

import json
from collections.abc import AsyncIterator

from allauth.core.ratelimit import consume_or_429
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods

from game.selectors import exports
from game.services.accounts import account_delete
from game.web.forms import AccountDeleteForm
from game.web.problems import problem

GAMES_INDENT = "\n    "  # a game's lines in the document: inside its object and its list


@require_GET
@login_required
def export(request: HttpRequest) -> HttpResponse:
    """One JSON file, downloaded as it is read: never cached, as it is one person's. At most
    EXPORTS_PER_HOUR an hour per account (allauth's rate limit "export")."""
    if consume_or_429(request, action="export", user=request.user, limit_get=True) is not None:
        return _too_many_exports(request)  # allauth's own page speaks of an address
    document = _document(request.user)
    response = StreamingHttpResponse(document, content_type="application/json; charset=utf-8")
    filename = f"heart-to-heart-{request.user.pk}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "no-store"
    return response


def _too_many_exports(request: HttpRequest) -> HttpResponse:
    count = settings.EXPORTS_PER_HOUR
    message = ngettext(
        "Your data can be downloaded %(count)s time an hour. Try again later.",
        "Your data can be downloaded %(count)s times an hour. Try again later.",
        count,
    )
    return problem(request, 429, _("Too many downloads"), message % {"count": count})


async def _document(user) -> AsyncIterator[str]:
    """The export, exactly as json.dumps(indent=2) writes it whole, a few games at a time.

    An async iterator: Django's ASGI handler reads a sync one whole before it sends any of it.
    The reads and the encoding run on the request's thread, off the event loop."""
    head = await sync_to_async(exports.account_export_head)(user=user)
    yield _encoded(head).removesuffix("\n}") + ',\n  "games": ['
    ids = await sync_to_async(exports.account_export_game_ids)(user=user)
    written = False
    for start in range(0, len(ids), exports.GAMES_PER_READ):
        part = ids[start : start + exports.GAMES_PER_READ]
        for game in await sync_to_async(exports.account_export_games)(user=user, ids=part):
            yield ("," if written else "") + await sync_to_async(_game_encoded)(game)
            written = True
    tail = await sync_to_async(exports.account_export_tail)(user=user)
    yield ("\n  ]," if written else "],") + _encoded(tail).removeprefix("{")


def _game_encoded(game) -> str:
    """One game as an item of the document's "games" list: its log is read and written alone."""
    text = _encoded(exports.account_export_game(game=game))
    return GAMES_INDENT + text.replace("\n", GAMES_INDENT)


def _encoded(data: dict) -> str:
    return json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, indent=2)


@require_http_methods(["GET", "POST"])
@login_required
def delete(request: HttpRequest) -> HttpResponse:
    """GET asks to confirm with the password; a POST with the right one deletes at once."""
    posted = request.POST if request.method == "POST" else None  # an empty POST is refused
    form = AccountDeleteForm(posted, user=request.user)
    if form.is_valid():
        account_delete(user=request.user)
        logout(request)  # this browser's session: its row went with the account
        messages.success(request, _("Your account and everything of it are deleted."))
        return redirect("home")
    status = 400 if form.is_bound else 200
    return render(request, "accounts/delete.html", {"form": form}, status=status)
