"""What players meet: invites, menus, the favicon, plurals, headings, the log, last moves."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from markupsafe import escape

from accounts.models import User
from games import services
from games.boards import board_context, render_board
from games.boards.changes import fingerprint
from games.models import Game
from tests.conftest import client_for
from tests.support.finished_games import finished_game

pytestmark = pytest.mark.django_db


def nav(body: str) -> str:
    """The site's top menu: its links and the account's."""
    match = re.search(r'<header class="site">(.*?)</header>', body, re.S)
    assert match
    return match.group(1)


# --- inviting ------------------------------------------------------------------------------


def test_the_host_sees_the_invite_link_with_a_copy_button(player: User) -> None:
    game = services.create_game(player, "cakehalla", 2, private=True)
    body = client_for(player).get(game.get_absolute_url()).content.decode()
    assert f'id="invite-link" href="{escape(game.invite_url)}"' in body
    assert 'data-copy="invite-link"' in body
    assert "js/invite.js" in body
    assert "<script>" not in body  # CSP: no inline script


def test_a_public_tables_invite_is_its_plain_link(open_table: Game, player: User) -> None:
    body = client_for(player).get(open_table.get_absolute_url()).content.decode()
    assert f'id="invite-link" href="{open_table.get_absolute_url()}"' in body
    assert open_table.invite not in body


def test_a_logged_out_friend_is_asked_to_sign_up_and_comes_back(player: User) -> None:
    game = services.create_game(player, "cakehalla", 2, private=True)
    friend = Client()
    body = friend.get(game.invite_url).content.decode()
    assert "Sign up to take a seat" in body
    back = quote(game.invite_url, safe="/")
    assert f'href="/accounts/signup/?next={back}"' in body
    assert f'href="/accounts/login/?next={back}"' in body
    assert 'id="invite-link"' not in body  # only people seated hand out the link
    # The sign-up page's log-in link keeps the way back.
    signup = friend.get(f"/accounts/signup/?next={back}").content.decode()
    assert f'href="/accounts/login/?next={back}"' in signup
    response = friend.post(
        f"/accounts/signup/?next={back}",
        {"username": "dora", "password1": "crusty-loaf-1987", "password2": "crusty-loaf-1987"},
    )
    assert response.status_code == 302
    assert response["Location"] == game.invite_url
    table = friend.get(response["Location"]).content.decode()
    assert "Take a seat" in table
    joined = friend.post(f"/games/{game.pk}/join/", {"invite": game.invite})
    assert joined.status_code == 302
    assert game.seats.filter(user__username="dora").exists()


def test_logging_in_from_the_table_comes_back_to_it(player: User, outsider: User) -> None:
    game = services.create_game(player, "midnight-bakery", 2, private=True)
    friend = Client()
    friend.get(game.invite_url)
    login = friend.get(f"/accounts/login/?next={quote(game.invite_url, safe='/')}")
    assert (
        f'href="/accounts/signup/?next={quote(game.invite_url, safe="/")}"'
        in login.content.decode()
    )
    response = friend.post(
        "/accounts/login/",
        {
            "username": outsider.username,
            "password": "a-long-baking-secret",
            "next": game.invite_url,
        },
    )
    assert response.status_code == 302
    assert response["Location"] == game.invite_url


def test_the_menus_log_in_and_sign_up_come_back_to_the_page(player: User) -> None:
    game = services.create_game(player, "cakehalla", 2, private=True)
    back = quote(game.invite_url, safe="/")
    menu = nav(Client().get(game.invite_url).content.decode())
    assert f'href="/accounts/login/?next={back}"' in menu
    assert f'href="/accounts/signup/?next={back}"' in menu
    signup = nav(Client().get(f"/accounts/signup/?next={back}").content.decode())
    assert f'href="/accounts/login/?next={back}"' in signup
    plain = nav(Client().get("/accounts/login/").content.decode())
    assert 'href="/accounts/signup/"' in plain


def test_sign_up_never_sends_a_friend_off_the_site() -> None:
    body = Client().get("/accounts/signup/?next=https://evil.example/").content.decode()
    assert "evil.example" not in body


# --- menus, favicon, plurals, headings -----------------------------------------------------


def test_the_replay_shows_the_logged_in_menu(player: User, rival: User) -> None:
    night = finished_game([player, rival], bots=0)
    body = client_for(player).get(f"/games/{night.pk}/replay/").content.decode()
    menu = nav(body)
    assert "Log out" in menu and player.username in menu
    assert "Log in" not in menu and "Sign up" not in menu
    anonymous = nav(Client().get(f"/games/{night.pk}/replay/").content.decode())
    assert "Log in" in anonymous and "Log out" not in anonymous


def test_stats_is_in_the_top_menu() -> None:
    assert 'href="/stats/"' in nav(Client().get("/").content.decode())


def test_favicon_is_served_and_is_the_pages_one_icon() -> None:
    client = Client()
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == "/static/img/favicon.svg"
    found = finders.find("img/favicon.svg")
    assert found and "<svg" in Path(str(found)).read_text()
    page = client.get("/").content.decode()
    icons = re.findall(r'<link rel="icon"[^>]*>', page)
    assert len(icons) == 1 and 'href="/static/img/favicon.svg"' in icons[0]


@pytest.mark.parametrize("kind", ["midnight-bakery", "cakehalla"])
def test_the_final_standings_scroll_sideways_with_a_hint(
    player: User, rival: User, kind: str
) -> None:
    game = finished_game([player, rival], kind)
    body = client_for(player).get(f"/games/{game.pk}/").content.decode()
    results = body[body.index('id="region-results"') :]
    standings = results[: results.index("</table>")]
    after = results[results.index("</table>") :]
    assert '<div class="table-scroll"' in standings
    assert '<th scope="col" class="names">Baker</th>' in standings  # the column that stays put
    hint = after[: after.index("</p>") + 4]
    assert 'class="scroll-hint' in hint and "Swipe sideways for every column" in hint


def test_one_game_played_is_singular(player: User, rival: User) -> None:
    finished_game([player, rival], bots=0)
    body = Client().get("/stats/").content.decode()
    assert re.search(r"<b>1</b> game played", body)
    assert "games played" not in body
    assert re.search(r"<b>2</b> players", body)


@pytest.mark.parametrize("kind", ["midnight-bakery", "cakehalla"])
def test_one_h1_on_the_board_and_the_replay(player: User, rival: User, kind: str) -> None:
    game = finished_game([player, rival], kind=kind, bots=0)
    for url in (game.get_absolute_url(), f"/games/{game.pk}/replay/?move=3"):
        body = client_for(player).get(url).content.decode()
        assert body.count("<h1") == 1, url
    running = services.create_game(player, kind, 2)
    services.join(running, rival)
    services.start(running, player)
    body = client_for(player).get(running.get_absolute_url()).content.decode()
    assert body.count("<h1") == 1


# --- Midnight Bakery's log ---------------------------------------------------------------


def test_the_log_keeps_the_whole_night_newest_first(player: User, rival: User) -> None:
    night = finished_game([player, rival], bots=0)
    engine = night.spec.engine
    events = engine.view(engine.load(night.snapshot), None)["log"]
    assert len(events) > 12
    body = client_for(player).get(night.get_absolute_url()).content.decode()
    log = body[body.index('id="region-log"') :]
    log = log[: log.index("</section>")]
    shown = re.findall(r'<li class="event-[\w-]+"[^>]*>(.*?)</li>', log)
    assert len(shown) == len(events)
    # Newest first: bake 3 heads the log, bake 1 ends it; each pick is named.
    bakes = re.findall(r'<h3 class="log-bake">Bake (\d)</h3>', log)
    assert bakes == ["3", "2", "1"]
    assert '<span class="log-when">Pick 1</span>' in log
    first_bake_at = log.index("Bake 1</h3>")
    assert escape(events[0]["text"]) in log[first_bake_at:]
    assert escape(events[-1]["text"]) in log[: log.index("Bake 2</h3>")]


def test_the_logs_fingerprint_moves_only_when_the_log_grows(
    running_game: Game, player: User
) -> None:
    ctx = board_context(running_game, player)
    template = "games/midnight-bakery/_log.html"
    before = fingerprint(ctx, template)
    assert fingerprint(board_context(running_game, player), template) == before
    engine = running_game.spec.engine
    state = engine.load(running_game.snapshot)
    bob = running_game.seats.exclude(user=player).get()
    me = running_game.seats.get(user=player)
    services.play(running_game, player, engine.legal_actions(state, me.position)[0], None)
    running_game.refresh_from_db()
    # One baker locked: nothing public happened, so the log region is not rendered again.
    assert fingerprint(board_context(running_game, player), template) == before
    state = engine.load(running_game.snapshot)
    services.play(running_game, bob.user, engine.legal_actions(state, bob.position)[0], None)
    running_game.refresh_from_db()
    assert fingerprint(board_context(running_game, player), template) != before


# --- Cakehalla's cards and piles -----------------------------------------------------------


def cakehalla_table(player: User) -> Game:
    game = services.create_game(player, "cakehalla", 2)
    services.add_bot(game, player, "greedy")
    services.start(game, player)
    game.refresh_from_db()
    return game


def test_a_cakehalla_cards_accessible_name_says_its_cost(player: User) -> None:
    game = cakehalla_table(player)
    engine = game.spec.engine
    view = engine.view(engine.load(game.snapshot), None)
    card = next(c for c in view["counter"]["1"] if c)
    body = client_for(player).get(game.get_absolute_url()).content.decode()
    label = re.search(
        r'<details id="offer-counter-'
        + re.escape(card["id"])
        + r'".*?<summary aria-label="([^"]*)"',
        body,
        re.S,
    )
    assert label
    cost = ", ".join(
        f"{n} {name.capitalize()}"
        for name in ("sugar", "blueberry", "matcha", "cherry", "cocoa")
        if (n := card["cost"].get(name))
    )
    assert f"costs {cost}" in label.group(1)


def test_a_pile_reserves_only_from_its_offer(player: User) -> None:
    game = cakehalla_table(player)
    body = client_for(player).get(game.get_absolute_url()).content.decode()
    for tier in (1, 2, 3):
        offer = re.search(
            rf'<details id="pile-{tier}" class="offer pile-offer">(.*?)</details>', body, re.S
        )
        assert offer, tier
        summary = re.search(r"<summary.*?</summary>", offer.group(1), re.S)
        assert summary and "<button" not in summary.group(0)
        assert "Reserve face down" in offer.group(1)
        assert f"&#34;tier&#34;:{tier}}}" in offer.group(1)
    # The blind reservation is nowhere else on the page.
    assert len(re.findall(r"&#34;tier&#34;:\d", body)) == 3


# --- what just happened ---------------------------------------------------------------------


def test_a_bots_cakehalla_turn_is_marked_for_the_person(player: User) -> None:
    game = cakehalla_table(player)
    engine = game.spec.engine
    state = engine.load(game.snapshot)
    me = game.seats.get(user=player)
    assert engine.view(state, me.position)["turn"] == me.position  # a bot that opened has moved
    take = next(a for a in engine.legal_actions(state, me.position) if a["type"] == "take")
    services.play(game, player, take, None)  # the greedy bot answers at once (inline)
    game.refresh_from_db()
    log = engine.view(engine.load(game.snapshot), me.position)["log"]
    assert log[-1]["seat"] != me.position
    body = client_for(player).get(game.get_absolute_url()).content.decode()
    assert body.count('class="last-move just"') == 1  # the bot's box; never your own
    assert '<p class="just-line just">' in body
    status = body[body.index('id="region-status"') : body.index('id="region-customers"')]
    assert "greedy-bot" in status


def test_every_bots_cakehalla_turn_since_the_persons_is_marked(
    player: User, outsider: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.engines.cakehalla import Action
    from games.engines.cakehalla.bots import BOTS
    from games.kinds.cakehalla.log import event_text, touched
    from games.kinds.cakehalla.words import player_names
    from games.services.dealing import draw_positions

    greedy = BOTS["greedy"]

    def blind_first(view: Any, legal: list[Action], rng: Any) -> Action:
        """Greedy, but each bot reserves a pile's top face down first: a card only it knows."""
        mine = view["seats"][view["turn"]]
        blind = [a for a in legal if a["type"] == "reserve" and "tier" in a]
        return blind[0] if blind and not mine["reserved"] else greedy(view, legal, rng)

    monkeypatch.setitem(BOTS, "greedy", blind_first)
    game = services.create_game(player, "cakehalla", 4)
    for _ in range(3):
        services.add_bot(game, player, "greedy")
    # The person opens (the first seat), so the three bots all answer each of their moves.
    game.seed = next(seed for seed in range(1, 1000) if draw_positions(seed, 4)[0] == 0)
    game.save(update_fields=["seed"])
    services.start(game, player)
    game.refresh_from_db()
    engine = game.spec.engine
    me = game.seats.get(user=player).position
    assert me is not None
    take = next(
        a for a in engine.legal_actions(engine.load(game.snapshot), me) if a["type"] == "take"
    )
    services.play(game, player, take, None)  # the three bots answer at once, one after another
    game.refresh_from_db()
    state = engine.load(game.snapshot)
    assert engine.view(state, None)["turn"] == me
    mine = engine.view(state, me)
    since = max(i for i, e in enumerate(mine["log"]) if e.get("seat") == me) + 1
    bots = sorted({e["seat"] for e in mine["log"][since:] if "seat" in e})
    assert len(bots) == 3 and me not in bots

    body = client_for(player).get(game.get_absolute_url()).content.decode()
    assert body.count('class="last-move just"') == 3  # each bot's box; never your own
    # Every one of those turns in words at the top, in the order played, from the person's view.
    names = player_names(mine, list(game.seats.all()), game.spec.seat_names)
    words = " ".join(event_text(e, names, mine["rules"]) for e in mine["log"][since:])
    status = body[body.index('id="region-status"') : body.index('id="region-customers"')]
    assert f'<p class="just-line just"><span class="sr">Just now: </span>{escape(words)}</p>' in (
        status
    )
    assert words.count("face down") == 3
    # What each bot reserved face down stays its own: no hidden card's name on the page.
    for seat in bots:
        hidden = [r for r in mine["seats"][seat]["reserved"] if r.get("hidden")]
        own = engine.view(state, seat)["seats"][seat]["reserved"]
        assert len(hidden) == 1 and own[0].get("name")
        assert own[0]["name"] not in body
    # A watcher has no turn of their own: only the table's newest turn is marked.
    watching = client_for(outsider).get(game.get_absolute_url()).content.decode()
    assert watching.count('class="last-move just"') == 1
    # The person's next move clears the glow of the bots' turns before it.
    state = engine.load(game.snapshot)
    take = next(a for a in engine.legal_actions(state, me) if a["type"] == "take")
    services.play(game, player, take, None)
    game.refresh_from_db()
    again = client_for(player).get(game.get_absolute_url()).content.decode()
    assert again.count('class="last-move just"') == 3
    line = re.search(r'<p class="just-line just">.*?</p>', again, re.S)
    assert line and "face down" not in line.group(0)
    # The market piles those turns moved glow too, every one of them.
    mine = engine.view(engine.load(game.snapshot), me)
    since = max(i for i, e in enumerate(mine["log"]) if e.get("seat") == me) + 1
    moved = touched(mine["log"][since:])
    market = again[again.index('id="region-market"') :]
    marked = set(re.findall(r'class="mtoken tok-(\w+) just"', market))
    assert marked == moved and moved  # the greedy bots took or paid ingredients


def test_a_rivals_reveal_is_marked_until_someone_locks_again(
    running_game: Game, player: User, rival: User
) -> None:
    engine = running_game.spec.engine
    for user in (player, rival):
        running_game.refresh_from_db()
        state = engine.load(running_game.snapshot)
        seat = running_game.seats.get(user=user)
        keep = next(a for a in engine.legal_actions(state, seat.position) if a["type"] == "keep")
        services.play(running_game, user, keep, None)
    running_game.refresh_from_db()
    seat_of = running_game.seats.get(user=player).position
    body = client_for(player).get(running_game.get_absolute_url()).content.decode()
    seats = body[body.index('id="region-seats"') : body.index('id="region-mine"')]
    assert re.search(r'<p class="last-move just">.*?kept a', seats, re.S)
    view = engine.view(engine.load(running_game.snapshot), None)
    at = max(i for i, e in enumerate(view["log"]) if e["type"] == "keep")
    others = [  # the rival's keep and the owl's snatch: faces filed into rivals' cases
        face
        for e in view["log"][at - 1 :]
        if e["type"] in ("keep", "snatch") and e["seat"] != seat_of
        for face in e.get("faces", [e.get("face")])
    ]
    filed = [f for f in others if f != "truffle"]  # truffles go to the box, not the case
    assert seats.count('class="mini just"') == len(filed)
    # The player locks the next pick: the reveal is no longer the newest thing, the glow goes.
    state = engine.load(running_game.snapshot)
    seat = running_game.seats.get(user=player)
    keep = next(a for a in engine.legal_actions(state, seat.position) if a["type"] == "keep")
    services.play(running_game, player, keep, None)
    running_game.refresh_from_db()
    body = client_for(player).get(running_game.get_absolute_url()).content.decode()
    seats = body[body.index('id="region-seats"') : body.index('id="region-mine"')]
    assert '<p class="last-move">' in seats
    assert " just" not in seats


def test_a_rivals_peel_says_both_cards_and_rings_them(player: User) -> None:
    from django.template.loader import render_to_string

    from games.kinds.midnight_bakery.board import boxes as seat_boxes

    def box(seat: int, name: str, case: list[dict]) -> dict:
        return {
            "seat": seat, "name": name, "owl": False, "batch_count": 3, "locked": False,
            "case": case, "waiting_glazes": 0, "truffles": 0, "banked": 0,
        }  # fmt: skip

    bun = {"id": "bun-01", "face": "bun", "name": "Cinnamon Bun", "glazed": False}
    tart = {"id": "chocolate-02", "face": "chocolate", "name": "Chocolate tart", "glazed": False}
    view: Any = {  # the parts of a view the seats' boxes read
        "seats": [box(0, "Flour", []), box(1, "Sugar", [bun, tart])],
        "waiting_for": [0, 1],
        "log": [
            {"type": "keep", "bake": 1, "pick": 3, "seat": 0, "cards": ["jam-01"],
             "text": "Flour kept a Jam tart.", "peel": False},
            {"type": "keep", "bake": 1, "pick": 3, "seat": 1, "cards": ["bun-01", "chocolate-02"],
             "text": "Sugar used a Baker's Peel to take a Cinnamon Bun and a Chocolate tart.",
             "peel": True},
        ],
    }  # fmt: skip
    boxes = seat_boxes(view, [], 0)
    html = render_to_string(
        "games/midnight-bakery/_seats.html",
        {"boxes": [b for b in boxes if not b["me"]], "me": None, "resigned_positions": set()},
    )
    assert '<p class="last-move peel just">' in html
    assert "used a Baker&#39;s Peel to take a Cinnamon Bun and a Chocolate tart" in html
    assert html.count('class="mini just"') == 2


def test_the_status_names_whom_a_pick_waits_for_as_a_sentence(
    running_game: Game, player: User
) -> None:
    """ "Waiting for you and bob." (it once read "Waiting for you, bob.", as if said to bob)."""
    board = render_board(running_game, player)
    assert re.search(r"Waiting for (you and bob|bob and you)\.", board)  # in seat order
