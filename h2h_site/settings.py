"""Settings for Heart to Heart, all from environment variables with safe defaults.

Development sets H2H_DEBUG=1 and needs nothing else. Without it the process refuses to start
unless H2H_SECRET_KEY and H2H_DEAL_KEY are private and long; production also names its
H2H_ALLOWED_HOSTS. docs/deployment.md lists them all.
"""

import ipaddress
import os
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
import dj_email_url
import redis.exceptions
from django.core.exceptions import ImproperlyConfigured

from game.engine import DEFAULT_DEAL_KEY

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


MIN_KEY_LENGTH = 32
DEVELOPMENT_SECRET_KEY = "dev-only-insecure-secret-key-change-me-in-production"


def key_problem(value: str, public_default: str) -> str | None:
    """What makes `value` a key anyone could know or guess, or None if it is private."""
    if not value:
        return "is not set"
    if value == public_default:
        return "is the public development default"
    if len(value) < MIN_KEY_LENGTH:
        return f"is shorter than {MIN_KEY_LENGTH} characters"
    return None


def private_key(name: str, public_default: str) -> str:
    """The key in `name`; outside DEBUG the process refuses to start on a key anyone could know.

    Both keys ship with public defaults for development. A production start on them would
    sign sessions with a published key and deal from one, so every code (the daily's too)
    could be dealt offline from the open source.
    """
    value = os.environ.get(name, "")
    if DEBUG:
        return value or public_default
    problem = key_problem(value, public_default)
    if problem:
        raise ImproperlyConfigured(
            f"{name} {problem}. With H2H_DEBUG off it must be a private random value of at "
            f"least {MIN_KEY_LENGTH} characters, e.g. python3 -c 'import secrets; "
            "print(secrets.token_urlsafe(50))' (docs/deployment.md)."
        )
    return value


# Off unless asked for: a server started with nothing set must not run in DEBUG on public keys.
DEBUG = env_flag("H2H_DEBUG", False)
SECRET_KEY = private_key("H2H_SECRET_KEY", DEVELOPMENT_SECRET_KEY)
ALLOWED_HOSTS = env_list("H2H_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = env_list("H2H_CSRF_TRUSTED_ORIGINS", "")
# Outside DEBUG websockets accept https pages only (h2h_site.security.same_origin); a site
# served over plain http on an intranet sets this to accept http pages and plain cookies.
ALLOW_HTTP_ORIGINS = env_flag("H2H_ALLOW_HTTP_ORIGINS", False)
WEBSOCKET_ORIGIN_SCHEMES = ("http", "https") if DEBUG or ALLOW_HTTP_ORIGINS else ("https",)

# The deal key makes a deployment's deals its own: codes cannot be dealt offline from the
# open source, and tomorrow's daily code cannot be predicted. The default is public.
DEAL_KEY = private_key("H2H_DEAL_KEY", DEFAULT_DEAL_KEY)
DAILY_TZ = os.environ.get("H2H_DAILY_TZ", "UTC")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "allauth",
    "allauth.account",
    "game",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # /healthz, /readyz, /metrics: before host validation, sessions and the rest (its module).
    "h2h_site.operations.ProbesMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "h2h_site.security.ContentSecurityPolicyMiddleware",
    "game.web.problems.StorageUnavailableMiddleware",  # last: it answers the views' errors
]

ROOT_URLCONF = "h2h_site.urls"
ASGI_APPLICATION = "h2h_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "game.web.theme.theme",
            ],
        },
    },
]


def sqlite_synchronous() -> str:
    value = os.environ.get("H2H_SQLITE_SYNCHRONOUS", "NORMAL").strip().upper()
    if value not in {"NORMAL", "FULL"}:
        raise ValueError("H2H_SQLITE_SYNCHRONOUS must be NORMAL or FULL")
    return value


def database_pool() -> dict:
    """Django's PostgreSQL pool per process, H2H_DB_POOL_SIZE connections at most (0: none)."""
    size = int(os.environ.get("H2H_DB_POOL_SIZE", "20"))
    if size < 0:
        raise ValueError("H2H_DB_POOL_SIZE must be 0 (no pool) or more")
    # A request waits up to `timeout` seconds for a connection when all are busy, then fails.
    return {"pool": {"min_size": 1, "max_size": size, "timeout": 10}} if size else {}


SQLITE = "django.db.backends.sqlite3"
POSTGRESQL = "django.db.backends.postgresql"


def sqlite_database(path: str) -> dict:
    """A SQLite file, however it was named: the default, H2H_SQLITE_PATH or a sqlite:// URL."""
    return {
        "ENGINE": SQLITE,
        "NAME": path,
        "OPTIONS": {
            # IMMEDIATE takes the write lock when a transaction starts, so two writers wait
            # on the busy timeout instead of failing with "database is locked" mid-way.
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            # NORMAL survives any crash of the server; FULL also an OS crash or power loss,
            # at an fsync per commit (docs/reliability.md, "Crash").
            "init_command": (
                f"PRAGMA journal_mode=WAL; PRAGMA synchronous={sqlite_synchronous()}; "
                "PRAGMA busy_timeout=20000;"
            ),
        },
    }


def database_from_url(url: str) -> dict:
    """H2H_DATABASE_URL's database: SQLite set up as the default file is, or PostgreSQL with
    its pool; any other engine stops the start, naming the variable (never its password)."""
    try:
        # Django keeps no connection under ASGI (each request runs in a thread of its own):
        # PostgreSQL's pool hands them out instead, so a request does not open one of its own.
        database = dj_database_url.parse(url, conn_max_age=0)
    except ValueError:  # a scheme dj-database-url does not know, or none at all
        database = {"ENGINE": ""}
    if database["ENGINE"] == SQLITE:
        return {**database, **sqlite_database(database["NAME"])}
    if database["ENGINE"] != POSTGRESQL:
        scheme = urlsplit(url).scheme
        raise ImproperlyConfigured(
            f"H2H_DATABASE_URL is {f'a {scheme}:// URL' if scheme else 'no URL'}: the site runs "
            "on PostgreSQL (postgres://user:password@host:5432/name) or SQLite "
            "(sqlite:////absolute/path.sqlite3) only (docs/deployment.md)."
        )
    return {**database, "OPTIONS": {**database.get("OPTIONS", {}), **database_pool()}}


def database_from_env() -> dict:
    url = os.environ.get("H2H_DATABASE_URL")
    if url:
        return database_from_url(url)
    return sqlite_database(os.environ.get("H2H_SQLITE_PATH", str(BASE_DIR / "db.sqlite3")))


DATABASES = {"default": database_from_env()}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


def channel_layers_from_env() -> dict:
    url = os.environ.get("H2H_REDIS_URL")
    if not url:
        return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    return {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # A dict host lets us lift redis-py's 5 s socket timeout (it closes idle
                # consumers) and its 100-connection pool (it fails at 200 consumers). A Redis
                # out of reach is given up on within a second, not the system's connect
                # timeout; a call on a pooled connection that a restarted Redis closed is
                # made again once on a new one, not counted as an outage
                # (game.storage.channel_layer).
                "hosts": [
                    {
                        "address": url,
                        "socket_timeout": None,
                        "socket_connect_timeout": 1,
                        "retry_on_error": [redis.exceptions.ConnectionError],
                        "max_connections": 1000,
                    }
                ],
                "capacity": 1500,
                "expiry": 60,
            },
        }
    }


CHANNEL_LAYERS = channel_layers_from_env()


def caches_from_env() -> dict:
    """Redis when the deployment has it, so every process shares the login throttle's counts."""
    url = os.environ.get("H2H_REDIS_URL")
    if not url:
        return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": "h2h",
        }
    }


CACHES = caches_from_env()

# Flood control per socket (game/sockets/ratelimit.py): bursts of TAP_BURST frames, refilled at
# TAP_RATE a second; a TAP_RATE of 0 turns it off (benchmarks only). Then the sockets a
# player may hold open on one process (game/sockets/play.py).
TAP_RATE = float(os.environ.get("H2H_TAP_RATE", "10"))
TAP_BURST = int(os.environ.get("H2H_TAP_BURST", "20"))
SOCKETS_PER_PLAYER = int(os.environ.get("H2H_SOCKETS_PER_PLAYER", "5"))
# The live board, watch and race sockets one process holds open per logged-in user and per
# client address for anonymous ones (game/sockets/public.py).
REALTIME_SOCKETS_PER_USER = int(os.environ.get("H2H_REALTIME_SOCKETS_PER_USER", "20"))
REALTIME_SOCKETS_PER_ADDRESS = int(os.environ.get("H2H_REALTIME_SOCKETS_PER_ADDRESS", "20"))
# The quick race's own clock runs this many times faster than the wall clock: its widening
# windows, its rooms' countdown, its ghost offer and its rounds (game/services/quick.py).
# Always 1 on a site; the matchmaking benchmark speeds it up (docs/performance.md).
QUICK_RACE_SPEED = float(os.environ.get("H2H_QUICK_RACE_SPEED", "1"))
if not QUICK_RACE_SPEED > 0:  # spans are divided by it: 0 or less has no meaning
    raise ImproperlyConfigured("H2H_QUICK_RACE_SPEED must be a number above 0 (1 on a site)")

# Each process records that it is alive every 2 s, so that outages are left out of games'
# times (game/runtime/server_beat.py); off in the tests, whose clocks and rows are their own.
SERVER_BEAT = env_flag("H2H_SERVER_BEAT", True)

# Bounded cost, so one player cannot slow everyone: a game's log stops taking moves at
# ACTIONS_PER_GAME entries (game/services/play.py; a rule of the site, not tuned per deployment).
ACTIONS_PER_GAME = 2000

# What sockets send again and again (a board, a watched game), kept per process and per
# version (game/services/boards.py, game/selectors/watching.py): a cache apart from "default",
# so that many snapshots never push the login throttle's counts out of it.
CACHES["snapshots"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "h2h-snapshots",
    "TIMEOUT": 300,
    "OPTIONS": {"MAX_ENTRIES": 2000},
}

# Accounts are django-allauth's: log in with the username or the e-mail address, which is
# required at sign-up and unique whatever its case. Verifying it is off unless
# H2H_EMAIL_VERIFICATION=1, which makes a new account confirm its address before it logs in.
AUTHENTICATION_BACKENDS = ["allauth.account.auth_backends.AuthenticationBackend"]
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_EMAIL_VERIFICATION = "mandatory" if env_flag("H2H_EMAIL_VERIFICATION", False) else "none"
ACCOUNT_ADAPTER = "game.web.adapter.AccountAdapter"
ACCOUNT_FORMS = {
    "signup": "game.web.forms.SignupForm",
    "login": "game.web.forms.LoginForm",
    "reset_password": "game.web.forms.ResetPasswordForm",
    "reset_password_from_key": "game.web.forms.ResetPasswordKeyForm",
    "change_password": "game.web.forms.ChangePasswordForm",
}
ACCOUNT_SESSION_REMEMBER = True  # a login lasts SESSION_COOKIE_AGE, as before allauth
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False  # the other sessions end; this one stays
ACCOUNT_EMAIL_UNKNOWN_ACCOUNTS = False  # a reset for an unknown address sends nothing anywhere
# No page says whether an account uses an address: a reset, or a change of address, answers
# the same either way. A sign-up can hide it only when verification is on (docs/protocol.md):
# it then mails the address's owner instead of making a second account.
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_EMAIL_SUBJECT_PREFIX = "Heart to Heart: "

# allauth's rate limits, per client address (an IPv6 client: its /64) and per username or
# e-mail typed. Each attempt counts; a right password takes its own attempt back.
LOGIN_FAILURES_PER_USERNAME = int(os.environ.get("H2H_LOGIN_FAILURES_PER_USERNAME", "5"))
LOGIN_FAILURES_PER_ADDRESS = int(os.environ.get("H2H_LOGIN_FAILURES_PER_ADDRESS", "20"))
LOGIN_THROTTLE_SECONDS = int(os.environ.get("H2H_LOGIN_THROTTLE_SECONDS", "900"))
SIGNUPS_PER_ADDRESS = int(os.environ.get("H2H_SIGNUPS_PER_ADDRESS", "10"))
SIGNUP_THROTTLE_SECONDS = int(os.environ.get("H2H_SIGNUP_THROTTLE_SECONDS", "3600"))
# Guest sessions started from one address within a window (game/web/play.py).
GUESTS_PER_ADDRESS = int(os.environ.get("H2H_GUESTS_PER_ADDRESS", "20"))
GUEST_THROTTLE_SECONDS = int(os.environ.get("H2H_GUEST_THROTTLE_SECONDS", "3600"))
# Downloads of one account's data (/accounts/export/) within an hour: each reads every game.
EXPORTS_PER_HOUR = int(os.environ.get("H2H_EXPORTS_PER_HOUR", "5"))
_LOGIN_WINDOW = f"{LOGIN_THROTTLE_SECONDS}s"
ACCOUNT_RATE_LIMITS = {
    "login_failed": (
        f"{LOGIN_FAILURES_PER_ADDRESS}/{_LOGIN_WINDOW}/ip,"
        f"{LOGIN_FAILURES_PER_USERNAME}/{_LOGIN_WINDOW}/key"
    ),
    "signup": f"{SIGNUPS_PER_ADDRESS}/{SIGNUP_THROTTLE_SECONDS}s/ip",
    # A reset sends an e-mail: as many per address and per address typed as failed logins.
    "reset_password": (
        f"{LOGIN_FAILURES_PER_ADDRESS}/{_LOGIN_WINDOW}/ip,"
        f"{LOGIN_FAILURES_PER_USERNAME}/{_LOGIN_WINDOW}/key"
    ),
    "reset_password_from_key": f"{LOGIN_FAILURES_PER_ADDRESS}/{_LOGIN_WINDOW}/ip",
    # Asking for a new e-mail address checks the password and sends e-mail: as many per address
    # and per account as failed logins.
    "manage_email": (
        f"{LOGIN_FAILURES_PER_ADDRESS}/{_LOGIN_WINDOW}/ip,"
        f"{LOGIN_FAILURES_PER_USERNAME}/{_LOGIN_WINDOW}/user"
    ),
    "guest": f"{GUESTS_PER_ADDRESS}/{GUEST_THROTTLE_SECONDS}s/ip",
    "export": f"{EXPORTS_PER_HOUR}/1h/user",
}
# The client's address is REMOTE_ADDR, which daphne --proxy-headers takes from the header the
# proxy overwrites (docs/deployment.md); a client's own X-Forwarded-For is never read.
ALLAUTH_TRUSTED_PROXY_COUNT = 0

# E-mail: the console in development (a reset's link is printed in the server's output), SMTP
# from H2H_EMAIL_URL (e.g. smtp://user:pass@host:587) in production; `check --deploy` refuses
# the console outside DEBUG (game/checks.py).
EMAIL_URL = os.environ.get("H2H_EMAIL_URL", "")
vars().update(dj_email_url.parse(EMAIL_URL) if EMAIL_URL else {})
if not EMAIL_URL:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("H2H_EMAIL_FROM", "Heart to Heart <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# How long a session lasts (Django's default, two weeks): a guest's games go with it
# (manage.py expire_guests, docs/deployment.md).
SESSION_COOKIE_AGE = int(os.environ.get("H2H_SESSION_SECONDS", str(14 * 24 * 3600)))
# Django's database sessions, indexed by account as they log in (game/storage/sessions.py), so
# deleting an account ends its sessions without reading everyone's.
SESSION_ENGINE = "game.storage.sessions"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "ms"
LANGUAGES = [("ms", "Bahasa Melayu"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "game" / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Without collectstatic (development, tests) whitenoise serves straight from the finders.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "h2h_site.storage.ModuleAwareStaticFilesStorage"
        )
    },
}

# How many server processes share this deployment: the in-memory channel layer cannot span them.
WORKERS = int(os.environ.get("H2H_WORKERS", "1"))

# The operator's probes (h2h_site.operations): a load balancer checks them over plain http.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]
# Who may read /metrics: these addresses or networks as the TCP peer, or the bearer token.
# A bad entry stops the start (ValueError) rather than shutting the scraper out later.
METRICS_ALLOW = tuple(
    ipaddress.ip_network(entry, strict=False)
    for entry in env_list("H2H_METRICS_ALLOW", "127.0.0.1,::1")
)
METRICS_TOKEN = os.environ.get("H2H_METRICS_TOKEN", "")

X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# No script reads a cookie (forms carry the CSRF token), so every cookie is HttpOnly.
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_SAMESITE = "Lax"
if not DEBUG:
    # A plain-http intranet (H2H_ALLOW_HTTP_ORIGINS) cannot use Secure cookies: browsers keep
    # them from https pages only, so nobody could log in.
    SESSION_COOKIE_SECURE = not ALLOW_HTTP_ORIGINS
    CSRF_COOKIE_SECURE = not ALLOW_HTTP_ORIGINS
    LANGUAGE_COOKIE_SECURE = not ALLOW_HTTP_ORIGINS
    SECURE_SSL_REDIRECT = env_flag("H2H_SSL_REDIRECT", not ALLOW_HTTP_ORIGINS)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("H2H_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("H2H_LOG_LEVEL", "WARNING")},
}
