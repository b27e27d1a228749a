"""Login throttling: failed logins counted per username and per address in Django's cache.

Django does not throttle logins. After LOGIN_FAILURES_PER_USERNAME failures for one username,
or LOGIN_FAILURES_PER_ADDRESS from one address, within LOGIN_THROTTLE_SECONDS of the first,
further attempts are refused until that window ends, right password or not. The login form
says so clearly (game.forms.LoginForm); ThrottledModelBackend refuses them on every other path
that authenticates (the admin's login, for one). With Redis (H2H_REDIS_URL) the counts are
shared by every server process; without it each process counts its own.
"""

import hashlib

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver


def client_address(request) -> str:
    """The client's address as the server sees it (daphne --proxy-headers behind a proxy)."""
    return (request.META.get("REMOTE_ADDR") or "unknown") if request is not None else "unknown"


def _keys(*, username: str | None, address: str) -> dict[str, int]:
    """Cache key -> its limit; usernames are hashed so any text makes a safe key."""
    keys = {f"h2h:login:address:{address}": settings.LOGIN_FAILURES_PER_ADDRESS}
    if username:
        digest = hashlib.sha256(username.strip().casefold().encode()).hexdigest()
        keys[f"h2h:login:username:{digest}"] = settings.LOGIN_FAILURES_PER_USERNAME
    return keys


def login_blocked(*, username: str | None, address: str) -> bool:
    """True while this username or this address has used up its failed attempts."""
    limits = _keys(username=username, address=address)
    counts = cache.get_many(list(limits))
    return any(counts.get(key, 0) >= limit for key, limit in limits.items())


def login_failed(*, username: str | None, address: str) -> None:
    """Count one failure against the username and the address; the window starts at the first."""
    for key in _keys(username=username, address=address):
        if not cache.add(key, 1, timeout=settings.LOGIN_THROTTLE_SECONDS):
            try:
                cache.incr(key)
            except ValueError:  # expired between add and incr: this failure starts a window
                cache.add(key, 1, timeout=settings.LOGIN_THROTTLE_SECONDS)


def login_succeeded(*, username: str) -> None:
    """A right password clears the username's count (not the address's)."""
    cache.delete_many([key for key in _keys(username=username, address="") if "username" in key])


class ThrottledModelBackend(ModelBackend):
    """Django's ModelBackend that first refuses any login while it is throttled."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if login_blocked(username=username, address=client_address(request)):
            raise PermissionDenied("too many failed logins")
        return super().authenticate(request, username=username, password=password, **kwargs)


@receiver(user_login_failed)
def _count_failure(sender, credentials, request=None, **kwargs):
    login_failed(username=credentials.get("username"), address=client_address(request))


@receiver(user_logged_in)
def _clear_on_success(sender, request, user, **kwargs):
    login_succeeded(username=user.get_username())
