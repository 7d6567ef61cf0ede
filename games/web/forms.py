"""The new-table form, built from the catalog's game options."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import catalog
from games.kinds.options import choice_words
from games.models import Game


def seats_words(game: str, low: int, high: int) -> str:
    """How many seats a game's table has ("Cakehalla: 2 to 4"), in the reader's language."""
    return _("%(game)s: %(low)s to %(high)s") % {"game": game, "low": low, "high": high}


class NewGameForm(forms.Form):
    """Choose the game, the number of seats, its options, and private or public."""

    kind = forms.ChoiceField(label=_("Game"))
    capacity = forms.IntegerField(label=_("Seats"))  # its range is set from the games on offer
    private = forms.BooleanField(
        label=_("Private (invite link only)"), label_suffix="", required=False, initial=False
    )
    watchers = forms.ChoiceField(
        label=_("Who may watch"),
        choices=Game.Watchers.choices,
        initial=Game.Watchers.ANYONE,
        required=False,
        help_text=_("Once the game has started: anyone, signed-in people, or only the players."),
    )
    spectator_chat = forms.BooleanField(
        label=_("Spectators may chat"), label_suffix="", required=False, initial=False
    )
    practice = forms.BooleanField(
        label=_("Practice (unrated)"),
        label_suffix="",  # the label follows its box (site.css), as the settings' do
        required=False,
        initial=False,
        help_text=_("The result moves no rating; against bots you may ask for a suggested move."),
    )
    pace = forms.ChoiceField(
        label=_("Pace"),
        choices=Game.Pace.choices,
        initial=Game.Pace.RELAXED,
        required=False,
        help_text=_(
            "With a clock, a stand-in plays a move whose time runs out. Turn-based tables give"
            " days a move (a pick round in Midnight Bakery) and a bank for the game; a vacation"
            " set at Settings stands your clocks still."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        specs = catalog.available()
        kind = self.fields["kind"]
        assert isinstance(kind, forms.ChoiceField)
        kind.choices = [(s.slug, s.name) for s in specs]
        self.fields["kind"].initial = specs[0].slug if specs else None
        # The widest range of any game; create_game refuses a count the chosen game does not seat.
        low = min((s.min_players for s in specs), default=2)
        high = max((s.max_players for s in specs), default=2)
        self.fields["capacity"] = forms.IntegerField(
            label=_("Seats"),
            min_value=low,
            max_value=high,
            initial=low,
            help_text="; ".join(seats_words(s.name, s.min_players, s.max_players) for s in specs),
        )
        seen: set[str] = set()
        for spec in specs:
            for option in spec.options:
                if option.name in seen:
                    continue
                seen.add(option.name)
                self.fields[option.name] = forms.ChoiceField(
                    label=gettext(option.label),
                    choices=[(v, choice_words(option.name, w)) for v, w in option.choices],
                    initial=option.default,
                    required=False,
                    help_text=_("%(game)s only.") % {"game": spec.name},
                )

    def options(self) -> dict[str, str]:
        """The chosen options of the chosen game."""
        spec = catalog.get(self.cleaned_data["kind"])
        return {o.name: self.cleaned_data.get(o.name) or o.default for o in spec.options}


class DeleteAccountForm(forms.Form):
    """The password, to confirm that the person means to delete their own account."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
