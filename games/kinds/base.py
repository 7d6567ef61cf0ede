"""What the site needs to know about one game: its engine, bots, seats, options, words and boards.

Each game subclasses `GameKind` once, in its own package (games/kinds/<game>/kind.py), and is
registered by one line in games/catalog.py. Shared code (services, boards, replays, stats,
templates) asks the kind and never branches on a slug. The kinds sit below the models: they
read a table's rows through small protocols (GameRow below; a seat's in rows.py), so the models
can ask the catalog for a kind. The engine a kind names is read through engine.py's protocol.
A game's package imports what it needs of all three from here (the names `__all__` hands on).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, cast

from django.utils.translation import gettext
from django.utils.translation import gettext_noop as N_

from games.kinds.engine import Bot, Engine
from games.kinds.lessons import Lesson
from games.kinds.options import option_words
from games.kinds.rows import AppendOnly, Hand, PersonRow, SeatRow, player_name
from games.kinds.sessions import GAME, SessionWords

__all__ = [
    "AnyEngine",
    "AnyKind",
    "AppendOnly",
    "Bot",
    "Counts",
    "Engine",
    "Facts",
    "GameKind",
    "GameRow",
    "Hand",
    "Option",
    "PersonRow",
    "ReplayedMove",
    "SeatRow",
    "ordinal",
    "player_name",
]

# A game's own engine state, view and action (the engines' shapes); a kind names them once.
StateT = TypeVar("StateT")
ViewT = TypeVar("ViewT", bound=Mapping[str, object])
ActionT = TypeVar("ActionT", bound=Mapping[str, object])
# What a finished game adds to its kind's stats counters: (chart, key) -> count.
Facts = Counter[tuple[str, str]]
# The stats counters of one kind, read back: chart -> key -> count.
Counts = Mapping[str, Mapping[str, int]]


class GameRow(Protocol):
    """A table as the kinds read it (games.models.Game)."""

    @property
    def spec(self) -> AnyKind: ...


@dataclass(frozen=True)
class Option:
    """One lobby option of a game: a name, a label and its choices (value, label)."""

    name: str
    label: str
    choices: tuple[tuple[str, str], ...]
    default: str


@dataclass(frozen=True)
class ReplayedMove(Generic[StateT, ActionT]):
    """One move of a replay: the table before and after it, the seat that made it and what, the
    table's seats, and `eyes`, the seat it is told to (None: as everyone saw it once the game was
    over)."""

    before: StateT
    after: StateT
    seat: int
    action: ActionT
    seats: Sequence[SeatRow]
    eyes: int | None = None


class GameKind(ABC, Generic[StateT, ViewT, ActionT]):
    """One game as the site offers it, over its engine's state, view and action. Subclass it per
    game (naming those three) and override what differs."""

    slug: str
    name: str
    engine: Engine[StateT, ViewT, ActionT]
    bots: Mapping[str, Bot[ViewT, ActionT]]
    seat_names: tuple[str, ...]
    min_players: int
    max_players: int
    options: tuple[Option, ...] = ()
    blurb: str = ""
    # One whole game in the game's own words, its sentences translated: "Start the night".
    session_words: SessionWords = GAME
    # The bots a quick game seats beside the person who asks for it (the person may choose
    # another level for all of them).
    quick_bots: tuple[str, ...] = ("greedy", "greedy")
    # Levels whose bot searches for its choice (a master): each names the function that makes
    # that bot for a budget of seconds of CPU a decision. The site runs their choices in the
    # thinking pool (games/thinking.py) with MASTER_BOT_SECONDS, never on a request's thread;
    # hints and stand-ins keep to the levels that answer at once.
    searching: Mapping[str, Callable[[float], Bot[ViewT, ActionT]]] = {}
    # Levels whose search also remembers: each makes that bot for a budget and the seat's own
    # earlier views this game, oldest first (what it saw: in Midnight Bakery the batches it passed
    # on, which no later view shows). Read instead of `searching` for these levels.
    remembering: Mapping[str, Callable[[float, Sequence[ViewT]], Bot[ViewT, ActionT]]] = {}
    # Each bot level as a person reads it: a name, then what it does (said in the language active).
    bot_words: Mapping[str, tuple[str, str]] = {
        "random": (N_("beginner"), N_("plays any legal move")),
        "greedy": (N_("steady"), N_("takes what pays most right now")),
        "lookahead": (N_("strong"), N_("looks a turn or two ahead")),
        "master": (N_("master"), N_("weighs hundreds of ways the game could still go")),
    }
    # The board's regions, each templates/games/<slug>/_<region>.html, swapped on its own.
    regions: tuple[str, ...] = ("status", "results")
    # The regions a replay shows (a seat's own controls mean nothing to a watcher).
    replay_regions: tuple[str, ...] = ("status", "results")
    # The ids of the board's forms that make a move (post to games:play): the version region
    # gives each the version and moment its page shows, so the form works with no script at all.
    play_forms: tuple[str, ...] = ()
    # Static files the table page adds (css, js), paths under static/.
    extra: Mapping[str, str] = {}
    # Moves stay secret until revealed (simultaneous picks): staff pages hide a running log.
    secret_moves: bool = False
    # Every n-th demo game seats two demo bakers instead of three (0: never).
    demo_two_every: int = 0
    # /stats/<game>/'s win-rate chart: by turn order, unless the game's seats say more (marked
    # with N_, said in the reader's language by templates/stats_game.html).
    seat_chart_title: str = N_("Win rate by turn order")
    seat_chart_blurb: str = N_(
        "Is there a first-player advantage? Shared wins count for each winner."
    )
    # The game's own charts on /stats/<game>/ (a partial reading `own`, from stat_charts).
    stats_template: str | None = None
    # The guided first game, for a kind that offers one.
    lesson: Lesson | None = None

    @property
    def bot_levels(self) -> tuple[str, ...]:
        """The bot levels a host may seat, weakest first."""
        return tuple(self.bots)

    @property
    def template_dir(self) -> str:
        """The folder of this game's board templates."""
        return f"games/{self.slug}"

    @property
    def hands_template(self) -> str:
        """The replay's hidden hands, as this game shows them."""
        return f"{self.template_dir}/_replay_hands.html"

    @property
    def practice_play(self) -> str:
        """The lobby's button for a practice game against bots, started at once."""
        return gettext("Practice %(game)s against bots (unrated, with hints)") % {"game": self.name}

    @property
    def rated_play(self) -> str:
        """The lobby's button for a rated game against bots, started at once."""
        return gettext("Rated %(game)s against bots") % {"game": self.name}

    @property
    def quick_pitch(self) -> str:
        """The lobby's invitation to a quick game, as in "... or <pitch> against bots"."""
        return str(self.session_words.pitch) % {"game": self.name}

    @property
    def quick_capacity(self) -> int:
        """The seats of a quick game: the person and the bots."""
        return 1 + len(self.quick_bots)

    @property
    def strongest_bot(self) -> str:
        """The strongest bot level (the last): the house table seats it."""
        return self.bot_levels[-1]

    @property
    def hint_bot(self) -> str:
        """The bot level whose choice a practice table's hint and the tutorial show: the
        strongest that answers at once (a search would hold the page's request)."""
        thinks = {*self.searching, *self.remembering}
        return [level for level in self.bot_levels if level not in thinks][-1]

    @property
    def bot_choices(self) -> list[tuple[str, str, str]]:
        """Each bot level with its name and what it does, weakest first (the lobby's choice)."""
        return [(level, self.bot_name(level), self.bot_blurb(level)) for level in self.bot_levels]

    @property
    def hint_bot_name(self) -> str:
        """The hint bot as a person calls it ("a steady bot")."""
        return self.bot_name(self.hint_bot)

    def bot_name(self, level: str) -> str:
        """A bot level as a person calls it ("master"), the level itself if it has no words."""
        return gettext(self.bot_words[level][0]) if level in self.bot_words else level

    def bot_blurb(self, level: str) -> str:
        """What a bot level does, in a few words ("weighs hundreds of ways...")."""
        return gettext(self.bot_words[level][1]) if level in self.bot_words else ""

    @property
    def house_bot(self) -> str:
        """The bot level that takes over a resigned seat."""
        return "greedy" if "greedy" in self.bots else self.bot_levels[0]

    def default_options(self) -> dict[str, str]:
        """The options a game gets when none are chosen."""
        return {o.name: o.default for o in self.options}

    def option_labels(self, chosen: Mapping[str, str]) -> list[str]:
        """The chosen options in words ("Passing: Alternate")."""
        said = [(o, chosen.get(o.name, o.default)) for o in self.options]
        return [option_words(o.name, o.label, dict(o.choices).get(v, v)) for o, v in said]

    # --- the table -----------------------------------------------------------------------

    def moment(self, view: ViewT) -> str | None:
        """A seat's moment, read from its own view, or None for games without.

        A move chosen at the same moment is still a fair choice even if the table's version moved
        (in Midnight Bakery a rival locking a pick does not change your batch).
        """
        return None

    def turn(self, view: ViewT) -> Hashable:
        """Which turn (or pick) of the game a seat's view is at: a seat still to act after its own
        move plays on in the same turn while this stays the same (one move clock, one stand-in).

        The moment by default: a game without one has a turn end only when the seat stops acting.
        """
        return self.moment(view)

    @abstractmethod
    def board(
        self,
        game: GameRow,
        view: ViewT,
        legal: list[ActionT],
        me: SeatRow | None,
        seats: Sequence[SeatRow],
    ) -> dict[str, object]:
        """Template context of the board for one viewer, from their own view only."""

    def advise(self, view: ViewT, action: ActionT) -> tuple[str, str]:
        """A suggested action in words and one line of why, from the seat's own view only (a
        practice table's hint; games/services/hints.py). Games override it with their words."""
        bot = {"bot": self.hint_bot_name}
        why = gettext("The %(bot)s bot scores it highest from what you can see.") % bot
        return gettext("Play the move the %(bot)s bot would choose.") % bot, why

    def rules_context(self) -> dict[str, object]:
        """What the game's How to play page reads from its engine's own tables (none here)."""
        return {}

    def results_count(self, view: ViewT) -> int:
        """How many rounds of results this seat's view has shown so far (0 for games without)."""
        return 0

    def seat_results(self, result: Mapping[str, object], position: int) -> dict[str, object]:
        """What a seat keeps of the final result (its own slice of each per-seat list)."""
        count = len(cast(list[object], result["scores"]))
        return {
            key: value[position]
            for key, value in result.items()
            if isinstance(value, list) and len(value) == count and key not in {"scores", "winners"}
        }

    # --- the stats page of the game ------------------------------------------------------

    def seat_label(self, turn: int) -> str:
        """A turn position (1 acts first) in words, as the win-rate chart labels it."""
        return f"{ordinal(turn)} to play"

    def stat_facts(self, view: ViewT, result: Mapping[str, object]) -> Facts:
        """What a finished game adds to this game's own charts, from the spectator's final view
        and the result (every game's size, scores and wins by seat are counted anyway)."""
        return Counter()

    def stat_charts(self, counts: Counts) -> dict[str, object]:
        """This game's own charts (`own` in stats_template), drawn from its counters."""
        return {}

    # --- the replay of a finished game ---------------------------------------------------

    def replay_view(self, state: StateT) -> ViewT:
        """What a replay shows of the table at a state: the spectator's view unless told more."""
        return self.engine.view(state, None)

    def hidden_hands(self, state: StateT, seats: Sequence[SeatRow]) -> list[Hand]:
        """Every seat's hidden hand at this state ({"player", "cards"}), [] for games without."""
        return []

    @abstractmethod
    def describe_move(self, move: ReplayedMove[StateT, ActionT]) -> tuple[str, list[str]]:
        """A move in words, and the public events it set off: as everyone saw it once the game
        was over, or (`move.eyes` a seat) as that seat saw it then, a rival's secrets kept."""


# A kind whose game the reader does not know (the catalog's, a table's): its state, views and
# actions pass between its own engine and kind only, opaque to the shared code in between.
AnyKind = GameKind[Any, Any, Any]
AnyEngine = Engine[Any, Any, Any]  # a kind's engine, read as above


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
