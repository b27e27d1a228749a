"""What Django 5.2 and Channels leave to us: a Content-Security-Policy with no inline script,
and a same-origin check on every websocket handshake."""

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)


class ContentSecurityPolicyMiddleware:
    """Adds the site's Content-Security-Policy to every response that lacks one."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.policy = getattr(settings, "CONTENT_SECURITY_POLICY", DEFAULT_POLICY)

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", self.policy)
        return response


def same_origin(headers: dict[bytes, bytes]) -> bool:
    """True if `Origin` is this site's: an allowed scheme, and the host and port of `Host`.

    Channels' AllowedHostsOriginValidator ignores the scheme and port, so a page on another
    port of the same host would pass it. Like Django's CSRF origin check, this compares the
    origin with the host the request was sent to; that host must be one of ALLOWED_HOSTS.
    daphne refuses a handshake without `Host`, so only an in-process test lacks it.

    Outside DEBUG the scheme must be https (settings.WEBSOCKET_ORIGIN_SCHEMES). Behind the TLS
    proxy every page of the site is https; a page on http://<the site's host> was not served
    through it: an attacker on the network path may have written it, and its wss:// socket
    would still carry the player's cookies.

    >>> from django.test import override_settings
    >>> with override_settings(ALLOWED_HOSTS=["hearts.example"]):
    ...     same_origin({b"origin": b"https://hearts.example", b"host": b"hearts.example"})
    True
    >>> with override_settings(ALLOWED_HOSTS=["hearts.example"]):
    ...     same_origin({b"origin": b"https://hearts.example:8443", b"host": b"hearts.example"})
    False
    >>> production = {"ALLOWED_HOSTS": ["hearts.example"], "WEBSOCKET_ORIGIN_SCHEMES": ["https"]}
    >>> with override_settings(**production):
    ...     same_origin({b"origin": b"http://hearts.example", b"host": b"hearts.example"})
    False
    """
    try:
        origin = urlsplit(headers[b"origin"].decode("ascii"))
        host = headers.get(b"host", origin.netloc.encode()).decode("ascii").lower()
    except (KeyError, UnicodeDecodeError, ValueError):
        return False
    domain, _port = split_domain_port(host)
    return (
        origin.scheme in settings.WEBSOCKET_ORIGIN_SCHEMES
        and origin.netloc.lower() == host
        and bool(domain)
        and validate_host(domain, settings.ALLOWED_HOSTS)
    )


class SameOriginWebsocket:
    """ASGI middleware: refuses the handshake of a websocket whose origin is not the site's."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not same_origin(dict(scope.get("headers", []))):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)


def close_failed_websockets_with_their_code() -> None:
    """Make daphne's websocket layer (autobahn) send its close code before hanging up.

    On a message over --websocket-max-message-size or a text message that is not UTF-8,
    autobahn by default drops the TCP connection, so the client sees only 1006. RFC 6455
    §7.1.7 asks for a close frame with the code first: 1009 (too big) or 1007 (bad data).
    """
    try:
        from autobahn.websocket.protocol import WebSocketServerFactory
    except ImportError:  # served without daphne (tests' in-process communicators)
        return
    reset = WebSocketServerFactory.resetProtocolOptions
    if getattr(reset, "sends_close_codes", False):
        return

    def reset_and_send_close_codes(factory) -> None:
        reset(factory)
        factory.failByDrop = False

    reset_and_send_close_codes.sends_close_codes = True
    WebSocketServerFactory.resetProtocolOptions = reset_and_send_close_codes
