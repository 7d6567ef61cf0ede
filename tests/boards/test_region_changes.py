"""Regions are re-rendered only when what they show moved, and never miss a change.

Whole seeded games of both kinds are played through the services; after every move, for every
viewer (each seat, a spectator, an outsider), the board kept from pushes of changed regions only
must equal the board rendered whole. A region that a fingerprint wrongly called unchanged would
leave an old piece on a screen.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from unittest import mock

import pytest
from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from games import services
from games.boards import Sent, render_changed, render_regions
from games.boards.changes import region_paths
from games.models import Game

SCENARIOS = [
    ("midnight-bakery", 2, 0, 3),
    ("midnight-bakery", 4, 2, 5),
    ("cakehalla", 2, 0, 7),
    ("cakehalla", 3, 1, 11),
]


def fresh_regions(game: Game, viewer: User | AnonymousUser) -> dict[str, str]:
    """Every region of the viewer's board rendered now, none of it taken from another render."""
    with mock.patch("games.boards.pieces.render_piece", lambda _t, _s, render: render()):
        return render_regions(game, viewer)


def table(kind: str, people: list[User], bots: int, seed: int) -> Game:
    """A started game of these people and greedy bots, with a fixed seed."""
    game = services.create_game(people[0], kind, len(people) + bots)
    for person in people[1:]:
        services.join(game, person)
    for _ in range(bots):
        services.add_bot(game, people[0], "greedy")
    Game.objects.filter(pk=game.pk).update(seed=seed)
    services.start(game, people[0])
    game.refresh_from_db()
    return game


def someone_moves(game: Game, people: list[User], rng: random.Random) -> bool:
    """One person who may act makes a random legal move (or closes results); False when over."""
    game.refresh_from_db()
    if game.status != Game.Status.RUNNING:
        return False
    engine = game.spec.engine
    state = engine.load(game.snapshot)
    seats = {s.position: s for s in game.seats.filter(user__in=people)}
    for seat in seats.values():
        if seat.results_seen < len(engine.view(state, seat.position).get("bakes", [])):
            services.close_results(game.pk, seat.user, seat.results_seen + 1)
            return True
    movers = [p for p in engine.active_seats(state) if p in seats]
    position = rng.choice(movers)
    action = rng.choice(engine.legal_actions(state, position))
    services.play(game.pk, seats[position].user, action, None)
    return True


@pytest.mark.django_db
@pytest.mark.parametrize(("kind", "humans", "bots", "seed"), SCENARIOS)
def test_pushing_only_changed_regions_keeps_every_screen_whole(
    make_user: Callable[[str], User], kind: str, humans: int, bots: int, seed: int
) -> None:
    people = [make_user(f"p{i}") for i in range(humans)]
    outsider = make_user("outsider")
    game = table(kind, people, bots, seed)
    viewers: list[User | AnonymousUser] = [*people, outsider, AnonymousUser()]
    shown = [fresh_regions(game, v) for v in viewers]
    prints: list[Sent] = [render_changed(game, v, {})[1] for v in viewers]
    rng = random.Random(seed)
    sent = rendered = 0
    for _ in range(400):
        if not someone_moves(game, people, rng):
            break
        game.refresh_from_db()
        for i, viewer in enumerate(viewers):
            changed, prints[i] = render_changed(game, viewer, prints[i])
            shown[i].update(changed)
            whole = fresh_regions(game, viewer)
            assert shown[i] == whole, f"viewer {i} after move {game.moves}"
            sent += len(changed)
            rendered += len(whole)
    assert game.status == Game.Status.OVER
    assert sent < rendered * 0.8, "most moves leave most regions as they were"


def test_a_region_reads_the_paths_its_template_and_includes_use() -> None:
    paths = region_paths("games/midnight-bakery/_seats.html")
    assert ("boxes",) in paths
    assert ("resigned_positions",) in paths
    assert all(re.fullmatch(r"[\w.]+", ".".join(p)) for p in paths)


@pytest.mark.django_db
def test_a_rivals_take_redraws_neither_the_counter_nor_the_whole_log_of_a_bystander(
    make_user: Callable[[str], User],
) -> None:
    people = [make_user(f"b{i}") for i in range(3)]
    game = table("cakehalla", people, 0, 5)
    engine = game.spec.engine
    rng = random.Random(5)
    for _ in range(200):  # on into a game longer than the log shows, to a turn that can take
        someone_moves(game, people, rng)
        game.refresh_from_db()
        state = engine.load(game.snapshot)
        mover = state.turn
        takes = [a for a in engine.legal_actions(state, mover) if a["type"] == "take"]
        if game.moves > 40 and takes:
            break
    bystander = next(
        p for p in people if game.seats.get(user=p).position not in (mover, (mover + 1) % 3)
    )
    before = render_changed(game, bystander, {})[1]
    services.play(game.pk, game.seats.get(position=mover).user, takes[0], None)
    game.refresh_from_db()
    changed, _ = render_changed(game, bystander, before)
    assert "counter" not in changed and "market" in changed
    log = render_regions(game, bystander)["info"]
    assert log.split('class="kitchen-log"')[1].split("</ol>")[0].count("</li>") == 30
    assert f"of {len(engine.view(engine.load(game.snapshot), None)['log'])} entries" in log
