"""One clear page for a request the site cannot answer: a bad code, an unknown day or player."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def problem(request: HttpRequest, status: int, title: str, message: str) -> HttpResponse:
    context = {"title": title, "message": message}
    return render(request, "problem.html", context, status=status)
