"""A tournament's rules in words, as its page states them (from the tournament's own row and the
draw's points by place; no query)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import catalog
from games.models import TURN_BASED, Game
from games.tournaments import scoring
from games.tournaments.models import Tournament
from games.tournaments.services.absence import wait_words
from games.tournaments.services.entry import LATE_JOIN_CUTOFF


def points_words(points: list[float]) -> str:
    """6/4/2/0."""
    return "/".join(f"{p:g}" for p in points)


def sizes(tournament: Tournament) -> range:
    """The table sizes this tournament may seat."""
    return range(tournament.fewest, tournament.seats + 1)


def pace_words(pace: str) -> str:
    """A pace as its choice says it."""
    return str(Game.Pace(pace).label) if pace in Game.Pace.values else pace


def entry_words(tournament: Tournament) -> str:
    """The entry conditions in a sentence."""
    game = catalog.get(tournament.kind).name
    low, high = tournament.rating_min, tournament.rating_max
    named = {"game": game, "low": low, "high": high}
    needs = []
    if low is not None and high is not None:
        needs.append(_("a %(game)s rating from %(low)s to %(high)s") % named)
    elif low is not None:
        needs.append(_("a %(game)s rating of at least %(low)s") % named)
    elif high is not None:
        needs.append(_("a %(game)s rating of at most %(high)s") % named)
    if games := tournament.games_min:
        said = ngettext(
            "%(games)s rated game of %(game)s", "%(games)s rated games of %(game)s", games
        )
        needs.append(said % {"games": games, "game": game})
    if days := tournament.age_min_days:
        said = ngettext(
            "an account at least %(days)s day old", "an account at least %(days)s days old", days
        )
        needs.append(said % {"days": days})
    bots = " " + _("Bot accounts may enter too.") if tournament.bots_welcome else ""
    if not needs:
        return _("Open to everyone with an account.") + bots
    return _("Needs %(needs)s.") % {"needs": ", ".join(needs)} + bots


def rules(tournament: Tournament) -> list[tuple[str, str]]:
    """The tournament's rules, each a heading and its words, as the page states them."""
    spec = catalog.get(tournament.kind)
    most, fewest = tournament.seats, tournament.fewest
    seats = (
        _("Seat %(most)s people.") % {"most": most}
        if fewest == most
        else _("Seat %(most)s people where the count allows, else as few as %(fewest)s.")
        % {"most": most, "fewest": fewest}
    )
    points = "; ".join(
        _("at a table of %(size)s: %(points)s")
        % {"size": n, "points": points_words(scoring.place_points(n, tournament.place_points))}
        for n in sizes(tournament)
    )
    whose = _("set by its creator") if tournament.place_points else _("the defaults")
    said = [
        (_("Format"), format_words(tournament)),
        (
            _("Game"),
            _("%(game)s; pace: %(pace)s. Every game is rated as any other.")
            % {"game": spec.name, "pace": pace_words(tournament.pace)},
        ),
        (_("Tables"), seats),
        (
            _("Points by place"),
            f"{points[:1].upper()}{points[1:]} ({whose}). "
            + _("People who share a place share the points of the places they cover."),
        ),
    ]
    if tournament.is_swiss:
        said.append((_("Bye"), bye_words(tournament)))
    else:
        said.append((_("Streak"), streak_words(tournament)))
        said.append(
            (
                _("Pause"),
                _(
                    "You may pause (you keep your points and get no new table) and come back "
                    "when you like."
                ),
            )
        )
    said += [
        (
            _("Tie-breaks"),
            _(
                "1) points, 2) Buchholz (the sum of the points of everyone a person met, once "
                "per meeting), 3) wins (first places), 4) rating at entry."
            ),
        ),
        (_("Away"), away_words(tournament)),
        (_("Leaving"), leaving_words(tournament)),
        (_("Blocks"), _("Two people where one blocks the other never share a table.")),
        (_("Entry"), entry_words(tournament)),
    ]
    if tournament.max_entrants is not None:
        said.append((_("Entrants"), _("At most %(most)s.") % {"most": tournament.max_entrants}))
    return said


def format_words(tournament: Tournament) -> str:
    """What kind of event it is, in a sentence."""
    if tournament.is_swiss:
        rounds = tournament.rounds or 0
        return ngettext(
            "Swiss of %(rounds)s round: each round seats people by their standing, the leaders"
            " together, and keeps people who met before apart where it can.",
            "Swiss of %(rounds)s rounds: each round seats people by their standing, the leaders"
            " together, and keeps people who met before apart where it can.",
            rounds,
        ) % {"rounds": rounds}
    late = int(LATE_JOIN_CUTOFF.total_seconds() // 60)
    return _(
        "Arena of %(minutes)s minutes: whoever finishes a table is seated again as soon as"
        " enough are free. No table starts after the end; those under way still count. Late"
        " entrants are taken until %(late)s minutes before the end."
    ) % {"minutes": tournament.minutes, "late": late}


def bye_words(tournament: Tournament) -> str:
    """The Swiss bye rule."""
    if tournament.bye == Tournament.Bye.BOT:
        return _(
            "When the count does not divide into tables, house bots fill the last table, "
            "so everyone plays."
        )
    points = scoring.bye_points(tournament.seats, tournament.place_points)
    return _(
        "When the count does not divide into tables, who is left over sits the round out"
        " with a bye worth %(points)s points (the middle place's at a full table): the lowest"
        " standing among those with the fewest byes."
    ) % {"points": f"{points:g}"}


def streak_words(tournament: Tournament) -> str:
    """The arena's streak bonus."""
    if not tournament.streak_bonus:
        return _("No streak bonus.")
    return _("A win after two wins in a row adds %(points)s points.") % {
        "points": tournament.streak_bonus
    }


def away_words(tournament: Tournament) -> str:
    """Who is skipped as away, and what it costs."""
    if tournament.pace in TURN_BASED:
        return _("At this turn-based pace nobody is skipped as away.")
    if tournament.is_arena:
        return _(
            "At this live pace, an entrant with neither this page nor a table of the "
            "tournament open is not seated until they are back."
        )
    return _(
        "At this live pace, you are here with any page of Bakehouse open (a table, this page,"
        ' the waiting panel) or once you press "I\'m here" before the round. A round waits'
        " up to %(wait)s for those who seem away, who are told; then whoever is still"
        " away sits it out (no table, 0 points). Two rounds missed in a row withdraw you; you"
        " may join again while it runs."
    ) % {"wait": wait_words()}


def leaving_words(tournament: Tournament) -> str:
    """What withdrawing does."""
    return _(
        "Before the start your entry simply goes. After it you are out of the standings at the "
        "end (your points still count in others' Buchholz), and a house bot plays your table "
        "under way to its end."
    )
