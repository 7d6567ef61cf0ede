"""Ratings: every finished game moves its players' openskill ratings, the same way every time."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.core.management import call_command

from accounts import ratings
from accounts.models import DISPLAY_BASE, Rating, User
from games.management.commands.simulate import simulate_one
from games.models import Game
from games.records.ratings import rerate
from tests.support.finished_games import finished_game, running_game

# backend: ratings are updated under row locks.
pytestmark = [pytest.mark.django_db, pytest.mark.backend]


def placed(user: User, place: int, winner: bool = False) -> SimpleNamespace:
    return SimpleNamespace(user_id=user.pk, place=place, winner=winner)


def rating_of(user: User, kind: str = "midnight-bakery") -> Rating:
    return Rating.objects.get(user=user, kind=kind)


def test_a_new_player_shows_the_base_rating() -> None:
    assert ratings.new_rating(1, "cakehalla").rating == DISPLAY_BASE


def test_the_winner_rises_the_last_falls_and_both_grow_surer(
    player: User, rival: User, outsider: User
) -> None:
    ratings.rate_game(
        "midnight-bakery", [placed(player, 1, True), placed(rival, 2), placed(outsider, 3)]
    )
    first, second, third = rating_of(player), rating_of(rival), rating_of(outsider)
    start = ratings.new_rating(player.pk, "midnight-bakery")
    assert first.mu > second.mu > third.mu
    assert first.mu > start.mu > third.mu
    assert all(r.sigma < start.sigma for r in (first, second, third))
    assert first.rating > DISPLAY_BASE
    assert (first.games, first.wins, third.games, third.wins) == (1, 1, 1, 0)


def test_a_tie_shares_a_rank(player: User, rival: User, outsider: User) -> None:
    ratings.rate_game(
        "midnight-bakery", [placed(player, 1, True), placed(rival, 1, True), placed(outsider, 3)]
    )
    assert rating_of(player).mu == rating_of(rival).mu > rating_of(outsider).mu


def test_ratings_are_kept_per_game_kind(player: User, rival: User) -> None:
    ratings.rate_game("cakehalla", [placed(player, 1, True), placed(rival, 2)])
    assert not Rating.objects.filter(kind="midnight-bakery").exists()
    assert rating_of(player, "cakehalla").games == 1


def test_a_finished_game_rates_every_seat_once_bots_flagged(player: User) -> None:
    game = finished_game([player])
    rows = Rating.objects.filter(kind="midnight-bakery").select_related("user")
    assert {r.user_id for r in rows} == set(game.seats.values_list("user_id", flat=True))
    assert all(r.games == 1 for r in rows)
    assert sum(r.wins for r in rows) == game.seats.filter(winner=True).count()
    assert [r.user.is_bot for r in rows if r.user_id != player.pk] == [True]


def test_a_played_game_orders_fresh_ratings_as_its_places(player: User) -> None:
    game = finished_game([player], bots=2)
    seats = list(game.seats.all())
    ordinal = {s.user_id: rating_of(s.user).ordinal for s in seats}
    pairs = [(s, t) for s in seats for t in seats if s.pk != t.pk]
    for s, t in pairs:
        assert s.place is not None and t.place is not None
        assert (s.place < t.place) == (ordinal[s.user_id] > ordinal[t.user_id])
    assert len(pairs) == 6


def test_replaying_the_same_results_rebuilds_the_same_ratings() -> None:
    for _ in range(3):
        simulate_one("midnight-bakery", 3, ["greedy", "random"])
    live = {
        (r.user_id, r.kind): (r.mu, r.sigma, r.ordinal, r.rating, r.games, r.wins)
        for r in Rating.objects.all()
    }
    assert rerate() == 3
    again = {
        (r.user_id, r.kind): (r.mu, r.sigma, r.ordinal, r.rating, r.games, r.wins)
        for r in Rating.objects.all()
    }
    assert again == live
    assert sum(v[4] for v in live.values()) == 9


def test_the_rerate_command_rebuilds_one_kind(capsys: pytest.CaptureFixture) -> None:
    simulate_one("midnight-bakery", 2, ["greedy"])
    Rating.objects.update(mu=1.0)
    call_command("rerate", "--game", "midnight-bakery")
    assert Rating.objects.filter(mu=1.0).count() == 0
    assert "Rated 1 finished game." in capsys.readouterr().out


def test_a_game_that_has_not_ended_moves_no_rating(player: User, rival: User) -> None:
    game = running_game([player, rival])
    assert game.status == Game.Status.RUNNING
    assert not Rating.objects.exists()
