"""A person's own data, as 'Download my data' gives it: profile, ratings, and their games.

Finished games come as their exports (archive.export), the same record anyone may download
from a finished game's page, so it hides nothing and shows no more than that. Games not
finished come as a line each (id, game, status, seat), never their state: a running game
still hides the other players' cards and picks.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Prefetch
from django.utils import timezone

from accounts import friends
from accounts.models import MAIL_KINDS, User, Vacation
from games.models import Action, ChatMessage, Game, Seat
from games.records import archive

DATA_FORMAT = "bakehouse-my-data/1"


def when(moment: datetime | None) -> str | None:
    """A time as ISO 8601, or None."""
    return moment.isoformat() if moment else None


def profile(person: User) -> dict[str, object]:
    """The account's own fields and settings."""
    return {
        "username": person.username,
        "date_joined": when(person.date_joined),
        "last_login": when(person.last_login),
        "last_seen": when(person.last_seen),
        "email": person.email,
        "email_verified": person.email_verified,
        "settings": {
            "move_sound": person.move_sound,
            **{f"mail_{kind}": getattr(person, f"mail_{kind}") for kind in MAIL_KINDS},
        },
    }


def ratings(person: User) -> list[dict[str, object]]:
    """Per game kind: the current rating and every point of its history, oldest first."""
    points: dict[str, list[dict[str, object]]] = {}
    for point in person.rating_points.order_by("kind", "at", "pk"):
        points.setdefault(point.kind, []).append(
            {"game_id": point.game_id, "rating": point.rating, "at": when(point.at)}
        )
    return [
        {
            "game": r.kind,
            "rating": r.rating,
            "mu": r.mu,
            "sigma": r.sigma,
            "games": r.games,
            "wins": r.wins,
            "provisional": r.provisional,
            "last_played_at": when(r.last_played_at),
            "history": points.get(r.kind, []),
        }
        for r in person.ratings.order_by("kind")
    ]


def finished_games(person: User) -> list[dict[str, object]]:
    """The export of every finished game the person sat at, oldest first."""
    sat = Seat.objects.filter(user=person).values("game_id")
    games = (
        Game.objects.filter(pk__in=sat, status=Game.Status.OVER)
        .order_by("finished_at", "pk")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("user")),
            Prefetch("actions", queryset=Action.objects.order_by("seq")),
        )
    )
    return [archive.export(g, list(g.seats.all()), list(g.actions.all())) for g in games]


def other_tables(person: User) -> list[dict[str, object]]:
    """Every other table the person sat at (open, running, cancelled, aborted): no state."""
    seats = (
        Seat.objects.filter(user=person)
        .exclude(game__status=Game.Status.OVER)
        .select_related("game")
        .order_by("game__created_at", "game_id")
    )
    return [
        {
            "id": s.game_id,
            "game": s.game.kind,
            "status": s.game.status,
            "created_at": when(s.game.created_at),
            "seat": s.name,
        }
        for s in seats
    ]


def tutorials(person: User) -> list[dict[str, object]]:
    """The person's guided first games: which game, when started, whether done (played to the
    end in their own seat, as the profile says): their seats at guided tables."""
    seats = Seat.objects.filter(user=person, game__guided=True).select_related("game")
    return [
        {
            "game_id": s.game_id,
            "game": s.game.kind,
            "started_at": when(s.game.created_at),
            "status": s.game.status,
            "done": s.game.status == Game.Status.OVER and not s.resigned,
        }
        for s in seats.order_by("game__created_at", "game_id")
    ]


def chat_lines(person: User) -> list[dict[str, object]]:
    """The person's own chat lines."""
    lines = ChatMessage.objects.filter(author=person).order_by("created_at", "pk")
    return [{"game_id": c.game_id, "at": when(c.created_at), "text": c.text} for c in lines]


def notifications(person: User) -> list[dict[str, object]]:
    """What the person was told (their inbox), oldest first."""
    rows = person.notifications.order_by("created_at", "pk")  # games/notifications/models.py
    return [
        {
            "kind": n.kind,
            "text": n.text,
            "link": n.url,
            "at": when(n.created_at),
            "read_at": when(n.read_at),
            "emailed_at": when(n.emailed_at),
        }
        for n in rows
    ]


def vacations(person: User) -> list[dict[str, object]]:
    """The person's days away, oldest first."""
    rows = Vacation.objects.filter(user=person).order_by("starts_at", "pk")
    return [
        {"starts_at": when(v.starts_at), "ends_at": when(v.ends_at), "days": v.days} for v in rows
    ]


def people(person: User) -> dict[str, list[str]]:
    """The person's friends, friend requests both ways, and the people they block, by name."""
    return {
        "friends": [u.username for u in friends.friends_of(person)],
        "asked_you": [u.username for u in friends.asking(person)],
        "you_asked": [u.username for u in friends.asked_by(person)],
        "blocked": [u.username for u in friends.blocked_by(person)],
    }


def personal_data(person: User) -> dict[str, object]:
    """Everything 'Download my data' holds, JSON-ready."""
    return {
        "format": DATA_FORMAT,
        "made_at": when(timezone.now()),
        "profile": profile(person),
        "ratings": ratings(person),
        "games": finished_games(person),
        "other_tables": other_tables(person),
        "tutorials": tutorials(person),
        "chat": chat_lines(person),
        "notifications": notifications(person),
        "vacations": vacations(person),
        "people": people(person),
    }
