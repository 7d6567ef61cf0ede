"""The tables' knobs: presence (who is at a table), the absence of a relaxed table's people, the
move clocks. Each is a setting of that name, its default here; the environment variable of the
same name sets it (bakery_site/env.py: feature_knobs), and a test sets it as any setting
(pytest-django's `settings`, override_settings). Here, not in games/services/, so the settings
read it without importing the services."""


# Presence (games/services/presence.py) and absence (games/services/absence.py).

#: Seconds without a socket after which a seat counts as away (games/services/presence.py).
AWAY_SECONDS = 30.0
#: Seconds a socket's row goes unrenewed before it counts as closed since its last renewal: its
#: process died (each process renews its open sockets' rows every sweep).
PRESENCE_STALE_SECONDS = 20.0
#: Seconds a process gathers a table's presence changes before it announces them once (a table's
#: four sockets opening one after another make one push to each screen, not six).
PRESENCE_GATHER_SECONDS = 0.25
#: Seconds a relaxed table (no clock) waits on a person with no socket at it, who has been away as
#: long, before a house bot takes their seat (games/services/absence.py); they may take it back.
RELAXED_ABSENCE_SECONDS = 300.0


# The move clocks (games/services/clocks/).

#: Every pace's seconds are multiplied by this (browser tests shorten them; 1 in production).
PACE_SCALE = 1.0
#: Seconds after a rematch's deal before its first clocks start, while its people come over from
#: the finished table (the table says "starts in" meanwhile).
REMATCH_ARRIVAL_SECONDS = 10.0
#: Stand-in moves in a row after which a bot takes the seat (games/services/clocks/stand_in.py).
STAND_INS_BEFORE_BOT = 3
