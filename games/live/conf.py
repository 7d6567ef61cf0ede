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
#: Seconds between two blank lines of an idle long-lived HTTP stream (games/live/streams.py), so
#: proxies and clients see it alive.
STREAM_KEEP_ALIVE_SECONDS = 20.0
#: Seconds between two looks at a stream's key (its token): one revoked or expired meanwhile
#: ends its streams within this.
STREAM_RECHECK_SECONDS = 3.0
#: Seconds between two of a stream's own looks for what its channel groups missed (a change made
#: where the layer does not reach, a message lost): a few indexed reads each, so not every
#: recheck.
STREAM_HEAL_SECONDS = 6.0
#: Streams one key (an API token) may hold open at once, over every process.
STREAMS_PER_KEY = 8
#: Streams one client address may hold open at once, whatever their keys (this host's own
#: address is not capped: a developer's or a bench's bots).
STREAMS_PER_ADDRESS = 40
