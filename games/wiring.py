"""Who hears what, and what runs when: every receiver and every periodic job, registered here.

Read it top to bottom to know what follows a change. The events are declared in games/events.py
(the friends' too); the services and features send them once their change commits and never
import who hears them. Each serving process's runner (games/live/runner.py) schedules the jobs;
each job lives beside its feature. GamesConfig.ready() calls `wire` once per process, after every
app is loaded, so this module may import any feature: it sits above them all.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_save
from django_tasks.signals import task_enqueued

from games import events, groups, outages, services
from games.boards import shared
from games.housetable import services as house_table
from games.live import runner, sessions
from games.notifications import push
from games.notifications import receivers as notifications
from games.notifications import sweep as notifications_sweep
from games.pairing import services as pairing
from games.pairing import sweep as pairing_sweep
from games.reviews import lane as reviews
from games.services import presence
from games.tournaments import played_for as tournament_tables
from games.tournaments import services as tournaments
from games.tournaments import sweep as tournaments_sweep
from games.vacation import services as vacations


def wire() -> None:
    """Connect every receiver and register every periodic job (once per process)."""
    after_a_table_changes()
    around_the_tables()
    what_pages_are_told()
    sessions_and_sockets()
    periodic_jobs()


def after_a_table_changes() -> None:
    """What follows a new version's commit, in the order games/services/base.py: commit_version
    sends it (every change to a table: a person's move, a bot's, a stand-in's, the deal, ...)."""
    # 1. The table as just saved (moves of people, bots and stand-ins): this process's sockets
    #    keep it, so they push without reading it back; the turns it ended are no longer news.
    events.stored.hear(shared.on_stored, "boards.shared.on_stored")
    events.stored.hear(notifications.stored_here, "notifications.stored_here")
    # 2. The new version goes to the table's group (base.announce): every socket of the table,
    #    in every process, hears it through the channel layer (what_pages_are_told, below).
    # 3. Whose move came at a turn-based table: a notification each.
    events.turn_came.hear(notifications.turn_came_here, "notifications.turn_came_here")
    # 4. The game finished: its people are told; a tournament's table is recorded.
    events.game_ended.hear(notifications.game_ended_here, "notifications.game_ended_here")
    events.game_ended.hear(tournaments.game_ended_here, "tournaments.game_ended_here")
    # 5. A bot may have to act, or a clock to be timed: this process's runner looks.
    events.bots_due.hear(runner.bots_due_here, "runner.bots_due_here")


def around_the_tables() -> None:
    """What people are told outside a move: rematches, invitations, friends."""
    events.rematch_offered.hear(
        notifications.rematch_offered_here, "notifications.rematch_offered_here"
    )
    events.invited.hear(notifications.invited_here, "notifications.invited_here")
    # A tournament's table names its tournament and offers no rematch: the tournament seats.
    if tournament_tables.played_for not in services.PLAYED_FOR:
        services.PLAYED_FOR.append(tournament_tables.played_for)
    # Friends (games/friends/services.py): a request or a yes is told; a block takes it back.
    events.friend_asked.hear(notifications.friend_asked_here, "notifications.friend_asked")
    events.friend_accepted.hear(notifications.friend_accepted_here, "notifications.friend_accepted")
    events.friend_blocked.hear(notifications.friend_blocked_here, "notifications.friend_blocked")


def what_pages_are_told() -> None:
    """Everything open pages are told goes through the platform's one sender, games/groups.py:
    the services and features tell an event, and its receiver there says it to the sockets'
    channel group (nothing else sends to a group: tests/live/test_one_way_to_tell.py)."""
    events.new_version.hear(groups.new_version_here, "groups.new_version_here")
    events.presence_changed.hear(groups.presence_changed_here, "groups.presence_changed_here")
    events.chat_changed.hear(groups.chat_changed_here, "groups.chat_changed_here")
    events.inbox_changed.hear(groups.inbox_changed_here, "groups.inbox_changed_here")
    events.game_started.hear(groups.game_started_here, "groups.game_started_here")
    events.game_finished.hear(groups.game_finished_here, "groups.game_finished_here")
    events.seated.hear(groups.seated_here, "groups.seated_here")
    events.session_changed.hear(groups.session_changed_here, "groups.session_changed_here")
    events.tournament_changed.hear(groups.tournament_changed_here, "groups.tournament_changed_here")
    events.tournament_chat_changed.hear(
        groups.tournament_chat_changed_here, "groups.tournament_chat_changed_here"
    )
    events.review_progressed.hear(groups.review_progressed_here, "groups.review_progressed_here")


def sessions_and_sockets() -> None:
    """A session or an account that changes: its sockets, its place in the pairing pool, and
    the mails it queued."""
    user_logged_out.connect(sessions.close_on_logout, dispatch_uid="sessions.close_on_logout")
    user_logged_out.connect(pairing.stop_on_logout, dispatch_uid="pairing-logout")
    user_logged_out.connect(push.drop_on_logout, dispatch_uid="push.drop_on_logout")
    post_save.connect(
        sessions.recheck_on_account_change,
        sender=settings.AUTH_USER_MODEL,
        dispatch_uid="sessions.recheck_on_account_change",
    )
    # A task queued in this process (a verification or password-reset mail): the runner's mail
    # thread runs it once the queuing commits.
    task_enqueued.connect(runner.task_queued_here, dispatch_uid="runner.task_queued_here")
    # An account being deleted (inside its transaction): its notifications and browsers go.
    events.account_deleted.hear(
        notifications.account_deleted_here, "notifications.account_deleted_here"
    )


def periodic_jobs() -> None:
    """The sweeps each serving process runs (runner.every: in the runner's threads, each on its
    own, one run at a time; a failure is logged and the job runs again next period). Beside them
    the runner's own sweep wakes the games with a bot stuck or a deadline due, and sends the
    notifications' mails and pushes on lanes of their own (games/live/runner.py)."""
    each_sweep = runner.each_sweep  # BOT_SWEEP_SECONDS, read at every period
    # (Each from its feature's module: games/outages.py, games/services/<module>.py.)
    runner.every(each_sweep, outages.check_pool)  # pooled connections a restart broke
    runner.every(each_sweep, presence.renew)  # presence.py: this process's sockets renewed
    runner.every(each_sweep, presence.sweep)  # presence.py: what changed with time, told
    runner.every(each_sweep, services.sweep_rematches)  # rematch.py: offers the away settled
    runner.every(each_sweep, services.sweep_absences)  # absence.py: long away, relaxed tables
    runner.every(each_sweep, services.close_unstarted_tables)  # tables.py: never started
    # notifications/sweep.py: turns a lost event missed
    runner.every(each_sweep, notifications_sweep.sweep_turns)
    runner.every(each_sweep, vacations.announce_vacations)  # games/vacation: begun or ended
    runner.every(pairing_sweep.EVERY_SECONDS, pairing_sweep.sweep)  # quick pairing's pass
    # A tournament's next step; a table whose game_ended was lost (a restart) is recorded here,
    # and the record's flag under the row lock lets only one count.
    runner.every(settings.TOURNAMENT_SWEEP_SECONDS, tournaments_sweep.sweep)
    if settings.HOUSE_TABLE:
        # The house table, started when none runs and no person's game may be watched.
        runner.every(settings.HOUSE_TABLE_SWEEP_SECONDS, house_table.keep_going)
    # games/reviews/lane.py: one review at a time on the lane's own thread, a few seconds a run
    # (its weighing in the thinking pool); a review whose lane went quiet is taken up again.
    runner.every(lambda: settings.REVIEW_SWEEP_SECONDS, reviews.on_its_lane)
