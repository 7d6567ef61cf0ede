"""Notifications made and read: one row per person and event, and the inbox's services.

Each event (a turn come round, a game ended, a rematch offered, an invitation, a friend request;
receivers.py hears them once their change commits) becomes one Notification row per person. A
table keeps one turn row per person: a new turn told there deletes the older ones. A row's key
names its event for its person (the turn is the count of moves the person's seat had made),
unique per recipient: two processes that hear of the same turn store one row. Nobody is told of
their own doing: the person who offered, invited, or made the move that ended the game or brought
the turn round. The sweep (sweep.py) also looks at turn-based tables whose version moved, so a
turn whose signal was lost with its process is told all the same, under the same key.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from accounts.friends import blocked_between
from accounts.languages import supported
from accounts.models import User
from games.models import Action, Game, Seat, TableSocket
from games.notifications.badge import badges_changed
from games.notifications.models import Notification, PushSubscription

Kind = Notification.Kind

Words = Callable[[], str]
"""Words made in the active language: told, they are made in each person's own."""


def people(user_ids: Iterable[int], but: Iterable[int | None] = ()) -> list[int]:
    """The ids of the active people (no bot, no deleted account) among these, but those named."""
    left_out = {pk for pk in but if pk is not None}
    wanted = {pk for pk in user_ids if pk not in left_out}
    found = User.objects.filter(pk__in=wanted, is_bot=False, is_active=True, deleted_at=None)
    return sorted(found.values_list("pk", flat=True))


@dataclass(frozen=True)
class Told:
    """One thing one person is told: its key (once per person) and its words; the table it is
    about, if any; where it leads (else the table's page, or the teller's own page)."""

    user_id: int
    key: str
    text: str | Words
    game: Game | None = None
    replaces: str = ""
    """A key prefix: this person's older rows under it go (one at a time, not piled up)."""
    url: str = ""
    page_moves: bool = False
    """Their open pages go to the table once committed (a tournament's seating.move_pages) and
    draw the menu's badge anew there: no badge is pushed to the sockets that are leaving (a Swiss
    round's 200)."""


def tell_each(kind: str, items: Iterable[Told], url: str = "") -> None:
    """Store what each person is told, once per person and key (a key already stored is left
    as it is): the one way anything is told outside a table. The inbox shows it; the sweeps
    mail and push it as each person chose. `url`: where a row with no url nor table leads.
    Inside a transaction (a tournament's change), stored with it and the inbox badges moved once
    it commits (on the page each is sent to, for those whose pages move); outside one, at once."""
    items = list(items)
    languages = their_languages(items)
    rows = [
        Notification(
            recipient_id=item.user_id,
            kind=kind,
            game=item.game,
            key=item.key,
            text=words_for(item, languages)[: Notification.TEXT_LENGTH],
            url=item.url or (item.game.get_absolute_url() if item.game is not None else url),
        )
        for item in items
    ]
    if not rows:
        return
    Notification.objects.bulk_create(rows, ignore_conflicts=True)
    if kind == Kind.TURN:
        for game in {item.game for item in items if item.game is not None}:
            keep_latest_turns(game, [item.user_id for item in items if item.game == game])
    for prefix in {item.replaces for item in items if item.replaces}:
        keep_latest(prefix, [item.user_id for item in items if item.replaces == prefix])
    told = [item.user_id for item in items if not item.page_moves]
    if told:
        transaction.on_commit(lambda: badges_changed(told))


def their_languages(items: list[Told]) -> dict[int, str]:
    """The saved languages of the people whose words are made for them, read at once."""
    ids = [item.user_id for item in items if not isinstance(item.text, str)]
    return dict(User.objects.filter(pk__in=ids).values_list("pk", "language")) if ids else {}


def words_for(item: Told, languages: dict[int, str]) -> str:
    """The item's words, made in its person's saved language: the inbox, the mail and the push
    show them as stored."""
    if isinstance(item.text, str):
        return item.text
    with translation.override(supported(languages.get(item.user_id))):
        return item.text()


def tell(
    game: Game | None, kind: str, keys: dict[int, str], text: str | Words, url: str = ""
) -> None:
    """Tell these people the same thing, each under their key (a notification without a game
    needs its url)."""
    tell_each(kind, [Told(user_id, key, text, game, url=url) for user_id, key in keys.items()])


def turn_made(key: str) -> int:
    """The count of moves in a turn's key (turn:<game>:<made>)."""
    return int(key.rsplit(":", 1)[1])


def keep_latest_turns(game: Game, user_ids: Iterable[int]) -> int:
    """Delete these people's turn rows at this table but each one's latest turn; how many went.
    Whichever order two processes store turns in, the latest stays."""
    told = Notification.objects.filter(game=game, kind=Kind.TURN, recipient_id__in=list(user_ids))
    return keep_each_ones_latest(told)


def keep_latest(prefix: str, user_ids: Iterable[int]) -> int:
    """Delete these people's rows whose key starts with `prefix` but each one's latest (its key
    ends in the largest number): news told again replaces what it said before, one row at a
    time per person (a tournament's "Your next table is ready"); how many went."""
    told = Notification.objects.filter(recipient_id__in=list(user_ids), key__startswith=prefix)
    return keep_each_ones_latest(told)


def keep_each_ones_latest(told: QuerySet[Notification]) -> int:
    """Delete these rows but each recipient's latest (the largest number ending its key, then
    the newest row); how many went."""
    rows = list(told.values_list("pk", "recipient_id", "key"))
    latest: dict[int, tuple[int, int]] = {}
    for pk, user_id, key in rows:
        mine = (turn_made(key), pk)
        latest[user_id] = max(latest.get(user_id, mine), mine)
    kept = {pk for _, pk in latest.values()}
    gone = [pk for pk, _, _ in rows if pk not in kept]
    return Notification.objects.filter(pk__in=gone).delete()[0] if gone else 0


def last_mover(game: Game) -> int | None:
    """The person who made the game's latest move themselves (not a bot or a stand-in)."""
    last = Action.objects.filter(game=game, seq=game.moves, bot="")
    return last.values_list("user_id", flat=True).first()


def tell_turn(game: Game, user_ids: Iterable[int], by: int | None = None) -> None:
    """Tell these people it is their move at this turn-based table, once per turn."""
    if not game.turn_based or game.status != Game.Status.RUNNING:
        return
    ids = people(user_ids, but=[by, last_mover(game)])
    seats = Seat.objects.filter(game=game, user_id__in=ids, bot="", position__isnull=False)
    keys = {}
    for user_id, position in seats.values_list("user_id", "position"):
        made = Action.objects.filter(game=game, seat=position or 0).count()
        keys[user_id] = f"turn:{game.pk}:{made}"
    tell(game, Kind.TURN, keys, lambda: gettext("It is your move at %(game)s.") % {"game": game})


def tell_ended(game: Game) -> None:
    """Tell the game's people it is over, but whoever ended it and those watching it end."""
    if game.status != Game.Status.OVER:
        return
    seated = Seat.objects.filter(game=game, bot="").values_list("user_id", flat=True)
    here = TableSocket.objects.filter(game=game, open=True).values_list("user_id", flat=True)
    ids = people(seated, but=[last_mover(game), *here])
    keys = {pk: f"ended:{game.pk}" for pk in ids}
    tell(game, Kind.ENDED, keys, lambda: gettext("%(game)s is over.") % {"game": game})


def tell_rematch(new: Game, by: int) -> None:
    """Tell the people of a rematch who have not answered yet that it is offered."""
    if new.status != Game.Status.OPEN or new.rematch_of_id is None:
        return
    waiting = Seat.objects.filter(game=new, bot="", accepted=None).values_list("user_id", flat=True)
    ids = people(waiting, but=[by])
    offerer = User.objects.filter(pk=by).values_list("username", flat=True).first() or "Someone"
    said = {"name": offerer, "game": f"{new.spec.name} #{new.rematch_of_id}"}
    text = lambda: gettext("%(name)s offers a rematch of %(game)s.") % said  # noqa: E731
    tell(new, Kind.REMATCH, {pk: f"rematch:{new.pk}" for pk in ids}, text)


def invite_key(game: Game) -> str:
    """An invitation's key: one per person and table, whoever invites."""
    return f"invite:{game.pk}"


def invited_to(game: Game, user_ids: Iterable[int]) -> set[int]:
    """Which of these people were invited to this table already."""
    rows = Notification.objects.filter(key=invite_key(game), recipient_id__in=list(user_ids))
    return set(rows.values_list("recipient_id", flat=True))


def tell_invited(game: Game, by: int, to: Iterable[int]) -> None:
    """Tell these people they are invited to the table."""
    if game.status not in (Game.Status.OPEN, Game.Status.RUNNING):
        return
    ids = people(to, but=[by])
    host = User.objects.filter(pk=by).values_list("username", flat=True).first() or "Someone"
    url = game.invite_url if game.private else game.get_absolute_url()
    text = lambda: gettext("%(name)s invites you to %(game)s.") % {"name": host, "game": game}  # noqa: E731
    tell(game, Kind.INVITE, {pk: invite_key(game) for pk in ids}, text, url)


def settle_turns(game: Game, waiting_on: Iterable[int]) -> int:
    """Mark read the turns told at this table that are over (the table no longer waits on their
    person): old news is neither counted on the badge nor mailed; how many."""
    passed = Notification.objects.filter(game=game, kind=Kind.TURN, read_at=None).exclude(
        recipient_id__in=list(waiting_on)
    )
    told = set(passed.values_list("recipient_id", flat=True))
    if not told:
        return 0
    settled = passed.update(read_at=timezone.now())
    badges_changed(told)
    return settled


def waiting_on(game: Game, seats: Iterable[Seat], state: Any) -> list[int]:
    """The people whose move it is at the table in this state."""
    active = set(game.spec.engine.active_seats(state))
    return [seat.user_id for seat in seats if seat.position in active and not seat.bot]


def friends_page() -> str:
    """Where a friend notification leads: the friends page (requests to answer, friends)."""
    return reverse("games:friends")


def tell_friend(kind: str, by: int, to: int, request: int) -> None:
    """Tell `to` that `by` asked to be their friend ("asked"), or accepted their request
    ("accepted"); never oneself, a bot, a deleted account, or a blocked pair."""
    if not people([to], but=[by]) or blocked_between(by, to):
        return
    name = User.objects.filter(pk=by).values_list("username", flat=True).first() or "Someone"
    said = {
        "asked": lambda: gettext("%(name)s asks to be your friend.") % {"name": name},
        "accepted": lambda: gettext("%(name)s accepted your friend request.") % {"name": name},
    }
    text = said[kind]
    tell(None, Kind.FRIEND, {to: f"friend:{kind}:{request}"}, text, friends_page())


# --- the inbox (its unread count is the badge's, badge.unread_count) ------------------------


def mark_read(user: User, notification_id: int) -> Notification | None:
    """Mark one of the person's notifications read; None if they have no such notification."""
    found = Notification.objects.filter(recipient=user, pk=notification_id).first()
    if found is not None and found.read_at is None:
        found.read_at = timezone.now()
        found.save(update_fields=["read_at"])
        badges_changed([user.pk])
    return found


def mark_all_read(user: User) -> int:
    """Mark every unread notification of the person read; how many there were."""
    unread = Notification.objects.filter(recipient=user, read_at=None)
    marked = unread.update(read_at=timezone.now())
    if marked:
        badges_changed([user.pk])
    return marked


def remove(rows: QuerySet[Notification]) -> int:
    """Delete these notifications (a moderator, in admin); how many went. Their people's open
    pages are told once it commits: an unread one gone lowers the inbox badge."""
    recipients = set(rows.values_list("recipient_id", flat=True))
    removed = rows.delete()[0]
    if removed:
        transaction.on_commit(lambda: badges_changed(recipients))
    return removed


def forget(person: User, old_name: str) -> None:
    """A deleted account: its notifications and browsers go, and what others were told of it
    names the deleted baker (texts begin with the name of who invited or offered)."""
    Notification.objects.filter(recipient=person).delete()
    PushSubscription.objects.filter(user=person).delete()
    named = Notification.objects.filter(text__startswith=f"{old_name} ")
    for row in named.only("pk", "text"):
        row.text = person.username + row.text[len(old_name) :]
        row.save(update_fields=["text"])
