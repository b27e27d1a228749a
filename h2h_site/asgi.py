"""ASGI entry point: HTTP through Django, websockets through origin checks and the session login."""

import gc
import os

from django.core.asgi import get_asgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "h2h_site.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402  (needs Django set up)
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from game.runtime.server_beat import ASGIApplication, beating  # noqa: E402
from game.sockets.login import login_stack  # noqa: E402
from game.sockets.routing import websocket_urlpatterns  # noqa: E402
from h2h_site.operations import keep_probes_out_of_the_access_log  # noqa: E402
from h2h_site.security import (  # noqa: E402
    SameOriginWebsocket,
    close_failed_websockets_with_their_code,
)

close_failed_websockets_with_their_code()
keep_probes_out_of_the_access_log()


def site_application(routes: list) -> ASGIApplication:
    """HTTP through Django; websockets on `routes` behind the origin checks and the login; the
    process's heartbeat from the first of either."""
    websockets = SameOriginWebsocket(AllowedHostsOriginValidator(login_stack(URLRouter(routes))))
    return beating(ProtocolTypeRouter({"http": django_asgi_app, "websocket": websockets}))


application = site_application(websocket_urlpatterns)

# What is loaded by now (Django, the apps, the routes) lives as long as the process. Frozen, it
# stays out of the collector's full passes, which otherwise stopped every socket for ~100 ms
# under load (docs/performance.md, "Load").
get_resolver().reverse_dict  # noqa: B018  (imports the URLconf now, not in a game's last move)
gc.collect()
gc.freeze()
# The collector keeps Python's default thresholds: raising them (50,000, 20, 10) shortened the
# pauses but let closed connections' cycles pile up, +99 % memory in a 10-minute soak
# (docs/reliability.md, "Soak").
