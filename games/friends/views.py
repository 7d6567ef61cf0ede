"""Friends' pages: the buttons on a profile, the friends page (who is online, at which table),
and inviting a friend to your table (the invitation itself: games/notifications/invitations.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_noop as N_
from django.views.decorators.http import require_GET, require_POST

from accounts import friends
from accounts.models import User
from accounts.redirects import next_page
from games import services
from games.access import AuthedRequest, HtmxHttpRequest, get_game_or_404, watchable
from games.friends import services as friendship
from games.models import LIVE, Game, Seat, TableSocket
from games.notifications import invitations
from games.services import clocks

# --- the profile's buttons ------------------------------------------------------------------

CHANGES: dict[str, tuple[Callable[[User, User | None], object], str]] = {
    "ask": (friendship.ask, N_("You asked %(name)s to be your friend.")),
    "accept": (friendship.accept, N_("You and %(name)s are friends now.")),
    "decline": (friendship.decline, N_("You declined %(name)s's friend request.")),
    "remove": (friendship.remove, N_("%(name)s is no longer on your friends list.")),
    "block": (
        friendship.block,
        N_(
            "You block %(name)s: they cannot invite you, sit at your tables, or be seen in your "
            "chat."
        ),
    ),
    "unblock": (friendship.unblock, N_("You no longer block %(name)s.")),
}


def back_to(request: HttpRequest, person: User) -> str:
    """Where a friend button returns: the page that posted it (a path on this site), else the
    person's profile."""
    return next_page(request, reverse("profile", args=[person.username]))


@login_required
@require_POST
def change(request: AuthedRequest, username: str, verb: str) -> HttpResponse:
    """Ask, accept, decline, remove, block or unblock a person; told in words on the page."""
    if verb not in CHANGES:
        raise Http404(gettext("That link asks for a change we do not know: it may be mistyped."))
    person = get_object_or_404(User, username=username)
    fn, said = CHANGES[verb]
    try:
        now_friends = fn(request.user, person)
    except friendship.FriendRefused as refused:
        messages.error(request, str(refused))
    else:
        if verb == "ask" and now_friends:
            said = CHANGES["accept"][1]
        if verb in ("block", "unblock"):
            services.chat.redraw_everywhere(request.user.pk)
        messages.success(request, gettext(said) % {"name": person.username})
    return HttpResponseRedirect(back_to(request, person))


# --- the friends page -----------------------------------------------------------------------


@dataclass(frozen=True)
class Friend:
    """A friend as the friends page shows them: online now or not, and a table you may see."""

    user: User
    online: bool
    table: Game | None


def seen_lately() -> datetime:
    """Socket rows seen since then show their person online (here, or reconnecting)."""
    return clocks.now() - timedelta(seconds=settings.AWAY_SECONDS)


def where(people: Iterable[User], viewer: User) -> list[Friend]:
    """Each person online or not, with a live table they have open that the viewer may watch
    (never a private one the viewer is not at, nor one only its players may watch): two
    queries however many people."""
    people = list(people)
    rows = TableSocket.objects.filter(
        user__in=people, seen_at__gte=seen_lately(), game__status__in=LIVE
    ).order_by("-open", "-seen_at")
    at: dict[int, list[int]] = {}
    for user_id, game_id in rows.values_list("user_id", "game_id"):
        at.setdefault(user_id, []).append(game_id)
    ids = {g for games in at.values() for g in games}
    mine = Seat.objects.filter(user=viewer).values("game_id")
    shown = watchable(
        Game.objects.filter(pk__in=ids).filter(Q(private=False) | Q(pk__in=mine)), viewer
    )
    games = {g.pk: g for g in shown}
    return [
        Friend(
            user=person,
            online=person.pk in at,
            table=next((games[g] for g in at.get(person.pk, []) if g in games), None),
        )
        for person in people
    ]


@login_required
@require_GET
def friends_page(request: AuthedRequest) -> HttpResponse:
    """Your friends (online now, at which table), the requests waiting on you, your blocks."""
    mine = where(friends.friends_of(request.user), request.user)
    ctx = {
        "friends": sorted(mine, key=lambda f: (not f.online, f.user.username.lower())),
        "asking": friends.asking(request.user),
        "asked": friends.asked_by(request.user),
        "blocked": friends.blocked_by(request.user),
    }
    return render(request, "friends/page.html", ctx)


# --- inviting a friend to your table --------------------------------------------------------


def invite_context(
    game: Game, user: User | AnonymousUser, message: str = "", error: bool = False
) -> dict[str, object]:
    """What the table's invite panel shows this person (nothing unless they sit at it, open)."""
    people = invitations.invitable(game, user) if user.is_authenticated else []
    return {"game": game, "invitable": people, "message": message, "error": error}


@login_required
@require_POST
def invite(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Invite a friend to the table you sit at; the panel again with the outcome in words."""
    game = get_game_or_404(request, game_id)
    number = request.POST.get("user", "")
    friend = User.objects.filter(pk=int(number)).first() if number.isdigit() else None
    try:
        invited = invitations.invite(game, request.user, friend)  # type: ignore[arg-type]
    except services.ServiceError as refused:
        message, error = str(refused), True
    else:
        said = gettext("%(name)s is invited: they get the table's link.")
        message, error = said % {"name": invited.username}, False
    if not request.htmx:
        (messages.error if error else messages.success)(request, message)
        return redirect(game)
    ctx = invite_context(game, request.user, message, error)
    return render(request, "friends/_invite.html", ctx)
