"""The services' refusals that name a person, a pace or a count reach the person in their
language, the value in its place (whole sentences with named placeholders, gettext/ngettext):
tables, friends, invitations, challenges, moderation, reviews, and the base kind's advice."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.utils import translation

from accounts.models import User
from games import catalog, services
from games.challenges.models import Challenge
from games.challenges.services import check_challenge
from games.friends import services as friendship
from games.friends.services import FriendRefused
from games.kinds.base import GameKind
from games.models import Game, Report
from games.notifications.invitations import check_invite
from games.reviews.services import ReviewRefused, check_review
from games.services.moderation import clean_reason
from games.services.tables import check_create, check_start


def refusal(
    language: str, act: Callable[[], object], kind: type[Exception] = services.ServiceError
) -> str:
    """The words a service refuses with, said in the language."""
    with translation.override(language), pytest.raises(kind) as refused:
        act()
    return str(refused.value)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("de", "wird mit 2 bis 4 Spielern gespielt."),
        ("fr", "se joue de 2 à 4 joueurs."),
        ("en", "seats 2 to 4 players."),
    ],
)
def test_a_table_of_the_wrong_size_is_refused_with_its_numbers(language: str, said: str) -> None:
    spec = catalog.get("cakehalla")
    assert (spec.min_players, spec.max_players) == (2, 4)
    assert refusal(language, lambda: check_create("cakehalla", 9, {})) == f"{spec.name} {said}"


@pytest.mark.django_db
def test_a_table_too_empty_to_start_says_how_many_must_sit(open_table: Game) -> None:
    fewest = open_table.spec.min_players
    start = lambda: check_start(open_table, open_table.host)  # noqa: E731
    assert f"mindestens {fewest} Spieler am Tisch sitzen" in refusal("de", start)
    assert f"au moins {fewest} joueurs assis pour commencer" in refusal("fr", start)
    assert open_table.status == Game.Status.OPEN


@pytest.mark.django_db
def test_friend_refusals_name_the_other_person(player: User, rival: User) -> None:
    friendship.ask(player, rival)
    assert refusal("de", lambda: friendship.ask(player, rival), FriendRefused) == (
        "Du hast bob schon gefragt; es gibt noch keine Antwort."
    )
    assert refusal("fr", lambda: friendship.remove(rival, player), FriendRefused) == (
        "alice et vous n\u2019êtes pas amis."
    )
    assert refusal("fr", lambda: friendship.block(player, player), FriendRefused) == (
        "Vous ne pouvez pas vous bloquer vous-même."
    )


@pytest.mark.django_db
def test_an_invitation_to_a_stranger_names_them(open_table: Game, rival: User) -> None:
    invite = lambda: check_invite(open_table, open_table.host, rival)  # noqa: E731
    assert "et bob n\u2019en fait pas encore partie" in refusal("fr", invite)
    assert "und bob gehört noch nicht dazu" in refusal("de", invite)


@pytest.mark.django_db
def test_a_challenge_at_no_such_pace_names_the_paces(player: User, rival: User) -> None:
    said = refusal("de", lambda: check_challenge(player, rival, "cakehalla", 2, "sleepy"))
    assert said.startswith("Das Tempo 'sleepy' gibt es nicht: Wähle eines von ")
    assert ", ".join(Game.Pace.values) in said


def test_a_moderators_reason_is_refused_with_its_length() -> None:
    assert refusal("de", lambda: clean_reason("")) == "Gib einen Grund an."
    long = lambda: clean_reason("x" * 5000)  # noqa: E731
    assert refusal("fr", long).startswith("Le motif doit faire moins de ")


@pytest.mark.django_db
def test_a_review_of_a_game_under_way_is_refused_in_words(running_game: Game) -> None:
    seat = running_game.seats.get(user=running_game.host).position
    assert seat is not None
    with translation.override("fr"), pytest.raises(ReviewRefused, match="une fois terminée"):
        check_review(running_game, running_game.host, seat)
    with translation.override("de"), pytest.raises(ReviewRefused, match="wenn sie vorbei ist"):
        check_review(running_game, running_game.host, seat)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("de", "Spiel den Zug, den der Bot (stark)"),
        ("fr", "Jouez le coup que choisirait le bot fort"),
    ],
)
def test_the_base_kinds_advice_is_said_in_the_readers_language(language: str, said: str) -> None:
    spec = catalog.get("cakehalla")
    with translation.override(language):
        move, why = GameKind.advise(spec, {}, {})
        level = spec.hint_bot_name
    assert level != "strong" and move.startswith(said) and level in move
    assert level in why and "scores it highest" not in why


def test_what_became_of_a_challenge_or_a_report_is_said_in_the_readers_language() -> None:
    with translation.override("de"):
        assert str(Challenge.Status.EXPIRED.label) == "Abgelaufen"
        assert str(Report.Status.ACTED.label) == "Bearbeitet"
    with translation.override("fr"):
        assert str(Challenge.Status.CANCELLED.label) == "Annul\u00e9"  # a challenge: un d\u00e9fi
        assert str(Report.Status.OPEN.label) == "Ouvert"


def test_a_tables_options_are_said_in_the_readers_language() -> None:
    spec = catalog.get("midnight-bakery")
    with translation.override("de"):
        assert spec.option_labels({"passing": "next"}) == ["Weitergabe: Weiter"]
    with translation.override("fr"):
        assert spec.option_labels({}) == ["Passe : Altern\u00e9"]
    make = lambda: check_create("midnight-bakery", 2, {"passing": "sideways"})  # noqa: E731
    assert refusal("fr", make) == "Passe ne peut pas valoir 'sideways'."
