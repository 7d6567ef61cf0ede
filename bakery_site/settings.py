"""Bakehouse settings: configured from environment variables (read through bakery_site/env.py);
the channel layers' Redis settings are bakery_site/channel_layers.py, mail's bakery_site/mail.py."""

import os
import sys
from pathlib import Path

import dj_database_url
import django_stubs_ext
from csp.constants import NONE, SELF

from bakery_site.channel_layers import default_layer
from bakery_site.env import env_flag, env_int
from bakery_site.mail import email_settings

# Django's generic classes (ModelAdmin[Game], ModelForm[User] ...) subscriptable at run time too,
# as django-stubs types them.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

# --- the site: debug, secrets, hosts, apps, templates, database ----------------------------------

# Off unless asked for: `make dev` sets DEBUG=1.
DEBUG = env_flag("DEBUG", False)
# The test suite runs with DEBUG off and needs no SECRET_KEY or collected static files.
TESTING = "pytest" in sys.modules
DEV_SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"
# Left empty when DEBUG is off and none is given: Django then refuses to sign anything, and
# bakery_site.asgi refuses to start, rather than sign sessions with a published key.
SECRET_KEY = os.environ.get("SECRET_KEY", "") or (DEV_SECRET_KEY if DEBUG or TESTING else "")

ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver").split(",")
    if h.strip()
]
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
    "django_tasks",
    "django_tasks_db",
    "accounts",
    "games",
    "games.notifications",
    "games.pairing",
    "games.tournaments",
    "games.housetable",
    "games.tutorial",
    "games.vacation",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
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
# Accounts one client address may make in an hour (accounts/views.py: signup); the browser tests,
# all from 127.0.0.1, raise it.
SIGNUPS_PER_CLIENT = env_int("SIGNUPS_PER_CLIENT", 5)

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
# An address-verification link works for this long (accounts/emails.py).
EMAIL_VERIFY_MAX_AGE = env_int("EMAIL_VERIFY_MAX_AGE", 3 * 24 * 3600)
# The site's address as mails link to it (a sweep has no request to build links from).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").strip().rstrip("/")
# A mail's unsubscribe link works this long, and only while the account has the address it was
# mailed to (accounts/emails.py).
UNSUBSCRIBE_MAX_AGE = env_int("UNSUBSCRIBE_MAX_AGE", 60 * 24 * 3600)
# Mails that leave the request (address verification, password resets) are tasks queued in the
# database (django-tasks); each Daphne process's runner works the queue on its mail thread
# (games/live/task_worker.py), and `manage.py db_worker` may work it too.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
# Notification mails (games/notifications/mail.py): the worker mails a person what waited at
# least NOTIFICATION_MAIL_AFTER seconds unread (so what arrives together goes in one mail), and
# nothing older than NOTIFICATION_MAIL_WITHIN seconds. (NOTICE_MAIL_AFTER and NOTICE_MAIL_WITHIN,
# their names before, are still read.)
NOTIFICATION_MAIL_AFTER = float(
    os.environ.get("NOTIFICATION_MAIL_AFTER") or os.environ.get("NOTICE_MAIL_AFTER", "60")
)
NOTIFICATION_MAIL_WITHIN = float(
    os.environ.get("NOTIFICATION_MAIL_WITHIN")
    or os.environ.get("NOTICE_MAIL_WITHIN", str(2 * 24 * 3600))
)
# Web Push (pywebpush): on when both VAPID keys are set (`manage.py vapid_keys` makes a pair);
# the subject is how a push service reaches the site's operator.
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "").strip()
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "").strip()
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "").strip() or "mailto:bakehouse@localhost"
# The push services' hosts a browser's subscription may name
# (games/notifications/push_policy.py): a name, or *.domain for any name under it. By default
# those of Chrome and most Chromium browsers (FCM), Edge (WNS), Firefox (autopush) and Safari
# (APNs).
PUSH_SERVICE_HOSTS = [
    host.strip().lower()
    for host in os.environ.get(
        "PUSH_SERVICE_HOSTS",
        "fcm.googleapis.com,updates.push.services.mozilla.com,*.notify.windows.com,*.push.apple.com",
    ).split(",")
    if host.strip()
]


# --- language, static files, HTTPS, content security, logging ------------------------------------

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
# English only: no translation machinery (it cost every number a template shows a lookup of the
# active language, a tenth of a Cakehalla push). Formats stay those of LANGUAGE_CODE.
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # WhiteNoise's compressed, hashed files, or the finders' under DEBUG and in tests.
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or TESTING
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

# --- the live site: bots, pushes, presence, clocks, the house table, tournaments -----------------

# Bot moves run after the request, each in its own short transaction (games/live/runner.py).
# "after-commit": this process's runner makes them off the request, and its sweep wakes games
# where a bot must act and nothing moved for BOT_SWEEP_SECONDS (after a restart). "inline": at
# once in the same thread, each in its own transaction (the tests' deterministic mode).
BOT_MOVES = os.environ.get("BOT_MOVES", "after-commit")
if BOT_MOVES not in {"after-commit", "inline"}:
    raise RuntimeError("BOT_MOVES must be after-commit or inline.")
BOT_THREADS = env_int("BOT_THREADS", 2)
BOT_SWEEP_SECONDS = float(os.environ.get("BOT_SWEEP_SECONDS", "5"))

# Seconds a process that got SIGTERM spends finishing its moves, pushes, requests and sockets'
# closes before it stops (games/live/drain.py); give the process manager's stop timeout more.
DRAIN_SECONDS = float(os.environ.get("DRAIN_SECONDS", "15"))
# Seconds it first goes on serving while /healthz says "draining", for a balancer that checks it.
DRAIN_NOTICE_SECONDS = float(os.environ.get("DRAIN_NOTICE_SECONDS", "0"))
# How many of its sockets a draining process closes a second (more if that would take over two
# thirds of DRAIN_SECONDS): their pages come back to the process that follows it, and all at once
# they queued there for seconds behind each other's handshakes (docs/performance.md, "A rolling
# restart").
DRAIN_CLOSES_PER_SECOND = float(os.environ.get("DRAIN_CLOSES_PER_SECOND", "20"))

# Threads a Daphne process renders its sockets' pushes on (games/live/push_threads.py). One thread
# shared by every socket (Channels' default) queued pushes behind each other's database round trips.
PUSH_THREADS = env_int("PUSH_THREADS", 4)

# The garbage collector's thresholds for a serving process (bakery_site/asgi.py): a collection of
# the youngest objects every GC_YOUNG new containers (Python's default is 700), the older ones
# after 20 and 10 of those. A collection stops every socket of the process; at the default each
# pass carried a fixed cost of milliseconds here and a full one came every 5 s (80-400 ms at 100
# tables). See README, Speed.
GC_YOUNG = env_int("GC_YOUNG", 20_000)

# A socket re-checks its session before a push; a yes is trusted this many seconds (logout and
# account changes close sockets at once by message; this is the backstop if one is lost).
SOCKET_SESSION_RECHECK = float(os.environ.get("SOCKET_SESSION_RECHECK", "30"))

# Presence (games/services/presence.py): a seat counts as away after AWAY_SECONDS without a
# socket. Each process renews its open sockets' rows every sweep; a row not renewed for
# PRESENCE_STALE_SECONDS belongs to a process that died, and counts as closed from its last
# renewal.
AWAY_SECONDS = float(os.environ.get("AWAY_SECONDS", "30"))
PRESENCE_STALE_SECONDS = float(os.environ.get("PRESENCE_STALE_SECONDS", "20"))
# Pages without a table socket (the lobby, the inbox, profiles...) ask for the badge this often.
BADGE_POLL_SECONDS = env_int("BADGE_POLL_SECONDS", 60)
# A serving process gathers a table's presence changes this many seconds and announces them once
# (a table's four sockets opening one after another make one push to each screen, not six).
PRESENCE_GATHER_SECONDS = float(os.environ.get("PRESENCE_GATHER_SECONDS", "0.25"))
# Move clocks (games/services/clocks.py): every pace's seconds times this (browser tests shorten
# them; 1 in production). After STAND_INS_BEFORE_BOT stand-in moves in a row, a bot takes the seat.
PACE_SCALE = float(os.environ.get("PACE_SCALE", "1"))
# A rematch is dealt while its people are still on the finished table, whose pages then take
# them to the new one; its first clocks start this many seconds after the deal, and the table
# shows "starts in" meanwhile (games/services/clocks.py).
REMATCH_ARRIVAL_SECONDS = float(os.environ.get("REMATCH_ARRIVAL_SECONDS", "10"))
STAND_INS_BEFORE_BOT = env_int("STAND_INS_BEFORE_BOT", 3)
# A relaxed table (no clock) that has waited RELAXED_ABSENCE_SECONDS on a person with no socket at
# it for as long hands their seat to a house bot (games/services/absence.py); they may take it back.
RELAXED_ABSENCE_SECONDS = float(os.environ.get("RELAXED_ABSENCE_SECONDS", "300"))

# The house table (games/housetable/): when no person's game may be watched, each serving process
# looks this often whether to start one (one per site); its bots move every
# HOUSE_TABLE_MOVE_SECONDS, a pace watchers can follow (games/services/clocks.py).
HOUSE_TABLE = env_flag("HOUSE_TABLE", True)
HOUSE_TABLE_SWEEP_SECONDS = float(os.environ.get("HOUSE_TABLE_SWEEP_SECONDS", "5"))
HOUSE_TABLE_MOVE_SECONDS = float(os.environ.get("HOUSE_TABLE_MOVE_SECONDS", "2.5"))

# Tournaments (games/tournaments/): each serving process's runner sweeps them this often (start
# the due ones, pair the rounds, seat the arenas' free people, record ended tables). An arena
# seats fewer than a full table once its longest waiting has waited ARENA_SETTLE_SECONDS.
TOURNAMENT_SWEEP_SECONDS = float(os.environ.get("TOURNAMENT_SWEEP_SECONDS", "1"))
ARENA_SETTLE_SECONDS = float(os.environ.get("ARENA_SETTLE_SECONDS", "20"))
# A live Swiss round that comes due while entrants seem away (no page of the site with a socket,
# no "I'm here") waits for them this long at most, once they are told; then it is played by
# those here (games/tournaments/services/absence.py).
SWISS_CHECK_IN_SECONDS = float(os.environ.get("SWISS_CHECK_IN_SECONDS", "120"))
# A table that would seat people again with only their last table-mates waits for others to come
# free (to mix them) at most this long from when its longest waiting came free.
ARENA_MIX_SECONDS = float(os.environ.get("ARENA_MIX_SECONDS", "30"))
# The tournaments not over yet one person may be entered in at once.
TOURNAMENT_ENTRIES_AT_ONCE = env_int("TOURNAMENT_ENTRIES_AT_ONCE", 10)
# The site's own events, kept created ahead by the sweep (games/tournaments/schedule.py): an
# hourly arena per game at the fast pace (45 minutes) and a weekly turn-based Swiss per game.
TOURNAMENT_SCHEDULE: list[dict[str, object]] = [
    {
        "key": f"hourly-arena-{slug}",
        "name": f"Hourly {name} arena",
        "kind": slug,
        "format": "arena",
        "pace": "fast",
        "every": "hourly",
        "minute": 0,
        "minutes": 45,
        "seats": seats,
        "fewest": 2,
    }
    for slug, name, seats in (
        ("midnight-bakery", "Midnight Bakery", 4),
        ("cakehalla", "Cakehalla", 3),
    )
] + [
    {
        "key": f"weekly-swiss-{slug}",
        "name": f"Weekly {name} Swiss",
        "kind": slug,
        "format": "swiss",
        "pace": "day1",
        "every": "weekly",
        "weekday": 0,
        "hour": 18,
        "minute": 0,
        "rounds": 5,
        "seats": 4,
        "fewest": 3,
    }
    for slug, name in (("midnight-bakery", "Midnight Bakery"), ("cakehalla", "Cakehalla"))
]
