"""What the tournament services share: the row lock, versions and their announcement, the
time, and what people are told."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from django.db import connection, transaction

from accounts.models import User
from games.groups import send_to_group
from games.models import Game
from games.notifications.badge import badges_changed
from games.notifications.models import Notification
from games.notifications.services import keep_latest
from games.services import ServiceError, clocks
from games.tournaments.models import Tournament

TOLD = Notification.Kind.TOURNAMENT


def tournament_group(tournament_id: int) -> str:
    """The channel group of one tournament's pages."""
    return f"tournament_{tournament_id}"


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
        raise ServiceError("There is no such tournament.")
    return found


def lock_person(user: User) -> User:
    """The person's row, locked until the transaction ends: their own limits (tournaments
    waiting, chat lines) hold when they press twice at once (lock order: the person, then the
    tournament)."""
    no_key = connection.features.has_select_for_no_key_update
    return User.objects.select_for_update(no_key=no_key).get(pk=user.pk)


def bump(tournament: Tournament, fields: list[str] | tuple[str, ...] = ()) -> None:
    """Save the changed fields with a new version, announced to the tournament's pages once the
    transaction commits (the version only, never standings)."""
    tournament.version += 1
    tournament.save(update_fields=[*fields, "version"])
    pk, version = tournament.pk, tournament.version
    transaction.on_commit(
        lambda: send_to_group(
            tournament_group(pk), {"type": "tournament.changed", "version": version}
        )
    )


@dataclass(frozen=True)
class Told:
    """One thing one person is told: its key (once per person) and its words; the table it
    leads to, or else the tournament's page."""

    user_id: int
    key: str
    text: str
    game: Game | None = None
    replaces: str = ""
    """A key prefix: this person's older rows under it go (one at a time, not piled up)."""
    page_moves: bool = False
    """Their open pages go to the table once committed (seating.move_pages) and draw the menu's
    badge anew there: no badge is pushed to the sockets that are leaving (a Swiss round's 200)."""


def tell_each(tournament: Tournament, items: Iterable[Told]) -> None:
    """Store what these people are told (inbox, mail, push as each chose), once per key, with
    the change; their inbox badges move once it commits (on the page each is sent to, for
    those whose pages move)."""
    page = tournament.get_absolute_url()
    items = list(items)
    rows = [
        Notification(
            recipient_id=item.user_id,
            kind=TOLD,
            game=item.game,
            key=item.key,
            text=item.text[:200],
            url=item.game.get_absolute_url() if item.game is not None else page,
        )
        for item in items
    ]
    if not rows:
        return
    Notification.objects.bulk_create(rows, ignore_conflicts=True)
    for prefix in {item.replaces for item in items if item.replaces}:
        keep_latest(prefix, [item.user_id for item in items if item.replaces == prefix])
    told = [item.user_id for item in items if not item.page_moves]
    if told:
        transaction.on_commit(lambda: badges_changed(told))


def tell(
    tournament: Tournament, keys: Mapping[int, str], text: str, game: Game | None = None
) -> None:
    """Tell these people the same thing, each under their key."""
    tell_each(tournament, [Told(user_id, key, text, game) for user_id, key in keys.items()])


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st ..."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
