"""The house table's knobs. Each is a setting of that name, its default here; the environment
variable of the same name sets it (bakery_site/env.py: feature_knobs), and a test sets it as any
setting."""

#: Whether the site plays a house table when no person's game may be watched (one per site).
HOUSE_TABLE = True
#: Seconds between each serving process's looks at whether to start one.
HOUSE_TABLE_SWEEP_SECONDS = 5.0
#: Seconds between its bots' moves, a pace watchers can follow (games/services/clocks).
HOUSE_TABLE_MOVE_SECONDS = 2.5
