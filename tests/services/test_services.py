"""The services: joining, bots, starting, playing, stale versions, results, replay."""

from __future__ import annotations

import random
from typing import Any

import pytest

from accounts.models import User
from games import services
from games.engines import IllegalAction
from games.models import Action, Game
from games.services.dealing import draw_positions

# backend: the services' locks and constraints are the database's.
pytestmark = [pytest.mark.django_db, pytest.mark.backend]


def engine_of(game: Game) -> Any:
    return game.spec.engine


def seat_user(game: Game, position: int) -> User:
    return game.seats.get(position=position).user


def play_out(game: Game, rng: random.Random) -> Game:
    """Both people play random legal moves through the services until dawn."""
    engine = engine_of(game)
    while True:
        game.refresh_from_db()
        if game.status == Game.Status.OVER:
            return game
        state = engine.load(game.snapshot)
        for position in engine.active_seats(state):
            legal = engine.legal_actions(state, position)
            services.play(game, seat_user(game, position), rng.choice(legal), game.version)
            game.refresh_from_db()
            state = engine.load(game.snapshot)


def test_host_is_seated_at_a_new_table(open_table: Game, player: User) -> None:
    assert list(open_table.seats.values_list("user__username", flat=True)) == ["alice"]
    assert open_table.status == Game.Status.OPEN


def test_a_table_refuses_a_wrong_seat_count(player: User) -> None:
    with pytest.raises(services.ServiceError, match="2 to 8"):
        services.create_game(player, "midnight-bakery", 9)


def test_join_fills_seats_and_refuses_a_full_table(
    open_table: Game, rival: User, outsider: User
) -> None:
    services.join(open_table, rival)
    with pytest.raises(services.ServiceError, match="taken"):
        services.join(open_table, outsider)


def test_a_private_table_needs_its_invite(player: User, rival: User) -> None:
    game = services.create_game(player, "midnight-bakery", 2, private=True)
    with pytest.raises(services.NotAllowed):
        services.join(game, rival, "guess")
    services.join(game, rival, game.invite)
    assert game.seats.count() == 2


def test_a_person_can_leave_before_the_start(open_table: Game, rival: User) -> None:
    services.join(open_table, rival)
    services.leave(open_table, rival)
    assert open_table.seats.count() == 1


def test_only_the_host_adds_and_removes_bots(open_table: Game, player: User, rival: User) -> None:
    with pytest.raises(services.NotAllowed):
        services.add_bot(open_table, rival, "greedy")
    seat = services.add_bot(open_table, player, "greedy")
    assert seat.user.is_bot and seat.bot == "greedy"
    services.remove_bot(open_table, player, seat.pk)
    assert open_table.seats.count() == 1


def test_start_needs_two_bakers(open_table: Game, player: User) -> None:
    with pytest.raises(services.ServiceError, match="At least 2"):
        services.start(open_table, player)


def test_seats_are_drawn_from_the_seed(running_game: Game) -> None:
    positions = sorted(
        p for p in running_game.seats.values_list("position", flat=True) if p is not None
    )
    assert positions == [0, 1]
    assert draw_positions(running_game.seed, 2) == draw_positions(running_game.seed, 2)


def test_a_stale_version_is_refused_with_409(running_game: Game, player: User) -> None:
    engine = engine_of(running_game)
    state = engine.load(running_game.snapshot)
    position = running_game.seats.get(user=player).position
    action = engine.legal_actions(state, position)[0]
    with pytest.raises(services.StaleVersion) as info:
        services.play(running_game, player, action, running_game.version - 1)
    assert info.value.status == 409


def moment_of(game: Game, user: User) -> str:
    """The moment the user's page shows (bake.pick in Midnight Bakery)."""
    engine = engine_of(game)
    view = engine.view(engine.load(game.snapshot), game.seats.get(user=user).position)
    moment = game.spec.moment(view)
    assert moment is not None
    return moment


def first_choice(game: Game, user: User) -> dict[str, Any]:
    engine = engine_of(game)
    position = game.seats.get(user=user).position
    return engine.legal_actions(engine.load(game.snapshot), position)[0]


def test_a_rival_locking_first_does_not_make_my_pick_stale(
    running_game: Game, player: User, rival: User
) -> None:
    shown_version, shown_moment = running_game.version, moment_of(running_game, player)
    services.play(running_game, rival, first_choice(running_game, rival), shown_version)
    running_game.refresh_from_db()
    assert running_game.version == shown_version + 1
    services.play(
        running_game, player, first_choice(running_game, player), shown_version, shown_moment
    )
    running_game.refresh_from_db()
    assert running_game.moves == 2
    assert moment_of(running_game, player) != shown_moment


def test_a_pick_chosen_before_the_batches_passed_is_stale(
    running_game: Game, player: User, rival: User
) -> None:
    shown_version, shown_moment = running_game.version, moment_of(running_game, player)
    stale_choice = first_choice(running_game, player)
    services.play(running_game, rival, first_choice(running_game, rival), shown_version)
    running_game.refresh_from_db()
    services.play(running_game, player, first_choice(running_game, player), running_game.version)
    running_game.refresh_from_db()
    with pytest.raises(services.StaleVersion):
        services.play(running_game, player, stale_choice, shown_version, shown_moment)
    running_game.refresh_from_db()
    assert running_game.moves == 2


def test_an_illegal_action_is_refused_and_changes_nothing(running_game: Game, player: User) -> None:
    with pytest.raises(IllegalAction):
        services.play(
            running_game, player, {"type": "keep", "card": "nope-99"}, running_game.version
        )
    running_game.refresh_from_db()
    assert running_game.moves == 0


def test_an_outsider_cannot_play(running_game: Game, outsider: User) -> None:
    with pytest.raises(services.NotAllowed):
        services.play(running_game, outsider, {"type": "keep", "card": "x"}, None)


def test_each_action_is_logged_with_seat_actor_and_sequence(
    running_game: Game, player: User
) -> None:
    engine = engine_of(running_game)
    position = running_game.seats.get(user=player).position
    action = engine.legal_actions(engine.load(running_game.snapshot), position)[0]
    services.play(running_game, player, action, running_game.version)
    row = Action.objects.get(game=running_game)
    assert (row.seq, row.seat, row.payload, row.user, row.bot) == (1, position, action, player, "")


def test_a_whole_night_writes_results_and_replays_from_the_seed(running_game: Game) -> None:
    game = play_out(running_game, random.Random(4))
    engine = engine_of(game)
    seats = list(game.seats.order_by("position"))
    result = engine.result(engine.load(game.snapshot))
    assert [s.score for s in seats] == result["scores"]
    assert {s.position for s in seats if s.winner} == set(result["winners"])
    assert all(s.place is not None and s.breakdown for s in seats)
    assert seats[0].breakdown is not None and len(seats[0].breakdown["bakes"]) == 3
    assert engine.dump(services.replay(game)) == game.snapshot
    assert list(game.actions.values_list("seq", flat=True)) == list(range(1, game.moves + 1))


def test_a_play_costs_the_same_queries_early_and_late(running_game: Game) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    engine = engine_of(running_game)
    counts = []
    rng = random.Random(9)
    for _ in range(24):
        running_game.refresh_from_db()
        state = engine.load(running_game.snapshot)
        position = engine.active_seats(state)[0]
        action = rng.choice(engine.legal_actions(state, position))
        with CaptureQueriesContext(connection) as queries:
            services.play(running_game, seat_user(running_game, position), action, None)
        counts.append(len(queries))
    running_game.refresh_from_db()
    assert running_game.status == Game.Status.RUNNING
    assert len(set(counts)) == 1, counts


def test_seat_people_starts_a_table_of_exactly_those_people_and_bots(make_user) -> None:
    people = [make_user(name) for name in ("ann", "ben", "cat")]
    game = services.seat_people("cakehalla", people, pace=Game.Pace.FAST, bots=["random"])
    assert game.status == Game.Status.RUNNING
    assert game.pace == Game.Pace.FAST and game.rated
    seats = list(game.seats.order_by("position"))
    assert sorted(s.user_id for s in seats if not s.bot) == sorted(p.pk for p in people)
    assert [s.bot for s in seats if s.bot] == ["random"]
    assert all(s.position is not None for s in seats)


def test_seat_people_makes_nothing_when_two_of_them_block_each_other(make_user) -> None:
    from games.friends import services as friendship

    ann, ben = make_user("ann"), make_user("ben")
    friendship.block(ben, ann)
    with pytest.raises(services.NotAllowed):
        services.seat_people("midnight-bakery", [ann, ben])
    assert not Game.objects.exists()


def test_seat_people_refuses_someone_twice(make_user) -> None:
    ann = make_user("ann")
    with pytest.raises(services.ServiceError, match="sits once"):
        services.seat_people("midnight-bakery", [ann, ann])
    assert not Game.objects.exists()
