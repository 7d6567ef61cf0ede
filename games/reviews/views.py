"""The reviews' pages: a game's seats to review, one seat's review (its progress moving while it
is worked, by an htmx poll of its part), and the form that asks for one."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_GET

from accounts.models import User, signed_in
from games.access import AuthedRequest, HtmxHttpRequest, get_game_or_404, posted
from games.kinds.base import player_name
from games.models import Game, Seat
from games.reviews.masters import master_of
from games.reviews.models import Review
from games.reviews.services import ReviewRefused, ask_review, may_review
from games.reviews.summary import CLOSE, reading

POLL_SECONDS = 2
NOT_YOURS = gettext_lazy("This game is private: only that seat's player may read its review.")


def may_read(game: Game, user: User | AnonymousUser, seat: int) -> bool:
    """A public game's reviews are anyone's to read; a private game's, only that seat's player."""
    if not game.private:
        return True
    return signed_in(user) and may_review(game, user, seat)


def seats_of(game: Game) -> list[Seat]:
    """The game's seats, in order."""
    seats = game.seats.select_related("user").exclude(position=None)
    return sorted(seats, key=lambda s: s.position or 0)


def seat_or_404(game: Game, seat: int) -> Seat:
    """The seat at that position, or 404."""
    found = next((s for s in seats_of(game) if s.position == seat), None)
    if found is None:
        raise Http404(gettext("That game has no such seat."))
    return found


def review_context(
    game: Game, seat: int, user: User | AnonymousUser, refusal: str = ""
) -> dict[str, object]:
    """What the review page and its progress part show."""
    review = Review.objects.filter(game=game, seat=seat).first()
    master = master_of(game.kind)
    unit = master.unit if master else "points"
    ctx: dict[str, object] = {
        "game": game,
        "seat": seat,
        "seat_name": player_name(seats_of(game), seat),
        "review": review,
        "refusal": refusal,
        "mine": signed_in(user) and game.seats.filter(user=user, position=seat, bot="").exists(),
        "unit": unit,
        "close": CLOSE[unit],
        "poll": POLL_SECONDS,
        "replay": reverse("games:replay", args=[game.pk]),
    }
    if review is not None and review.whole:
        ctx["reading"] = reading(review.decisions, unit)
    return ctx


@require_GET
def game_reviews(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """A finished game's seats: each one's review, or the button that asks for it."""
    game = get_game_or_404(request, game_id)
    reviews = {r.seat: r for r in game.reviews.all()}
    rows = []
    for seat in seats_of(game):
        position = seat.position or 0
        user = request.user
        rows.append(
            {
                "seat": position,
                "name": player_name(seats_of(game), position),
                "review": reviews.get(position),
                "readable": may_read(game, user, position),
                "askable": signed_in(user) and may_review(game, user, position),
                "mine": signed_in(user) and seat.user_id == user.pk and not seat.bot,
            }
        )
    over = game.status == Game.Status.OVER
    return render(request, "reviews/game_reviews.html", {"game": game, "rows": rows, "over": over})


@require_GET
def review_page(request: HtmxHttpRequest, game_id: int, seat: int) -> HttpResponse:
    """One seat's review: its progress while it is worked, then the whole review."""
    game = get_game_or_404(request, game_id)
    seat_or_404(game, seat)
    if not may_read(game, request.user, seat):
        return render(request, "games/refused.html", {"message": NOT_YOURS}, status=403)
    ctx = review_context(game, seat, request.user)
    if request.htmx:
        return render(request, "reviews/_review.html", ctx)
    return render(request, "reviews/review.html", ctx)


@posted
def ask(request: AuthedRequest, game_id: int, seat: int) -> HttpResponse:
    """Ask for a review of a seat: queued, or the one already there; a refusal in words."""
    game = get_game_or_404(request, game_id)
    seat_or_404(game, seat)
    try:
        ask_review(game, request.user, seat)
    except ReviewRefused as refused:
        ctx = review_context(game, seat, request.user, refusal=str(refused))
        if not may_read(game, request.user, seat):
            ctx["review"] = None
            ctx.pop("reading", None)
        template = "reviews/_review.html" if request.htmx else "reviews/review.html"
        return render(request, template, ctx, status=400)
    url = reverse("reviews:review", args=[game.pk, seat])
    if request.htmx:
        return render(request, "reviews/_review.html", review_context(game, seat, request.user))
    return redirect(url)
