"""The master bots at the site's tables: offered wherever bots are, named in words, thinking in the
thinking pool (games/thinking.py) and never for a hint or a stand-in."""

from __future__ import annotations

from typing import Any, cast

import pytest

from accounts.models import User
from games import catalog, services, thinking
from games.models import Action, Game
from games.services import bots as bot_moves
from games.services.base import load_state
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

KINDS = ("midnight-bakery", "cakehalla")


@pytest.fixture(autouse=True)
def _quick_masters(settings: Any) -> None:
    """A master thinks a few milliseconds a decision here (0.25 s at the site)."""
    settings.MASTER_BOT_SECONDS = 0.005


def my_move(game: Game, user: User) -> None:
    """The person's first legal move, at the version shown."""
    game.refresh_from_db()
    seat = game.seats.get(user=user)
    assert seat.position is not None
    state = load_state(game)
    legal = game.spec.engine.legal_actions(state, seat.position)
    services.play(game, user, legal[0], game.version)


@pytest.mark.parametrize("kind", KINDS)
def test_a_quick_game_against_masters_seats_them_and_they_answer(player: User, kind: str) -> None:
    game = services.quick_game(player, kind, rated=False, level="master")
    bots = list(game.seats.exclude(bot="").values_list("bot", flat=True))
    assert bots and set(bots) == {"master"}
    my_move(game, player)
    my_move(game, player)
    assert Action.objects.filter(game=game, bot="master").exists()


def test_a_level_nobody_offers_is_refused_and_makes_no_table(player: User) -> None:
    before = Game.objects.count()
    with pytest.raises(services.ServiceError, match="no such bot"):
        services.quick_game(player, "cakehalla", level="grandmaster")
    assert Game.objects.count() == before


def test_the_lobby_offers_each_level_in_words_and_its_form_seats_masters(player: User) -> None:
    client = client_for(player)
    body = client.get("/").content.decode()
    assert "Master: weighs hundreds of ways the game could still go" in body
    assert "Steady: takes what pays most right now" in body
    answer = client.post(
        "/games/quick/", {"kind": "cakehalla", "bots": "master", "practice": "yes"}
    )
    game = Game.objects.get(pk=int(answer["Location"].strip("/").split("/")[-1]))
    assert not game.rated
    assert set(game.seats.exclude(bot="").values_list("bot", flat=True)) == {"master"}


@pytest.mark.parametrize("kind", KINDS)
def test_hints_and_stand_ins_keep_to_bots_that_answer_at_once(kind: str) -> None:
    spec = catalog.get(kind)
    assert "master" in spec.bot_levels and spec.strongest_bot == "master"
    assert spec.hint_bot not in spec.searching
    assert spec.house_bot not in spec.searching


@pytest.mark.parametrize("kind", KINDS)
def test_a_masters_decision_is_thought_in_a_worker_process(
    player: User, kind: str, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a real pool of one worker: the search and its arguments pickle, and the answer is one
    of the legal actions."""
    settings.THINKING_PROCESSES = 1
    asked: list[object] = []
    real = thinking.think

    def spy(func: Any, *args: Any, **kwargs: Any) -> Any:
        asked.append(func)
        return real(func, *args, **kwargs)

    monkeypatch.setattr(thinking, "think", spy)
    game = services.create_game(player, kind, 2, rated=False)
    services.add_bot(game, player, "master")
    services.start(game, player)
    game.refresh_from_db()
    state = load_state(game)
    try:
        for position in game.spec.engine.active_seats(state):
            legal = game.spec.engine.legal_actions(state, position)
            if len(legal) > 1:
                action = bot_moves.decide(game, state, position, "master")
                assert action in legal
                break
        else:
            pytest.skip("no seat with a choice at the start")
    finally:
        thinking.stop()
    assert asked, "the master's decision did not go through the thinking pool"


def test_the_midnight_master_remembers_only_what_its_seat_saw(
    player: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The master is handed its own seat's earlier views (the batches it passed on are in no
    later view), rebuilt from the stored moves: each is exactly engine.view of that seat then."""
    spec = catalog.get("midnight-bakery")
    handed: list[list[Any]] = []
    real = spec.remembering["master"]

    def spy(seconds: float, views: Any) -> Any:
        handed.append(list(views))
        return real(seconds, views)

    monkeypatch.setitem(cast(dict[str, Any], spec.remembering), "master", spy)
    game = services.quick_game(player, "midnight-bakery", rated=False, level="master")
    my_move(game, player)
    my_move(game, player)
    game.refresh_from_db()
    assert handed and any(views for views in handed), "no master was handed its memory"
    bot = game.seats.exclude(bot="").first()
    assert bot is not None and bot.position is not None
    views = bot_moves.earlier_views(game, bot.position)
    assert len(views) == game.actions.count()
    assert views[-1] == spec.engine.view(load_state(game), bot.position)
