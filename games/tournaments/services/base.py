"""What the tournament services share: the row lock, versions and their announcement, the
time, and what people are told."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime

from django.db import connection, transaction
from django.utils.translation import get_language, gettext

from accounts.models import User
from games import events
from games.models import Game
from games.notifications import services as notifications
from games.notifications.models import Notification
from games.notifications.services import Told, Words
from games.services import ServiceError, clocks
from games.tournaments.models import Tournament

TOLD = Notification.Kind.TOURNAMENT


def now() -> datetime:
    """The tournaments' time: the move clocks' (tests move both by hand)."""
    return clocks.now()


def lock(tournament: Tournament | int) -> Tournament:
    """The tournament row, locked until the transaction ends: one change to a tournament at a
    time, in every process (lock order: the tournament, then its tables, then their games)."""
    if transaction.get_autocommit():
        raise transaction.TransactionManagementError("A tournament is locked in a transaction.")
    pk = tournament if isinstance(tournament, int) else tournament.pk
    found = Tournament.objects.select_for_update().filter(pk=pk).first()
    if found is None:
        raise ServiceError(gettext("There is no such tournament."))
    return found


def lock_person(user: User) -> User:
    """The person's row, locked until the transaction ends: their own limits (tournaments
    waiting, chat lines) hold when they press twice at once (lock order: the person, then the
    tournament)."""
    no_key = connection.features.has_select_for_no_key_update
    return User.objects.select_for_update(no_key=no_key).get(pk=user.pk)


def bump(
    tournament: Tournament, fields: list[str] | tuple[str, ...] = (), *, told: bool = True
) -> None:
    """Save the changed fields with a new version, announced to the tournament's pages once the
    transaction commits (the version only, never standings); `told` False: the caller
    announces it later in the transaction (announce)."""
    tournament.version += 1
    tournament.save(update_fields=[*fields, "version"])
    if told:
        announce(tournament)


def announce(tournament: Tournament) -> None:
    """The tournament's version as it is now, told to its pages once the transaction commits
    (after what the transaction's earlier hooks send)."""
    pk, version = tournament.pk, tournament.version
    transaction.on_commit(lambda: events.tournament_changed.tell(pk, version))


def tell_each(tournament: Tournament, items: Iterable[Told]) -> None:
    """Tell these people (notifications.services.tell_each, the one way), with the change: each
    is led to their table, or else to the tournament's page."""
    notifications.tell_each(TOLD, items, url=tournament.get_absolute_url())


def tell(
    tournament: Tournament, keys: Mapping[int, str], text: str | Words, game: Game | None = None
) -> None:
    """Tell these people the same thing, each under their key (Words: made in each one's
    language)."""
    tell_each(tournament, [Told(user_id, key, text, game) for user_id, key in keys.items()])


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st ...; in French 1er, 2e; in German 1., 2."""
    language = get_language() or "en"
    if language.startswith("fr"):
        return f"{n}er" if n == 1 else f"{n}e"
    if language.startswith("de"):
        return f"{n}."
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
