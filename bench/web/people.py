"""The setup step: people and their logged-in sessions, written through Django before the run.

Run as `python -m bench.web.people N` with the site's environment (DATABASE_URL); prints one JSON
object {username: session key}. It stands in for N sign-ups: one password hash shared by all
(hashing 400 passwords would cost the server minutes of CPU that no table needs), and a session
made the way django.contrib.auth.login makes one.
"""

from __future__ import annotations

import json
import os
import sys


def sessions_for(names: list[str]) -> dict[str, str]:
    """Make (or reuse) these people and a fresh session for each: {username: session key}."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.hashers import make_password

    from accounts.models import User

    have = set(User.objects.filter(username__in=names).values_list("username", flat=True))
    password = make_password("bench-web-password")
    User.objects.bulk_create(
        [User(username=n, password=password) for n in names if n not in have], batch_size=500
    )
    store = import_module(settings.SESSION_ENGINE).SessionStore
    out = {}
    for user in User.objects.filter(username__in=names):
        session = store()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.save()
        out[user.username] = session.session_key
    return out


def main() -> None:
    """Create (or reuse) bench-0 .. bench-(N-1) and print a fresh session for each."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bakery_site.settings")
    import django

    django.setup()
    count = int(sys.argv[1])
    print(json.dumps(sessions_for([f"bench-{i}" for i in range(count)])))


if __name__ == "__main__":
    main()
