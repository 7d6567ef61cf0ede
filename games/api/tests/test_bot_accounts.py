"""Bot accounts (games/api/bots.py): the upgrade and its refusals, a bot account's seat taken and
played through the API, its moves refused from the pages, and its mark beside its name."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from django.utils import timezone

from accounts.models import MIN_RANKED_GAMES, Rating, User
from accounts.ratings import display
from games import services
from games.api.tests.conftest import Api
from games.boards.chat import render_chat_log
from games.models import Action, Game
from games.services.moves import play_posted
from tests.fixtures import client_for
from tests.support.cakehalla_tables import state_of, two_baker_table, user_at

pytestmark = pytest.mark.django_db

BOT_SCOPES = ["account:read", "games:play", "bot:play"]


def bot_account(user: User) -> User:
    """This account marked a bot account directly (the upgrade refuses a seated one)."""
    user.plays_by_api = True
    user.save(update_fields=["plays_by_api"])
    return user


def stored(game: Game) -> tuple[int, int]:
    game.refresh_from_db()
    return game.version, Action.objects.filter(game=game).count()


def test_an_account_with_no_game_becomes_a_bot_account(
    outsider: User, api_for: Callable[..., Api]
) -> None:
    api = api_for(outsider, BOT_SCOPES)
    upgraded = api.post("/bot/account/upgrade")
    assert upgraded.status_code == 200, upgraded.content
    assert upgraded.json() == {"name": outsider.username, "bot": True}
    outsider.refresh_from_db()
    assert outsider.plays_by_api and not outsider.is_bot
    assert api.get("/account").json()["bot"] is True


def test_an_account_that_sat_at_a_table_is_refused(
    open_table: Game, player: User, api_for: Callable[..., Api]
) -> None:
    refused = api_for(player, BOT_SCOPES).post("/bot/account/upgrade")
    assert refused.status_code == 409
    assert "sat at a table already" in refused.json()["error"]
    player.refresh_from_db()
    assert not player.plays_by_api


def test_the_upgrade_needs_the_bot_play_scope(outsider: User, api_for: Callable[..., Api]) -> None:
    refused = api_for(outsider, ["account:read", "games:play"]).post("/bot/account/upgrade")
    assert refused.status_code == 403 and "bot:play" in refused.json()["error"]
    outsider.refresh_from_db()
    assert not outsider.plays_by_api


def test_a_second_upgrade_says_it_is_one_already(
    outsider: User, api_for: Callable[..., Api]
) -> None:
    api = api_for(outsider, BOT_SCOPES)
    api.post("/bot/account/upgrade")
    again = api.post("/bot/account/upgrade")
    assert again.status_code == 409 and "already" in again.json()["error"]


def test_a_bot_account_finds_an_open_table_joins_it_and_plays(
    open_table: Game, player: User, outsider: User, api_for: Callable[..., Api]
) -> None:
    bot = bot_account(outsider)
    api = api_for(bot, BOT_SCOPES)
    listed = api.get("/tables/open?game=midnight-bakery").json()
    assert [t["id"] for t in listed] == [open_table.pk]
    assert listed[0]["host"] == player.username and listed[0]["seated"] == 1
    joined = api.post(f"/games/{open_table.pk}/join")
    assert joined.status_code == 200, joined.content
    assert open_table.seats.filter(user=bot).exists()
    assert api.get("/tables/open").json() == []  # full, and it sits there
    services.start(open_table, player)
    table = api.get(f"/games/{open_table.pk}").json()
    assert table["your_move"] and [s["bot"] for s in table["seats"] if s["you"]] == [True]
    move = {"action": table["legal"][0], "version": table["version"], "moment": table["moment"]}
    assert api.post(f"/games/{open_table.pk}/move", move).status_code == 200


def test_joining_twice_or_a_full_table_is_refused_in_words(
    open_table: Game, rival: User, outsider: User, api_for: Callable[..., Api]
) -> None:
    services.join(open_table, rival)
    full = api_for(outsider).post(f"/games/{open_table.pk}/join")
    assert full.status_code == 400 and "Every seat" in full.json()["error"]
    again = api_for(rival).post(f"/games/{open_table.pk}/join")
    assert again.status_code == 400 and "already sit" in again.json()["error"]


def test_a_private_table_without_its_code_looks_missing(
    player: User, outsider: User, api_for: Callable[..., Api]
) -> None:
    game = services.create_game(player, "cakehalla", 2, private=True)
    api = api_for(outsider)
    assert game.pk not in [t["id"] for t in api.get("/tables/open").json()]
    missing = api.post(f"/games/{game.pk}/join", {"invite": "wrong"})
    assert missing.status_code == 404 and "could not find" in missing.json()["error"]
    assert api.post(f"/games/{game.pk}/join", {"invite": game.invite}).status_code == 200


def test_joining_needs_games_play(
    open_table: Game, outsider: User, api_for: Callable[..., Api]
) -> None:
    refused = api_for(outsider, ["account:read"]).post(f"/games/{open_table.pk}/join")
    assert refused.status_code == 403 and "games:play" in refused.json()["error"]
    assert not open_table.seats.filter(user=outsider).exists()


def test_the_page_refuses_a_bot_accounts_move_in_words(player: User, rival: User) -> None:
    game = two_baker_table(player, rival)
    first = bot_account(user_at(game, state_of(game).turn))
    action = game.spec.engine.legal_actions(state_of(game), state_of(game).turn)[0]
    before = stored(game)
    refused = client_for(first).post(
        f"/games/{game.pk}/play/",
        {"action": json.dumps(action), "version": game.version},
        headers={"HX-Request": "true"},
    )
    assert refused.status_code == 403
    assert "bot account" in refused.content.decode() and stored(game) == before


def test_the_socket_path_refuses_it_too_and_the_api_path_takes_it(
    player: User, rival: User, api_for: Callable[..., Api]
) -> None:
    game = two_baker_table(player, rival)
    first = bot_account(user_at(game, state_of(game).turn))
    action = game.spec.engine.legal_actions(state_of(game), state_of(game).turn)[0]
    fields = {"action": json.dumps(action), "version": str(game.version)}
    with pytest.raises(services.NotAllowed, match="through the API only"):
        play_posted(game.pk, first, fields)  # what the socket calls with a session's user
    moved = api_for(first).post(
        f"/games/{game.pk}/move", {"action": action, "version": game.version}
    )
    assert moved.status_code == 200, moved.content


def test_a_bot_account_is_marked_beside_its_name(player: User, rival: User) -> None:
    game = two_baker_table(player, rival)
    bot_account(rival)
    profile = client_for(player).get(f"/u/{rival.username}/").content.decode()
    assert "BOT" in profile and "(bot account)" in profile
    table = client_for(player).get(f"/games/{game.pk}/").content.decode()
    assert table.count("(bot account)") == 1  # beside the rival's seat, not the player's
    mine = client_for(player).get(f"/u/{player.username}/").content.decode()
    assert "(bot account)" not in mine


def test_the_api_marks_a_bot_accounts_seat_and_profile(
    player: User, rival: User, api_for: Callable[..., Api]
) -> None:
    game = two_baker_table(player, rival)
    bot_account(rival)
    api = api_for(player)
    seats = {s["name"]: s["bot"] for s in api.get(f"/games/{game.pk}").json()["seats"]}
    assert seats == {player.username: False, rival.username: True}
    assert api.get(f"/people/{rival.username}").json()["bot"] is True


def test_the_tokens_page_upgrades_an_account_with_no_game(outsider: User) -> None:
    client = client_for(outsider)
    assert "Make this a bot account" in client.get("/accounts/settings/tokens/").content.decode()
    unsure = client.post("/accounts/settings/bot/", follow=True).content.decode()
    assert "Tick the box" in unsure
    outsider.refresh_from_db()
    assert not outsider.plays_by_api
    done = client.post("/accounts/settings/bot/", {"sure": "on"}, follow=True).content.decode()
    assert "This is now a bot account" in done and "(bot account)" in done
    outsider.refresh_from_db()
    assert outsider.plays_by_api


def test_the_tokens_page_refuses_a_seated_account_in_words(open_table: Game, player: User) -> None:
    said = client_for(player).post("/accounts/settings/bot/", {"sure": "on"}, follow=True)
    assert "sat at a table already" in said.content.decode()
    player.refresh_from_db()
    assert not player.plays_by_api


def test_a_bot_accounts_chat_line_is_marked(
    player: User, rival: User, api_for: Callable[..., Api]
) -> None:
    game = two_baker_table(player, rival)
    said = api_for(bot_account(rival)).post(f"/games/{game.pk}/chat", {"text": "good luck"})
    assert said.status_code == 200, said.content
    log = render_chat_log(game, player)
    assert "good luck" in log and log.count("(bot account)") == 1


def test_a_bot_account_shares_the_ratings_but_not_the_people_only_board(
    player: User, rival: User, api_for: Callable[..., Api]
) -> None:
    bot_account(rival)
    for user, ordinal in ((player, 10.0), (rival, 20.0)):
        Rating.objects.create(
            user=user,
            kind="midnight-bakery",
            last_played_at=timezone.now(),
            mu=ordinal + 6,
            sigma=2,
            ordinal=ordinal,
            rating=display(ordinal),
            games=MIN_RANKED_GAMES,
            wins=1,
        )
    api = api_for(player)
    people = api.get("/leaderboards/midnight-bakery").json()["lines"]
    assert [line["name"] for line in people] == [player.username]
    both = api.get("/leaderboards/midnight-bakery?bots=true").json()["lines"]
    assert [(line["name"], line["bot"]) for line in both] == [
        (rival.username, True),
        (player.username, False),
    ]
    page = client_for(player).get("/leaderboards/midnight-bakery/?bots=1").content.decode()
    assert page.count("(bot account)") == 1


def test_a_seat_a_house_bot_took_is_taken_back_through_the_api(
    player: User, rival: User, api_for: Callable[..., Api]
) -> None:
    game = two_baker_table(player, rival)
    bot = bot_account(rival)
    services.hand_seat_to_bot(game, game.seats.get(user=bot), services.ABSENT)
    api = api_for(bot)
    back = api.post(f"/games/{game.pk}/take-back")
    assert back.status_code == 200, back.content
    seat = game.seats.get(user=bot)
    assert not seat.resigned and seat.bot == ""
    again = api.post(f"/games/{game.pk}/take-back")
    assert again.status_code == 400 and "already play" in again.json()["error"]
