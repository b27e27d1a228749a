"""Login and sign-up throttling per username and per address, counted in Django's cache.

Django does not throttle logins. After LOGIN_FAILURES_PER_USERNAME failures for one username,
or LOGIN_FAILURES_PER_ADDRESS from one address, within LOGIN_THROTTLE_SECONDS of the first,
further attempts are refused until that window ends, right password or not. The login form
says so clearly (game.web.forms.LoginForm); ThrottledModelBackend refuses them on every other path
that authenticates (the admin's login, for one). Likewise SIGNUPS_PER_ADDRESS accounts may be
made from one address within SIGNUP_THROTTLE_SECONDS (game.web.forms.SignupForm). With Redis
(H2H_REDIS_URL) the counts are shared by every server process; without it each process counts
its own.

An address is only as good as the proxy that reports it: it must overwrite X-Forwarded-For
(docs/deployment.md). An IPv6 client is counted by its /64 network, since one subscriber
routinely holds a whole /64 and could take a fresh address for every attempt.

django-axes would do the login half, but accounts are moving to django-allauth, whose own
rate limits (login failures, sign-ups) replace this module then; adopting axes now would mean
migrating twice.
"""

import hashlib
import ipaddress

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver


def client_address(request) -> str:
    """The client's address as the server sees it (daphne --proxy-headers behind a proxy)."""
    return (request.META.get("REMOTE_ADDR") or "unknown") if request is not None else "unknown"


def address_key(address: str) -> str:
    """What one client is counted as: an IPv4 address, or the /64 network of an IPv6 one.

    >>> address_key("2001:db8:1:2:aaaa::1"), address_key("::ffff:10.0.0.1")
    ('2001:db8:1:2::/64', '10.0.0.1')
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip), 64), strict=False))
    return str(ip)


def _keys(*, username: str | None, address: str) -> dict[str, int]:
    """Cache key -> its limit; usernames are hashed so any text makes a safe key."""
    keys = {f"h2h:login:address:{address_key(address)}": settings.LOGIN_FAILURES_PER_ADDRESS}
    if username:
        digest = hashlib.sha256(username.strip().casefold().encode()).hexdigest()
        keys[f"h2h:login:username:{digest}"] = settings.LOGIN_FAILURES_PER_USERNAME
    return keys


def _count(key: str, window: int) -> None:
    """Add one to the count at `key`; its window of `window` seconds starts at the first."""
    if not cache.add(key, 1, timeout=window):
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr: this one starts a window
            cache.add(key, 1, timeout=window)


def login_blocked(*, username: str | None, address: str) -> bool:
    """True while this username or this address has used up its failed attempts."""
    limits = _keys(username=username, address=address)
    counts = cache.get_many(list(limits))
    return any(counts.get(key, 0) >= limit for key, limit in limits.items())


def login_failed(*, username: str | None, address: str) -> None:
    """Count one failure against the username and the address."""
    for key in _keys(username=username, address=address):
        _count(key, settings.LOGIN_THROTTLE_SECONDS)


def _signup_key(address: str) -> str:
    return f"h2h:signup:address:{address_key(address)}"


def signup_blocked(*, address: str) -> bool:
    """True while this address has made its SIGNUPS_PER_ADDRESS accounts in the window."""
    return cache.get(_signup_key(address), 0) >= settings.SIGNUPS_PER_ADDRESS


def signed_up(*, address: str) -> None:
    """Count one account made from this address."""
    _count(_signup_key(address), settings.SIGNUP_THROTTLE_SECONDS)


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
