"""The tournament scenarios' set-up steps, written through Django with the site's environment.

Run as `python -m bench.web.tourney STEP ARGS-AS-JSON`; prints one JSON object. The events are
made and started through the tournament services, as the site makes them; only the standings
scenario writes its entrants' figures straight to the database (a tournament of 1,000 people
under way, played out, would take the bench longer than the page it measures).

- arena {"people": [...], "minutes": M}: a Midnight Bakery arena at tables of four, everyone in
  and here, started: {"tournament": id, "tables": {username: game id}}.
- swiss {"people": [...], "rounds": R}: a Midnight Bakery Swiss at tables of four starting in an
  hour, everyone in (an earlier scenario's event stopped and their running tables aborted),
  each person with a waiting table of their own (a page whose socket hears their pushes), and a
  running table of two others to warm the processes with:
  {"tournament": id, "waiting": {username: game id}, "warm": game id}.
- go {"tournament": id}: everyone here, the start moved to now (the sweep of a Daphne process
  pairs the round): {"t0": epoch seconds}.
- round {"tournament": id, "number": N}: {"paired_at": epoch seconds or null, "tables": n,
  "skipped": n}.
- standings {"entrants": N}: an arena an hour under way with N entrants and their figures
  (nobody here, so no table is seated while the page is asked): {"tournament": id, "url": its
  page, or "" while the site has none}.
- stop {"tournament": id}: stopped as a moderator stops one (nothing paired after the run).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import sys
from collections.abc import Callable
from datetime import timedelta
from typing import Any


def arena(people: list[str], minutes: int) -> dict[str, Any]:
    from accounts.models import User
    from games.tournaments import services
    from games.tournaments.models import Entrant, Tournament

    users = list(User.objects.filter(username__in=people))
    rules = services.Rules(
        name="Bench arena",
        kind="midnight-bakery",
        format="arena",
        pace="relaxed",
        starts_at=services.now() + timedelta(hours=1),  # no sweep starts it before all joined
        seats=4,
        minutes=minutes,
    )
    tournament = services.create(None, rules)
    for user in users:
        services.join(tournament, user)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=services.now())
    services.start(tournament)  # or a Daphne process's sweep did, and this finds it started
    seated = Entrant.objects.filter(tournament=tournament).exclude(table=None)
    rows = seated.values_list("user__username", "table__game_id")
    return {"tournament": tournament.pk, "tables": dict(rows)}


def swiss(people: list[str], rounds: int) -> dict[str, Any]:
    from accounts.models import User
    from games import services as tables
    from games.tournaments import services

    users = list(User.objects.filter(username__in=people))
    free_of_earlier_events(users)
    rules = services.Rules(
        name="Bench Swiss",
        kind="midnight-bakery",
        format="swiss",
        pace="relaxed",
        starts_at=services.now() + timedelta(hours=1),
        seats=4,
        rounds=rounds,
    )
    tournament = services.create(None, rules)
    waiting = {}
    for user in users:
        services.join(tournament, user)
        waiting[user.username] = tables.create_game(user, "midnight-bakery", 4).pk
    # A running table of two others, whose page each process draws once before the round: what a
    # serving process compiles on its first board is not the round's cost.
    warm = [User.objects.get_or_create(username=f"warm-{i}")[0] for i in range(2)]
    game = tables.seat_people("midnight-bakery", warm)
    return {"tournament": tournament.pk, "waiting": waiting, "warm": game.pk}


def free_of_earlier_events(users: list[Any]) -> None:
    """The arena scenario, run before on the same site, leaves its people at live tables of an
    event not over: a moderator stops it and aborts those tables, or the Swiss would (rightly)
    wait for its entrants playing live elsewhere (one person, one live table)."""
    from accounts.models import User
    from games.models import Game, Seat
    from games.services import moderation
    from games.tournaments import services
    from games.tournaments.models import Tournament

    moderator, _ = User.objects.get_or_create(
        username="bench-moderator", defaults={"is_staff": True, "is_superuser": True}
    )
    running = (Tournament.Status.SCHEDULED, Tournament.Status.RUNNING)
    events = Tournament.objects.filter(status__in=running, entrants__user__in=users)
    for tournament in events.distinct():
        services.stop(tournament, moderator, "The bench's next scenario.")
    seats = Seat.objects.filter(user__in=users, game__status=Game.Status.RUNNING)
    for game_id in set(seats.values_list("game_id", flat=True)):
        moderation.abort(game_id, moderator, "The bench's next scenario.")


def go(tournament: int) -> dict[str, Any]:
    from games.tournaments import services
    from games.tournaments.models import Entrant, Tournament

    for user_id in Entrant.objects.filter(tournament_id=tournament).values_list(
        "user_id", flat=True
    ):
        services.here(tournament, user_id)
    at = services.now()
    Tournament.objects.filter(pk=tournament).update(starts_at=at)
    return {"t0": at.timestamp()}


def round_of(tournament: int, number: int) -> dict[str, Any]:
    from games.tournaments.models import Round, Table

    made = Round.objects.filter(tournament_id=tournament, number=number).first()
    if made is None:
        return {"paired_at": None, "tables": 0, "skipped": 0}
    tables = Table.objects.filter(round=made).exclude(game=None).count()
    return {"paired_at": made.paired_at.timestamp(), "tables": tables, "skipped": len(made.skipped)}


def standings(entrants: int) -> dict[str, Any]:
    from django.contrib.auth.hashers import make_password
    from django.urls import NoReverseMatch, reverse

    from accounts.models import User
    from games.tournaments import services
    from games.tournaments.models import Entrant, Tournament

    names = [f"entrant-{i}" for i in range(entrants)]
    password = make_password(None)
    User.objects.bulk_create(
        [User(username=n, password=password) for n in names], batch_size=500, ignore_conflicts=True
    )
    rules = services.Rules(
        name="Bench standings",
        kind="midnight-bakery",
        format="arena",
        pace="relaxed",
        starts_at=services.now() + timedelta(hours=1),  # no sweep starts it meanwhile
        seats=4,
        minutes=24 * 60,
    )
    tournament = services.create(None, rules)
    rng = random.Random(39)
    Entrant.objects.bulk_create(
        [
            Entrant(
                tournament=tournament,
                user_id=pk,
                rating=1300 + rng.randrange(500),
                points=rng.choice([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]),
                buchholz=rng.randrange(80),
                wins=rng.randrange(4),
                games=3,
                streak=rng.randrange(3),
            )
            for pk in User.objects.filter(username__in=names).values_list("pk", flat=True)
        ],
        batch_size=500,
    )
    # Under way for an hour, nobody here now: the sweep seats no one while the page is asked.
    at = services.now()
    Tournament.objects.filter(pk=tournament.pk).update(
        status=Tournament.Status.RUNNING,
        starts_at=at - timedelta(hours=1),
        started_at=at - timedelta(hours=1),
        ends_at=at + timedelta(hours=23),
    )
    try:
        url = reverse("tournaments:detail", args=[tournament.pk])
    except NoReverseMatch:
        url = ""
    return {"tournament": tournament.pk, "url": url}


def stop(tournament: int) -> dict[str, Any]:
    from accounts.models import User
    from games.tournaments import services

    moderator = User.objects.order_by("pk").first()
    assert moderator is not None
    with contextlib.suppress(services.ServiceError):  # over already
        services.stop(tournament, moderator, "The bench run is over.")
    return {"stopped": tournament}


def main() -> None:
    """Run one step (see the module's docstring) and print its answer."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bakery_site.settings")
    import django

    django.setup()
    step, args = sys.argv[1], json.loads(sys.argv[2])
    steps: dict[str, Callable[..., dict[str, Any]]] = {
        "arena": arena,
        "swiss": swiss,
        "go": go,
        "round": round_of,
        "standings": standings,
        "stop": stop,
    }
    print(json.dumps(steps[step](**args)))


if __name__ == "__main__":
    main()
