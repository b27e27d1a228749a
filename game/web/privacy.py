"""Your data: download everything the site keeps about your account, or delete the account."""

import json

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from game.selectors.exports import account_export
from game.services.accounts import account_delete
from game.web.forms import AccountDeleteForm


@require_GET
@login_required
def export(request: HttpRequest) -> HttpResponse:
    """One JSON file, downloaded: never cached, as it is one person's."""
    data = account_export(user=request.user)
    body = json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, indent=2)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    filename = f"heart-to-heart-{request.user.pk}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "no-store"
    return response


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
