"""The live platform's knobs: the bot runner, the drain of a restart, the push threads, the
sockets' session check. Each is a setting of that name, its default here; the environment
variable of the same name sets it (bakery_site/env.py: feature_knobs), and a test sets it as any
setting (pytest-django's `settings`, override_settings)."""

import os

#: How bots move: "after-commit", this process's runner makes their moves off the request and its
#: sweep wakes tables where a bot must act and nothing moved for BOT_SWEEP_SECONDS (after a
#: restart); "inline", at once in the same thread, each in its own transaction (commands, tests).
BOT_MOVES = "after-commit"
#: Threads the runner makes bot moves on (games/live/runner.py). A master's move holds its
#: thread while it waits for the thinking pool (games/thinking.py).
BOT_THREADS = 2
#: Searches (a master bot's decision, a review's weighing) this process runs at once, each in a
#: worker process of its own (games/thinking.py); more wait their turn. 0 thinks in the caller's
#: thread (commands, tests). One per core by default.
THINKING_PROCESSES = os.cpu_count() or 1
#: How much lower than the serving process a thinking worker runs (os.nice): the pushes and pages
#: of people's tables go first; a search's budget is CPU time, so it only takes longer.
THINKING_NICENESS = 10
#: Seconds of CPU a master bot thinks over one decision at a table.
MASTER_BOT_SECONDS = 0.25
#: Seconds a table where a bot must act waits unmoved before the runner's sweep wakes it.
BOT_SWEEP_SECONDS = 5.0

#: Seconds a process that got SIGTERM spends finishing its moves, pushes, requests and sockets'
#: closes before it stops (games/live/drain.py); give the process manager's stop timeout more.
DRAIN_SECONDS = 15.0
#: Seconds it first goes on serving while /healthz says "draining", for a balancer that checks it.
DRAIN_NOTICE_SECONDS = 0.0
#: Sockets a draining process closes a second (more if that would take over two thirds of
#: DRAIN_SECONDS): all at once, their pages queued at the next process behind each other's
#: handshakes (docs/performance.md, "A rolling restart").
DRAIN_CLOSES_PER_SECOND = 20.0

#: Threads a Daphne process renders its sockets' pushes on (games/live/push_threads.py); one
#: shared thread (Channels' default) queued pushes behind each other's database round trips.
PUSH_THREADS = 4

#: Seconds a socket trusts a yes of its session check before a push (logout and account changes
#: close sockets at once by message; this is the backstop if one is lost).
SOCKET_SESSION_RECHECK = 30.0

choices = {"BOT_MOVES": ("after-commit", "inline")}
"""The words a knob may take (the settings refuse to load with another)."""
