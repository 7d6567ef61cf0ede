"""A tournament's rules in words, as its page states them (from the tournament's own row and the
draw's points by place; no query)."""

from __future__ import annotations

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
    needs = []
    if low is not None and high is not None:
        needs.append(f"a {game} rating from {low} to {high}")
    elif low is not None:
        needs.append(f"a {game} rating of at least {low}")
    elif high is not None:
        needs.append(f"a {game} rating of at most {high}")
    if tournament.games_min:
        needs.append(f"{tournament.games_min} rated games of {game}")
    if tournament.age_min_days:
        needs.append(f"an account at least {tournament.age_min_days} days old")
    bots = " Bot accounts may enter too." if tournament.bots_welcome else ""
    if not needs:
        return "Open to everyone with an account." + bots
    return "Needs " + ", ".join(needs) + "." + bots


def rules(tournament: Tournament) -> list[tuple[str, str]]:
    """The tournament's rules, each a heading and its words, as the page states them."""
    spec = catalog.get(tournament.kind)
    seats = (
        f"{tournament.seats} people"
        if tournament.fewest == tournament.seats
        else f"{tournament.seats} people where the count allows, else as few as {tournament.fewest}"
    )
    own = bool(tournament.place_points)
    points = "; ".join(
        f"at a table of {n}: {points_words(scoring.place_points(n, tournament.place_points))}"
        for n in sizes(tournament)
    )
    said = [
        ("Format", format_words(tournament)),
        (
            "Game",
            f"{spec.name}; pace: {pace_words(tournament.pace)}. Every game is rated as any other.",
        ),
        ("Tables", f"Seat {seats}."),
        (
            "Points by place",
            f"{points[:1].upper()}{points[1:]} ({'set by its creator' if own else 'the defaults'})."
            " People who share a place share the points of the places they cover.",
        ),
    ]
    if tournament.is_swiss:
        said.append(("Bye", bye_words(tournament)))
    else:
        said.append(("Streak", streak_words(tournament)))
        said.append(
            (
                "Pause",
                "You may pause (you keep your points and get no new table) and come back "
                "when you like.",
            )
        )
    said += [
        (
            "Tie-breaks",
            "1) points, 2) Buchholz (the sum of the points of everyone a person met, once per "
            "meeting), 3) wins (first places), 4) rating at entry.",
        ),
        ("Away", away_words(tournament)),
        ("Leaving", leaving_words(tournament)),
        ("Blocks", "Two people where one blocks the other never share a table."),
        ("Entry", entry_words(tournament)),
    ]
    if tournament.max_entrants is not None:
        said.append(("Entrants", f"At most {tournament.max_entrants}."))
    return said


def format_words(tournament: Tournament) -> str:
    """What kind of event it is, in a sentence."""
    if tournament.is_swiss:
        rounds = tournament.rounds or 0
        return (
            f"Swiss of {rounds} round{'s' if rounds != 1 else ''}: each round seats people by "
            "their standing, the leaders together, and keeps people who met before apart where "
            "it can."
        )
    late = int(LATE_JOIN_CUTOFF.total_seconds() // 60)
    return (
        f"Arena of {tournament.minutes} minutes: whoever finishes a table is seated again as "
        f"soon as enough are free. No table starts after the end; those under way still count. "
        f"Late entrants are taken until {late} minutes before the end."
    )


def bye_words(tournament: Tournament) -> str:
    """The Swiss bye rule."""
    if tournament.bye == Tournament.Bye.BOT:
        return (
            "When the count does not divide into tables, house bots fill the last table, "
            "so everyone plays."
        )
    points = scoring.bye_points(tournament.seats, tournament.place_points)
    return (
        "When the count does not divide into tables, who is left over sits the round out "
        f"with a bye worth {points:g} points (the middle place's at a full table): the lowest "
        "standing among those with the fewest byes."
    )


def streak_words(tournament: Tournament) -> str:
    """The arena's streak bonus."""
    if not tournament.streak_bonus:
        return "No streak bonus."
    return f"A win after two wins in a row adds {tournament.streak_bonus} points."


def away_words(tournament: Tournament) -> str:
    """Who is skipped as away, and what it costs."""
    if tournament.pace in TURN_BASED:
        return "At this turn-based pace nobody is skipped as away."
    if tournament.is_arena:
        return (
            "At this live pace, an entrant with neither this page nor a table of the "
            "tournament open is not seated until they are back."
        )
    return (
        "At this live pace, you are here with any page of Bakehouse open (a table, this page, "
        'the waiting panel) or once you press "I\'m here" before the round. A round waits '
        f"up to {wait_words()} for those who seem away, who are told; then whoever is still "
        "away sits it out (no table, 0 points). Two rounds missed in a row withdraw you; you "
        "may join again while it runs."
    )


def leaving_words(tournament: Tournament) -> str:
    """What withdrawing does."""
    return (
        "Before the start your entry simply goes. After it you are out of the standings at the "
        "end (your points still count in others' Buchholz), and a house bot plays your table "
        "under way to its end."
    )
