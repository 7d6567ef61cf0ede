"""Every form on a table works with no script at all (issue 46, item 3): a tap before the page's
scripts have loaded is a plain form post, so each action form has method post, its action, the
CSRF token and (a move) the version and moment the page shows; the server answers a plain post
by sending the page back to the table, and a refusal with the table's page and the words why.

The forms are read as a browser reads them (tests/web/forms_on_page.py) at every step of whole
games, so a form added without them fails here."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from accounts.models import User
from games import catalog, services
from games.models import Action, Game
from games.services import chat
from games.services.base import load_state
from tests.conftest import client_for
from tests.services.test_practice_hints import practice_table
from tests.web.forms_on_page import Form, forms_on, script_posts

pytestmark = pytest.mark.django_db

CSRF = "csrfmiddlewaretoken"


def strict_client(user: User) -> Client:
    """A browser's client: its posts must carry the CSRF token the page gave it."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def page_of(client: Client, game: Game) -> str:
    response = client.get(game.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()


def board_version(html: str) -> str:
    found = re.search(r'id="board-version" name="version" value="(\d+)"', html)
    assert found, "the page shows no version"
    return found.group(1)


def check_forms(html: str, game: Game) -> list[Form]:
    """Each element that posts is a real form; each move form carries the page's version.
    The table's forms, for the caller to press."""
    for tag, attrs in script_posts(html):
        if "data-needs-script" in attrs:
            continue  # offered only once the page's scripts ran (site.css)
        assert tag == "form", f"a <{tag}> posts only with a script: {attrs}"
    forms = forms_on(html)
    table = game.get_absolute_url()
    for form in forms:
        action = form.attrs.get("action", "")
        if not action.startswith(table) or action == table:
            continue
        assert form.attrs.get("method") == "post", f"{action} is not posted: {form.attrs}"
        assert form.attrs.get("hx-post", action) == action, form.attrs
        fields = form.posts()
        assert fields.get(CSRF), f"{action} carries no CSRF token"
        if action.endswith("/play/"):
            assert form.id in game.spec.play_forms, f"{form.id!r} is not in its kind's play_forms"
            assert fields.get("version") == board_version(html), f"{form.id}: {fields}"
            moment = re.search(r'id="board-moment" name="moment" value="([^"]*)"', html)
            if moment:
                assert fields.get("moment") == moment.group(1), f"{form.id}: {fields}"
    return forms


def play_a_move(client: Client, html: str, forms: list[Form], rng: random.Random) -> bool:
    """Press one of the page's move buttons as a page with no script does; whether one was."""
    choices = [
        (form, button)
        for form in forms
        if form.attrs.get("action", "").endswith(("/play/", "/results/close/"))
        for button in form.buttons
        if "disabled" not in button.attrs
        and button.attrs.get("aria-disabled") != "true"
        and (button.name or "data-submit" not in button.attrs)
    ]
    if not choices:
        return False
    form, button = rng.choice(choices)
    if form.attrs["action"].endswith("/play/") and not button.name:
        return False  # a choice of several controls only a script puts together
    response = client.post(form.attrs["action"], form.posts(button))
    # A plain post goes back to the table (post/redirect/get); a refusal (a rival's move made
    # the choice stale, an ingredient not affordable...) is the table's page with the words.
    assert response.status_code in (302, 400, 409), response.status_code
    return True


def play_without_scripts(game: Game, people: list[User], steps: int, seed: int) -> int:
    """Play the table by its pages' plain forms, every page checked at every step; the moves
    stored."""
    rng = random.Random(seed)
    clients = {person.pk: strict_client(person) for person in people}
    for _ in range(steps):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        for person in people:
            html = page_of(clients[person.pk], game)
            play_a_move(clients[person.pk], html, check_forms(html, game), rng)
    return Action.objects.filter(game=game, bot="", user__isnull=False).count()


def test_a_night_played_by_plain_forms_keeps_every_form_whole(
    open_table: Game, player: User, rival: User, outsider: User
) -> None:
    check_forms(page_of(strict_client(player), open_table), open_table)  # the host's room
    check_forms(page_of(strict_client(outsider), open_table), open_table)  # "Take a seat"
    services.join(open_table, rival)
    check_forms(page_of(strict_client(rival), open_table), open_table)  # "Leave the table"
    services.start(open_table, player)
    made = play_without_scripts(open_table, [player, rival], steps=80, seed=1)
    assert made > 10
    open_table.refresh_from_db()
    assert open_table.status == Game.Status.OVER
    check_forms(page_of(strict_client(player), open_table), open_table)  # "Play again"


def test_a_cakehalla_game_played_by_plain_forms_keeps_every_form_whole(
    player: User, rival: User
) -> None:
    game = services.create_game(player, "cakehalla", 2)
    services.join(game, rival)
    services.start(game, player)
    made = play_without_scripts(game, [player, rival], steps=40, seed=2)
    assert made > 5


def keep_form(html: str) -> tuple[Form, dict[str, str]]:
    form = next(f for f in forms_on(html) if f.id == "batch-form")
    return form, form.posts(form.buttons[0])


def test_a_plain_pick_is_stored_and_the_page_goes_back_to_the_table(
    running_game: Game, player: User
) -> None:
    client = strict_client(player)
    form, fields = keep_form(page_of(client, running_game))
    response = client.post(form.attrs["action"], fields)
    assert response.status_code == 302 and response["Location"] == running_game.get_absolute_url()
    assert Action.objects.filter(game=running_game, user=player).count() == 1
    after = page_of(client, running_game)
    assert "Locked. Waiting for the others." in after


def test_a_stale_plain_pick_shows_the_table_and_the_words_why(
    running_game: Game, player: User, rival: User
) -> None:
    client = strict_client(player)
    form, fields = keep_form(page_of(client, running_game))
    fields["version"] = str(running_game.version - 1)
    fields["moment"] = "an older pick"
    response = client.post(form.attrs["action"], fields)
    assert response.status_code == 409
    body = response.content.decode()
    assert "The table moved on while you chose" in body
    assert 'id="batch-form"' in body  # the board as it stands, to choose again from
    assert not Action.objects.filter(game=running_game, user=player).exists()


def test_a_plain_post_without_the_pages_token_is_refused(running_game: Game, player: User) -> None:
    client = strict_client(player)
    _, fields = keep_form(page_of(client, running_game))
    del fields[CSRF]
    response = client.post(f"/games/{running_game.pk}/play/", fields)
    assert response.status_code == 403
    assert not Action.objects.filter(game=running_game).exists()


def a_bake_scored(game: Game, people: list[User]) -> None:
    """Play first pastries until the first bake is scored (every seat's results unseen)."""
    kind = game.spec
    for _ in range(40):
        game.refresh_from_db()
        for person in people:
            seat = game.seats.get(user=person)
            view = kind.engine.view(load_state(game), seat.position)
            if kind.results_count(view):
                return
            if view.get("my_turn") and view.get("batch"):
                card = view["batch"][0]["id"]
                services.play(game, person, {"type": "keep", "card": card}, game.version)
                game.refresh_from_db()
    raise AssertionError("no bake was scored")


def test_the_bakes_results_leave_the_next_pick_open(
    running_game: Game, player: User, rival: User
) -> None:
    """With a clock the next pick's time runs as soon as a bake is scored: the results show
    beside the batch, which can be picked from at once, and the pick puts the results away."""
    a_bake_scored(running_game, [player, rival])
    client = strict_client(player)
    html = page_of(client, running_game)
    assert "Back to the ovens" in html
    form, fields = keep_form(html)
    assert json.loads(fields["action"])["type"] == "keep"
    response = client.post(form.attrs["action"], fields)
    assert response.status_code == 302
    assert running_game.seats.get(user=player).results_seen == 1
    assert "Back to the ovens" not in page_of(client, running_game)


def test_the_results_are_not_closed_past_the_bakes_scored(
    running_game: Game, player: User, rival: User
) -> None:
    a_bake_scored(running_game, [player, rival])
    client = client_for(player)
    form, fields = keep_form(page_of(client, running_game))
    fields["seen"] = "7"
    response = client.post(form.attrs["action"], fields)
    assert response.status_code == 400
    assert "Those results are not out yet." in response.content.decode()
    assert running_game.seats.get(user=player).results_seen == 0


def test_a_plain_hint_asked_shows_on_the_tables_page(player: User) -> None:
    game = practice_table(player)
    client = strict_client(player)
    html = page_of(client, game)
    form = next(f for f in forms_on(html) if f.attrs.get("action", "").endswith("/suggest/"))
    response = client.post(form.attrs["action"], form.posts(form.buttons[0]))
    body = response.content.decode()
    assert response.status_code == 200
    assert re.search(r'id="board-hint"[^>]*>Suggested: ', body), "no hint on the page"
    assert 'id="board"' in body


def test_muting_and_unmuting_in_the_chat_work_as_plain_forms(
    running_game: Game, player: User, rival: User
) -> None:
    chat.say(running_game, rival, "Good luck!")
    client = strict_client(player)
    for words in ("Mute", "Unmute"):
        html = page_of(client, running_game)
        check_forms(html, running_game)
        form = next(f for f in forms_on(html) if any(b.text == words for b in f.buttons))
        response = client.post(form.attrs["action"], form.posts(form.buttons[0]))
        assert response.status_code == 302
    assert "Muted by you" not in page_of(client, running_game)


BOARD_TEMPLATES = [
    *sorted((settings.BASE_DIR / "templates" / "jinja2" / "games").rglob("*.html")),
    *sorted((settings.BASE_DIR / "templates" / "games").glob("_chat*.html")),
]
FORM = re.compile(r"<form\b[^>]*>.*?</form>", re.S)
POSTS = re.compile(r"<(\w+)\b[^>]*\bhx-post=[^>]*>")


@pytest.mark.parametrize("template", BOARD_TEMPLATES, ids=lambda p: "/".join(p.parts[-3:]))
def test_every_form_in_a_board_template_posts_without_a_script(template: Path) -> None:
    """The same rule read from the templates, so a form in a state no game above reaches
    fails too."""
    text = template.read_text()
    for form in FORM.findall(text):
        opening = form[: form.index(">") + 1]
        assert 'method="post"' in opening and " action=" in opening, opening
        assert "csrf_input" in form or "csrf_token" in form, opening
        if "games:play" in opening:
            found = re.search(r'\bid="([^"]+)"', opening)
            play_forms = {name for kind in catalog.available() for name in kind.play_forms}
            assert found and found.group(1) in play_forms, f"not in a kind's play_forms: {opening}"
    for found in POSTS.finditer(text):
        tag = found.group(0)
        assert found.group(1) == "form" or "data-needs-script" in tag, tag
