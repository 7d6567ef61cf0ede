"""Move clocks: deadlines stored on the seats, stand-ins when time runs out, absent players.

Time is moved forward by patching the clocks' time, never slept.
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from accounts.models import User
from games import services
from games.boards import epoch_ms, render_board
from games.models import Action, Game, Seat
from games.services import clocks
from games.services.move_log import seated
from tests.conftest import client_for
from tests.support.cakehalla_tables import SETUP, load_with, start_with, state_of, user_at
from tests.support.clock import Clock
from tests.support.finished_games import finished_game

pytestmark = pytest.mark.django_db

FAST_MOVE, FAST_BANK = 20.0, 60.0


def fast_night(people: list[User], pace: str = "fast", kind: str = "midnight-bakery") -> Game:
    """A started table of these people at that pace."""
    game = services.create_game(people[0], kind, len(people), pace=pace)
    for user in people[1:]:
        services.join(game, user)
    services.start(game, people[0])
    game.refresh_from_db()
    return game


def seat(game: Game, user: User) -> Seat:
    return game.seats.get(user=user)


def legal_for(game: Game, user: User) -> list[dict]:
    game.refresh_from_db()
    engine = game.spec.engine
    return list(engine.legal_actions(engine.load(game.snapshot), seat(game, user).position))


def keep_first(game: Game, user: User) -> None:
    """The person keeps the first card they may (a move of their own)."""
    game.refresh_from_db()
    services.play(game, user, legal_for(game, user)[0], game.version)


def left(s: Seat, clock: Clock) -> float:
    """Seconds until the seat's deadline."""
    assert s.deadline is not None
    return (s.deadline - clock.at).total_seconds()


def stand_ins(game: Game) -> list[Action]:
    return list(Action.objects.filter(game=game, bot=services.STAND_IN))


def test_a_relaxed_table_has_no_clock(player: User, rival: User) -> None:
    game = fast_night([player, rival], pace="relaxed")
    assert all(s.deadline is None for s in game.seats.all())


def test_a_fast_night_starts_every_bakers_clock(clock: Clock, player: User, rival: User) -> None:
    game = fast_night([player, rival])
    for s in game.seats.all():
        assert s.bank == FAST_BANK
        assert left(s, clock) == FAST_MOVE + FAST_BANK


def test_an_unknown_pace_is_refused(player: User) -> None:
    with pytest.raises(services.ServiceError, match="pace"):
        services.create_game(player, "midnight-bakery", 2, pace="blitz")


def test_a_move_stops_the_clock_and_charges_the_bank_what_ran_past_the_move(
    clock: Clock, player: User, rival: User
) -> None:
    game = fast_night([player, rival])
    clock.forward(FAST_MOVE + 5)
    keep_first(game, player)
    mine = seat(game, player)
    assert mine.bank == FAST_BANK - 5
    assert mine.deadline is None  # locked: the table waits for the rival only
    assert seat(game, rival).deadline is not None
    keep_first(game, rival)  # the reveal: a new pick, both clocks start again
    mine = seat(game, player)
    assert left(mine, clock) == FAST_MOVE + FAST_BANK - 5


def test_nothing_moves_before_the_deadline(clock: Clock, player: User, rival: User) -> None:
    game = fast_night([player, rival])
    clock.forward(FAST_MOVE + FAST_BANK - 1)
    assert services.run_bots(game.pk) == 0
    assert not stand_ins(game)


def test_when_time_runs_out_a_stand_in_plays_that_one_pick_and_the_table_is_told(
    clock: Clock, player: User, rival: User
) -> None:
    game = fast_night([player, rival])
    keep_first(game, rival)
    clock.forward(FAST_MOVE + FAST_BANK)
    assert services.run_bots(game.pk) == 1
    [move] = stand_ins(game)
    mine = seat(game, player)
    assert move.seat == mine.position and move.user == player
    assert mine.stand_ins == 1 and mine.bank == 0 and not mine.resigned
    game.refresh_from_db()
    assert "Time ran out for alice" in game.notices[-1]["text"]
    assert game.spec.engine.dump(services.replay(game)) == game.snapshot
    page = client_for(rival).get(game.get_absolute_url()).content.decode()
    assert "Time ran out for alice: a stand-in played" in page
    # The next pick is the person's own again, with only the move's own time left.
    assert left(mine, clock) == FAST_MOVE


def test_the_stand_in_decides_from_its_own_seats_view_only(
    clock: Clock, player: User, rival: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = fast_night([player, rival])
    keep_first(game, rival)
    game.refresh_from_db()
    engine = game.spec.engine
    state = engine.load(game.snapshot)
    position = seat(game, player).position
    seen: list[dict] = []
    greedy = game.spec.bots["greedy"]

    def spy(view: dict, legal: list[dict], rng: random.Random) -> dict:
        seen.append(view)
        return greedy(view, legal, rng)

    monkeypatch.setitem(game.spec.bots, "greedy", spy)
    clock.forward(FAST_MOVE + FAST_BANK)
    services.run_bots(game.pk)
    assert seen == [engine.view(state, position)]
    rivals_batch = engine.view(state, seat(game, rival).position)["batch"]
    assert all(card not in seen[0]["batch"] for card in rivals_batch)


def test_three_stand_ins_in_a_row_give_the_seat_to_a_bot_placed_last(
    clock: Clock, player: User, rival: User
) -> None:
    game = fast_night([player, rival])
    for _ in range(3):
        assert not seat(game, player).resigned
        keep_first(game, rival)
        clock.forward(FAST_MOVE + FAST_BANK)
        services.run_bots(game.pk)
    mine = seat(game, player)
    assert mine.resigned and mine.bot == "greedy" and mine.handed_over == services.ABSENT
    assert mine.deadline is None
    game.refresh_from_db()
    assert (
        "alice's time ran out three moves in a row: a greedy bot plays" in game.notices[-1]["text"]
    )
    while game.status == Game.Status.RUNNING:
        keep_first(game, rival)
        game.refresh_from_db()
    mine, theirs = seat(game, player), seat(game, rival)
    assert mine.place == 2 and theirs.place == 1 and theirs.winner
    history = client_for(rival).get("/games/history/").content.decode()
    assert '<span class="tag">resigned</span>' in history


def test_a_move_of_ones_own_starts_the_count_of_stand_ins_again(
    clock: Clock, player: User, rival: User
) -> None:
    game = fast_night([player, rival])
    for _ in range(2):
        keep_first(game, rival)
        clock.forward(FAST_MOVE + FAST_BANK)
        services.run_bots(game.pk)
    assert seat(game, player).stand_ins == 2
    keep_first(game, player)
    assert seat(game, player).stand_ins == 0


def test_cakehalla_turns_have_clocks_only_for_whose_turn_it_is(
    clock: Clock, player: User, rival: User
) -> None:
    game = fast_night([player, rival], kind="cakehalla")
    engine = game.spec.engine
    turn = engine.active_seats(engine.load(game.snapshot))
    clocked = {s.position for s in game.seats.all() if s.deadline is not None}
    assert clocked == set(turn)
    clock.forward(FAST_MOVE + FAST_BANK)
    assert services.run_bots(game.pk) >= 1
    game.refresh_from_db()
    assert stand_ins(game)
    after = engine.active_seats(engine.load(game.snapshot))
    assert {s.position for s in game.seats.all() if s.deadline is not None} == set(after)


# --- leaving and coming back -------------------------------------------------------------


def test_a_leaver_may_take_the_seat_back_before_the_end(
    clock: Clock, player: User, rival: User
) -> None:
    game = fast_night([player, rival])
    client = client_for(player)
    client.post(f"/games/{game.pk}/resign/", {"confirm": "yes"})
    mine = seat(game, player)
    assert mine.resigned and mine.handed_over == services.LEFT
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Take your seat back" in page
    response = client.post(f"/games/{game.pk}/take-back/")
    assert response.status_code == 302
    mine = seat(game, player)
    assert not mine.resigned and mine.bot == "" and mine.handed_over == ""
    game.refresh_from_db()
    assert game.notices[-1]["text"].startswith("alice is back and plays")
    if legal_for(game, player):
        assert mine.deadline is not None
        keep_first(game, player)  # plays again as a person
        assert Action.objects.filter(game=game, user=player, bot="").exists()


def test_a_seat_back_counts_like_any_other_at_the_end(player: User, rival: User) -> None:
    game = fast_night([player, rival], pace="relaxed")
    services.resign(game, player)
    services.take_seat_back(game, player)
    while game.status == Game.Status.RUNNING:
        for user in (player, rival):
            if game.status == Game.Status.RUNNING and legal_for(game, user):
                keep_first(game, user)
            game.refresh_from_db()
    assert not seat(game, player).resigned
    assert {seat(game, player).place, seat(game, rival).place} <= {1, 2}


def test_take_back_is_refused_when_nothing_was_handed_over(
    running_game: Game, player: User
) -> None:
    response = client_for(player).post(
        f"/games/{running_game.pk}/take-back/", HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 400
    assert "You already play your seat." in response.content.decode()


def test_an_outsider_cannot_take_a_seat_back(running_game: Game, outsider: User) -> None:
    with pytest.raises(services.NotAllowed):
        services.take_seat_back(running_game, outsider)


def test_a_seat_handed_over_for_a_closed_account_cannot_be_taken_back(
    running_game: Game, player: User
) -> None:
    services.hand_seat_to_bot(running_game, seat(running_game, player), services.DEACTIVATED)
    with pytest.raises(services.NotAllowed):
        services.take_seat_back(running_game, player)
    assert seat(running_game, player).resigned


def test_hand_seat_to_bot_refuses_an_unknown_reason_and_changes_nothing(
    running_game: Game, player: User
) -> None:
    version = Game.objects.get(pk=running_game.pk).version
    with pytest.raises(services.ServiceError):
        services.hand_seat_to_bot(running_game, seat(running_game, player), "bored")
    assert not seat(running_game, player).resigned
    assert Game.objects.get(pk=running_game.pk).version == version


def test_hand_all_seats_to_bots_covers_every_running_game(player: User, rival: User) -> None:
    first = fast_night([player, rival], pace="relaxed")
    second = fast_night([rival, player], pace="relaxed")
    assert sorted(services.hand_all_seats_to_bots(player)) == sorted([first.pk, second.pk])
    for game in (first, second):
        assert seat(game, player).handed_over == services.DEACTIVATED


def test_the_new_table_form_sets_the_pace(player: User) -> None:
    response = client_for(player).post(
        "/games/new/", {"kind": "midnight-bakery", "capacity": 2, "pace": "normal"}
    )
    assert response.status_code == 302
    assert Game.objects.get(host=player).pace == "normal"


def test_the_board_shows_each_running_clock_from_its_stored_deadline(
    clock: Clock, player: User, rival: User
) -> None:
    game = fast_night([player, rival])
    page = client_for(rival).get(game.get_absolute_url()).content.decode()
    deadline = epoch_ms(seat(game, player).deadline)
    assert f'data-deadline="{deadline}"' in page
    assert "Clock: 20 s a move plus a 60 s bank" in page


def test_clocks_wind_keeps_a_seat_waited_on_running(
    clock: Clock, player: User, rival: User
) -> None:
    game = fast_night([player, rival])
    before = seat(game, player).deadline
    clock.forward(3)
    keep_first(game, rival)  # a rival's lock does not touch this clock
    assert seat(game, player).deadline == before
    assert clocks.overdue(seated(game), clock.at) is None


def test_a_cakehalla_stand_in_plays_out_the_whole_turn_and_counts_once(
    clock: Clock, player: User, rival: User
) -> None:
    game = services.create_game(player, "cakehalla", 2, pace="fast")
    services.join(game, rival)
    # Ten sugar: the greedy stand-in reserves, and the saffron it gets must be put back.
    start_with(game, SETUP, lambda s: load_with(s, 0, tokens=[10, 0, 0, 0, 0, 0]))
    first = user_at(game, 0)
    Seat.objects.filter(game=game, position=0).update(
        deadline=clock.at, bank=0
    )  # its time is up now
    clock.forward(1)
    assert services.run_bots(game.pk) == 1
    moves = list(Action.objects.filter(game=game).values_list("seat", "bot", "payload"))
    assert all(seat == 0 and bot == services.STAND_IN for seat, bot, _ in moves)
    state = state_of(game)
    assert [payload["type"] for _, _, payload in moves] == ["reserve", "return"]
    assert state.turn == 1 and seat(game, first).stand_ins == 1


def test_a_cakehalla_turn_keeps_one_move_clock_through_its_put_back(
    clock: Clock, player: User, rival: User
) -> None:
    game = services.create_game(player, "cakehalla", 2, pace="fast")
    services.join(game, rival)
    # Nine tokens: taking three more makes twelve, so two must go back in the same turn.
    start_with(game, SETUP, lambda s: load_with(s, 0, tokens=[3, 3, 3, 0, 0, 0]))
    first, second = user_at(game, 0), user_at(game, 1)
    started = seat(game, first).deadline
    assert started is not None and left(seat(game, first), clock) == FAST_MOVE + FAST_BANK
    clock.forward(15)
    take = next(a for a in legal_for(game, first) if a["type"] == "take")
    services.play(game, first, take, game.version)
    assert state_of(game).pending == "return"
    mine = seat(game, first)
    assert (mine.deadline, mine.bank) == (started, FAST_BANK)  # the same clock runs on
    assert seat(game, second).deadline is None
    clock.forward(10)  # 25 s into the turn: 5 s of bank
    services.play(game, first, legal_for(game, first)[0], game.version)
    assert state_of(game).turn == 1
    mine = seat(game, first)
    assert mine.deadline is None and mine.bank == FAST_BANK - 5
    assert left(seat(game, second), clock) == FAST_MOVE + FAST_BANK


def test_a_cakehalla_turn_past_its_time_after_the_main_action_is_finished_by_the_stand_in(
    clock: Clock, player: User, rival: User
) -> None:
    game = services.create_game(player, "cakehalla", 2, pace="fast")
    services.join(game, rival)
    start_with(game, SETUP, lambda s: load_with(s, 0, tokens=[3, 3, 3, 0, 0, 0]))
    first = user_at(game, 0)
    take = next(a for a in legal_for(game, first) if a["type"] == "take")
    services.play(game, first, take, game.version)
    clock.forward(FAST_MOVE + FAST_BANK - 1)
    assert services.run_bots(game.pk) == 0  # the turn's clock has a second left
    clock.forward(2)
    assert services.run_bots(game.pk) == 1
    assert [a.payload["type"] for a in stand_ins(game)] == ["return"]
    mine = seat(game, first)
    assert state_of(game).turn == 1 and mine.stand_ins == 1 and mine.bank == 0


def test_a_rematchs_first_clocks_start_after_the_arrival_grace(
    clock: Clock, player: User, rival: User, settings: object
) -> None:
    """A rematch is dealt while its people are still on the finished table: their first clocks
    start once the arrival grace is over, a move made meanwhile costs no bank, and the table
    shows when the clocks start."""
    grace = settings.REMATCH_ARRIVAL_SECONDS  # type: ignore[attr-defined]
    old = finished_game([player, rival], bots=0)
    Game.objects.filter(pk=old.pk).update(pace="fast")
    old.refresh_from_db()
    new = services.rematch(old, player)
    services.rematch(old, rival)
    new.refresh_from_db()
    assert new.status == Game.Status.RUNNING and new.pace == "fast"
    for s in new.seats.all():
        assert left(s, clock) == grace + FAST_MOVE + FAST_BANK
        assert clocks.clock_starts(s, clocks.pace(new)) == clock.at + timedelta(seconds=grace)
    shown = render_board(new, player)
    assert f'data-starts="{epoch_ms(clock.at + timedelta(seconds=grace))}"' in shown

    clock.forward(grace + FAST_MOVE - 1)  # nobody has run out: no stand-in
    assert services.run_bots(new.pk) == 0 and not stand_ins(new)
    keep_first(new, player)
    assert seat(new, player).bank == FAST_BANK  # the move's own time was not used up


def test_a_table_started_by_its_host_starts_its_clocks_at_once(
    clock: Clock, player: User, rival: User
) -> None:
    game = fast_night([player, rival])
    for s in game.seats.all():
        assert clocks.clock_starts(s, clocks.pace(game)) == clock.at
