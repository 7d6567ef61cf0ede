"""Practice (unrated) tables: no rating moves, and "Suggest a move" from the seat's own view.

The hint is the strongest bot's choice, handed the seat's view and legal actions only, like a
bot seat: the hidden-information checks below look for every card the seat may not know (a rival
batch, a face-down reservation, a pile top) in each hint the person gets over a game.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any, cast

import lxml.html
import pytest

from accounts.models import Rating, RatingPoint, User
from games import services
from games.engines.cakehalla.cards import CARD_INDEX, CARDS
from games.models import Game
from games.records.ratings import rerate
from tests.conftest import client_for
from tests.support.cakehalla_tables import (
    SETUP,
    load_with,
    start_with,
    state_of,
    two_baker_table,
)
from tests.support.finished_games import finished_game, play_out

pytestmark = pytest.mark.django_db


def practice_table(host: User, kind: str = "midnight-bakery", bots: int = 2) -> Game:
    """A started unrated table of the host against greedy bots (the bots have moved)."""
    game = services.create_game(host, kind, 1 + bots, rated=False)
    for _ in range(bots):
        services.add_bot(game, host, "greedy")
    services.start(game, host)
    game.refresh_from_db()
    return game


def position(game: Game, user: User) -> int:
    seat = game.seats.get(user=user)
    assert seat.position is not None
    return seat.position


def ask(game: Game, user: User) -> Any:
    """The hint view's answer to this person."""
    return client_for(user).post(f"/games/{game.pk}/suggest/", HTTP_HX_REQUEST="true")


def rating_rows() -> list[Any]:
    return [
        *Rating.objects.order_by("pk").values(),
        *RatingPoint.objects.order_by("pk").values(),
    ]


# --- unrated tables ---------------------------------------------------------------------


def test_the_form_opens_an_unrated_table_only_when_asked(player: User) -> None:
    client = client_for(player)
    form = {"kind": "midnight-bakery", "capacity": 3}
    assert client.post("/games/new/", {**form, "practice": "on"}).status_code == 302
    assert client.post("/games/new/", form).status_code == 302
    practice, rated = Game.objects.filter(host=player).order_by("pk")
    assert (practice.rated, rated.rated) == (False, True)
    assert "Practice (unrated)" in client.get("/games/new/").content.decode()


def test_a_finished_practice_game_moves_no_rating(player: User, rival: User) -> None:
    finished_game([player, rival])  # a rated game first: the rows exist and must not move
    before = rating_rows()
    game = services.create_game(player, "midnight-bakery", 3, rated=False)
    services.join(game, rival)
    services.add_bot(game, player, "greedy")
    services.start(game, player)
    game = play_out(game, [player, rival])
    assert game.status == Game.Status.OVER
    assert game.seats.filter(place__isnull=False).count() == 3  # the results are written
    assert rating_rows() == before
    assert not RatingPoint.objects.filter(game_id=game.pk).exists()
    # Rebuilding every rating counts the rated game only.
    assert rerate() == 1
    assert not RatingPoint.objects.filter(game_id=game.pk).exists()


def test_practice_games_are_marked_in_the_history_and_on_the_profile(player: User) -> None:
    game = play_out(practice_table(player, bots=1), [player])
    for url in ("/games/history/", f"/u/{player.username}/"):
        body = client_for(player).get(url).content.decode()
        assert str(game) in body and '<span class="tag">practice</span>' in body, url
    rated = finished_game([player])
    body = client_for(player).get(f"/games/history/?player={player.username}").content.decode()
    assert body.count('<span class="tag">practice</span>') == 1 and str(rated) in body


def test_a_rematch_of_a_practice_game_is_practice_too(player: User) -> None:
    game = play_out(practice_table(player, bots=1), [player])
    assert services.rematch(game, player).rated is False


# --- the button -------------------------------------------------------------------------


def test_the_button_shows_at_a_practice_table_for_its_seated_person_only(
    player: User, outsider: User
) -> None:
    practice = practice_table(player)
    page = client_for(player).get(practice.get_absolute_url()).content.decode()
    assert "Suggest a move" in page and f"/games/{practice.pk}/suggest/" in page
    watched = client_for(outsider).get(practice.get_absolute_url()).content.decode()
    assert "Suggest a move" not in watched
    rated = services.create_game(player, "midnight-bakery", 2)
    services.add_bot(rated, player, "greedy")
    services.start(rated, player)
    page = client_for(player).get(rated.get_absolute_url()).content.decode()
    assert "Suggest a move" not in page


def test_against_a_person_the_button_stays_hidden_and_the_board_says_hints_are_off(
    player: User, rival: User
) -> None:
    """A practice table between people gives no hints: the button the waiting room held is
    hidden once the board says so (a push redraws the board, not the button)."""
    practice = services.create_game(player, "midnight-bakery", 2, rated=False)
    services.join(practice, rival)
    waiting = client_for(player).get(practice.get_absolute_url()).content.decode()
    assert re.search(r'<form class="board-hint-form"[^>]* hidden', waiting)
    services.start(practice, player)
    page = client_for(player).get(practice.get_absolute_url()).content.decode()
    assert re.search(r'<form class="board-hint-form"[^>]* hidden', page)
    assert 'data-hints="off"' in page
    against_bots = practice_table(player)
    page = client_for(player).get(against_bots.get_absolute_url()).content.decode()
    assert re.search(r'<form class="board-hint-form" method="post" action', page)
    assert 'data-hints="on"' in page


def put_back_due(game: Game, user: User) -> Game:
    """The Cakehalla table with this person holding 12 ingredients after a take: the sheet
    "Put back down to 10" is open on their board."""
    engine = game.spec.engine
    mine = position(game, user)
    data = cast(dict[str, Any], engine.dump(state_of(game)))
    data["bakers"][mine]["tokens"] = [3, 3, 3, 2, 1, 0]
    data["market"] = [1, 1, 1, 2, 3, 5]
    data.update(turn=mine, pending="return")
    game.snapshot = engine.dump(engine.load(data))
    game.save(update_fields=["snapshot"])
    return game


def sheet_of(game: Game, user: User) -> Any:
    """The table page's open sheet, parsed."""
    page = client_for(user).get(game.get_absolute_url()).content.decode()
    return lxml.html.fromstring(page).cssselect("#region-dialog .sheet")


def test_the_put_back_sheet_holds_its_own_suggest_button_and_line(player: User) -> None:
    """The sheet covers the page's own button, and the server has advice for a put-back."""
    game = put_back_due(start_with(practice_table(player, "cakehalla", bots=1), SETUP), player)
    (sheet,) = sheet_of(game, player)
    (button,) = sheet.cssselect(".sheet-hint button")
    assert button.text_content() == "Suggest a move"
    assert button.get("hx-post") == f"/games/{game.pk}/suggest/"
    assert button.get("hx-target") == "#sheet-hint"
    assert sheet.cssselect("#sheet-hint[role=status]")
    answer = client_for(player).post(
        f"/games/{game.pk}/suggest/", {"line": "sheet"}, HTTP_HX_REQUEST="true"
    )
    body = answer.content.decode()
    assert answer.status_code == 200
    assert body.startswith('<p id="sheet-hint" class="board-hint"')
    assert "Suggested: Put back" in body and "You may hold 10" in body


def test_the_customer_sheet_holds_the_suggest_button_too(player: User) -> None:
    game = start_with(practice_table(player, "cakehalla", bots=1), SETUP)
    mine = position(game, player)
    data = cast(dict[str, Any], game.spec.engine.dump(state_of(game)))
    data["turn"] = mine
    ready = load_with(game.spec.engine.load(data), mine, discounts=[4, 4, 3, 3, 3])
    game.snapshot = game.spec.engine.dump(ready)
    game.save(update_fields=["snapshot"])
    take = {"type": "take", "ingredients": ["sugar", "blueberry", "matcha"]}
    services.play(game, player, take, game.version)
    game.refresh_from_db()
    (sheet,) = sheet_of(game, player)
    assert "Which customer visits you?" in sheet.text_content()
    assert sheet.cssselect(".sheet-hint button")
    assert "Suggested: Choose" in ask(game, player).content.decode()


def test_a_rated_tables_put_back_sheet_has_no_suggest_button(player: User, rival: User) -> None:
    game = put_back_due(two_baker_table(player, rival), player)
    (sheet,) = sheet_of(game, player)
    assert sheet.cssselect("#return-form") and not sheet.cssselect(".sheet-hint")


# --- the hint ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["midnight-bakery", "cakehalla"])
def test_a_hint_is_a_legal_move_in_words_and_changes_nothing(player: User, kind: str) -> None:
    game = practice_table(player, kind)
    engine = game.spec.engine
    state = engine.load(game.snapshot)
    legal = engine.legal_actions(state, position(game, player))
    assert legal, "the person's move is due"
    version, moves = game.version, game.moves
    hint = services.suggest(game, player)
    assert hint.action in legal
    assert hint.words and hint.why
    response = ask(game, player)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.startswith('<p id="board-hint"')
    assert f"Suggested: {hint.words} Why: {hint.why}".replace("'", "&#x27;") in body
    game.refresh_from_db()
    assert (game.version, game.moves, game.actions.count()) == (version, moves, moves)


def test_a_hint_names_the_card_to_keep(player: User) -> None:
    game = practice_table(player)
    hint = services.suggest(game, player)
    view = game.spec.engine.view(game.spec.engine.load(game.snapshot), position(game, player))
    names = {c["id"]: c["name"] for c in view["batch"]}
    if hint.action["type"] == "keep":
        assert hint.words == f"Keep the {names[hint.action['card']]}."
    else:
        assert hint.words.startswith("Use your Peel")


def test_the_bot_is_handed_the_seats_view_only(
    player: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = practice_table(player)
    kind = game.spec
    seen: list[tuple[Mapping[str, Any], list[Any]]] = []

    def spy(view: Mapping[str, Any], legal: list[Any], rng: random.Random) -> Any:
        seen.append((view, legal))
        return legal[0]

    monkeypatch.setitem(cast(dict[str, Any], kind.bots), kind.hint_bot, spy)
    services.suggest(game, player)
    state = kind.engine.load(game.snapshot)
    mine = position(game, player)
    assert seen == [(kind.engine.view(state, mine), kind.engine.legal_actions(state, mine))]


def test_a_rated_table_refuses_a_hint_and_changes_nothing(player: User) -> None:
    game = services.create_game(player, "midnight-bakery", 3)
    services.add_bot(game, player, "greedy")
    services.add_bot(game, player, "greedy")
    services.start(game, player)
    game.refresh_from_db()
    version = game.version
    response = ask(game, player)
    assert response.status_code == 403
    assert "only for practice tables" in response.content.decode()
    with pytest.raises(services.NotAllowed):
        services.suggest(game, player)
    game.refresh_from_db()
    assert game.version == version


def test_hints_are_refused_to_watchers_off_turn_and_without_bots(
    player: User, rival: User, outsider: User
) -> None:
    game = services.create_game(player, "midnight-bakery", 3, rated=False)
    services.join(game, rival)
    services.add_bot(game, player, "greedy")
    services.start(game, player)
    game.refresh_from_db()
    assert ask(game, outsider).status_code == 403
    assert ask(game, rival).status_code == 200
    services.play(game, player, services.suggest(game, player).action, game.version)
    response = ask(game, player)  # the pick is locked: the rival has not chosen yet
    assert response.status_code == 400 and "not your move" in response.content.decode()
    people = services.create_game(player, "midnight-bakery", 2, rated=False)
    services.join(people, rival)
    services.start(people, player)
    response = ask(people, player)
    assert response.status_code == 400 and "against bots" in response.content.decode()
    waiting = services.create_game(player, "midnight-bakery", 2, rated=False)
    assert ask(waiting, player).status_code == 400


# --- the hidden-information audit of hint responses --------------------------------------


def rival_batches(game: Game, mine: int) -> list[str]:
    """Every card id in another seat's batch (bots', a locked pick's, the owl's)."""
    state = game.spec.engine.load(game.snapshot)
    return [card for seat, batch in enumerate(state.batches) if seat != mine for card in batch]


def test_a_midnight_bakery_hint_never_shows_a_rival_batch(player: User) -> None:
    """A whole night played by the hints: no answer shows a card of another seat's batch."""
    game = practice_table(player, bots=2)
    mine = position(game, player)
    engine = game.spec.engine
    asked = checked = 0
    while game.status == Game.Status.RUNNING and asked < 100:
        hidden = rival_batches(game, mine)
        own = [c["id"] for c in engine.view(engine.load(game.snapshot), mine)["batch"]]
        body = ask(game, player).content.decode()
        assert not [c for c in hidden if c in body]  # (after a Peel a rival may hold none)
        checked += bool(hidden)
        assert not [c for c in own if c in body]  # words, never ids
        services.play(game, player, services.suggest(game, player).action, game.version)
        game.refresh_from_db()
        asked += 1
    assert checked > 10 and game.status == Game.Status.OVER


def cakehalla_secrets(game: Game, mine: int) -> list[str]:
    """The ids and names of the cards the seat may not know: rivals' face-down reservations
    and every pile's top."""
    state = state_of(game)
    ids = [CARDS[pile[0]].id for pile in state.piles if pile]
    for seat, baker in enumerate(state.bakers):
        if seat != mine:
            ids += [CARDS[card].id for card, blind in baker.reserved if blind]
    return [*ids, *(CARDS[CARD_INDEX[i]].name for i in ids)]


def test_a_cakehalla_hint_never_shows_a_face_down_card_or_a_pile_top(player: User) -> None:
    game = services.create_game(player, "cakehalla", 2, rated=False)
    services.add_bot(game, player, "greedy")
    game = start_with(game, SETUP)
    engine = game.spec.engine
    mine = position(game, player)
    bot = 1 - mine
    # The bot holds two cards reserved face down (taken from deep in the piles); the person moves.
    piles = cast(dict[str, list[str]], SETUP["piles"])
    hidden = [piles["2"][-1], piles["3"][-1]]
    data = cast(dict[str, Any], engine.dump(state_of(game)))
    data["piles"] = [[c for c in pile if c not in hidden] for pile in data["piles"]]
    data["turn"] = mine
    state = load_with(engine.load(data), bot, reserved=[[hidden[0], True], [hidden[1], True]])
    game.snapshot = engine.dump(state)
    game.save(update_fields=["snapshot"])
    assert set(hidden) <= set(cakehalla_secrets(game, mine))
    for _ in range(6):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        secrets = cakehalla_secrets(game, mine)
        body = ask(game, player).content.decode()
        assert "Suggested:" in body
        assert not [s for s in secrets if s in body], body
        legal = engine.legal_actions(state_of(game), mine)
        hint = services.suggest(game, player)
        assert hint.action in legal
        services.play(game, player, hint.action, game.version)
        game.refresh_from_db()
        while game.status == Game.Status.RUNNING and mine in engine.active_seats(state_of(game)):
            more = services.suggest(game, player).action  # a put-back or a customer
            services.play(game, player, more, game.version)
            game.refresh_from_db()
