"""Template filters for a page's metadata: what link previews in chat apps read."""

from django import template
from django.http import HttpRequest

register = template.Library()


@register.filter
def absolute(path: str, request: HttpRequest) -> str:
    """`path` as an absolute URL on the host the request came to (Open Graph wants one)."""
    return request.build_absolute_uri(path)
