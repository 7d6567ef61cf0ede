"""Whose eyes: a finished game's replay through one seat's view shows only what that seat knew."""

from __future__ import annotations

import re

import pytest
from django.utils.html import escape

from accounts.models import User
from games.models import Game
from games.web.replay import Replay
from tests.conftest import client_for
from tests.support.finished_games import cakehalla_with_a_blind_reservation, finished_game

pytestmark = pytest.mark.django_db


def frame(game: Game, move: int, eyes: int | str | None, user: User | None = None) -> str:
    url = f"/games/{game.pk}/replay/?move={move}"
    if eyes is not None:
        url += f"&eyes={eyes}"
    response = client_for(user).get(url)
    assert response.status_code == 200
    return response.content.decode()


def tiles(body: str) -> int:
    """How many card tiles (a pastry in a batch) the page holds."""
    return len(re.findall(r'class="card[ "]', body))


def shows(body: str, card_id: str) -> bool:
    """Whether a card id is on the page (not as the start of a longer id)."""
    return re.search(re.escape(card_id) + r"(?![\w-])", body) is not None


def test_a_seats_view_never_shows_another_seats_batch(player: User, rival: User) -> None:
    night = finished_game([player, rival], bots=0)
    engine = night.spec.engine
    rebuilt = Replay.of(night)
    positions = sorted(s.position for s in rebuilt.seats if s.position is not None)
    own_seen = 0
    for n in range(rebuilt.total + 1):
        state = rebuilt.state(n)
        batches = {p: [c["id"] for c in engine.view(state, p)["batch"]] for p in positions}
        for eyes in positions:
            body = frame(night, n, eyes, player)
            # Card tiles on the page: the seat's own batch and nothing else.
            assert tiles(body) == len(batches[eyes]), f"move {n}, seat {eyes}"
            for other in positions:
                if other == eyes:
                    continue
                leaked = [c for c in batches[other] if shows(body, c)]
                assert not leaked, f"move {n}: seat {eyes} sees seat {other}'s {leaked}"
            # The control: a seat choosing has its own batch on its buttons, so ids do show.
            if engine.legal_actions(state, eyes):
                assert all(shows(body, c) for c in batches[eyes])
                own_seen += 1
    assert own_seen > 0
    # Everything shows every batch at once.
    state = rebuilt.state(1)
    total = sum(len(engine.view(state, p)["batch"]) for p in positions)
    assert tiles(frame(night, 1, None, player)) == total > 0


def test_a_rivals_choice_stays_face_down_through_another_seats_eyes(
    player: User, rival: User
) -> None:
    night = finished_game([player, rival], bots=0)
    engine = night.spec.engine
    rebuilt = Replay.of(night)
    seat, payload = rebuilt.moves[0]
    other = next(s.position for s in rebuilt.seats if s.position != seat)
    chosen = next(
        c["name"]
        for c in engine.view(rebuilt.state(0), seat)["batch"]
        if c["id"] == payload["card"]
    )
    said_by_rival = re.search(r'<p class="said">(.*?)</p>', frame(night, 1, other)).group(1)  # type: ignore[union-attr]
    assert "made their choice, face down" in said_by_rival
    assert f"chose a {escape(chosen)}" not in said_by_rival
    said_by_mover = re.search(r'<p class="said">(.*?)</p>', frame(night, 1, seat)).group(1)  # type: ignore[union-attr]
    assert f"chose a {escape(chosen)}" in said_by_mover


def test_a_blind_reservation_shows_to_its_owner_only(player: User) -> None:
    game = cakehalla_with_a_blind_reservation(player)
    engine = game.spec.engine
    row = next(a for a in game.actions.order_by("seq") if a.payload.get("tier"))
    rebuilt = Replay.of(game)
    card = next(
        r
        for r in engine.view(rebuilt.state(row.seq), row.seat)["seats"][row.seat]["reserved"]
        if r.get("blind")
    )
    bot = next(s.position for s in rebuilt.seats if s.position != row.seat)
    owner_view = frame(game, row.seq, row.seat)
    assert escape(card["name"]) in owner_view
    rival_view = frame(game, row.seq, bot)
    assert escape(card["name"]) not in rival_view
    assert card["id"] not in rival_view
    assert "face down" in rival_view


def test_garbage_or_unknown_eyes_show_everything(player: User, rival: User) -> None:
    night = finished_game([player, rival], bots=0)
    everything = frame(night, 3, None)
    for eyes in ("zz", "7", "-1", "1.5", "\x00"):
        body = frame(night, 3, eyes)
        assert 'aria-current="true">everything</a>' in body
        assert tiles(body) == tiles(everything)


def test_the_step_links_keep_the_chosen_eyes(player: User, rival: User) -> None:
    night = finished_game([player, rival], bots=0)
    body = frame(night, 3, 1, player)
    assert f"/games/{night.pk}/replay/?move=4&amp;eyes=1" in body
    assert '<input type="hidden" name="eyes" value="1">' in body
    sugar = night.seats.get(position=1)
    assert f'aria-current="true">Sugar ({sugar.user.username})</a>' in body
    assert "Only what Sugar" in body
