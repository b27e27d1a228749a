"""Deployment checks of our own, run by `manage.py check --deploy` beside Django's.

The keys are not checked here: outside DEBUG the settings refuse to load without private ones
(h2h_site.settings.private_key), so every command and every server fails to start first.
"""

from django.conf import settings
from django.core.checks import Error, Tags, register

from game.storage.dbthread import WORKERS_POSTGRESQL

# The sockets' database threads (moves, and everything else) and the par thread each hold a
# pooled connection while they work; a page needs one more.
POOL_NEEDED = 2 * WORKERS_POSTGRESQL + 1 + 1


@register(Tags.security, deploy=True)
def check_allowed_hosts_are_named(app_configs, **kwargs):
    """`*` accepts every Host and, with Channels' origin validator, every Origin."""
    if "*" in settings.ALLOWED_HOSTS:
        return [
            Error(
                "ALLOWED_HOSTS contains '*'.",
                hint="Name the site's hosts in H2H_ALLOWED_HOSTS.",
                id="h2h.E001",
            )
        ]
    return []


@register(deploy=True)
def check_channel_layer_spans_workers(app_configs, **kwargs):
    """The in-memory layer lives in one process: other processes never see its groups."""
    backend = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    if settings.WORKERS > 1 and backend.endswith("InMemoryChannelLayer"):
        return [
            Error(
                "The in-memory channel layer cannot serve several workers.",
                hint="Set H2H_REDIS_URL when H2H_WORKERS > 1.",
                id="h2h.E003",
            )
        ]
    return []


@register(Tags.database, deploy=True)
def check_connections_are_not_kept(app_configs, **kwargs):
    """Under ASGI each sync call may run in another thread; kept connections leak there."""
    errors = []
    for alias, database in settings.DATABASES.items():
        if database.get("CONN_MAX_AGE", 0) != 0:
            errors.append(
                Error(
                    f"DATABASES[{alias!r}]['CONN_MAX_AGE'] is not 0.",
                    hint="Keep CONN_MAX_AGE = 0 under ASGI.",
                    id="h2h.E004",
                )
            )
    return errors


@register(Tags.database, deploy=True)
def check_the_pool_holds_the_database_threads(app_configs, **kwargs):
    """A pool smaller than the threads that hold its connections would leave moves and pages
    waiting for one, and failing after its timeout."""
    errors = []
    for alias, database in settings.DATABASES.items():
        pool = database.get("OPTIONS", {}).get("pool")
        if isinstance(pool, dict) and pool.get("max_size", POOL_NEEDED) < POOL_NEEDED:
            errors.append(
                Error(
                    f"DATABASES[{alias!r}]'s pool holds fewer than {POOL_NEEDED} connections.",
                    hint=f"Set H2H_DB_POOL_SIZE to {POOL_NEEDED} or more (0: no pool).",
                    id="h2h.E006",
                )
            )
    return errors


@register(Tags.security, deploy=True)
def check_email_leaves_the_server(app_configs, **kwargs):
    """The console backend prints a password reset's link in the server's log, not to the
    player: outside DEBUG nobody could get back in."""
    if not settings.DEBUG and settings.EMAIL_BACKEND.endswith("console.EmailBackend"):
        return [
            Error(
                "E-mail goes to the console outside DEBUG.",
                hint="Set H2H_EMAIL_URL, e.g. smtp://user:password@mail.example.org:587/?tls=True.",
                id="h2h.E005",
            )
        ]
    return []


@register(deploy=True)
def check_quick_race_runs_on_the_wall_clock(app_configs, **kwargs):
    """A faster quick-race clock is for the matchmaking benchmark: on a site it would cut
    every countdown and widen every window too soon."""
    if settings.QUICK_RACE_SPEED != 1:
        return [
            Error(
                "The quick race's clock does not run at the wall clock's pace.",
                hint="Leave H2H_QUICK_RACE_SPEED unset (1) on a site.",
                id="h2h.E007",
            )
        ]
    return []
