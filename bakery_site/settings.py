"""Bakehouse settings: configured from environment variables (read through bakery_site/env.py);
the channel layers' Redis settings are bakery_site/channel_layers.py, mail's bakery_site/mail.py."""

import os
from pathlib import Path

import dj_database_url
import django_stubs_ext
from csp.constants import NONE, SELF

from bakery_site.channel_layers import default_layer
from bakery_site.env import env_flag, env_int, feature_knobs, imported_confs
from bakery_site.mail import email_settings

# Django's generic classes (ModelAdmin[Game], ModelForm[User] ...) subscriptable at run time too,
# as django-stubs types them.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

# --- the site: debug, secrets, hosts, apps, templates, database ----------------------------------

# Off unless asked for: `make dev` sets DEBUG=1.
DEBUG = env_flag("DEBUG", False)
DEV_SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"
# Left empty when DEBUG is off and none is given: Django then refuses to sign anything, and
# bakery_site.asgi refuses to start, rather than sign sessions with a published key.
SECRET_KEY = os.environ.get("SECRET_KEY", "") or (DEV_SECRET_KEY if DEBUG else "")

ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver").split(",")
    if h.strip()
]
# A refused post gets the site's own 403 page, in the reader's language.
CSRF_FAILURE_VIEW = "games.web.errors.csrf_failure"
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

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
    "django_htmx",
    "axes",
    "csp",
    # The public API's docs page: Swagger UI from its own static files (games/api/).
    "ninja",
    # OAuth2 with PKCE for third-party apps: its models, endpoints and admin (accounts/oauth/).
    "oauth2_provider",
    "django_tasks",
    "django_tasks_db",
    "accounts",
    "games",
    "games.notifications",
    "games.pairing",
    "games.tournaments",
    "games.housetable",
    "games.friends",
    "games.tutorial",
    "games.vacation",
    "games.reviews",
    "games.challenges",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # The language: the browser's or the menu's choice, then an account's saved one over both.
    "django.middleware.locale.LocaleMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.languages.AccountLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "games.web.middleware.BoardErrorMiddleware",
    # Axes last, so it sees the outcome of authentication.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "bakery_site.urls"
ASGI_APPLICATION = "bakery_site.asgi.application"

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
                "games.notifications.badge.menu",
            ],
        },
    },
    # The boards (every region of a table, its pieces, the replay's hands): Jinja2, compiled to
    # Python, because every socket renders them on every move (games/boards/jinja.py).
    {
        "NAME": "boards",
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "games.boards.jinja.environment"},
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),
    )
}
# On SQLite, simultaneous picks must queue, never fail: write-ahead logging lets readers go on
# while one writer writes, every transaction takes the write lock at its start (a deferred one
# that reads and then writes fails at once with "database is locked" when another writer got in
# first), and a writer waits up to SQLITE_TIMEOUT seconds for its turn.
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": env_int("SQLITE_TIMEOUT", 20),
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
# On PostgreSQL, a psycopg connection pool: every websocket push reads the game, and opening a
# connection per read (CONN_MAX_AGE=0, as ASGI needs) cost 25 ms a push in bench/site.py.
if DATABASES["default"]["ENGINE"].endswith("postgresql") and env_flag("DB_POOL", True):
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # A connection a database restart broke is replaced by every sweep (games/outages.py:
    # check_pool), not checked each time it is handed out (CONN_HEALTH_CHECKS: a round trip
    # before every database call, p95 3x at 100 tables; docs/performance.md).
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": int(os.environ.get("DB_POOL_MIN", "2")),
        "max_size": int(os.environ.get("DB_POOL_MAX", "20")),
        # While the database is away, a read waits this long for a connection, then fails and is
        # told in words (games/outages.py), instead of holding a thread for the pool's 30 s.
        "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "5")),
    }

# --- the channel layer and the cache -------------------------------------------------------------

# Redis when REDIS_URL is set (CHANNEL_LAYER chooses pubsub or core, REDIS_POOL_MAX its pool:
# bakery_site/channel_layers.py), else each process's own memory.
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {"default": default_layer(REDIS_URL, os.environ.get("REDIS_PREFIX", "asgi"))}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# Django's cache holds only the limits on sending mail, friend requests and invitations
# (accounts.emails.under_limit). Each process's own memory by default; with several processes,
# CACHE_URL (a Redis URL, e.g. redis://host:6379/1) makes one limit count across all of them.
CACHE_URL = os.environ.get("CACHE_URL", "")
if CACHE_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": "bakehouse",
        }
    }

# --- accounts ------------------------------------------------------------------------------------

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

# Lock out an account-and-address pair after repeated failures, for a while.
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = 0.25  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# Behind PROXY_COUNT proxies that each write to X-Forwarded-For, the client is the address the
# outermost of them saw (accounts.client_ip); without proxies, the peer's address.
PROXY_COUNT = env_int("PROXY_COUNT", 0)
AXES_CLIENT_IP_CALLABLE = "accounts.client_ip.client_ip"
# --- mail and notifications ----------------------------------------------------------------------

# Mail (address verification, password resets): printed to the console unless EMAIL_URL names
# a server, so `make run` needs none.
EMAIL_URL = os.environ.get("EMAIL_URL", "").strip() or "console://"
globals().update(email_settings(EMAIL_URL))
# A mail server that does not answer is given up after this many seconds (Django's own default
# waits forever); EMAIL_URL's ?timeout= sets it.
EMAIL_TIMEOUT = globals().get("EMAIL_TIMEOUT") or 10
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "").strip() or (
    "Bakehouse <bakehouse@localhost>"
)
# A password-reset link works for this long, and once (Django's token hashes the password).
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_TIMEOUT", 3600)
# The site's address as mails link to it (a sweep has no request to build links from).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").strip().rstrip("/")
# Mails that leave the request (address verification, password resets) are tasks queued in the
# database (django-tasks); each Daphne process's runner works the queue on its mail thread
# (games/live/task_worker.py), and `manage.py db_worker` may work it too.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


# --- language, static files, HTTPS, content security, logging ------------------------------------

# Three languages (accounts/languages.py): a first visit's from the browser's Accept-Language, a
# choice in the menu (a cookie), and an account's saved one, which also writes its mails and pushes.
# The catalogues are locale/<language>/LC_MESSAGES/django.po, compiled .mo beside them (`make
# messages`; docs/operations.md, "Languages"). English is the source: it has no catalogue.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# English keeps the British dates and numbers it always had (bakery_site/formats/en).
FORMAT_MODULE_PATH = ["bakery_site.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # WhiteNoise's compressed, hashed files, or the finders' under DEBUG (and in the tests:
        # tests/fixtures.py, pytest_configure).
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

if not DEBUG:
    SESSION_COOKIE_SECURE = env_flag("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_flag("SECURE_COOKIES", True)

# HTTPS switches, for a site served over TLS (see the README's production settings).
SECURE_SSL_REDIRECT = env_flag("SECURE_SSL_REDIRECT", False)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # the load balancer's plain-HTTP probe
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_flag("SECURE_HSTS_PRELOAD", False)
# Only behind a proxy that sets X-Forwarded-Proto itself, overwriting what a client sent.
if env_flag("SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Scripts, styles and sockets from this site only: no inline script, no eval.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"refusals_in_one_line": {"()": "bakery_site.log_filters.RefusalsInOneLine"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {
        "django.request": {"filters": ["refusals_in_one_line"]},
        # The pool's own line per failed reconnection while the database is away: the site
        # logs the outage once itself (games/outages.py).
        "psycopg.pool": {"level": "ERROR"},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# The garbage collector's thresholds for a serving process (bakery_site/asgi.py): a collection of
# the youngest objects every GC_YOUNG new containers (Python's default is 700), the older ones
# after 20 and 10 of those. A collection stops every socket of the process; at the default each
# pass carried a fixed cost of milliseconds here and a full one came every 5 s (80-400 ms at 100
# tables). See README, Speed.
GC_YOUNG = env_int("GC_YOUNG", 20_000)

# --- each feature's knobs ------------------------------------------------------------------------

# Declared with their defaults, one line of doc each, beside the code they tune (the feature's
# conf.py); the environment variable of a knob's name sets it (bakery_site/env.py: feature_knobs).
# The star imports are the one list of them: they tell mypy the knobs' types, and the modules they
# loaded are FEATURE_SETTINGS, whose knobs the update sets from the environment.
from accounts.conf import *  # noqa: E402, F403
from games.api.conf import *  # noqa: E402, F403
from games.conf import *  # noqa: E402, F403
from games.housetable.conf import *  # noqa: E402, F403
from games.live.conf import *  # noqa: E402, F403
from games.notifications.conf import *  # noqa: E402, F403
from games.reviews.conf import *  # noqa: E402, F403
from games.tournaments.conf import *  # noqa: E402, F403

FEATURE_SETTINGS = imported_confs("accounts", "games")
globals().update(feature_knobs(*FEATURE_SETTINGS))

# --- OAuth2 for third-party apps (django-oauth-toolkit; accounts/oauth/) -------------------------

# The authorization code flow only, PKCE with S256 required (accounts/oauth/validator.py), public
# clients welcome; the scopes are the personal tokens' (accounts/oauth/scopes.py); tokens are
# stored as their sha256 only (TOKEN_STORAGE), like personal tokens, and read "bko_..." (access)
# and "bkr_..." (refresh) so the API tells them from personal ones by their look.
OAUTH2_PROVIDER = {
    "OAUTH2_VALIDATOR_CLASS": "accounts.oauth.validator.Validator",
    "SCOPES_BACKEND_CLASS": "accounts.oauth.scopes.Scopes",
    "ACCESS_TOKEN_GENERATOR": "accounts.oauth.keys.access_token",
    "REFRESH_TOKEN_GENERATOR": "accounts.oauth.keys.refresh_token",
    "ACCESS_TOKEN_EXPIRE_SECONDS": OAUTH_ACCESS_TOKEN_SECONDS,  # noqa: F405
    "REFRESH_TOKEN_EXPIRE_SECONDS": OAUTH_REFRESH_TOKEN_SECONDS,  # noqa: F405
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": 60,
    "PKCE_REQUIRED": True,
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "ALLOWED_REDIRECT_URI_SCHEMES": ["https", "http"],  # http: loopback only (accounts/oauth/forms)
    "OAUTH2_RESPONSE_TYPES_SUPPORTED": ["code"],
    "OAUTH2_GRANT_TYPES_SUPPORTED": ["authorization_code", "refresh_token"],
    "OAUTH2_TOKEN_ENDPOINT_AUTH_METHODS_SUPPORTED": ["none", "client_secret_post"],
    # RFC 9700's best current practice, every gate on: no implicit or password grant, no "plain"
    # PKCE, tokens only in the header, the issuer in the answer, tokens stored hashed.
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
    "COMPLIANT_BCP_RFC9700_REFRESH_TOKEN": True,
    # http stays allowed for the loopback address only (RFC 8252: an app on the person's own
    # machine), which accounts/oauth/apps.py holds at registration and validator.py at every
    # request; the toolkit's gate could only forbid http whole, so its warning is silenced below.
    "COMPLIANT_BCP_RFC9700_REDIRECT_URI_SCHEME": False,
    "COMPLIANT_BCP_RFC9700_REDIRECT_URI_MATCHING": True,
    "COMPLIANT_BCP_RFC9700_PKCE_REQUIRED": True,
}
SILENCED_SYSTEM_CHECKS = ["oauth2_provider.W008"]  # http redirects: loopback only (see above)
