"""Looking, stopping and the pass (games/pairing/services.py): refusals in words, who is seated,
who is let go."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from accounts.models import User
from games import events
from games import services as tables
from games.friends import services as friendship
from games.models import Game, Seat
from games.pairing import services, shown, sweep
from games.pairing.draw import SETTLE_SECONDS, WINDOW_EVERY
from games.pairing.models import Seek
from games.services import ServiceError
from tests.conftest import client_for
from tests.support.clock import Clock

# backend: the pool is read and locked in SQL.
pytestmark = [pytest.mark.django_db, pytest.mark.backend]

CAKE = "cakehalla"
MB = "midnight-bakery"


def look(
    user: User, kind: str = CAKE, pace: str = "fast", fewest: int = 2, most: int = 2, **kw: Any
) -> Seek:
    return services.look(user, kind, pace, fewest, most, **kw)


def people_at(game_id: int) -> set[str]:
    seats = Seat.objects.filter(game_id=game_id, bot="").select_related("user")
    return {s.user.username for s in seats}


@pytest.mark.parametrize(
    ("kind", "pace", "fewest", "most", "bots_after", "words"),
    [
        ("chess", "fast", 2, 2, None, "That game is not on offer."),
        (CAKE, "blitz", 2, 2, None, "There is no 'blitz' pace."),
        (CAKE, "fast", 2, 5, None, "Cakehalla seats 2 to 4 bakers"),
        (CAKE, "fast", 1, 2, None, "Cakehalla seats 2 to 4 bakers"),
        (CAKE, "fast", 4, 3, None, "the fewest first"),
        (MB, "normal", 2, 9, None, "Midnight Bakery seats 2 to 8 bakers"),
        (CAKE, "fast", 2, 2, 2, "Bots may fill the table after 5 to 600 seconds."),
        (CAKE, "fast", 2, 2, 601, "Bots may fill the table after 5 to 600 seconds."),
    ],
)
def test_a_search_the_game_does_not_allow_is_refused_in_words_and_nothing_is_stored(
    player: User, kind: str, pace: str, fewest: int, most: int, bots_after: int | None, words: str
) -> None:
    with pytest.raises(ServiceError, match=words.replace("(", r"\(")):
        services.look(player, kind, pace, fewest, most, bots_after)
    assert not Seek.objects.exists()


def test_looking_again_changes_the_search_instead_of_adding_one(player: User) -> None:
    look(player, CAKE, "fast", 2, 3)
    look(player, MB, "normal", 3, 8, bots_after=30)
    seek = Seek.objects.get()
    assert (seek.kind, seek.pace, seek.fewest, seek.most, seek.bots_after) == (
        MB,
        "normal",
        3,
        8,
        30,
    )


def test_someone_playing_a_live_table_with_another_person_may_not_look(
    running_game: Game, player: User
) -> None:
    with pytest.raises(ServiceError, match=f"You are playing {running_game} now"):
        look(player)
    assert not Seek.objects.exists()


def test_a_turn_based_table_or_one_against_bots_alone_does_not_keep_you_from_looking(
    player: User, rival: User
) -> None:
    tables.quick_game(player, CAKE)  # a live table, against bots only
    days = tables.seat_people(CAKE, [player, rival], pace=Game.Pace.DAY1)
    assert days.status == Game.Status.RUNNING
    assert look(player).user_id == player.pk


def test_two_people_who_fit_are_seated_together_at_a_running_table(
    player: User, rival: User
) -> None:
    look(player)
    look(rival)
    [paired] = services.pass_pool(CAKE, "fast")
    game = Game.objects.get(pk=paired.game_id)
    assert game.status == Game.Status.RUNNING
    assert (game.kind, game.pace, game.rated) == (CAKE, "fast", True)
    assert people_at(game.pk) == {"alice", "bob"}
    assert set(paired.people) == {player.pk, rival.pk}
    assert paired.url == game.get_absolute_url()
    assert not Seek.objects.exists()


def test_a_pass_tells_each_person_seated_where_their_table_is(
    player: User,
    rival: User,
    django_capture_on_commit_callbacks: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    told: list[tuple[int, str]] = []
    monkeypatch.setattr(events.seated, "tell", lambda user_id, url: told.append((user_id, url)))
    look(player)
    look(rival)
    with django_capture_on_commit_callbacks(execute=True):
        [paired] = services.pass_pool(CAKE, "fast")
    assert sorted(told) == sorted([(player.pk, paired.url), (rival.pk, paired.url)])


def test_people_who_block_each_other_are_never_seated_together(
    player: User, rival: User, outsider: User
) -> None:
    friendship.block(rival, player)
    look(player)
    look(rival)
    assert services.pass_pool(CAKE, "fast") == []
    look(outsider)
    [paired] = services.pass_pool(CAKE, "fast")
    assert people_at(paired.game_id) == {"alice", "carol"}  # the older one of the two
    assert list(Seek.objects.values_list("user__username", flat=True)) == ["bob"]


def test_a_table_short_of_people_is_filled_with_bots_for_someone_who_asked(
    player: User, clock: Clock
) -> None:
    look(player, MB, "fast", 3, 4, bots_after=15)
    clock.forward(14)
    services.still_here(player.pk)
    assert services.pass_pool(MB, "fast") == []
    clock.forward(1)
    services.still_here(player.pk)
    [paired] = services.pass_pool(MB, "fast")
    seats = Seat.objects.filter(game_id=paired.game_id)
    assert seats.count() == 3
    assert seats.exclude(bot="").count() == 2


def test_a_table_not_yet_full_starts_once_the_oldest_has_waited(
    player: User, rival: User, clock: Clock
) -> None:
    look(player, CAKE, "fast", 2, 4)
    look(rival, CAKE, "fast", 2, 4)
    assert services.pass_pool(CAKE, "fast") == []
    clock.forward(SETTLE_SECONDS)
    for person in (player, rival):
        services.still_here(person.pk)
    [paired] = services.pass_pool(CAKE, "fast")
    assert people_at(paired.game_id) == {"alice", "bob"}


def test_people_far_apart_in_rating_are_seated_once_their_windows_widen(
    player: User, rival: User, clock: Clock
) -> None:
    look(player)
    look(rival)
    Seek.objects.filter(user=rival).update(rating=1800)  # 300 above alice's 1500
    assert services.pass_pool(CAKE, "fast") == []
    clock.forward(4 * WINDOW_EVERY)  # both windows 100 + 4 * 50 = 300
    for person in (player, rival):
        services.still_here(person.pk)
    assert len(services.pass_pool(CAKE, "fast")) == 1


def test_a_search_whose_page_went_quiet_is_let_go(player: User, clock: Clock) -> None:
    look(player)
    clock.forward(services.GRACE_SECONDS - 1)
    services.pass_pool(CAKE, "fast")
    assert Seek.objects.exists()
    clock.forward(2)
    services.pass_pool(CAKE, "fast")
    assert not Seek.objects.exists()


def test_the_waiting_page_keeps_its_search(player: User, clock: Clock) -> None:
    look(player)
    for _ in range(5):
        clock.forward(services.GRACE_SECONDS - 1)
        assert services.still_here(player.pk) is not None
        services.pass_pool(CAKE, "fast")
    assert Seek.objects.filter(user=player).exists()


def test_sitting_down_at_another_live_table_takes_you_out_of_the_pool(
    player: User, rival: User, outsider: User
) -> None:
    look(rival)
    table = tables.create_game(player, MB, 3)
    tables.join(table, rival)
    look(outsider)
    assert services.pass_pool(CAKE, "fast") == []
    assert list(Seek.objects.values_list("user__username", flat=True)) == ["carol"]


def test_a_table_you_sat_at_before_you_looked_lets_you_look(player: User, rival: User) -> None:
    table = tables.create_game(player, MB, 3)  # open, waiting for more
    look(player)
    look(rival)
    assert len(services.pass_pool(CAKE, "fast")) == 1
    assert Game.objects.get(pk=table.pk).status == Game.Status.OPEN


def test_logging_out_takes_you_out_of_the_pool(player: User) -> None:
    client = client_for(player)
    look(player)
    assert client.post("/accounts/logout/").status_code == 302
    assert not Seek.objects.exists()


def test_stopping_takes_you_out_and_says_whether_you_were_looking(player: User) -> None:
    look(player)
    assert services.stop(player) is True
    assert services.stop(player) is False


def test_the_sweep_pairs_every_pool(player: User, rival: User, outsider: User) -> None:
    third = User.objects.create_user("dora", password="a-long-baking-secret")
    look(player)
    look(rival)
    look(outsider, MB, "normal")
    look(third, MB, "normal")
    sweep.sweep()
    assert not Seek.objects.exists()
    assert Game.objects.filter(status=Game.Status.RUNNING).count() == 2


def test_the_waiting_panel_shows_the_window_the_wait_and_who_else_looks(
    player: User, rival: User, clock: Clock
) -> None:
    look(player, CAKE, "fast", 2, 4)
    look(rival, CAKE, "fast", 3, 4)
    clock.forward(12)
    panel = shown.waiting(Seek.objects.get(user=player), shown.looking_now())
    assert (panel.lowest, panel.highest) == (1500 - 200, 1500 + 200)
    assert panel.waited == 12
    assert panel.others == 1


def test_how_many_look_per_game_and_pace_is_one_grouped_count(
    player: User, rival: User, outsider: User, django_assert_num_queries: Callable[..., Any]
) -> None:
    look(player, CAKE, "fast", 2, 4)
    look(rival, CAKE, "fast", 3, 4)
    look(outsider, MB, "day1", 2, 8)
    with django_assert_num_queries(1):
        counts = shown.looking()
    assert counts == {(CAKE, "fast"): 2, (MB, "day1"): 1}
    with django_assert_num_queries(0):
        shown.looking()  # kept for a second


def test_a_block_made_as_the_table_is_set_leaves_both_waiting(
    player: User, rival: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    look(player)
    look(rival)
    monkeypatch.setattr(services, "blocks_in", lambda kind, pace: frozenset())  # read too early
    friendship.block(player, rival)
    assert services.pass_pool(CAKE, "fast") == []
    assert Seek.objects.count() == 2
    assert not Game.objects.exists()


def test_a_seek_seen_since_a_table_began_leads_to_it(player: User, rival: User) -> None:
    seek = look(player)
    look(rival)
    [paired] = services.pass_pool(CAKE, "fast")
    assert services.table_since(player.pk, seek.created_at) == paired.url
    later = seek.created_at + timedelta(hours=1)
    assert services.table_since(player.pk, later) is None


def test_the_searches_of_a_game_no_longer_on_offer_are_let_go(player: User) -> None:
    seek = look(player)
    Seek.objects.filter(pk=seek.pk).update(kind="retired-game")
    assert services.pass_pool("retired-game", "fast") == []
    assert not Seek.objects.exists()


def test_a_pool_whose_pass_fails_holds_up_no_other(
    player: User, rival: User, outsider: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    third = User.objects.create_user("dora", password="a-long-baking-secret")
    look(player)
    look(rival)
    look(outsider, MB, "normal")
    look(third, MB, "normal")
    real = services.pass_pool

    def failing(kind: str, pace: str) -> list[services.Paired]:
        if kind == CAKE:
            raise RuntimeError("a bug in one pool")
        return real(kind, pace)

    monkeypatch.setattr(services, "pass_pool", failing)
    sweep.sweep()
    assert list(Seek.objects.values_list("kind", flat=True)) == [CAKE, CAKE]


def test_a_practice_table_against_bots_keeps_you_in_the_pool(player: User, rival: User) -> None:
    """As looking is allowed at a table against bots alone, sitting down at one is no reason to
    be let go: the pairing, when it comes, takes every page of the person to the new table."""
    look(player)
    practice = tables.quick_game(player, CAKE)
    assert practice.status == Game.Status.RUNNING
    look(rival)
    [paired] = services.pass_pool(CAKE, "fast")
    assert people_at(paired.game_id) == {"alice", "bob"}


def test_counts_of_bakers_that_cannot_meet_are_said_with_what_would_meet(
    player: User, rival: User
) -> None:
    """One wants 2, the other 3 to 4: each panel says why nobody is seated, and how to be."""
    from games.pairing.panels import panel_context

    look(player, CAKE, "fast", 2, 2)
    look(rival, CAKE, "fast", 3, 4)
    assert services.pass_pool(CAKE, "fast") == []
    counts = shown.looking_now()
    mine = panel_context(shown.waiting(Seek.objects.get(user=player), counts))
    theirs = panel_context(shown.waiting(Seek.objects.get(user=rival), counts))
    assert mine["apart"] == (
        "Nobody else looking wants 2 bakers: 1 wants 3 to 4 bakers. "
        "Look for 2 to 3 bakers to be seated with them sooner."
    )
    assert theirs["apart"] == (
        "Nobody else looking wants 3 to 4 bakers: 1 wants 2 bakers. "
        "Look for 2 to 4 bakers to be seated with them sooner."
    )


def test_nothing_is_said_of_counts_when_someone_else_could_share_a_table(
    player: User, rival: User, outsider: User
) -> None:
    from games.pairing.panels import panel_context

    look(player, CAKE, "fast", 2, 2)
    look(rival, CAKE, "fast", 3, 4)
    look(outsider, CAKE, "fast", 4, 4)
    counts = shown.looking_now()
    assert panel_context(shown.waiting(Seek.objects.get(user=rival), counts))["apart"] == ""
