"""The setup step of the API's streams beside the tables (bench/web/streams.py): N bot accounts
and a personal access token each, written through Django before the run.

Run as `python -m bench.web.api_bots N` with the site's environment (DATABASE_URL); prints one
JSON object {username: token}. Tokens are made as Settings makes them (accounts.tokens.make:
shown once, stored hashed); a run's earlier tokens of the same accounts are revoked first.
"""

from __future__ import annotations

import json
import os
import sys

SCOPES = ["account:read", "games:play", "bot:play"]


def main() -> None:
    """Create (or reuse) bench-bot-0 .. bench-bot-(N-1), bot accounts, and print a new token
    for each."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bakery_site.settings")
    import django

    django.setup()
    from django.utils import timezone

    from accounts import tokens
    from accounts.models import User
    from accounts.tokens import AccessToken

    count = int(sys.argv[1])
    names = [f"bench-bot-{i}" for i in range(count)]
    have = set(User.objects.filter(username__in=names).values_list("username", flat=True))
    User.objects.bulk_create(
        [User(username=n, plays_by_api=True) for n in names if n not in have], batch_size=500
    )
    bots = User.objects.filter(username__in=names)
    AccessToken.objects.filter(user__in=bots, revoked_at=None).update(revoked_at=timezone.now())
    out = {bot.username: tokens.make(bot.pk, "bench", SCOPES, None).token for bot in bots}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
