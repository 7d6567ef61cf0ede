"""Guided first games: a person's tutorial table of one kind, and the step it shows them now.

A tutorial is an ordinary unrated, private, relaxed table against one house bot, dealt from the
kind's fixed short deal (its `lesson`, games/kinds/<game>/lesson.py) under the real rules, made
by the core's services.guided_game. Its game is `guided` (games.models.Game): the tables' core
reads that flag to leave it out of lists, ratings, stats and absence, and never imports this
package. Each step is read from the person's own seat view only: the lesson's planned move or
the one the strongest bot would make there (as a practice table's hint), in the kind's words
(games/kinds/<game>/hints.py), and the board control that makes it. A tutorial is finished
when its game is over with the person still in their seat; it never moves a rating or a stat.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils.translation import gettext

from accounts.models import User, signed_in
from games import catalog
from games.kinds.base import AnyKind
from games.kinds.lessons import Lesson, Press, Scripted
from games.models import Game, Seat
from games.services import ServiceError, guided_game, inline_bots, lock_user
from games.tutorial.models import Tutorial


@dataclass(frozen=True)
class Step:
    """What the tutorial tells the person now: what to do, one sentence of why, and the controls
    on the board to press in turn (none when there is nothing to press)."""

    what: str
    why: str
    presses: tuple[Press, ...] = ()
    intro: str = ""
    done: bool = False

    @property
    def target(self) -> str:
        """The first control to press (a CSS selector in #board), or empty."""
        return self.presses[0].target if self.presses else ""

    @property
    def presses_json(self) -> str:
        """The taps as the page's pointer reads them: [[target, done], ...]."""
        return json.dumps([[p.target, p.done] for p in self.presses])


def at(selector: str) -> tuple[Press, ...]:
    """One control to press (none for an empty selector)."""
    return (Press(selector),) if selector else ()


@dataclass(frozen=True)
class Offer:
    """A tutorial the lobby offers: the kind, and whether the person has one going already."""

    kind: AnyKind
    going: bool


def lesson_kinds() -> list[AnyKind]:
    """The games on offer that have a guided first game."""
    return [kind for kind in catalog.available() if kind.lesson is not None]


def lesson_of(slug: str) -> tuple[AnyKind, Lesson]:
    """The kind and its lesson, or a ServiceError in words."""
    try:
        kind = catalog.get(slug)
    except KeyError:
        raise ServiceError(gettext("That game is not on offer.")) from None
    if kind.lesson is None:
        raise ServiceError(f"{kind.name} has no guided first game yet.")
    return kind, kind.lesson


def unfinished(user: User, slug: str) -> Game | None:
    """The person's tutorial of that kind still being played, if any."""
    found = (
        Tutorial.objects.filter(user=user, kind=slug, game__status=Game.Status.RUNNING)
        .select_related("game")
        .first()
    )
    return found.game if found is not None else None


def start_tutorial(user: User, slug: str) -> Game:
    """The person's unfinished tutorial of that kind, or a new one dealt now; the bot makes its
    first move after the commit."""
    kind, lesson = lesson_of(slug)
    if user.is_bot:
        raise ServiceError(gettext("Tutorials are for people."))
    with transaction.atomic():
        lock_user(user)  # two taps at once start one table
        going = unfinished(user, kind.slug)
        if going is not None:
            return going
        game = guided_game(user, kind, lesson)
        Tutorial.objects.create(game=game, user=user, kind=kind.slug)
    inline_bots(game.pk)
    return game


def step_rng(game: Game, position: int) -> random.Random:
    """The stream the step's advice draws from: one per move of the table, the same for every
    learner (the deal and the seed are fixed, so the path is too)."""
    return random.Random(f"tutorial:{game.kind}:{game.moves}:{position}")


def step(game: Game, user: User | AnonymousUser) -> Step | None:
    """The step this person's tutorial shows now (None: not their tutorial, or nothing to say)."""
    kind = game.spec
    lesson = kind.lesson
    # Only a guided table asks more: any other's page (each of a Swiss round's 200, asked at
    # once) asks nothing here.
    if lesson is None or not signed_in(user) or game.snapshot is None or not game.guided:
        return None
    if not Tutorial.objects.filter(game_id=game.pk, user_id=user.pk).exists():
        return None
    me = Seat.objects.filter(game_id=game.pk, user_id=user.pk).first()
    if me is None or me.position is None:
        return None
    if game.status == Game.Status.OVER:
        return Step(
            "The game is over: here is the scoring.",
            lesson.scoring,
            at(lesson.results_control),
            done=True,
        )
    if game.status != Game.Status.RUNNING or me.resigned:
        return None
    return move_step(game, kind, lesson, me, kind.engine.load(game.snapshot))


def move_step(game: Game, kind: AnyKind, lesson: Lesson, me: Seat, state: object) -> Step:
    """The step of a running tutorial, from the person's own seat view of the engine's state."""
    assert me.position is not None
    engine = kind.engine
    view = engine.view(state, me.position)
    first = not game.actions.filter(seat=me.position).exists()
    intro = lesson.welcome if first else ""
    if kind.results_count(view) > me.results_seen:
        return Step("The round is scored.", lesson.round_scored, at(lesson.close_control), intro)
    legal = engine.legal_actions(state, me.position)
    if not legal or me.position not in engine.active_seats(state):
        return Step("Your rival is choosing.", "The board moves on by itself when it is your turn.")
    planned = next_planned(game, lesson, me.position, legal)
    if planned is not None:
        words, _ = kind.advise(view, planned.action)
        return Step(words, planned.why, lesson.control(planned.action), intro)
    action = kind.bots[kind.hint_bot](view, legal, step_rng(game, me.position))
    words, why = kind.advise(view, action)
    return Step(words, why, lesson.control(action), intro)


def same_move(a: Mapping[str, object], b: Mapping[str, object]) -> bool:
    """Whether two actions are the same move (the ingredients of a take in any order)."""

    def plain(action: Mapping[str, object]) -> Mapping[str, object]:
        items = action.get("ingredients")
        return {**action, "ingredients": sorted(items)} if isinstance(items, list) else action

    return plain(a) == plain(b)


def next_planned(
    game: Game, lesson: Lesson, position: int, legal: Sequence[Mapping[str, object]]
) -> Scripted | None:
    """The lesson's next planned move (a Scripted) while the learner has kept to the plan and it
    is legal now; None otherwise."""
    done = list(game.actions.filter(seat=position).values_list("payload", flat=True))
    if len(done) >= len(lesson.script):
        return None
    if not all(same_move(a, s.action) for a, s in zip(done, lesson.script, strict=False)):
        return None
    planned = lesson.script[len(done)]
    return planned if any(same_move(planned.action, a) for a in legal) else None


def offers(user: User | AnonymousUser) -> list[Offer]:
    """The tutorials the lobby offers this person: each game with a lesson of which they have
    not finished a game yet (a tutorial or a real one)."""
    if not signed_in(user) or user.is_bot:
        return []
    finished = set(
        Seat.objects.filter(user=user, game__status=Game.Status.OVER, resigned=False).values_list(
            "game__kind", flat=True
        )
    )
    going = set(
        Tutorial.objects.filter(user=user, game__status=Game.Status.RUNNING).values_list(
            "kind", flat=True
        )
    )
    return [Offer(k, k.slug in going) for k in lesson_kinds() if k.slug not in finished]


def finished_kinds(user: User) -> list[AnyKind]:
    """The games whose tutorial this person finished (in their own seat, to the end)."""
    done = set(
        Tutorial.objects.filter(
            user=user,
            game__status=Game.Status.OVER,
            game__seats__user=user,
            game__seats__resigned=False,
        ).values_list("kind", flat=True)
    )
    return [kind for kind in catalog.available() if kind.slug in done]
