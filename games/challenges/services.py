"""Challenges: made, accepted, declined and cancelled, each checked, each told.

A challenge is told to the challenged as a notification (notifications.tell_each, the one way:
their inbox leads to the challenge's page, where a form answers it; their API event stream says
it), and its answer to the challenger the same way. Accepting seats the two at a new table and
deals it at once (services.seat_people, as quick pairing and tournaments seat people: it checks
the blocks again), house bots in any other seat; their open pages go to the table
(events.seated).
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from accounts.friends import blocked_between
from accounts.models import User
from games import catalog, events, services
from games.challenges.models import Challenge
from games.kinds.base import AnyKind
from games.models import TURN_BASED, Game
from games.notifications import services as notifications
from games.notifications.models import Notification
from games.services import NotAllowed, ServiceError, check_create

OPEN_CHALLENGES = 5
"""Challenges one person may have waiting for an answer at once."""
PEOPLE = 2
"""The people a challenge seats: the challenger and the challenged."""
LIVE_EXPIRY = timedelta(minutes=20)
"""How long a challenge to a live table waits for its answer: the challenger waits at a screen."""
TURN_BASED_EXPIRY = timedelta(days=3)
"""How long a challenge to a turn-based table waits: a day's pace is answered within days."""


def expiry(pace: str) -> timedelta:
    """How long a challenge at this pace stays open unanswered."""
    return TURN_BASED_EXPIRY if pace in TURN_BASED else LIVE_EXPIRY


def waiting(by: User) -> QuerySet[Challenge]:
    """This person's challenges still waiting for an answer (not lapsed)."""
    unexpired = Q(expires_at__isnull=True) | Q(expires_at__gt=timezone.now())
    return Challenge.objects.filter(unexpired, challenger=by, status=Challenge.Status.OPEN)


class Unknown(ServiceError):
    """Nobody by that name or number."""

    status = 404


class TooMany(ServiceError):
    """More open challenges than OPEN_CHALLENGES."""

    status = 429


def challengeable(name: str) -> User:
    """The person (or bot account) called so; Unknown for a house bot or a closed account."""
    found = User.objects.filter(username__iexact=name, is_active=True, is_bot=False).first()
    if found is None or found.deleted_at is not None:
        raise Unknown(
            gettext("There is nobody called %(name)s to challenge.") % {"name": repr(name)}
        )
    return found


def check_challenge(by: User, to: User, kind: str, players: int, pace: str) -> AnyKind:
    """The game of a challenge this person may make now, or a ServiceError saying why not."""
    if to.pk == by.pk:
        raise ServiceError(gettext("You cannot challenge yourself."))
    if blocked_between(by, to):
        raise NotAllowed(gettext("You cannot challenge %(name)s.") % {"name": to.username})
    spec = check_create(kind, players, {})
    if players < PEOPLE:
        raise ServiceError(
            gettext("A challenge seats at least %(people)d players: the two of you.")
            % {"people": PEOPLE}
        )
    if pace not in Game.Pace.values:
        raise ServiceError(
            gettext("There is no pace %(pace)s: choose one of %(paces)s.")
            % {"pace": repr(pace), "paces": ", ".join(Game.Pace.values)}
        )
    open_now = waiting(by)
    if open_now.filter(challenged=to).exists():
        raise ServiceError(
            gettext("You challenged %(name)s already: wait for their answer.")
            % {"name": to.username}
        )
    if open_now.count() >= OPEN_CHALLENGES:
        raise TooMany(
            gettext("You have %(count)d challenges waiting for an answer: cancel one first.")
            % {"count": OPEN_CHALLENGES}
        )
    return spec


LIVE_PACE_NAMES = {
    "relaxed": gettext_lazy("Relaxed"),
    "normal": gettext_lazy("Normal"),
    "fast": gettext_lazy("Fast"),
}
"""Each live pace by its name alone, as a challenge says it (the lists say its clock too)."""


def pace_words(pace: str) -> str:
    """A pace as a person reads it ("Relaxed"), in the language active: every turn-based pace
    (games.models.TURN_BASED) is "Turn-based"."""
    if pace in TURN_BASED:
        return gettext("Turn-based")
    return str(LIVE_PACE_NAMES.get(pace, pace))


def words(challenge: Challenge, spec: AnyKind) -> str:
    """What the challenge is, in a few words (in the active language)."""
    said = {"game": spec.name, "players": challenge.players, "pace": pace_words(challenge.pace)}
    if challenge.rated:
        return gettext("%(game)s, %(players)d players, %(pace)s, rated") % said
    return gettext("%(game)s, %(players)d players, %(pace)s, unrated") % said


@transaction.atomic
def challenge(by: User, name: str, kind: str, players: int, pace: str, rated: bool) -> Challenge:
    """Challenge the person called `name` to a table; they are told once it commits."""
    User.objects.select_for_update().filter(pk=by.pk).first()  # two posts at once count each other
    to = challengeable(name)
    spec = check_challenge(by, to, kind, players, pace)
    at = timezone.now()
    made = Challenge.objects.create(
        challenger=by,
        challenged=to,
        kind=kind,
        players=players,
        pace=pace,
        rated=rated,
        created_at=at,
        expires_at=at + expiry(pace),
    )
    told = notifications.Told(
        to.pk,
        f"challenge:{made.pk}",
        lambda: (
            gettext("%(name)s challenges you: %(what)s.")
            % {"name": by.username, "what": words(made, spec)}
        ),
        url=made.get_absolute_url(),
    )
    notifications.tell_each(Notification.Kind.INVITE, [told])
    return made


def already_words(status: str) -> str:
    """Why a challenge no longer open cannot be answered, by what became of it."""
    words: dict[str, str] = {
        Challenge.Status.ACCEPTED: gettext("This challenge is accepted already."),
        Challenge.Status.DECLINED: gettext("This challenge is declined already."),
        Challenge.Status.CANCELLED: gettext("This challenge is cancelled already."),
        Challenge.Status.EXPIRED: gettext("This challenge is expired already."),
    }
    return words.get(status, gettext("This challenge is answered already."))


def mine(user: User) -> QuerySet[Challenge]:
    """The challenges this person made or was made, newest first."""
    return Challenge.objects.filter(Q(challenger=user) | Q(challenged=user)).select_related(
        "challenger", "challenged", "game"
    )


def locked(challenge_id: int, user: User) -> Challenge:
    """The open challenge, locked, if this person is one of its two; else why not."""
    found = (
        Challenge.objects.select_for_update()
        .select_related("challenger", "challenged")
        .filter(pk=challenge_id)
        .first()
    )
    if found is None or user.pk not in (found.challenger_id, found.challenged_id):
        raise Unknown(gettext("There is no such challenge."))
    if found.status != Challenge.Status.OPEN:
        raise ServiceError(already_words(found.status))
    if found.lapsed():
        raise ServiceError(gettext("This challenge expired unanswered: make a new one to play."))
    return found


def answered(found: Challenge, status: str, game: Game | None = None) -> Challenge:
    """Store the answer, and tell the challenger (a cancel tells nobody)."""
    found.status, found.game, found.answered_at = status, game, timezone.now()
    found.save(update_fields=["status", "game", "answered_at"])
    if status != Challenge.Status.CANCELLED:
        named = {"name": found.challenged.username, "game": catalog.get(found.kind).name}
        told = notifications.Told(
            found.challenger_id,
            f"challenge:{found.pk}:answer",
            (lambda: gettext("%(name)s accepted: your table is dealt (%(game)s).") % named)
            if game is not None
            else (lambda: gettext("%(name)s declined (%(game)s).") % named),
            game=game,
            url=found.get_absolute_url(),
        )
        notifications.tell_each(Notification.Kind.INVITE, [told])
    return found


def accept(challenge_id: int, user: User) -> Challenge:
    """The challenged accepts: the table is made and dealt with both at it (house bots in the
    other seats), and both their open pages go there."""
    with transaction.atomic():
        found = locked(challenge_id, user)
        if user.pk != found.challenged_id:
            raise NotAllowed(gettext("Only the challenged person can accept a challenge."))
        spec = check_create(found.kind, found.players, {})
        game = services.seat_people(
            found.kind,
            [found.challenger, found.challenged],
            pace=found.pace,
            rated=found.rated,
            bots=[spec.house_bot] * (found.players - PEOPLE),
        )
        answered(found, Challenge.Status.ACCEPTED, game)
        people, url = [found.challenger_id, found.challenged_id], game.get_absolute_url()
        transaction.on_commit(lambda: seated(people, url))
    return found


def seated(user_ids: list[int], url: str) -> None:
    """These people were seated at the table at `url`: their open pages go there."""
    for user_id in user_ids:
        events.seated.tell(user_id, url)


@transaction.atomic
def decline(challenge_id: int, user: User) -> Challenge:
    """The challenged says no; the challenger is told."""
    found = locked(challenge_id, user)
    if user.pk != found.challenged_id:
        raise NotAllowed(
            gettext("Only the challenged person can decline a challenge: cancel yours.")
        )
    return answered(found, Challenge.Status.DECLINED)


@transaction.atomic
def cancel(challenge_id: int, user: User) -> Challenge:
    """The challenger takes it back before an answer."""
    found = locked(challenge_id, user)
    if user.pk != found.challenger_id:
        raise NotAllowed(gettext("Only the challenger can cancel a challenge: decline it instead."))
    return answered(found, Challenge.Status.CANCELLED)
