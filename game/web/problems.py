"""One clear page for a request the site cannot answer: a bad code, an unknown day or player,
or a write the database cannot take now."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from game.storage.failures import UNAVAILABLE

RETRY_AFTER_S = 5


def problem(request: HttpRequest, status: int, title: str, message: str) -> HttpResponse:
    context = {"title": title, "message": message}
    return render(request, "problem.html", context, status=status)


class StorageUnavailableMiddleware:
    """A page whose write the database cannot take now (down, restarting, read-only) says that
    nothing was saved and to try again, with 503 and Retry-After, rather than a server error."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, UNAVAILABLE):
            return None
        message = _("The server cannot save anything just now: nothing was changed. Try again.")
        response = problem(request, 503, _("Not saved"), message)
        response["Retry-After"] = str(RETRY_AFTER_S)
        return response
