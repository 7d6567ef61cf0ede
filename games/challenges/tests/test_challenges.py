"""Challenges: made and refused with a sentence (changing nothing), accepted into a dealt table,
declined, cancelled; told to each side; answered on the site by a form without scripts."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone, translation

from accounts.models import Block, User
from games.challenges import services
from games.challenges.models import Challenge
from games.models import TURN_BASED, Game
from games.notifications.models import Notification
from games.services import ServiceError
from tests.fixtures import client_for

pytestmark = pytest.mark.django_db


def challenge(by: User, to: User, **asked: object) -> Challenge:
    choice = {"kind": "cakehalla", "players": 2, "pace": "relaxed", "rated": True, **asked}
    return services.challenge(by, to.username, **choice)  # type: ignore[arg-type]


def test_a_challenge_is_told_to_the_challenged(player: User, rival: User) -> None:
    made = challenge(player, rival)
    told = Notification.objects.get(recipient=rival)
    assert told.key == f"challenge:{made.pk}" and told.url == made.get_absolute_url()
    assert player.username in told.text and "Cakehalla" in told.text


def test_each_side_is_told_in_their_own_language(player: User, rival: User) -> None:
    rival.language, player.language = "de", "fr"
    rival.save(update_fields=["language"])
    player.save(update_fields=["language"])
    made = challenge(player, rival)
    told = Notification.objects.get(recipient=rival)
    assert told.text == f"{player.username} fordert dich heraus: Cakehalla, 2 Spieler, " + (
        "Entspannt, gewertet."
    )
    services.decline(made.pk, rival)
    answer = Notification.objects.get(recipient=player, key=f"challenge:{made.pk}:answer")
    assert answer.text == f"{rival.username} a refusé (Cakehalla)."


def test_accepting_deals_a_table_of_the_two(player: User, rival: User) -> None:
    made = challenge(player, rival, players=3, pace="day1", rated=False)
    done = services.accept(made.pk, rival)
    assert done.game is not None
    game = done.game
    assert done.status == Challenge.Status.ACCEPTED and game.status == Game.Status.RUNNING
    assert game.pace == "day1" and not game.rated and game.capacity == 3
    people = set(game.seats.filter(bot="").values_list("user_id", flat=True))
    assert people == {player.pk, rival.pk} and game.seats.exclude(bot="").count() == 1
    answer = Notification.objects.get(recipient=player, key=f"challenge:{made.pk}:answer")
    assert "accepted" in answer.text and answer.game_id == game.pk


def test_declining_and_cancelling(player: User, rival: User, outsider: User) -> None:
    declined = services.decline(challenge(player, rival).pk, rival)
    assert declined.status == Challenge.Status.DECLINED and declined.game is None
    assert "declined" in Notification.objects.get(recipient=player).text
    cancelled = services.cancel(challenge(player, outsider).pk, player)
    assert cancelled.status == Challenge.Status.CANCELLED


@pytest.mark.parametrize(
    ("asked", "words"),
    [
        ({"kind": "chess"}, "not on offer"),
        ({"players": 9}, "seats"),
        ({"players": 1}, "seats"),
        ({"pace": "warp"}, "no pace"),
    ],
)
def test_bad_kinds_counts_and_paces_are_refused(
    player: User, rival: User, asked: dict[str, object], words: str
) -> None:
    with pytest.raises(ServiceError, match=words):
        challenge(player, rival, **asked)
    assert not Challenge.objects.exists() and not Notification.objects.exists()


def test_yourself_the_blocked_and_the_unknown_are_refused(player: User, rival: User) -> None:
    with pytest.raises(ServiceError, match="yourself"):
        challenge(player, player)
    Block.objects.create(blocker=rival, blocked=player)
    with pytest.raises(ServiceError, match="cannot challenge"):
        challenge(player, rival)
    with pytest.raises(services.Unknown):
        services.challenge(player, "nobody-here", "cakehalla", 2, "relaxed", True)
    assert not Challenge.objects.exists()


def test_too_many_open_challenges(player: User, make_user: object) -> None:
    people = [make_user(f"baker{i}") for i in range(services.OPEN_CHALLENGES + 1)]  # type: ignore[operator]
    for person in people[:-1]:
        challenge(player, person)
    with pytest.raises(services.TooMany):
        challenge(player, people[-1])
    with pytest.raises(ServiceError, match="already"):
        challenge(player, people[0])


def test_only_the_right_side_answers(player: User, rival: User, outsider: User) -> None:
    made = challenge(player, rival)
    with pytest.raises(ServiceError, match="Only the challenged"):
        services.accept(made.pk, player)
    with pytest.raises(ServiceError, match="Only the challenger"):
        services.cancel(made.pk, rival)
    with pytest.raises(services.Unknown):
        services.decline(made.pk, outsider)
    services.decline(made.pk, rival)
    with pytest.raises(ServiceError, match="declined already"):
        services.accept(made.pk, rival)


def test_the_challenged_answers_on_the_site(player: User, rival: User, outsider: User) -> None:
    made = challenge(player, rival)
    page = client_for(rival).get(f"/games/challenges/{made.pk}/")
    html = page.content.decode()
    assert page.status_code == 200 and f"{player.username} challenges you" in html
    assert f'action="/games/challenges/{made.pk}/accept/"' in html
    assert client_for(outsider).get(f"/games/challenges/{made.pk}/").status_code == 404
    answered = client_for(rival).post(f"/games/challenges/{made.pk}/accept/")
    made.refresh_from_db()
    assert made.game is not None and answered["Location"] == made.game.get_absolute_url()


def test_a_refused_answer_on_the_site_says_why(player: User, rival: User) -> None:
    made = challenge(player, rival)
    answered = client_for(player).post(f"/games/challenges/{made.pk}/accept/", follow=True)
    assert "Only the challenged person" in answered.content.decode()
    made.refresh_from_db()
    assert made.status == Challenge.Status.OPEN


def lapse(made: Challenge) -> None:
    """Move the challenge's expiry to a moment ago."""
    Challenge.objects.filter(pk=made.pk).update(expires_at=timezone.now() - timedelta(seconds=1))


def test_a_challenge_lapses_unanswered_after_its_paces_wait(player: User, rival: User) -> None:
    live, later = challenge(player, rival), challenge(rival, player, pace="day3")
    assert live.expires_at is not None and later.expires_at is not None
    assert live.expires_at - live.created_at == services.LIVE_EXPIRY
    assert later.expires_at - later.created_at == services.TURN_BASED_EXPIRY
    page = client_for(rival).get(f"/games/challenges/{live.pk}/").content.decode()
    assert "lapses unanswered in 19" in page or "lapses unanswered in 20" in page
    lapse(live)
    for answer in (services.accept, services.decline):
        with pytest.raises(ServiceError, match="expired unanswered"):
            answer(live.pk, rival)
    with pytest.raises(ServiceError, match="expired unanswered"):
        services.cancel(live.pk, player)
    live.refresh_from_db()
    assert live.status_now() == "expired" and live.game is None and not Game.objects.exists()
    page = client_for(rival).get(f"/games/challenges/{live.pk}/").content.decode()
    assert "Expired: it was not answered in time." in page and "/accept/" not in page
    again = challenge(player, rival)  # a lapsed challenge no longer stands in the way
    assert again.status_now() == "open"


def test_lapsed_challenges_do_not_count_against_the_open_limit(
    player: User, make_user: object
) -> None:
    people = [make_user(f"baker{i}") for i in range(services.OPEN_CHALLENGES + 1)]  # type: ignore[operator]
    for person in people[:-1]:
        lapse(challenge(player, person))
    challenge(player, people[-1])
    assert services.waiting(player).count() == 1


def test_a_pace_is_said_by_its_name_every_turn_based_one_alike() -> None:
    said = {pace: services.pace_words(pace) for pace in Game.Pace.values}
    assert said["relaxed"] == "Relaxed" and said["fast"] == "Fast"
    assert {said[pace] for pace in TURN_BASED} == {"Turn-based"}
    assert all(words != pace for pace, words in said.items())
    with translation.override("de"):
        assert services.pace_words("day7") != "Turn-based"
