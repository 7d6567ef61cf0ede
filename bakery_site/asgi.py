"""ASGI entry point: HTTP through Django, websockets through Channels."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bakery_site.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.exceptions import ImproperlyConfigured  # noqa: E402
from django.urls import get_resolver  # noqa: E402

from bakery_site.origin import SiteOriginValidator  # noqa: E402
from games.boards.jinja import compile_all  # noqa: E402
from games.live import drain, runner  # noqa: E402
from games.outages import HandshakeGuard  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402


def require_secret_key() -> None:
    """Refuse to serve at all, rather than at the first request, without a SECRET_KEY."""
    try:
        missing = not settings.SECRET_KEY
    except ImproperlyConfigured:
        missing = True
    if missing:
        raise ImproperlyConfigured("Set SECRET_KEY (50+ random characters), or DEBUG=1 to develop.")


require_secret_key()

# Bot moves run on this process's loop after each commit, and after a restart
# (games/live/runner.py); SIGTERM drains the process (games/live/drain.py).
application = drain.serve(
    runner.serve(
        ProtocolTypeRouter(
            {
                "http": django_asgi_app,
                "websocket": SiteOriginValidator(
                    HandshakeGuard(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
                ),
            }
        )
    )
)
runner.start_with_server()


def warm_up() -> None:
    """Do now what the first pages would wait for, since after a deploy they come all at once: the
    URL patterns imported and indexed (at the first reverse()) and the boards' templates compiled
    (games.boards.jinja.compile_all). A new process's first Midnight Bakery board took 135 ms
    without, 18 ms with (Cakehalla 62 and 15 ms; 1-3 ms a board later on)."""
    get_resolver().reverse_dict  # noqa: B018  # the property builds the index
    compile_all()


warm_up()

# What is loaded by now (Django, the apps, Twisted, the engines, the boards' templates) lives as
# long as the process.
# Frozen, the collector's full passes no longer walk it: each of them stopped every socket of a
# busy process for up to 140 ms (measured at 25 Cakehalla tables), a tail every player felt.
gc.collect()
gc.freeze()
# Fewer, larger collections of the young objects, so fewer survive into full passes (settings).
gc.set_threshold(settings.GC_YOUNG, 20, 10)
