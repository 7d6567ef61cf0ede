"""The lobby's "Find a game" section: its forms, the waiting panel, who looks, garbage refused."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games import services as tables
from games.models import Game
from games.pairing import services
from games.pairing.models import Seek
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
CAKE_FAST = {"kind": "cakehalla", "pace": "fast", "fewest": "2", "most": "2", "bots_after": ""}


def test_an_empty_site_says_nobody_looks_yet_for_each_game() -> None:
    page = Client().get("/").content.decode()
    assert '<section class="panel" id="find-a-game"' in page
    assert "<strong>Midnight Bakery</strong>: nobody looking yet" in page
    assert "<strong>Cakehalla</strong>: nobody looking yet" in page
    assert "to be seated with people who look for the same game" in page


def test_the_lobby_offers_a_find_a_game_form_per_game(player: User) -> None:
    page = client_for(player).get("/").content.decode()
    assert page.count("Find a game</button>") == 2
    assert '<input type="hidden" name="kind" value="cakehalla">' in page
    assert '<option value="normal" selected>' in page


def test_the_lobby_counts_who_looks_per_game_and_pace_in_one_query(
    player: User, rival: User, outsider: User
) -> None:
    for person, pace in ((player, "fast"), (rival, "fast"), (outsider, "normal")):
        client_for(person).post("/pairing/look/", {**CAKE_FAST, "most": "4", "pace": pace})
    with CaptureQueriesContext(connection) as queries:
        page = Client().get("/").content.decode()
    assert "<strong>Cakehalla</strong>: 3 looking (1 normal, 2 fast)" in page
    assert sum("pairing_seek" in q["sql"] for q in queries.captured_queries) == 1


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("kind", "chess", "That game is not on offer."),
        ("pace", "lightning", "There is no such pace."),
        ("fewest", "lots", "Say the fewest number of bakers as a whole number."),
        ("most", "", "Say the most number of bakers as a whole number."),
        ("most", "7", "Cakehalla seats 2 to 4 bakers"),
        ("bots_after", "soon", "Say after how many seconds bots may fill the table."),
    ],
)
def test_a_forged_or_garbled_search_is_refused_in_words_and_nothing_is_stored(
    player: User, field: str, value: str, words: str
) -> None:
    response = client_for(player).post("/pairing/look/", {**CAKE_FAST, field: value}, headers=HTMX)
    assert response.status_code == 400
    assert words in response.content.decode()
    assert not Seek.objects.exists()


def test_a_search_without_its_csrf_token_is_refused(player: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    assert client.post("/pairing/look/", CAKE_FAST).status_code == 403
    assert not Seek.objects.exists()


def test_looking_shows_the_waiting_panel_with_a_cancel_button(player: User) -> None:
    response = client_for(player).post("/pairing/look/", CAKE_FAST, headers=HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "<strong>Looking for a Cakehalla game</strong>, fast, 2 bakers&hellip;" in html
    assert 'Rating window now <span class="window">1400&ndash;1600</span>' in html
    assert "0 others looking" in html
    assert "Keep this page open while you wait" in html
    assert "A practice game in another tab is fine" in html
    assert ">Cancel</button>" in html


def test_the_form_says_whether_bot_accounts_are_welcome_and_the_panel_keeps_it(
    player: User,
) -> None:
    page = client_for(player).get("/").content.decode()
    assert page.count('<input type="checkbox" name="bots_welcome" value="1">') == 2  # unticked
    html = client_for(player).post("/pairing/look/", CAKE_FAST, headers=HTMX).content.decode()
    assert "bot accounts welcome" not in html and not Seek.objects.get().bots_welcome
    welcoming = {**CAKE_FAST, "bots_welcome": "1"}
    html = client_for(player).post("/pairing/look/", welcoming, headers=HTMX).content.decode()
    assert " · bot accounts welcome</p>" in html and Seek.objects.get().bots_welcome


def test_the_second_person_who_fits_goes_straight_to_the_table(player: User, rival: User) -> None:
    client_for(player).post("/pairing/look/", CAKE_FAST, headers=HTMX)
    response = client_for(rival).post("/pairing/look/", CAKE_FAST, headers=HTMX)
    game = Game.objects.get()
    assert response.headers["HX-Redirect"] == game.get_absolute_url()
    assert game.status == Game.Status.RUNNING


def test_without_htmx_a_search_goes_back_to_the_lobby_which_shows_it(player: User) -> None:
    client = client_for(player)
    response = client.post("/pairing/look/", CAKE_FAST)
    assert response.status_code == 302
    assert response.headers["Location"] == "/"
    assert "Looking for a Cakehalla game" in client.get("/").content.decode()


def test_cancel_brings_the_forms_back(player: User) -> None:
    client = client_for(player)
    client.post("/pairing/look/", CAKE_FAST, headers=HTMX)
    html = client.post("/pairing/stop/", headers=HTMX).content.decode()
    assert "Find a game</button>" in html
    assert not Seek.objects.exists()


def test_looking_needs_an_account() -> None:
    response = Client().post("/pairing/look/", CAKE_FAST)
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/accounts/login/")
    assert not Seek.objects.exists()


def test_the_counts_alone_can_be_asked_again(player: User) -> None:
    client_for(player).post("/pairing/look/", CAKE_FAST)
    html = Client().get("/pairing/looking/").content.decode()
    assert '<ul class="looking-now" id="looking-now"' in html
    assert "<strong>Cakehalla</strong>: 1 looking (1 fast)" in html


def test_a_look_whose_pass_another_pass_beat_still_goes_to_the_table(
    player: User, rival: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two presses at once: the rival's pass seats both before the player's own pass runs, which
    then finds nobody to seat. The player's look goes to the table all the same."""
    real_pass = services.pass_pool

    def beaten(kind: str, pace: str) -> list[services.Paired]:
        services.look(rival, "cakehalla", "fast", 2, 2)
        [seated] = real_pass(kind, pace)  # the rival's pass seats both
        assert player.pk in seated.people
        return real_pass(kind, pace)  # the player's own pass, after it: nobody left to seat

    monkeypatch.setattr(services, "pass_pool", beaten)
    response = client_for(player).post("/pairing/look/", CAKE_FAST, headers=HTMX)
    game = Game.objects.get()
    assert set(game.seats.values_list("user_id", flat=True)) == {player.pk, rival.pk}
    assert response.headers.get("HX-Redirect") == game.get_absolute_url()


def test_the_waiting_panel_says_when_counts_of_bakers_keep_people_apart(
    player: User, rival: User
) -> None:
    client_for(player).post("/pairing/look/", CAKE_FAST, headers=HTMX)
    apart = {**CAKE_FAST, "fewest": "3", "most": "4"}
    html = client_for(rival).post("/pairing/look/", apart, headers=HTMX).content.decode()
    assert "1 other looking" in html
    assert "Nobody else looking wants 3 to 4 bakers: 1 wants 2 bakers." in html
    assert "Look for 2 to 4 bakers to be seated with them sooner." in html


def test_the_lobby_asks_for_the_counts_again_every_few_seconds() -> None:
    page = Client().get("/").content.decode()
    found = re.search(r'id="looking-now" hx-get="[^"]+" hx-trigger="every (\d+)s"', page)
    assert found, page
    assert int(found.group(1)) <= 3


def test_unchanged_counts_are_answered_304_from_the_kept_count(
    player: User, django_assert_max_num_queries: Callable[..., Any]
) -> None:
    client_for(player).post("/pairing/look/", CAKE_FAST)
    first = Client().get("/pairing/looking/")
    assert first.status_code == 200
    etag = first.headers["ETag"]
    with django_assert_max_num_queries(1):  # the grouped count, if its second has passed
        again = Client().get("/pairing/looking/", headers={"If-None-Match": etag})
    assert again.status_code == 304
    client_for(player).post("/pairing/stop/")
    changed = Client().get("/pairing/looking/", headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert "<strong>Cakehalla</strong>: nobody looking yet" in changed.content.decode()


def test_the_count_that_would_meet_is_one_press_away_and_seats_both(
    player: User, rival: User
) -> None:
    client_for(player).post("/pairing/look/", CAKE_FAST, headers=HTMX)
    apart = {**CAKE_FAST, "fewest": "3", "most": "4"}
    html = client_for(rival).post("/pairing/look/", apart, headers=HTMX).content.decode()
    form = re.search(r'<form method="post" action="/pairing/look/".*?</form>', html, re.S)
    assert form, html
    assert ">Look for 2 to 4 bakers</button>" in form.group(0)
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form.group(0)))
    assert {k: fields[k] for k in CAKE_FAST} == {**CAKE_FAST, "fewest": "2", "most": "4"}
    response = client_for(rival).post("/pairing/look/", fields, headers=HTMX)
    game = Game.objects.get()
    assert response.headers["HX-Redirect"] == game.get_absolute_url()


def test_a_page_whose_press_got_no_answer_is_sent_to_the_table_when_it_asks_again(
    player: User, rival: User
) -> None:
    """The press's answer was lost (its process died after the search was stored); a pass
    seated the person meanwhile. The page asks for the section again and goes to the table."""
    services.look(player, "cakehalla", "fast", 2, 2)
    client_for(rival).post("/pairing/look/", CAKE_FAST, headers=HTMX)
    game = Game.objects.get()
    response = client_for(player).get("/pairing/", headers=HTMX)
    assert response.headers.get("HX-Redirect") == game.get_absolute_url()


def test_asking_again_after_the_table_ended_shows_the_forms(player: User, rival: User) -> None:
    services.look(player, "cakehalla", "fast", 2, 2)
    client_for(rival).post("/pairing/look/", CAKE_FAST, headers=HTMX)
    Game.objects.update(status=Game.Status.OVER)
    html = client_for(player).get("/pairing/", headers=HTMX).content.decode()
    assert "Find a game</button>" in html


def test_asking_again_does_not_send_the_page_to_a_practice_table(player: User) -> None:
    tables.quick_game(player, "cakehalla")
    html = client_for(player).get("/pairing/", headers=HTMX).content.decode()
    assert "Find a game</button>" in html
