"""What the "Find a game" section and its waiting panel show: the words, the counts, the forms'
choices (read by the views and by the waiting page's socket)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext, gettext_lazy, ngettext

from accounts.models import User
from games import catalog
from games.kinds.base import AnyKind
from games.models import Game
from games.pairing import shown
from games.pairing.forms import BOTS_AFTER
from games.pairing.models import Seek

DEFAULT_PACE = Game.Pace.NORMAL
PACE_WORDS = {
    Game.Pace.RELAXED: gettext_lazy("relaxed"),
    Game.Pace.NORMAL: gettext_lazy("normal"),
    Game.Pace.FAST: gettext_lazy("fast"),
    Game.Pace.DAY1: gettext_lazy("1 day a move"),
    Game.Pace.DAY3: gettext_lazy("3 days a move"),
    Game.Pace.DAY7: gettext_lazy("7 days a move"),
}
"""A pace in the words of the waiting panel and the lobby's counts."""


@dataclass(frozen=True)
class PaceLine:
    """One pace of a game as the form offers it, with how many look there now."""

    value: str
    label: str
    words: str
    looking: int


@dataclass(frozen=True)
class GameLine:
    """One game's "Find a game" form and count of people looking."""

    spec: AnyKind
    paces: list[PaceLine]
    counts: list[int]

    @property
    def looking(self) -> int:
        return sum(p.looking for p in self.paces)

    @property
    def busy(self) -> list[PaceLine]:
        """The paces where someone looks."""
        return [p for p in self.paces if p.looking]


def pace_lines(slug: str, counts: dict[tuple[str, str], int]) -> list[PaceLine]:
    """Every pace of one game, with how many look there."""
    return [
        PaceLine(value, str(label), str(PACE_WORDS[Game.Pace(value)]), counts.get((slug, value), 0))
        for value, label in Game.Pace.choices
    ]


def game_lines(counts: shown.Counts) -> list[GameLine]:
    """Every game on offer with its paces and who looks at each."""
    return [
        GameLine(
            spec,
            pace_lines(spec.slug, counts),
            list(range(spec.min_players, spec.max_players + 1)),
        )
        for spec in catalog.available()
    ]


def count_words(seek: Seek, spec: AnyKind) -> str:
    """How many bakers a seek accepts, in words."""
    if (seek.fewest, seek.most) == (spec.min_players, spec.max_players) and seek.fewest < seek.most:
        return gettext("any number of bakers (%(fewest)d to %(most)d)") % {
            "fewest": seek.fewest,
            "most": seek.most,
        }
    return bakers(seek.fewest, seek.most)


def section_context(user: User | AnonymousUser, error: str = "") -> dict[str, object]:
    """What the "Find a game" section shows this person now."""
    seek = Seek.objects.filter(user=user).first() if user.is_authenticated else None
    counts = shown.looking_now()
    return {
        "user": user,
        "games": game_lines(counts),
        "waiting": panel_context(shown.waiting(seek, counts)) if seek is not None else None,
        "error": error,
        "default_pace": DEFAULT_PACE,
        "bots_after": BOTS_AFTER,
    }


def bakers(fewest: int, most: int) -> str:
    """A count of bakers in words, plural by the language's rule (a range by its largest)."""
    if fewest == most:
        return ngettext("%(n)d baker", "%(n)d bakers", fewest) % {"n": fewest}
    said = ngettext("%(fewest)d to %(most)d baker", "%(fewest)d to %(most)d bakers", most)
    return said % {"fewest": fewest, "most": most}


class Sooner(NamedTuple):
    """The others' count of bakers that most of them want, how many want it, and the count of
    this person's that would meet it."""

    their_fewest: int
    their_most: int
    how_many: int
    fewest: int
    most: int


def sooner(waiting: shown.Waiting) -> Sooner | None:
    """What would meet the others, when only the counts of bakers keep this person apart from
    everyone else looking."""
    if not waiting.apart:
        return None
    seek = waiting.seek
    fewest, most, n = max(waiting.apart, key=lambda size: size[2])
    return Sooner(fewest, most, n, min(seek.fewest, most), max(seek.most, fewest))


def apart_words(waiting: shown.Waiting) -> str:
    """Why nobody else looking is seated with this person, when only the counts of bakers keep
    them apart, and the count that would seat them sooner (with the most people it reaches)."""
    found = sooner(waiting)
    if found is None:
        return ""
    fewest, most, n, low, high = found
    seek = waiting.seek
    said = ngettext(
        "Nobody else looking wants %(wanted)s: %(n)d wants %(theirs)s. Look for %(low)d to "
        "%(high)d bakers to be seated with them sooner.",
        "Nobody else looking wants %(wanted)s: %(n)d want %(theirs)s. Look for %(low)d to "
        "%(high)d bakers to be seated with them sooner.",
        n,
    )
    wanted = bakers(seek.fewest, seek.most)
    return said % {
        "wanted": wanted,
        "n": n,
        "theirs": bakers(fewest, most),
        "low": low,
        "high": high,
    }


def panel_context(waiting: shown.Waiting) -> dict[str, object]:
    """The waiting panel's words for one moment of a seek."""
    seek = waiting.seek
    minutes, seconds = divmod(waiting.waited, 60)
    return {
        "waiting": waiting,
        "pace": PACE_WORDS.get(Game.Pace(seek.pace), seek.pace),
        "count": count_words(seek, waiting.spec),
        "waited": f"{minutes}:{seconds:02d}",
        "apart": apart_words(waiting),
        "sooner": sooner(waiting),
    }
