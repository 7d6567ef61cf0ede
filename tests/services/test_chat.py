"""The table chat: stored, escaped, limited, pushed live, muted per viewer, hidden by moderators."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games import services
from games.boards.chat import render_chat_log
from games.models import Action, ChatMessage, Game, Mute
from games.services import chat
from tests.conftest import client_for
from tests.support.finished_games import finished_game
from tests.support.groups import group
from tests.support.sockets import open_board, socket


def say(client: Client, game: Game, text: str) -> tuple[int, str]:
    response = client.post(f"/games/{game.pk}/chat/", {"text": text}, HTTP_HX_REQUEST="true")
    return response.status_code, response.content.decode()


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[datetime]:
    """The chat's clock, moved by the test (never slept)."""
    at = [datetime(2026, 1, 1, 12, 0, tzinfo=UTC)]
    monkeypatch.setattr(chat, "now", lambda: at[0])
    return at


@pytest.mark.django_db
def test_a_line_is_stored_escaped_and_not_an_action(running_game: Game, player: User) -> None:
    version, actions = running_game.version, Action.objects.count()
    status, html = say(client_for(player), running_game, "<script>alert('x')</script> & hi")
    assert status == 200
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; hi" in html
    assert "<script>" not in html
    assert ChatMessage.objects.get().text == "<script>alert('x')</script> & hi"
    running_game.refresh_from_db()
    assert running_game.version == version and Action.objects.count() == actions
    page = client_for(player).get(f"/games/{running_game.pk}/").content.decode()
    assert "&lt;script&gt;alert" in page and "<script>alert" not in page


@pytest.mark.django_db
def test_a_page_reads_whom_its_viewer_muted_once_they_muted_someone(
    running_game: Game, player: User, rival: User
) -> None:
    """A person who never muted anyone reads no mutes for a table's page (a Swiss round's 200
    fresh pages); their first mute marks them, and every page after lists whom and hides their
    lines, at this table and any other."""
    url = f"/games/{running_game.pk}/"

    def mutes_read(client: Client, where: str = url) -> tuple[int, str]:
        with CaptureQueriesContext(connection) as ctx:
            page = client.get(where).content.decode()
        return sum('"games_mute"' in q["sql"] for q in ctx.captured_queries), page

    services.chat.say(running_game, player, "crumbs everywhere")
    read, page = mutes_read(client_for(rival))
    assert read == 0 and "crumbs everywhere" in page and "Muted by you" not in page
    assert not User.objects.get(pk=rival.pk).muted_someone
    services.chat.mute(rival, player, running_game.pk)
    assert User.objects.get(pk=rival.pk).muted_someone
    read, page = mutes_read(client_for(rival))
    assert read == 1 and "crumbs everywhere" not in page and "Muted by you" in page
    # At a fresh table of theirs too (no chat line read there), the list is still shown.
    fresh = services.create_game(rival, "midnight-bakery", 2)
    read, page = mutes_read(client_for(rival), fresh.get_absolute_url())
    assert read == 1 and "Muted by you" in page and player.username in page
    services.chat.unmute(rival, player, running_game.pk)
    read, page = mutes_read(client_for(rival))  # the flag stays: one query, nothing muted
    assert read == 1 and "crumbs everywhere" in page and "Muted by you" not in page


@pytest.mark.django_db
def test_a_table_reads_its_chat_lines_once_its_chat_had_a_line(
    running_game: Game, player: User, rival: User
) -> None:
    """A table whose chat never had a line reads none for its page (a Swiss round's fresh
    tables); the first line marks the table, and every page after reads and shows it."""
    url = f"/games/{running_game.pk}/"
    assert not running_game.chatted

    def lines_read(client: Client) -> tuple[int, str]:
        with CaptureQueriesContext(connection) as ctx:
            page = client.get(url).content.decode()
        return sum('"games_chatmessage"' in q["sql"] for q in ctx.captured_queries), page

    read, page = lines_read(client_for(rival))
    assert read == 0 and "No messages yet." in page
    stale = Game.objects.get(pk=running_game.pk)  # read before the first line
    services.chat.say(running_game, player, "first batch is in")
    assert Game.objects.get(pk=running_game.pk).chatted
    read, page = lines_read(client_for(rival))
    assert read == 1 and "first batch is in" in page
    assert "first batch is in" in render_chat_log(stale, rival)  # a kept row (the sockets')
    services.chat.say(stale, rival, "second batch too")  # a row older than the flag: no harm
    assert "second batch too" in lines_read(client_for(player))[1]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "Write a message first"),
        ("   \n\t ", "Write a message first"),
        ("x" * 301, "at most 300 characters; yours has 301"),
        ("bell \x07 rings", "cannot be shown"),
        ("right\u202eto left", "cannot be shown"),
        ("isolate \u2067 here", "cannot be shown"),
        ("private \ue000 use", "cannot be shown"),
        ("hidden \u2060 joiner", "cannot be shown"),
    ],
)
def test_empty_long_and_garbage_lines_are_refused(
    running_game: Game, player: User, text: str, why: str
) -> None:
    status, html = say(client_for(player), running_game, text)
    assert status == 422 and why in html and 'role="alert"' in html
    assert not ChatMessage.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "emoji",
    [
        "\U0001f469\u200d\U0001f373",  # woman cook: woman, zero-width joiner, cooking
        "\U0001f44d\U0001f3fd",  # thumbs up with a skin tone
        "\u2764\ufe0f",  # red heart with its variation selector
        "\U0001f1eb\U0001f1f7",  # a flag of two regional indicators
        "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # Scotland
        "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # a family, joined twice
    ],
)
def test_emoji_as_people_type_them_are_taken(running_game: Game, player: User, emoji: str) -> None:
    status, html = say(client_for(player), running_game, f"well baked {emoji}")
    assert status == 200 and emoji in html
    assert ChatMessage.objects.get().text == f"well baked {emoji}"


@pytest.mark.django_db
def test_a_line_of_300_characters_is_taken_and_spaces_are_folded(
    running_game: Game, player: User
) -> None:
    assert say(client_for(player), running_game, "y" * 300)[0] == 200
    assert say(client_for(player), running_game, "  two \n words ")[0] == 200
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["y" * 300, "two words"]


@pytest.mark.django_db
def test_five_lines_in_ten_seconds_then_wait(
    running_game: Game, player: User, rival: User, clock: list[datetime]
) -> None:
    client = client_for(player)
    start = clock[0]
    for n in range(5):
        clock[0] = start + timedelta(seconds=n)
        assert say(client, running_game, f"line {n}")[0] == 200
    status, html = say(client, running_game, "one too many")
    assert status == 429 and "too fast" in html
    assert say(client_for(rival), running_game, "the others still talk")[0] == 200
    clock[0] = start + timedelta(seconds=10, milliseconds=1)
    assert say(client, running_game, "after the wait")[0] == 200
    assert ChatMessage.objects.filter(author=player).count() == 6


@pytest.mark.django_db
def test_a_logged_out_visitor_is_asked_to_log_in_where_spectators_chat(
    player: User, rival: User
) -> None:
    game = services.create_game(player, "midnight-bakery", 2, spectator_chat=True)
    services.join(game, rival)
    services.start(game, player)
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert "Log in to chat." in page and "Only the players write here." not in page


@pytest.mark.django_db
def test_a_line_too_long_is_refused_in_words_not_cut_by_the_box(
    running_game: Game, player: User
) -> None:
    page = client_for(player).get(f"/games/{running_game.pk}/").content.decode()
    box = page[page.index('id="chat-text"') :].split(">", 1)[0]
    assert "maxlength" not in box  # a pasted long line reaches the server whole
    status, html = say(client_for(player), running_game, "z" * 400)
    assert status == 422 and "at most 300 characters; yours has 400" in html


@pytest.mark.django_db
def test_spectators_neither_read_nor_write_unless_the_host_allows(
    player: User, rival: User, outsider: User
) -> None:
    for allowed in (False, True):
        game = services.create_game(player, "midnight-bakery", 2, spectator_chat=allowed)
        services.join(game, rival)
        services.start(game, player)
        services.chat.say(game, player, "players' secret plan")
        page = client_for(outsider).get(f"/games/{game.pk}/").content.decode()
        assert ("players&#x27; secret plan" in page) is allowed
        assert ('id="chat-form"' in page) is allowed
        status, _ = say(client_for(outsider), game, "hello from the rail")
        assert status == (200 if allowed else 403)
        anonymous = Client().post(
            f"/games/{game.pk}/chat/", {"text": "anon"}, HTTP_HX_REQUEST="true"
        )
        assert anonymous.status_code == 302  # to the log-in page
    assert not ChatMessage.objects.filter(text="anon").exists()


@pytest.mark.django_db
def test_a_player_mutes_another_for_themselves_only(
    running_game: Game, player: User, rival: User
) -> None:
    services.chat.say(running_game, player, "flour power")
    response = client_for(rival).post(
        f"/games/{running_game.pk}/chat/mute/", {"user": str(player.pk)}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert "flour power" not in response.content.decode()
    assert "Muted by you" in response.content.decode()
    assert Mute.objects.filter(user=rival, muted=player).exists()
    assert "flour power" in render_chat_log(running_game, player)
    assert "flour power" not in render_chat_log(running_game, rival)
    response = client_for(rival).post(
        f"/games/{running_game.pk}/chat/unmute/", {"user": str(player.pk)}, HTTP_HX_REQUEST="true"
    )
    assert "flour power" in response.content.decode()
    for bad in ("", "nine", str(rival.pk)):
        refused = client_for(rival).post(
            f"/games/{running_game.pk}/chat/mute/", {"user": bad}, HTTP_HX_REQUEST="true"
        )
        assert refused.status_code == 422
    assert not Mute.objects.exists()


@pytest.mark.django_db
def test_a_moderator_hides_a_line_in_admin(running_game: Game, player: User) -> None:
    rude = services.chat.say(running_game, player, "something rude")
    services.chat.say(running_game, player, "something kind")
    moderator = User.objects.create_superuser("mod", password="a-long-baking-secret")
    admin = client_for(moderator)
    assert admin.get("/admin/games/chatmessage/").status_code == 200
    response = admin.post(
        "/admin/games/chatmessage/",
        {"action": "hide_lines", "_selected_action": [str(rude.pk)]},
    )
    assert response.status_code == 302
    rude.refresh_from_db()
    assert rude.hidden
    log = render_chat_log(running_game, player)
    assert "something rude" not in log and "something kind" in log
    # The line itself stays read only in admin (a posted change form changes nothing).
    admin.post(f"/admin/games/chatmessage/{rude.pk}/change/", {"text": "x", "hidden": ""})
    rude.refresh_from_db()
    assert rude.hidden
    assert rude.text == "something rude"


@pytest.mark.django_db
def test_hiding_a_line_needs_the_permission_and_is_in_the_admin_log(
    running_game: Game, player: User, rival: User
) -> None:
    from django.contrib.admin.models import LogEntry

    rude = services.chat.say(running_game, player, "something rude")
    with pytest.raises(services.NotAllowed):
        chat.hide([rude], rival)
    rude.refresh_from_db()
    assert not rude.hidden and not LogEntry.objects.exists()
    moderator = User.objects.create_user("mod", password="a-long-baking-secret", is_staff=True)
    moderator.groups.add(group("Moderators"))
    moderator = User.objects.get(pk=moderator.pk)
    assert chat.hide([rude], moderator) == 1
    assert chat.hide([rude], moderator) == 0  # already hidden: nothing to log
    assert chat.hide([rude], moderator, hidden=False) == 1
    entries = LogEntry.objects.order_by("pk")
    assert [(e.user_id, e.object_id, e.change_message) for e in entries] == [
        (moderator.pk, str(rude.pk), "Hid the line"),
        (moderator.pk, str(rude.pk), "Showed the line again"),
    ]
    assert all(e.content_type.model == "chatmessage" for e in entries)


@pytest.mark.django_db
def test_no_chat_in_the_replay(player: User, rival: User) -> None:
    game = finished_game([player, rival], "midnight-bakery", bots=1)
    services.chat.say(game, player, "good night, bakers")
    replay = client_for(player).get(f"/games/{game.pk}/replay/").content.decode()
    assert "good night, bakers" not in replay and "chat" not in replay.lower()


@pytest.mark.django_db(transaction=True)
async def test_lines_and_hidings_are_pushed_over_the_table_socket(
    running_game: Game, player: User, rival: User
) -> None:
    ws = await socket(running_game, rival)
    await open_board(ws)
    line = await database_sync_to_async(services.chat.say)(running_game, player, "<b>hot</b>")
    pushed = await ws.receive_from()
    assert pushed.lstrip().startswith('<div id="chat-log"')
    assert "&lt;b&gt;hot&lt;/b&gt;" in pushed and "<b>hot" not in pushed
    moderator = await database_sync_to_async(User.objects.create_superuser)(
        "mod", password="a-long-baking-secret"
    )
    await database_sync_to_async(services.chat.hide)([line], moderator)
    pushed = await ws.receive_from()
    assert pushed.lstrip().startswith('<div id="chat-log"') and "hot" not in pushed
    await ws.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_mute_redraws_only_the_muters_screens(
    running_game: Game, player: User, rival: User
) -> None:
    mine = await socket(running_game, rival)
    theirs = await socket(running_game, player)
    await open_board(mine)
    await open_board(theirs)
    await database_sync_to_async(services.chat.say)(running_game, player, "knead more")
    assert "knead more" in await mine.receive_from()
    assert "knead more" in await theirs.receive_from()
    await database_sync_to_async(services.chat.mute)(rival, player, running_game.pk)
    assert "knead more" not in await mine.receive_from()
    # The next line said reaches the muted person's socket next: no redraw came before it.
    await database_sync_to_async(services.chat.say)(running_game, rival, "proof the dough")
    assert "proof the dough" in await theirs.receive_from()
    await mine.disconnect()
    await theirs.disconnect()


@pytest.mark.django_db
def test_a_chat_moderator_is_a_staff_member_of_the_group(running_game: Game, player: User) -> None:

    line = services.chat.say(running_game, player, "spam spam spam")
    moderator = User.objects.create_user("mod", password="a-long-baking-secret", is_staff=True)
    moderator.groups.add(group("Chat moderators"))
    admin = client_for(moderator)
    assert admin.get("/admin/games/chatmessage/").status_code == 200
    assert admin.get("/admin/games/game/").status_code == 403  # chat only
    admin.post("/admin/games/chatmessage/", {"action": "hide_lines", "_selected_action": [line.pk]})
    line.refresh_from_db()
    assert line.hidden


@pytest.mark.django_db
def test_no_line_at_a_table_called_off_or_stopped_by_a_moderator(
    running_game: Game, player: User, rival: User
) -> None:
    table = services.create_game(player, "midnight-bakery", 2)
    services.join(table, rival)
    say(client_for(rival), table, "see you at the start")
    services.cancel(table, player)
    status, html = say(client_for(rival), table, "still here?")
    assert status == 422 and "This table was called off, so its chat is closed." in html
    with pytest.raises(services.ServiceError, match="called off"):
        chat.say(Game.objects.get(pk=table.pk), player, "hello?")
    page = client_for(rival).get(f"/games/{table.pk}/").content.decode()
    assert "see you at the start" in page  # what was said stays readable
    assert 'id="chat-form"' not in page and "its chat is closed" in page

    Game.objects.filter(pk=running_game.pk).update(status=Game.Status.ABORTED, abort_reason="x")
    status, html = say(client_for(player), running_game, "why?")
    assert status == 422 and "A moderator stopped this game, so its chat is closed." in html
    assert ChatMessage.objects.filter(text__in=["still here?", "hello?", "why?"]).count() == 0


@pytest.mark.django_db
def test_a_finished_games_players_may_still_chat(player: User, rival: User) -> None:
    old = finished_game([player, rival])
    status, _ = say(client_for(rival), old, "good game")
    assert status == 200 and ChatMessage.objects.filter(game=old, text="good game").exists()
