"""What the example bot's test does to its own live site's database, run as a command in the
site's environment (the test's own database is another): `prepare KIND...` opens a table for
a person and makes a fresh account's token, for each game; `start GAME...` starts each table and
hands the person's seat to a house bot, so the bot account plays against a house bot to the end;
`account NAME...` makes a fresh account (no game yet) and its token, for each name.

    python -m games.api.tests.on_site prepare cakehalla   # prints [{"game": .., "token": ..}]
    python -m games.api.tests.on_site start 12
    python -m games.api.tests.on_site account robo droid   # prints [{"name": .., "token": ..}]
"""

from __future__ import annotations

import json
import sys

BOT_SCOPES = ["account:read", "games:play", "bot:play"]


def prepare(kind: str) -> dict[str, object]:
    """A person's open two-seat table of this kind, and a token for a new account (no game
    yet) that the example bot upgrades and seats."""
    from accounts import tokens
    from accounts.models import User
    from games import services

    host = User.objects.create_user(username=f"hana-{kind}")
    bot = User.objects.create_user(username=f"robo-{kind}")
    game = services.create_game(host, kind, 2)
    return {"game": game.pk, "token": tokens.make(bot.pk, "example", BOT_SCOPES, None).token}


def account(name: str) -> dict[str, object]:
    """A new account of this name with no game yet, and a token the example bot upgrades."""
    from accounts import tokens
    from accounts.models import User

    user = User.objects.create_user(username=name)
    return {"name": name, "token": tokens.make(user.pk, "example", BOT_SCOPES, None).token}


def start(game_id: str) -> dict[str, object]:
    """Start the table (the host, as the page's Start does) and resign the host's seat: a house
    bot plays it from there."""
    from games import services
    from games.models import Game

    game = Game.objects.get(pk=int(game_id))
    services.start(game, game.host)
    services.resign(game.pk, game.host)
    return {"game": game.pk}


def main(argv: list[str]) -> None:
    import django

    django.setup()
    what, *args = argv
    command = {"prepare": prepare, "start": start, "account": account}[what]
    print(json.dumps([command(arg) for arg in args]))


if __name__ == "__main__":
    main(sys.argv[1:])
