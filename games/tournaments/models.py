"""A tournament's rows: the event, its entrants, its Swiss rounds and its tables.

Only games.tournaments.services changes them (a chat line too, and a moderator's hiding of
it). The standings are the entrants' figures, which are recomputed from the recorded tables
(services.results.recount), never patched by hand.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import catalog
from games.models import ChatMessage, Game
from games.models import new_invite as new_invite  # named here by migrations/0001
from games.models.people import optional_person
from games.tournaments import reasons


class Tournament(models.Model):
    """One event: a Swiss of several rounds or an arena of a set time, at one game and pace."""

    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ARENA = "arena", _("Arena")

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Starts soon"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"
        STOPPED = "stopped", "Stopped by a moderator"

    class Bye(models.TextChoices):
        POINTS = "points", _("The median place's points")
        BOT = "bot", _("A table with a house bot")

    name = models.CharField(max_length=100)
    kind = models.CharField(max_length=40, choices=catalog.choices())
    format = models.CharField(max_length=10, choices=Format.choices)
    pace = models.CharField(max_length=10, choices=Game.Pace.choices)
    seats = models.PositiveSmallIntegerField(help_text=_("People a table seats where it can."))
    fewest = models.PositiveSmallIntegerField(help_text=_("The fewest people a table starts with."))
    rounds = models.PositiveSmallIntegerField(null=True, blank=True, help_text=_("Swiss rounds."))
    minutes = models.PositiveIntegerField(
        null=True, blank=True, help_text=_("An arena's length; no table starts after it.")
    )
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(
        null=True, blank=True, help_text=_("An arena's end, once started.")
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SCHEDULED)
    place_points = models.JSONField(
        default=dict,
        blank=True,
        help_text=_(
            'Points by place per table size, e.g. {"4": [6, 4, 2, 0]}; the defaults '
            "otherwise (6/0, 6/3/0, 6/4/2/0, then 6 to 0 evenly)."
        ),
    )
    bye = models.CharField(max_length=10, choices=Bye.choices, default=Bye.POINTS)
    streak_bonus = models.PositiveSmallIntegerField(
        default=2, help_text=_("Arena: points added to a win after two wins in a row.")
    )
    rating_min = models.IntegerField(null=True, blank=True)
    rating_max = models.IntegerField(null=True, blank=True)
    games_min = models.PositiveIntegerField(default=0, help_text=_("Rated games of this game."))
    age_min_days = models.PositiveIntegerField(default=0, help_text=_("Days since sign-up."))
    max_entrants = models.PositiveIntegerField(null=True, blank=True)
    private = models.BooleanField(default=False, help_text=_("Reachable only by its link."))
    bots_welcome = models.BooleanField(
        default=False, help_text=_("Bot accounts (programs playing through the API) may enter.")
    )
    invite = models.CharField(max_length=32, default=new_invite, editable=False)
    creator = optional_person(
        "tournaments_created", help_text=_("Empty for the site's own events.")
    )
    scheduled_by = models.CharField(
        max_length=40, blank=True, help_text=_("The site schedule's entry that made it.")
    )
    current_round = models.PositiveSmallIntegerField(
        default=0, help_text=_("The Swiss round under way.")
    )
    warned = models.BooleanField(default=False, help_text=_('"Starts in 5 minutes" was told.'))
    round_due_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_(
            "Swiss: the next round became due then, and waits for entrants who seem away "
            "(SWISS_CHECK_IN_SECONDS at most)."
        ),
    )
    version = models.PositiveIntegerField(default=0, help_text=_("Bumped by every change."))
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    stop_reason = models.CharField(
        max_length=200, blank=True, help_text=_("A moderator's reason for stopping it, as typed.")
    )
    stop_code = models.CharField(
        max_length=40,
        blank=True,
        help_text=_("Why it stopped for want of people (games/tournaments/reasons.py)."),
    )
    stop_values = models.JSONField(
        default=dict, blank=True, help_text=_("The stop code's values (numbers).")
    )

    class Meta:
        ordering = ["-starts_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["scheduled_by", "starts_at"],
                condition=~Q(scheduled_by=""),
                name="one_scheduled_event_per_time",
            ),
        ]
        indexes = [models.Index(fields=["status", "starts_at"], name="tournaments_by_status")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        try:
            return reverse("tournaments:detail", args=[self.pk])
        except NoReverseMatch:  # the pages are not wired yet
            return f"/tournaments/{self.pk}/"

    @property
    def is_swiss(self) -> bool:
        return self.format == self.Format.SWISS

    @property
    def is_arena(self) -> bool:
        return self.format == self.Format.ARENA

    @property
    def invite_url(self) -> str:
        """The tournament's link with its invite token."""
        return f"{self.get_absolute_url()}?invite={self.invite}"

    @property
    def reason(self) -> str:
        """Why it stopped early, in the reader's language: from its code, else the moderator's
        words as typed ("" if neither)."""
        if self.stop_code:
            return reasons.said(self.stop_code, self.stop_values)
        return self.stop_reason


class Entrant(models.Model):
    """A person in a tournament, with their standing figures (recomputed from the tables)."""

    class Withdrawn(models.TextChoices):
        LEFT = "left", "Left"
        ABSENT = "absent", "Away two rounds in a row"
        REMOVED = "removed", "Removed by a moderator"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="entries"
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    rating = models.IntegerField(help_text=_("The person's rating at this game when they joined."))
    points = models.FloatField(default=0)
    buchholz = models.FloatField(default=0, help_text=_("The sum of the opponents' points."))
    wins = models.PositiveIntegerField(default=0, help_text=_("First places."))
    games = models.PositiveIntegerField(default=0)
    byes = models.PositiveIntegerField(default=0)
    streak = models.PositiveIntegerField(default=0, help_text=_("Wins in a row (arena bonus)."))
    absences = models.PositiveSmallIntegerField(
        default=0, help_text=_("Swiss rounds skipped in a row for being away (two withdraw).")
    )
    paused = models.BooleanField(default=False, help_text=_("Arena: not seated again until back."))
    withdrawn = models.BooleanField(default=False)
    withdrawn_why = models.CharField(max_length=20, choices=Withdrawn.choices, blank=True)
    place = models.PositiveIntegerField(null=True, blank=True, help_text=_("At the end."))
    table = models.ForeignKey(
        "Table",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("Their latest table (or bye): they play at it while it is not recorded."),
    )
    free_since = models.DateTimeField(null=True, blank=True, help_text=_("Arena: waiting since."))
    seen_at = models.DateTimeField(
        null=True, blank=True, help_text=_("Their tournament page's socket was last open then.")
    )
    checked_in_at = models.DateTimeField(
        null=True, blank=True, help_text=_('They pressed "I\'m here" then (for the next round).')
    )
    withdrawn_round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("Swiss: the round they were withdrawn at for absence.")
    )

    class Meta:
        ordering = ["tournament", "-points", "-buchholz", "-wins", "-rating", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_person")
        ]
        indexes = [
            models.Index(
                fields=["tournament", "-points", "-buchholz", "-wins", "-rating", "id"],
                name="tournament_standings",
            ),
            models.Index(fields=["user", "tournament"], name="entries_of_a_person"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament}"

    @property
    def playing(self) -> bool:
        """Still in the event (not withdrawn or removed)."""
        return not self.withdrawn

    @property
    def withdrawn_words(self) -> str:
        """Why they are out, as the page and their profile say it ("" while in)."""
        return withdrawn_words(self.withdrawn, self.withdrawn_why, self.withdrawn_round)


def withdrawn_words(withdrawn: bool, why: str, at_round: int | None) -> str:
    """Why an entrant is out, in a few words: pressing Withdraw is not being away."""
    if not withdrawn:
        return ""
    if why == Entrant.Withdrawn.ABSENT:
        return f"withdrawn: away at round {at_round}" if at_round else "withdrawn: away"
    if why == Entrant.Withdrawn.REMOVED:
        return "removed by a moderator"
    return "withdrew"


class Round(models.Model):
    """A Swiss round: made once (unique per tournament and number), by whichever process
    paired it."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="swiss_rounds"
    )
    number = models.PositiveSmallIntegerField()
    paired_at = models.DateTimeField()
    skipped = models.JSONField(
        default=list, blank=True, help_text=_("Entrants left out for being away (ids).")
    )

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.tournament}, round {self.number}"


class Table(models.Model):
    """A table of a tournament (or a Swiss bye: no game), its people and, once recorded, what
    each was awarded."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.CASCADE, related_name="tables"
    )
    number = models.PositiveIntegerField(help_text=_("Its number in the round (arena: overall)."))
    game = models.OneToOneField(
        Game,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournament_table",
        help_text=_("Empty for a bye."),
    )
    people = models.JSONField(default=list, help_text=_("Entrant ids, in standing order."))
    recorded = models.BooleanField(default=False, help_text=_("Its results are counted."))
    recorded_at = models.DateTimeField(null=True, blank=True)
    awarded = models.JSONField(
        default=list,
        blank=True,
        help_text=_("Per entrant: place, points and streak bonus, once recorded."),
    )

    class Meta:
        ordering = ["tournament", "round", "number"]
        indexes = [models.Index(fields=["tournament", "recorded"], name="tournament_tables")]

    def __str__(self) -> str:
        if self.game_id is None:
            return f"a bye in {self.tournament}"
        return f"table {self.number} of {self.tournament}"

    @property
    def is_bye(self) -> bool:
        return self.game_id is None


class ChatLine(models.Model):
    """One line of a tournament's own chat: the table chat's limits and moderation (a
    moderator hides a line in admin; it vanishes from every screen)."""

    MAX_LENGTH = ChatMessage.MAX_LENGTH

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="chat")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_chat"
    )
    text = models.CharField(max_length=MAX_LENGTH)
    created_at = models.DateTimeField(default=timezone.now)
    hidden = models.BooleanField(
        default=False, help_text=_("Hidden by a moderator: it vanishes from every screen.")
    )

    class Meta:
        ordering = ["tournament", "created_at", "pk"]
        indexes = [
            models.Index(fields=["tournament", "created_at"], name="tournament_chat_lines"),
            models.Index(fields=["author", "created_at"], name="tournament_chat_by_author"),
        ]

    def __str__(self) -> str:
        return f"{self.author} in {self.tournament}: {self.text[:40]}"
