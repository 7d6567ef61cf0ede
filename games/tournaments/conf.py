"""The tournaments' knobs. Each is a setting of that name, its default here; the environment
variable of the same name sets it (all but the schedule: bakery_site/env.py, feature_knobs), and
a test sets it as any setting."""

#: Seconds between each serving process's sweeps of the tournaments (start the due ones, pair the
#: rounds, seat the arenas' free people, record ended tables).
TOURNAMENT_SWEEP_SECONDS = 1.0
#: Seconds an arena's longest waiting waits before it seats fewer than a full table.
ARENA_SETTLE_SECONDS = 20.0
#: Seconds, at most, from when its longest waiting came free, that a table which would seat people
#: again with only their last table-mates waits for others to come free (to mix them).
ARENA_MIX_SECONDS = 30.0
#: Seconds, at most, a live Swiss round that came due waits, once they are told, for entrants who
#: seem away (no page of the site with a socket, no "I'm here"); then those here play it
#: (games/tournaments/services/absence.py).
SWISS_CHECK_IN_SECONDS = 120.0
#: Tournaments not over yet that one person may be entered in at once.
TOURNAMENT_ENTRIES_AT_ONCE = 10

#: The site's own events, kept created ahead by the sweep (games/tournaments/schedule.py): an
#: hourly arena per game at the fast pace (45 minutes) and a weekly turn-based Swiss per game.
TOURNAMENT_SCHEDULE: list[dict[str, object]] = [
    {
        "key": f"hourly-arena-{slug}",
        "name": f"Hourly {name} arena",
        "kind": slug,
        "format": "arena",
        "pace": "fast",
        "every": "hourly",
        "minute": 0,
        "minutes": 45,
        "seats": seats,
        "fewest": 2,
    }
    for slug, name, seats in (
        ("midnight-bakery", "Midnight Bakery", 4),
        ("cakehalla", "Cakehalla", 3),
    )
] + [
    {
        "key": f"weekly-swiss-{slug}",
        "name": f"Weekly {name} Swiss",
        "kind": slug,
        "format": "swiss",
        "pace": "day1",
        "every": "weekly",
        "weekday": 0,
        "hour": 18,
        "minute": 0,
        "rounds": 5,
        "seats": 4,
        "fewest": 3,
    }
    for slug, name in (("midnight-bakery", "Midnight Bakery"), ("cakehalla", "Cakehalla"))
]
