"""Asking for a review: who may, when, how many; each refusal a sentence that changes nothing.

A player of a finished game may ask for a review of their own seat; anyone signed in may ask for
any seat of a public game once it is over. Asked twice, the existing review is the answer. A
review is queued (its row is the queue: games/reviews/lane.py works it); the count of a person's
asks in a day and the site's waiting reviews are capped.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from accounts.models import User
from games.models import Game
from games.records import archive
from games.reviews.masters import master_of
from games.reviews.models import Review
from games.services import ServiceError

WAITING = (Review.Status.QUEUED, Review.Status.WORKING)


class ReviewRefused(ServiceError):
    """A review that cannot be asked for; the message says why in a sentence."""


def may_review(game: Game, user: User, seat: int) -> bool:
    """A player of the game may review their own seat; anyone, any seat of a public game."""
    own = game.seats.filter(user=user, position=seat, bot="").exists()
    return own or not game.private


def check_review(game: Game, user: User, seat: int) -> None:
    """Every reason this person may not ask for this review now, as a ReviewRefused."""
    positions = set(game.seats.exclude(position=None).values_list("position", flat=True))
    if seat not in positions:
        raise ReviewRefused(gettext("That game has no such seat."))
    if not may_review(game, user, seat):
        raise ReviewRefused(
            gettext("This game is private: you may ask for a review of your own seat only.")
        )
    if game.status != Game.Status.OVER:
        raise ReviewRefused(
            gettext("A game is reviewed once it is over: until then it hides its cards.")
        )
    if master_of(game.kind) is None:
        raise ReviewRefused(
            gettext("%(game)s has no master bot to review it yet.") % {"game": game.spec.name}
        )
    try:
        archive.engine_for(game.kind, game.rules_version)
    except archive.CannotRebuild as exc:
        raise ReviewRefused(
            gettext("This game cannot be reviewed. %(why)s") % {"why": exc}
        ) from exc
    day_ago = timezone.now() - timedelta(days=1)
    asked = Review.objects.filter(asked_by=user, created_at__gte=day_ago).count()
    if asked >= settings.REVIEWS_PER_DAY:
        raise ReviewRefused(
            ngettext(
                "You have asked for %(count)d review in the last day, the most a person may: "
                "ask again tomorrow.",
                "You have asked for %(count)d reviews in the last day, the most a person may: "
                "ask again tomorrow.",
                asked,
            )
            % {"count": asked}
        )
    if Review.objects.filter(status__in=WAITING).count() >= settings.REVIEWS_QUEUED_MAX:
        raise ReviewRefused(
            gettext(
                "Too many reviews are waiting to be worked just now: please ask again in a few "
                "minutes."
            )
        )


def iterations_for(kind: str) -> int:
    """How long the master weighs each decision of this game (REVIEW_ITERATIONS_<GAME>)."""
    knob = f"REVIEW_ITERATIONS_{kind.upper().replace('-', '_')}"
    return max(1, int(getattr(settings, knob, 1)))


def ask_review(game: Game, user: User, seat: int) -> tuple[Review, bool]:
    """The review of this seat, queued now or already there (then False): ReviewRefused if this
    person may not ask for it."""
    existing = Review.objects.filter(game=game, seat=seat).first()
    if existing is not None and may_review(game, user, seat):
        return existing, False
    check_review(game, user, seat)
    try:
        with transaction.atomic():
            review = Review.objects.create(
                game=game, seat=seat, asked_by=user, iterations=iterations_for(game.kind)
            )
    except IntegrityError:  # asked at the same instant by someone else: theirs is the answer
        return Review.objects.get(game=game, seat=seat), False
    return review, True
