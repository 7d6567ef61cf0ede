"""A tournament's own chat: its entrants and creator write, everyone who sees the page reads;
the table chat's limits (length, 5 lines in 10 seconds over every chat); the lines of people one
blocks or muted hidden; a moderator hides a line in admin."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.admin.models import LogEntry

from accounts.models import Block, User
from games import services as tables
from games.models import Mute
from games.tournaments import services
from games.tournaments.models import ChatLine, Tournament
from games.tournaments.tests.conftest import entered, rules, swept
from games.tournaments.tests.test_pages import text_of
from tests.conftest import client_for
from tests.support.clock import Clock
from tests.support.groups import group

Crowd = Callable[[int], list[User]]

pytestmark = pytest.mark.django_db


def say(client: Any, tournament: Tournament, text: str) -> Any:
    """Post a line as the chat form does (HTMX)."""
    return client.post(
        f"/tournaments/{tournament.pk}/chat/", {"text": text}, HTTP_HX_REQUEST="true"
    )


def test_an_entrant_says_a_line_and_every_viewer_reads_it(clock: Clock, crowd: Crowd) -> None:
    writer, reader = crowd(2)
    tournament = entered(services.create(None, rules(clock)), [writer])
    answer = say(client_for(writer), tournament, "<b>good luck</b>, all")
    assert answer.status_code == 200
    log = answer.content.decode()
    assert log.lstrip().startswith('<div id="tournament-chat-log"')
    assert "&lt;b&gt;good luck&lt;/b&gt;, all" in log
    for viewer in (reader, None):
        page = client_for(viewer).get(tournament.get_absolute_url()).content.decode()
        assert "&lt;b&gt;good luck&lt;/b&gt;, all" in page
    assert "The entrants and the tournament's creator write here." in text_of(
        client_for(reader).get(tournament.get_absolute_url()).content
    )


def test_the_creator_writes_too(clock: Clock, crowd: Crowd) -> None:
    (maker,) = crowd(1)
    tournament = services.create(maker, rules(clock))
    assert say(client_for(maker), tournament, "welcome").status_code == 200
    assert ChatLine.objects.get().author == maker


@pytest.mark.parametrize(
    ("text", "status", "words"),
    [
        ("", 422, "Write a message first."),
        ("x" * 301, 422, "A message is at most 300 characters; yours has 301."),
        ("bad\u202eline", 422, "The message holds characters that cannot be shown."),
    ],
)
def test_a_line_that_cannot_be_said_is_refused_in_words(
    clock: Clock, crowd: Crowd, text: str, status: int, words: str
) -> None:
    (writer,) = crowd(1)
    tournament = entered(services.create(None, rules(clock)), [writer])
    answer = say(client_for(writer), tournament, text)
    assert answer.status_code == status
    assert words in text_of(answer.content)
    assert not ChatLine.objects.exists()


def test_someone_not_in_it_may_not_write(clock: Clock, crowd: Crowd) -> None:
    writer, outsider = crowd(2)
    tournament = entered(services.create(None, rules(clock)), [writer])
    answer = say(client_for(outsider), tournament, "let me in")
    assert answer.status_code == 403
    assert "Only the entrants and the tournament's creator write" in text_of(answer.content)
    assert say(client_for(None), tournament, "anonymous").status_code == 302
    assert not ChatLine.objects.exists()


def test_the_rate_limit_counts_table_chat_lines_too(clock: Clock, crowd: Crowd) -> None:
    (writer,) = crowd(1)
    tournament = entered(services.create(None, rules(clock)), [writer])
    game = tables.create_game(writer, "midnight-bakery", 2)
    for n in range(3):
        tables.chat.say(game, writer, f"table line {n}")
    client = client_for(writer)
    for n in range(2):
        assert say(client, tournament, f"tournament line {n}").status_code == 200
    answer = say(client, tournament, "one too many")
    assert answer.status_code == 429
    assert "You are sending messages too fast" in text_of(answer.content)
    assert ChatLine.objects.count() == 2


def test_a_cancelled_tournament_closes_its_chat(clock: Clock, crowd: Crowd) -> None:
    (writer,) = crowd(1)
    tournament = entered(services.create(None, rules(clock)), [writer])
    clock.forward(61)
    tournament = swept(tournament)
    assert tournament.status == Tournament.Status.CANCELLED
    answer = say(client_for(writer), tournament, "too late")
    assert "This tournament was cancelled, so its chat is closed." in text_of(answer.content)
    assert not ChatLine.objects.exists()


def test_lines_of_people_one_blocks_or_muted_are_hidden_from_one(
    clock: Clock, crowd: Crowd
) -> None:
    rude, muted, kind, reader = crowd(4)
    tournament = entered(services.create(None, rules(clock)), [rude, muted, kind])
    services.chat.say(tournament, rude, "a rude line")
    services.chat.say(tournament, muted, "a dull line")
    services.chat.say(tournament, kind, "a kind line")
    Block.objects.create(blocker=reader, blocked=rude)
    Mute.objects.create(user=reader, muted=muted)
    mine = client_for(reader).get(tournament.get_absolute_url()).content.decode()
    assert "a kind line" in mine and "a rude line" not in mine and "a dull line" not in mine
    others = client_for(kind).get(tournament.get_absolute_url()).content.decode()
    assert all(line in others for line in ("a rude line", "a dull line", "a kind line"))
    polled = client_for(reader).get(f"/tournaments/{tournament.pk}/chat/log/").content.decode()
    assert "a kind line" in polled and "a rude line" not in polled


def test_a_moderator_hides_a_line_in_admin_and_it_is_logged(clock: Clock, crowd: Crowd) -> None:
    writer, bystander = crowd(2)
    tournament = entered(services.create(None, rules(clock)), [writer])
    rude = services.chat.say(tournament, writer, "something rude")
    services.chat.say(tournament, writer, "something kind")
    with pytest.raises(services.NotAllowed):
        services.chat.hide([rude], bystander)
    for name in ("Moderators", "Chat moderators"):
        moderator = User.objects.create_user(f"mod-{name[:4]}", password="x" * 12, is_staff=True)
        moderator.groups.add(group(name))
    moderator = User.objects.get(username="mod-Chat")
    admin = client_for(moderator)
    assert admin.get("/admin/tournaments/chatline/").status_code == 200
    response = admin.post(
        "/admin/tournaments/chatline/",
        {"action": "hide_lines", "_selected_action": [str(rude.pk)]},
    )
    assert response.status_code == 302
    rude.refresh_from_db()
    assert rude.hidden
    page = client_for(bystander).get(tournament.get_absolute_url()).content.decode()
    assert "something rude" not in page and "something kind" in page
    (entry,) = LogEntry.objects.all()
    assert (entry.user_id, entry.object_id, entry.change_message) == (
        moderator.pk,
        str(rude.pk),
        "Hid the line",
    )
    # The line stays read only in admin: a posted change form changes nothing.
    admin.post(f"/admin/tournaments/chatline/{rude.pk}/change/", {"text": "x", "hidden": ""})
    rude.refresh_from_db()
    assert rude.hidden and rude.text == "something rude"
