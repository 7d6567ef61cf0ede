"""The lobby's "Find a game" form: the game, its pace, how many at the table, house bots to fill
it or not, bot accounts welcome or not."""

from __future__ import annotations

from typing import TypedDict

from django import forms
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from games import catalog
from games.models import Game

BOTS_AFTER = [("", _("never")), ("15", _("after 15 s")), ("30", _("after 30 s"))]
BOTS_AFTER += [("60", _("after 1 min")), ("120", _("after 2 min"))]
"""What the form offers; the service takes any count of seconds in its range."""


def count(words: StrOrPromise) -> forms.IntegerField:
    """A player count as a whole number (the service checks it against the game's range);
    `words`, the refusal."""
    return forms.IntegerField(
        min_value=1,
        max_value=99,
        error_messages={
            "required": words,
            "invalid": words,
            "min_value": words,
            "max_value": words,
        },
    )


class Wanted(TypedDict):
    """A look's choice, as services.look takes it."""

    kind: str
    pace: str
    fewest: int
    most: int
    bots_after: int | None
    bots_welcome: bool


class LookForm(forms.Form):
    """What a person looks for; garbage is refused in words before the service sees it."""

    kind = forms.ChoiceField(
        choices=catalog.choices,
        error_messages={
            "required": _("Choose a game."),
            "invalid_choice": _("That game is not on offer."),
        },
    )
    pace = forms.ChoiceField(
        choices=Game.Pace.choices,
        error_messages={
            "required": _("Choose a pace."),
            "invalid_choice": _("There is no such pace."),
        },
    )
    fewest = count(_("Say the fewest number of bakers as a whole number."))
    most = count(_("Say the most number of bakers as a whole number."))
    bots_after = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=100_000,
        error_messages={"invalid": _("Say after how many seconds bots may fill the table.")},
    )
    bots_welcome = forms.BooleanField(required=False)

    def wanted(self) -> Wanted:
        """The cleaned choice, as services.look takes it."""
        data = self.cleaned_data
        return {
            "kind": data["kind"],
            "pace": data["pace"],
            "fewest": data["fewest"],
            "most": data["most"],
            "bots_after": data["bots_after"],
            "bots_welcome": data["bots_welcome"],
        }

    def refusal(self) -> str:
        """The first error in words."""
        for errors in self.errors.values():
            return str(errors[0])
        return str(_("That search could not be read."))
