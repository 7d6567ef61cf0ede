"""The form that makes a tournament: every field checked, each refusal in words, before the
service checks the whole again (games.tournaments.services.creation.check_rules). Points by place
as typed are read by typed_points.py."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from games import catalog
from games.models import Game
from games.tournaments import services
from games.tournaments.models import Tournament
from games.tournaments.services.creation import (
    LIVE_PACES,
    LONGEST_ARENA_MINUTES,
    MOST_ROUNDS,
)
from games.tournaments.typed_points import default_points_words, parse_points

STARTS_IN = [
    (1, _("1 minute")),
    (2, _("2 minutes")),
    (5, _("5 minutes")),
    (10, _("10 minutes")),
    (15, _("15 minutes")),
    (30, _("30 minutes")),
    (60, _("1 hour")),
    (120, _("2 hours")),
    (360, _("6 hours")),
    (720, _("12 hours")),
    (1440, _("1 day")),
    (2880, _("2 days")),
    (10080, _("1 week")),
]
"""When a tournament may start, counted from the press."""

LATEST_START = timedelta(days=30)
MOST_ENTRANTS = 10_000
HIGHEST_RATING = 4000
MOST_GAMES = 10_000
OLDEST_DAYS = 3650
MOST_STREAK_BONUS = 10


@cache
def known_zones() -> frozenset[str]:
    """The IANA time zone names this machine knows ("America/New_York", "UTC")."""
    return frozenset(available_timezones() | {"UTC"})


def number(
    label: StrOrPromise,
    low: int,
    high: int,
    *,
    required: bool = True,
    initial: int | None = None,
    help_text: StrOrPromise = "",
) -> forms.IntegerField:
    """A whole number in a range; every way it can be wrong says so in words (the language active's
    when the form is drawn or checked)."""
    words = format_lazy(
        _("{label}: a whole number from {low} to {high}."), label=label, low=low, high=high
    )
    return forms.IntegerField(
        label=label,
        min_value=low,
        max_value=high,
        error_messages={
            "required": format_lazy(
                _("{label}: say a number from {low} to {high}."), label=label, low=low, high=high
            ),
            "invalid": words,
            "min_value": words,
            "max_value": words,
        },
        required=required,
        initial=initial,
        help_text=help_text,
    )


def as_chosen(value: str) -> str:
    """A choice's value as it was posted (TypedChoiceField's own default)."""
    return value


def choice(
    label: StrOrPromise,
    choices: Iterable[tuple[str, StrOrPromise]] | Callable[[], Iterable[tuple[str, str]]],
    missing: StrOrPromise,
    wrong: StrOrPromise,
    *,
    initial: str | None = None,
    help_text: StrOrPromise = "",
    coerce: Callable[[str], object] = as_chosen,
) -> forms.TypedChoiceField:
    """A choice from a list; a forged value is refused in words."""
    return forms.TypedChoiceField(
        label=label,
        choices=choices,
        error_messages={"required": missing, "invalid_choice": wrong},
        initial=initial,
        help_text=help_text,
        coerce=coerce,
    )


class TournamentForm(forms.Form):
    """A new tournament's settings (anyone signed in may make one)."""

    name = forms.CharField(
        label=_("Name"),
        max_length=100,
        error_messages={
            "required": _("Give the tournament a name."),
            "max_length": _("A name is at most 100 characters."),
        },
    )
    kind = choice(
        _("Game"),
        catalog.choices,
        _("Choose a game."),
        _("That game is not on offer."),
        initial=None,
    )
    format = choice(
        _("Format"),
        Tournament.Format.choices,
        _("Choose Swiss or arena."),
        _("A tournament is a Swiss or an arena."),
        initial=Tournament.Format.SWISS,
    )
    pace = choice(
        _("Pace"),
        Game.Pace.choices,
        _("Choose a pace."),
        _("There is no such pace."),
        initial=Game.Pace.NORMAL,
        help_text=_("An arena is played live: a pace without days a move."),
    )
    seats = number(
        _("Table size"), 2, 8, initial=4, help_text=_("People a table seats where it can.")
    )
    fewest = number(
        _("Fewest at a table"),
        2,
        8,
        required=False,
        help_text=_("Empty: the table size. A table never starts with fewer."),
    )
    rounds = number(
        _("Rounds"), 1, MOST_ROUNDS, required=False, initial=3, help_text=_("Swiss only.")
    )
    minutes = number(
        _("Minutes"),
        10,
        LONGEST_ARENA_MINUTES,
        required=False,
        initial=45,
        help_text=_("Arena only: how long it runs; no table starts after it."),
    )
    starts_in = choice(
        _("Starts in"),
        [(str(m), words) for m, words in STARTS_IN],
        _("Choose when it starts."),
        _("Choose a start from the list."),
        coerce=int,
        initial="15",
    )
    starts_at = forms.DateTimeField(
        label=_("Or starts at (UTC)"),
        required=False,
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        error_messages={
            "invalid": _("Write the start as a date and a time, such as 2030-05-01 18:00.")
        },
        help_text=_("Overrides Starts in; within 30 days."),
    )
    zone = forms.CharField(
        required=False,
        max_length=64,
        widget=forms.HiddenInput(
            # The start's label once tournament.js knows the zone ("{zone}" stands for it).
            attrs={"data-browser-zone": "", "data-label": _("Or starts at (your time, {zone})")}
        ),
        error_messages={"max_length": _("That time zone's name is too long to be one.")},
        help_text=_(
            "The time zone the exact start is written in: the browser's (tournament.js), else UTC."
        ),
    )
    place_points = forms.CharField(
        label=_("Points by place"),
        required=False,
        max_length=400,
        widget=forms.Textarea(attrs={"rows": 3}),
        error_messages={"max_length": _("Points by place: at most 400 characters.")},
        help_text=format_lazy(
            _("Empty: the defaults ({points}). Or one line a table size, such as 4: 6/4/2/0."),
            points=default_points_words(),
        ),
    )
    bye = choice(
        _("Bye (Swiss)"),
        Tournament.Bye.choices,
        _("Choose what a bye is."),
        _("A bye is points or a house bot's seat."),
        initial=Tournament.Bye.POINTS,
    )
    streak_bonus = number(
        _("Streak bonus (arena)"),
        0,
        MOST_STREAK_BONUS,
        initial=2,
        help_text=_("Points added to a win after two wins in a row."),
    )
    rating_min = number(_("Lowest rating"), 0, HIGHEST_RATING, required=False)
    rating_max = number(_("Highest rating"), 0, HIGHEST_RATING, required=False)
    games_min = number(
        _("Rated games played"), 0, MOST_GAMES, initial=0, help_text=_("Of this game, at least.")
    )
    age_min_days = number(
        _("Account age in days"), 0, OLDEST_DAYS, initial=0, help_text=_("At least.")
    )
    max_entrants = number(
        _("Most entrants"), 2, MOST_ENTRANTS, required=False, help_text=_("Empty: no limit.")
    )
    private = forms.BooleanField(
        label=_("Private (only people with its link see and join it)"), required=False
    )
    bots_welcome = forms.BooleanField(
        label=_("Open to bot accounts (programs playing through the API)"), required=False
    )

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        exact = data.get("starts_at")
        if isinstance(exact, datetime):
            zone = str(data.get("zone") or "UTC")
            if zone in known_zones():
                # Read as UTC by the field: the same wall time, in the zone it was written in.
                data["starts_at"] = exact.replace(tzinfo=ZoneInfo(zone)).astimezone(UTC)
            else:
                self.add_error(
                    "starts_at",
                    gettext(
                        "Your browser's time zone (%(zone)s) is not one the site knows: "
                        "choose the start from Starts in instead."
                    )
                    % {"zone": zone[:64]},
                )
        if self.errors:
            return data
        spec = catalog.get(data["kind"])
        seats, fewest = data["seats"], data.get("fewest") or data["seats"]
        if not spec.min_players <= fewest <= seats <= spec.max_players:
            raise forms.ValidationError(
                gettext(
                    "%(game)s tables seat %(least)s to %(most)s people, "
                    "and the fewest at a table is no more than the table size."
                )
                % {"game": spec.name, "least": spec.min_players, "most": spec.max_players}
            )
        if data["format"] == Tournament.Format.SWISS and data.get("rounds") is None:
            raise forms.ValidationError(gettext("Say how many rounds the Swiss plays."))
        if data["format"] == Tournament.Format.ARENA:
            if data.get("minutes") is None:
                raise forms.ValidationError(gettext("Say how many minutes the arena lasts."))
            if data["pace"] not in LIVE_PACES:
                raise forms.ValidationError(
                    gettext("An arena is played live: pick a pace without days a move.")
                )
        low, high = data.get("rating_min"), data.get("rating_max")
        if low is not None and high is not None and low > high:
            raise forms.ValidationError(gettext("The lowest rating allowed is above the highest."))
        most = data.get("max_entrants")
        if most is not None and most < fewest:
            raise forms.ValidationError(
                gettext("A tournament must take at least %(fewest)s people.") % {"fewest": fewest}
            )
        data["place_points"] = parse_points(data.get("place_points") or "", fewest, seats)
        return data

    def rules(self, at: datetime) -> services.Rules:
        """The cleaned settings as the service takes them, starting from `at`."""
        data = self.cleaned_data
        return services.Rules(
            name=data["name"],
            kind=data["kind"],
            format=data["format"],
            pace=data["pace"],
            starts_at=self.start(at),
            seats=data["seats"],
            fewest=data.get("fewest") or data["seats"],
            rounds=data.get("rounds"),
            minutes=data.get("minutes"),
            place_points=data["place_points"],
            bye=data["bye"],
            streak_bonus=data["streak_bonus"],
            rating_min=data.get("rating_min"),
            rating_max=data.get("rating_max"),
            games_min=data["games_min"],
            age_min_days=data["age_min_days"],
            max_entrants=data.get("max_entrants"),
            private=data["private"],
            bots_welcome=data["bots_welcome"],
        )

    def start(self, at: datetime) -> datetime:
        """When it starts: the exact time given (made UTC by `clean`), else so long after `at`;
        a ServiceError in words for a time past or too far ahead."""
        exact = self.cleaned_data.get("starts_at")
        if exact is None:
            return at + timedelta(minutes=self.cleaned_data["starts_in"])
        if exact <= at:
            raise services.ServiceError(gettext("The start time has passed: choose one ahead."))
        if exact > at + LATEST_START:
            raise services.ServiceError(gettext("A tournament starts within 30 days."))
        return exact  # type: ignore[no-any-return]

    def refusal(self) -> str:
        """The first error in words."""
        for errors in self.errors.values():
            return str(errors[0])
        return gettext("Those settings could not be read.")
