"""Who is here for a live Swiss's round, "I'm here", and what the away are told.

"Here" is what a person would think it means: any page of the site with a socket open lately
(a table of any game, played or watched; any tournament's page; quick pairing's waiting panel),
or "I'm here" pressed since the round before was paired (before the first, in the
CHECK_IN_AHEAD before the start). A page without a socket (a profile, the inbox) says nothing
by itself: the warning reaches it through the inbox badge, and "I'm here" answers it.

The rule (rounds.due_round applies it): a Swiss round that comes due while some entrants seem
away waits for them up to SWISS_CHECK_IN_SECONDS, and they are told at once (inbox, and mail or
push as each chose). It is paired as soon as everyone is here, or at the end of the wait with
those here (a bye for whoever the draw leaves over, as ever); the away sit the round out with
no points and are told so; two rounds missed in a row withdraw them (told, and they may join
again). At the end of the wait, fewer here than a table needs for the first round call the
event off, and nobody here for a later round ends it after the rounds played, each in a
sentence. At a turn-based pace everyone is here.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext

from accounts.models import User
from games.notifications.services import Told
from games.pairing.models import Seek
from games.services import ServiceError
from games.services.presence import people_lately_here
from games.tournaments import reasons
from games.tournaments.models import Entrant, Round, Tournament
from games.tournaments.services.base import bump, now, tell_each
from games.tournaments.services.entry import lock_entrant

CHECK_IN_AHEAD = timedelta(minutes=5)
"""How long before a Swiss's start "I'm here" counts for its first round."""


def check_in_wait() -> timedelta:
    """How long a due round waits for entrants who seem away."""
    return timedelta(seconds=settings.SWISS_CHECK_IN_SECONDS)


def wait_words() -> str:
    """The wait as a sentence says it: "2 minutes", "90 seconds" (in the language active)."""
    return reasons.wait_said(round(settings.SWISS_CHECK_IN_SECONDS))


def check_ins_open(tournament: Tournament) -> datetime:
    """Since when "I'm here" counts for the next round: the round under way's pairing, or
    CHECK_IN_AHEAD before the start."""
    if tournament.current_round:
        paired = (
            Round.objects.filter(tournament=tournament, number=tournament.current_round)
            .values_list("paired_at", flat=True)
            .first()
        )
        if paired is not None:
            return paired
    return tournament.starts_at - CHECK_IN_AHEAD


def present(tournament: Tournament, entrants: list[Entrant], at: datetime) -> set[int]:
    """The entrants of a live Swiss who count as here (ids): a page of the site open lately, or
    "I'm here" pressed for this round (three queries at most, for those not known already)."""
    since = at - timedelta(seconds=settings.AWAY_SECONDS)
    opens = check_ins_open(tournament)
    here = {
        e.pk
        for e in entrants
        if (e.seen_at is not None and e.seen_at >= since)
        or (e.checked_in_at is not None and e.checked_in_at >= opens)
    }
    rest = {e.user_id: e.pk for e in entrants if e.pk not in here}
    if rest:
        here |= {rest[user_id] for user_id in on_the_site(list(rest), since)}
    return here


def on_the_site(user_ids: list[int], since: datetime) -> set[int]:
    """Which of these people had a socket of the site open since then: at a table, on a
    tournament's page, on quick pairing's waiting panel."""
    found = people_lately_here(user_ids)
    pages = Entrant.objects.filter(user_id__in=user_ids, seen_at__gte=since)
    found |= set(pages.values_list("user_id", flat=True))
    waiting = Seek.objects.filter(user_id__in=user_ids, last_seen__gte=since)
    return found | set(waiting.values_list("user_id", flat=True))


def check_in(tournament: Tournament | int, user: User) -> str:
    """ "I'm here": the entrant counts as here for the next round of a Swiss, whatever page
    they have open then."""
    with transaction.atomic():
        tournament, entrant = lock_entrant(tournament, user)
        if not tournament.is_swiss:
            raise ServiceError(
                gettext("An arena seats whoever has a page open: there is no check-in.")
            )
        at = now()
        if tournament.status == Tournament.Status.SCHEDULED and at < check_ins_open(tournament):
            raise ServiceError(
                gettext(
                    '"I\'m here" opens 5 minutes before the start: come back '
                    "then, or keep a page of Bakehouse open when it starts."
                )
            )
        entrant.checked_in_at = at
        entrant.seen_at = at
        entrant.save(update_fields=["checked_in_at", "seen_at"])
        bump(tournament)
    return gettext("Thank you: you are here for the next round of %(name)s.") % {
        "name": tournament.name
    }


def fitted(text: str, name: str) -> str:
    """The text with the tournament's name in {name}, the name cut short if the whole would
    pass a notification's 200 characters (the rule's words are kept whole)."""
    room = 200 - len(text.format(name=""))
    return text.format(name=name if len(name) <= room else name[: max(room - 1, 0)] + "…")


def away_words(number: int, name: str, playing: bool) -> str:
    """Before a round: the word to one who seems away (or plays a live table elsewhere), in the
    language active."""
    said = {"number": number, "wait": wait_words()}
    if playing:
        text = gettext(
            "Round %(number)d of {name} starts within %(wait)s and you are playing a live table "
            "elsewhere: finish or leave it, or the round goes on without you."
        )
    else:
        text = gettext(
            "Round %(number)d of {name} starts within %(wait)s and you seem away: press \"I'm "
            'here" on its page, or it goes on without you.'
        )
    return fitted(text % said, name)


def warn_away(
    tournament: Tournament, number: int, away: list[Entrant], busy: Collection[int] = ()
) -> None:
    """Before: the round is due and these entrants seem away (or, the ids in `busy`, play a
    live table elsewhere); each is told once, in their language, with what to do (the
    tournament's row is locked)."""
    key = f"tournament:{tournament.pk}:round:{number}:away"
    name = tournament.name
    tell_each(
        tournament,
        [Told(e.user_id, key, partial(away_words, number, name, e.pk in busy)) for e in away],
    )


def skipped_words(number: int, name: str, why: str) -> str:
    """After a round: the word to one who sat it out, by why (busy, withdrawn, next, last), in
    the language active."""
    said = {"number": number, "next": number + 1}
    if why == "busy":
        text = gettext(
            "Round %(number)d of {name} started without you: you were playing a live table "
            "elsewhere, and one plays one live table at a time. Two rounds missed in a row "
            "withdraw you."
        )
    elif why == "withdrawn":
        text = gettext(
            "You were withdrawn from {name} at round %(number)d: you were away two rounds in a "
            "row. Your points stay; join it again from its page to play the next round."
        )
    elif why == "next":
        text = gettext(
            "Round %(number)d of {name} started without you: you seemed away. Be here for round "
            '%(next)d (a page open, or "I\'m here"): two rounds missed in a row withdraw you.'
        )
    else:
        text = gettext("The last round of {name} started without you: you seemed away.")
    return fitted(text % said, name)


def tell_skipped(
    tournament: Tournament, number: int, skipped: list[Entrant], busy: Collection[int] = ()
) -> None:
    """After: these entrants sit round `number` out for being away, or (the ids in `busy`) at a
    live table elsewhere (still in, or withdrawn); each told in their language."""
    rounds_left = (tournament.rounds or 0) - number
    key = f"tournament:{tournament.pk}:round:{number}:skipped"
    told = []
    for e in skipped:
        if e.pk in busy and not e.withdrawn:
            why = "busy"
        elif e.withdrawn:
            why = "withdrawn"
        else:
            why = "next" if rounds_left > 0 else "last"
        told.append(Told(e.user_id, key, partial(skipped_words, number, tournament.name, why)))
    tell_each(tournament, told)


def nobody_came(
    tournament: Tournament, came: int, entrants: int, number: int
) -> tuple[str, dict[str, int]]:
    """Why a Swiss stopped for want of people here, as a code and its values (reasons.py says
    it in each reader's language)."""
    wait = round(settings.SWISS_CHECK_IN_SECONDS)
    if number == 1 and came == 0:
        return reasons.NOBODY_CAME, {"entrants": entrants, "wait": wait}
    if number == 1:
        values = {"came": came, "entrants": entrants, "fewest": tournament.fewest, "wait": wait}
        return reasons.TOO_FEW_CAME, values
    return reasons.NOBODY_FOR_ROUND, {"number": number}
