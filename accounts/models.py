"""The Bakehouse user: a custom model from the first migration, so it can grow; and ratings."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, TypeGuard

from django.conf import settings
from django.contrib.auth.models import AbstractUser, AnonymousUser
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.names import MIXED_SCRIPTS, mixes_scripts, skeleton
from accounts.tokens import AccessToken as AccessToken  # the API tokens, an account's own

# Ratings are shown on a familiar scale: a new player's conservative estimate (0) shows as 1500.
DISPLAY_BASE = 1500
DISPLAY_SCALE = 20
# A leaderboard lists a person with at least this many rated games of that game, one of them
# within the last RANKED_RECENT_DAYS; before that the rating is provisional.
MIN_RANKED_GAMES = 5
RANKED_RECENT_DAYS = 30
# A deleted account's old username is free for a new sign-up after this many days.
NAME_HELD_DAYS = 30

DELETED_BAKER = "a deleted baker"
"""A deleted account at a table (its seat, its table's notices), where no number is needed."""


def deleted_name(pk: int) -> str:
    """The name a deleted account shows everywhere else: its username from then on.

    A space and '#' are in no username a person can choose (sign-up's validator refuses them),
    so nobody can take it, and every page that shows a username shows this one.
    """
    return f"{DELETED_BAKER} #{pk}"


MAIL_KINDS = ("turn", "invite", "rematch", "ended", "friend", "tournament")
"""What a person may be mailed about, each a `mail_<kind>` field of the User."""


class User(AbstractUser):
    """A person (or a bot account) who plays at Bakehouse."""

    is_bot = models.BooleanField(default=False, help_text=_("A house bot account, not a person."))
    # A person's own program, upgraded before any game (games/api/bots.py): not `is_bot`, which
    # means the site's own bots (no password, moved by the site, left out of mail and chat).
    plays_by_api = models.BooleanField(
        default=False,
        help_text=_("A bot account: a person's program plays it through the API, never the pages."),
    )
    # AbstractUser's optional `email` is the address for verification and password resets; two
    # accounts never share a verified one (accounts/forms.py and accounts/emails.py refuse it).
    email_verified = models.BooleanField(
        default=False, help_text=_("The person followed the link mailed to their address.")
    )
    language = models.CharField(  # accounts/languages.py: over the browser's, and for mails
        max_length=8, choices=settings.LANGUAGES, default="en", help_text=_("Pages, mails, pushes.")
    )
    move_sound = models.BooleanField(
        default=False, help_text=_("Play a short sound when a game waits on this person's move.")
    )
    muted_someone = models.BooleanField(
        default=False,
        editable=False,
        help_text=_(
            "The person muted someone in a chat once (set by the first mute, never unset): "
            "a table's page of a person who never did reads no list of whom they muted."
        ),
    )
    last_seen = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_(
            "When a table's page of theirs last opened or closed its socket; turn-based "
            "tables show it beside an offline rival."
        ),
    )
    deleted_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("When the person deleted the account: it is renamed and can no longer log in."),
    )
    # Mail about the person's tables, each kind chosen (opted in) at Settings; a mail's
    # unsubscribe link turns its kinds off (accounts/emails.py).
    mail_turn = models.BooleanField(
        default=False, help_text=_("Mail when it becomes their move at a turn-based table.")
    )
    mail_invite = models.BooleanField(default=False, help_text=_("Mail when invited to a table."))
    mail_rematch = models.BooleanField(
        default=False, help_text=_("Mail when a rematch is offered.")
    )
    mail_ended = models.BooleanField(
        default=False, help_text=_("Mail when one of their games ends.")
    )
    mail_friend = models.BooleanField(
        default=False, help_text=_("Mail when someone asks to be their friend or says yes.")
    )
    mail_tournament = models.BooleanField(
        default=False,
        help_text=_("Mail when a tournament of theirs is about to start, seats them or ends."),
    )
    name_skeleton = models.CharField(  # noqa: DJ001 (NULL: none, as many as the index allows)
        max_length=150,
        unique=True,
        null=True,
        editable=False,
        help_text=_(
            "The username as it looks (accounts/names.py): a new name with the same "
            "skeleton passes for this one and is refused, by this unique index too. Empty only for "
            "a look-alike of an older account kept from before a rule (migration 0016)."
        ),
    )

    saved_name: str | None = None
    """The username as last loaded or saved (not a field): save() stores a new skeleton only
    when it changed."""

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        permissions = [
            ("deactivate_user", "Can deactivate and reactivate an account (moderators)"),
        ]

    def __str__(self) -> str:
        return self.username

    @property
    def marked_bot(self) -> bool:
        """Shown as a bot wherever the name appears: a house bot or a bot account."""
        return self.is_bot or self.plays_by_api

    def clean(self) -> None:
        """Django's own, then look-alike names refused: mixed alphabets, or one that passes for
        another account's (sign-up and admin both validate through here)."""
        super().clean()
        if not self.username or self.keeps_its_name():
            return
        if mixes_scripts(self.username):
            raise ValidationError({"username": MIXED_SCRIPTS}, code="mixed_scripts")
        twin = self.look_alike()
        if twin is not None:
            raise ValidationError(
                {
                    "username": gettext(
                        "That name looks too much like “%(name)s”, a name already taken."
                    )
                    % {"name": twin}
                },
                code="look_alike",
            )

    def keeps_its_name(self) -> bool:
        """An account saved under this very name (an edit that leaves the name as it was)."""
        saved = User.objects.filter(pk=self.pk, username=self.username)
        return self.pk is not None and saved.exists()

    def look_alike(self) -> str | None:
        """Another account's name that looks like this one (case aside), if any."""
        others = User.objects.filter(name_skeleton=skeleton(self.username))
        if self.pk is not None:
            others = others.exclude(pk=self.pk)
        return others.values_list("username", flat=True).first()

    @classmethod
    def from_db(cls, db: str | None, field_names: Any, values: Any) -> User:
        """Django's own, remembering the name as loaded (save() then knows whether it changed)."""
        person = super().from_db(db, field_names, values)
        person.saved_name = person.__dict__.get("username")
        return person

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Store the name's skeleton with it, so look-alikes are one indexed query, and two at
        once hit the unique index (IntegrityError). A name kept as it was keeps its skeleton (an
        old look-alike kept without one stays so)."""
        if self._state.adding or self.username != getattr(self, "saved_name", None):
            self.name_skeleton = skeleton(self.username)
            fields = kwargs.get("update_fields")
            if fields is not None and "username" in fields:
                kwargs["update_fields"] = {*fields, "name_skeleton"}
        super().save(*args, **kwargs)
        self.saved_name = self.username


def signed_in(user: User | AnonymousUser | None) -> TypeGuard[User]:
    """Whether a request's user is a signed-in person (an account), not an anonymous visitor."""
    return bool(getattr(user, "is_authenticated", False))


class Rating(models.Model):
    """One player's openskill (Plackett-Luce) rating at one game kind."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    kind = models.CharField(max_length=40, db_index=True, help_text=_("The game's slug."))
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(help_text=_("mu - 3 sigma: the conservative estimate ranked by."))
    rating = models.IntegerField(help_text=_("The ordinal on the displayed scale."))
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)
    last_played_at = models.DateTimeField(
        null=True, blank=True, help_text=_("When the last rated game of this kind ended.")
    )

    class Meta:
        ordering = ["kind", "-ordinal", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="one_rating_per_user_and_kind")
        ]
        indexes = [models.Index(fields=["kind", "-ordinal"], name="rating_board")]

    def __str__(self) -> str:
        return f"{self.user} at {self.kind}: {self.rating}"

    @property
    def win_percent(self) -> int:
        """Share of games won, rounded to a whole percent."""
        return round(100 * self.wins / self.games) if self.games else 0

    @property
    def provisional(self) -> bool:
        """Too few games for the rating to mean much yet (shown with a '?')."""
        return self.games < MIN_RANKED_GAMES

    @property
    def resting(self) -> bool:
        """No rated game within RANKED_RECENT_DAYS: off the leaderboard until the next one."""
        since = timezone.now() - timedelta(days=RANKED_RECENT_DAYS)
        return self.last_played_at is None or self.last_played_at < since

    @property
    def ranked(self) -> bool:
        """Whether the leaderboard lists this rating."""
        return not self.provisional and not self.resting


class RatingPoint(models.Model):
    """A player's displayed rating after one rated game: the points of the profile's chart."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_points"
    )
    kind = models.CharField(max_length=40)
    game_id = models.BigIntegerField(help_text=_("The game that moved it (games.Game)."))
    rating = models.IntegerField()
    at = models.DateTimeField()

    class Meta:
        ordering = ["user", "kind", "at", "pk"]
        indexes = [models.Index(fields=["user", "kind", "-at"], name="rating_history")]

    def __str__(self) -> str:
        return gettext("%(user)s at %(game)s: %(rating)s after game %(id)s") % {
            "user": self.user,
            "game": self.kind,
            "rating": self.rating,
            "id": self.game_id,
        }


class HeldName(models.Model):
    """A deleted account's old username, kept from sign-ups until `free_at` (NAME_HELD_DAYS)."""

    name = models.CharField(max_length=150, db_index=True)
    name_skeleton = models.CharField(
        max_length=150,
        db_index=True,
        default="",
        db_default="",  # the code before this column inserts rows without it (a rolling deploy)
        help_text=_("The name as it looks (accounts/names.py): its look-alikes are held too."),
    )
    free_at = models.DateTimeField()

    class Meta:
        ordering = ["name", "-free_at"]

    def __str__(self) -> str:
        return f"{self.name} (free at {self.free_at:%Y-%m-%d})"

    @classmethod
    def hold(cls, name: str) -> HeldName:
        """Keep this name from sign-ups for NAME_HELD_DAYS from now."""
        free_at = timezone.now() + timedelta(days=NAME_HELD_DAYS)
        return cls.objects.create(name=name, name_skeleton=skeleton(name), free_at=free_at)

    @classmethod
    def held_like(cls, name: str) -> tuple[str, datetime] | None:
        """The held name this one looks like (any case, look-alikes too) and when it is free
        again, or None when none is held."""
        held = cls.objects.filter(name_skeleton=skeleton(name), free_at__gt=timezone.now())
        return held.order_by("-free_at").values_list("name", "free_at").first()


class Friendship(models.Model):
    """A friend request from one person to another; friends once the other accepts it."""

    from_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friend_requests_sent"
    )
    to_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friend_requests_received"
    )
    accepted = models.BooleanField(default=False, help_text=_("The other person said yes."))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["from_user", "to_user"], name="one_request_per_pair"),
            models.CheckConstraint(
                condition=~models.Q(from_user=models.F("to_user")), name="no_friend_of_oneself"
            ),
        ]

    def __str__(self) -> str:
        verb = "is friends with" if self.accepted else "asks to befriend"
        return f"{self.from_user} {verb} {self.to_user}"


class Block(models.Model):
    """One person blocks another: no requests, invitations, joins or chat lines from them."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_made"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="one_block_per_pair")
        ]

    def __str__(self) -> str:
        return gettext("%(blocker)s blocks %(blocked)s") % {
            "blocker": self.blocker,
            "blocked": self.blocked,
        }


# A person's days away from turn-based games (the games' clocks read them; accounts knows no
# game): at most VACATION_DAYS_A_YEAR days whose vacations start in one calendar year, at most
# VACATION_MOST_AT_ONCE in one go. What a vacation uses is counted in hours (vacation_hours_left),
# so one ended early gives back the rest.
VACATION_DAYS_A_YEAR = 21
VACATION_MOST_AT_ONCE = 14
VACATION_START_WITHIN_DAYS = 60


class Vacation(models.Model):
    """A few days away: the person's turn-based clocks stand still from `starts_at` to `ends_at`."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(db_index=True)
    days = models.PositiveSmallIntegerField(
        help_text=_(
            "How many days it lasts (once ended early, the days it had begun). The "
            "yearly allowance counts the hours from its start to its end instead "
            "(vacation_hours_left)."
        )
    )
    created_at = models.DateTimeField(auto_now_add=True)
    told = models.CharField(
        max_length=8,
        blank=True,
        default="",
        help_text=_(
            "What the person's turn-based tables were last told of it (a new version each):"
            " '' nothing yet, 'started' or 'ended'."
        ),
    )

    class Meta:
        ordering = ["user", "starts_at"]
        indexes = [models.Index(fields=["user", "ends_at"], name="vacations_by_user")]

    def __str__(self) -> str:
        return gettext("%(user)s away %(starts)s to %(ends)s") % {
            "user": self.user,
            "starts": f"{self.starts_at:%Y-%m-%d}",
            "ends": f"{self.ends_at:%Y-%m-%d}",
        }
