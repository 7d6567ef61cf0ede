"""A table and its seats: the lobby's settings, the seed, the snapshot, who sits where."""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games import catalog
from games.kinds.base import AnyKind
from games.models.people import optional_person


def new_seed() -> int:
    """A fresh random seed that fits a signed 64-bit column."""
    return secrets.randbits(62)


def new_invite() -> str:
    """A token for a private table's invite link (a private tournament's too)."""
    return secrets.token_urlsafe(12)


class Game(models.Model):
    """One table of one game: lobby settings, the seed, and a snapshot cache of the state."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        RUNNING = "running", _("Running")
        OVER = "over", _("Over")
        CANCELLED = "cancelled", _("Cancelled")
        ABORTED = "aborted", _("Aborted by a moderator")

    class Watchers(models.TextChoices):
        """Who may watch the game once it has started (the host chooses at creation)."""

        ANYONE = "anyone", _("Anyone")
        PEOPLE = "people", _("Signed-in people")
        PLAYERS = "players", _("Only the players")

    class Pace(models.TextChoices):
        RELAXED = "relaxed", _("Relaxed (no clock)")
        NORMAL = "normal", _("Normal (60 s a move, 120 s bank)")
        FAST = "fast", _("Fast (20 s a move, 60 s bank)")
        DAY1 = "day1", _("Turn-based: 1 day a move, 2 days bank")
        DAY3 = "day3", _("Turn-based: 3 days a move, 3 days bank")
        DAY7 = "day7", _("Turn-based: 7 days a move, 7 days bank")

    kind = models.CharField(max_length=40, choices=catalog.choices(), db_index=True)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hosted_games"
    )
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    capacity = models.PositiveSmallIntegerField(help_text=_("How many seats the table offers."))
    options = models.JSONField(default=dict, blank=True)
    private = models.BooleanField(default=False, help_text=_("Reachable only by the invite link."))
    pace = models.CharField(
        max_length=10, choices=Pace.choices, default=Pace.RELAXED, help_text=_("The move clock.")
    )
    notices = models.JSONField(
        default=list,
        blank=True,
        help_text=_("The table's recent public notices (stand-ins, seats)."),
    )
    invite = models.CharField(max_length=32, default=new_invite, editable=False)
    watchers = models.CharField(
        max_length=10,
        choices=Watchers.choices,
        default=Watchers.ANYONE,
        help_text=_("Who may watch the game once it has started."),
    )
    spectator_chat = models.BooleanField(
        default=False, help_text=_("Spectators may read and write the table chat too.")
    )
    chatted = models.BooleanField(
        default=False,
        editable=False,
        help_text=_(
            "A line was written in the table chat once: a table whose chat never had one"
            " reads no chat lines for its pages (a Swiss round's 200 fresh tables)."
        ),
    )
    rated = models.BooleanField(
        default=True,
        help_text=_("The result moves ratings; an unrated (practice) table offers move hints."),
    )
    guided = models.BooleanField(
        default=False,
        editable=False,
        help_text=_(
            "A guided first game (games/tutorial/): listed nowhere, counted in no rating or"
            " stat, and it waits for its learner however long they are away."
        ),
    )
    rematch_of = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rematches",
        help_text=_("The finished game whose people this table offers to play again."),
    )
    seed = models.BigIntegerField(default=new_seed, editable=False)
    snapshot = models.JSONField(null=True, blank=True, editable=False)
    setup = models.JSONField(
        null=True,
        blank=True,
        editable=False,
        help_text=_("What was dealt at the start (the engine's setup); replays rebuild from it."),
    )
    rules_version = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        editable=False,
        help_text=_("The engine's rules version at the start."),
    )
    version = models.PositiveIntegerField(default=0, help_text=_("Bumped by every change."))
    moves = models.PositiveIntegerField(default=0, help_text=_("How many Action rows it has."))
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    abort_reason = models.CharField(
        max_length=200, blank=True, help_text=_("Why a moderator stopped the game (shown to all).")
    )
    aborted_by = optional_person("aborted_games")

    class Meta:
        ordering = ["-created_at"]
        permissions = [("abort_game", "Can abort a running game")]

    def __str__(self) -> str:
        return f"{self.spec.name} #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("games:table", args=[self.pk])

    @property
    def abort_sentence(self) -> str:
        """The moderator's reason as a sentence: a full stop is added when it ends without one."""
        reason = self.abort_reason.strip()
        return reason if not reason or reason[-1] in ".!?…" else f"{reason}."

    @property
    def spec(self) -> AnyKind:
        """What the site knows of this game's kind (games/kinds/)."""
        return catalog.get(self.kind)

    @property
    def turn_based(self) -> bool:
        """Whether the table is played over days (a move a day or more) rather than live."""
        return self.pace in TURN_BASED

    @property
    def invite_url(self) -> str:
        """The table's link with its invite token."""
        return f"{self.get_absolute_url()}?invite={self.invite}"


TURN_BASED = (Game.Pace.DAY1, Game.Pace.DAY3, Game.Pace.DAY7)
"""The paces played over days: a seat is never handed over for lack of a socket."""

LIVE = (Game.Status.OPEN, Game.Status.RUNNING)
"""The statuses of a table still in play: listed in the lobby and on profiles."""


class Seat(models.Model):
    """A person or bot at a table; the position is drawn when the game starts."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats"
    )
    bot = models.CharField(max_length=20, blank=True, help_text=_("Bot level; empty for a person."))
    position = models.PositiveSmallIntegerField(null=True, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)
    results_seen = models.PositiveSmallIntegerField(
        default=0, help_text=_("How many bake results this seat has closed.")
    )
    score = models.IntegerField(null=True, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    winner = models.BooleanField(default=False)
    breakdown = models.JSONField(null=True, blank=True, help_text=_("Results detail per game."))
    resigned = models.BooleanField(
        default=False, help_text=_("The person gave up; a house bot plays the seat to the end.")
    )
    accepted = models.BooleanField(
        null=True,
        default=True,
        help_text=_("At a rematch table: yes, no, or not answered yet (empty)."),
    )
    handed_over = models.CharField(
        max_length=20,
        blank=True,
        help_text=_("Why a house bot plays the seat (left, absent, deactivated); empty otherwise."),
    )
    deadline = models.DateTimeField(
        null=True, blank=True, db_index=True, help_text=_("When a stand-in moves for this seat.")
    )
    bank = models.FloatField(
        default=0, help_text=_("Seconds of bank time left when the seat's clock last started.")
    )
    stand_ins = models.PositiveSmallIntegerField(
        default=0, help_text=_("Stand-in moves in a row (the person's own move resets it).")
    )

    class Meta:
        ordering = ["position", "joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_seat_per_user"),
            models.UniqueConstraint(fields=["game", "position"], name="one_user_per_position"),
        ]

    def __str__(self) -> str:
        return f"{self.user} at {self.game}"

    @property
    def name(self) -> str:
        """The seat's name in the game (Flour, Sugar, ...), once drawn."""
        if self.position is None:
            return ""
        return self.game.spec.seat_names[self.position]


def house_tables(through: str = "") -> models.Q:
    """The house tables (games.services.house_table): house bots alone, rating nobody, shown to
    the lobby when no person's game may be watched. No list, rating, stat or history counts
    them. `through` names the path from the queried model to its game ("game__" for seats)."""
    return models.Q(**{f"{through}rated": False, f"{through}host__is_bot": True})


def is_house_table(game: Game, seats: Iterable[Seat]) -> bool:
    """Whether the game is a house table (house_tables), read from its seats with their people
    (no query): unrated, and its host a house bot seated at it."""
    return not game.rated and any(s.user_id == game.host_id and s.user.is_bot for s in seats)
