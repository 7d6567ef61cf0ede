"""An account deleted takes its notifications and browsers with it (account_deleted, heard in
the deletion's transaction), and what others were told of it names the deleted baker."""

from __future__ import annotations

import pytest

from accounts.models import User
from games import services
from games.events import invited
from games.models import Game
from games.notifications.models import Notification, PushSubscription

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-baking-secret"  # tests/fixtures.py: make_user's


def test_a_deleted_account_loses_its_notifications_and_browsers_and_is_renamed_in_others(
    player: User, rival: User
) -> None:
    game = services.create_game(player, "cakehalla", 2)
    invited.send(Game, game_id=game.pk, by=player.pk, to=[rival.pk])
    other = services.create_game(rival, "cakehalla", 2)
    invited.send(Game, game_id=other.pk, by=rival.pk, to=[player.pk])
    PushSubscription.objects.create(
        user=player, endpoint="https://push.example.net/send/1", p256dh="k", auth="a"
    )
    assert Notification.objects.filter(recipient=player).count() == 1

    gone = services.delete_account(player, PASSWORD)

    assert not Notification.objects.filter(recipient=player).exists()
    assert not PushSubscription.objects.filter(user=player).exists()
    (told,) = Notification.objects.filter(recipient=rival)
    assert told.text == f"{gone.username} invites you to {game}."
    assert "alice" not in told.text


def test_a_refused_deletion_keeps_them(player: User, rival: User) -> None:
    game = services.create_game(rival, "cakehalla", 2)
    invited.send(Game, game_id=game.pk, by=rival.pk, to=[player.pk])
    with pytest.raises(services.NotAllowed):
        services.delete_account(player, "not the password")
    assert Notification.objects.filter(recipient=player).count() == 1
