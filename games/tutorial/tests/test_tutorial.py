"""Guided first games (issue 31, point 2): a tutorial table against one bot from a fixed deal.

The steps are read from the learner's own seat view; at every step of the path the control the
step points at must be on the board the learner is shown, and must make a move the rules allow
now. A tutorial is resumed (never a second table), counts in no rating and no stat, is marked
done on the profile, and the lobby offers it until the person has finished a game of that kind.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import lxml.html
import pytest
from django.utils import timezone

from accounts.models import Rating, RatingPoint, User
from games import catalog, services
from games.models import Game, StatCount
from games.records import stats
from games.services import presence
from games.tutorial import services as tutorial
from games.tutorial.models import Tutorial
from tests.conftest import client_for
from tests.services.test_absence import later
from tests.support.clock import Clock
from tests.support.finished_games import finished_game
from tests.support.sockets import at_table

pytestmark = pytest.mark.django_db

KIND = "midnight-bakery"


def board_of(user: User, game: Game) -> Any:
    """The table page as the learner gets it, parsed."""
    response = client_for(user).get(game.get_absolute_url())
    assert response.status_code == 200
    return lxml.html.fromstring(response.content.decode())


def pressed(control: Any) -> dict[str, Any]:
    """The move a pointed button posts (its form's action field)."""
    assert control.tag == "button", lxml.html.tostring(control)
    assert control.get("name") == "action"
    return dict(json.loads(control.get("value")))


def legal_now(game: Game, user: User) -> list[dict[str, Any]]:
    game.refresh_from_db()
    engine = game.spec.engine
    position = game.seats.get(user=user).position
    return [dict(a) for a in engine.legal_actions(engine.load(game.snapshot), position)]


def follow(user: User, game: Game) -> list[str]:
    """Press what each step points at until the game ends; the steps' sentences in order. Each
    pointed control is checked against the board and the rules before it is pressed."""
    said = []
    for _ in range(100):
        game.refresh_from_db()
        page = board_of(user, game)
        panel = page.get_element_by_id("tutorial-step")
        said.append(panel.text_content())
        selector = panel.get("data-target")
        if game.status == Game.Status.OVER:
            assert page.cssselect(selector), f"the scoring is not on the board: {selector}"
            return said
        assert selector, "a running tutorial whose move it is points at a control"
        board = page.get_element_by_id("board")
        found = board.cssselect(selector)
        assert len(found) == 1, f"{selector} matches {len(found)} controls on the board"
        if found[0].get("name") != "action":  # a round's results: the button that closes them
            seen = found[0].getparent().cssselect("input[name=seen]")[0].get("value")
            assert services.close_results(game, user, int(seen)) is not None
            continue
        action = pressed(found[0])
        assert action in legal_now(game, user), f"the pointed move {action} is not legal now"
        services.play(game, user, action, None)
    raise AssertionError("the tutorial did not end")


def test_every_step_points_at_a_legal_control_on_the_board_to_the_end(player: User) -> None:
    game = tutorial.start_tutorial(player, KIND)
    said = follow(player, game)
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    assert 5 <= len(said) <= 15  # about five minutes: a short night of ten picks
    assert "A short night" in said[0]
    assert "Dawn: each case scored" in said[-1]
    assert any("Honey Glaze" in line for line in said)  # the fixed path shows a glazed tart
    assert game.seats.get(user=player).winner  # and the learner who follows it wins
    assert "Tutorial done" in client_for(player).get(f"/u/{player.username}/").content.decode()


def test_a_learner_who_presses_something_else_gets_steps_for_the_board_as_it_is(
    player: User,
) -> None:
    game = tutorial.start_tutorial(player, KIND)
    first = tutorial.step(game, player)
    assert first is not None
    other = next(a for a in legal_now(game, player) if f'"{a["card"]}"' not in first.target)
    services.play(game, player, other, None)
    said = follow(player, game)  # every later step is still checked against the board
    assert "Dawn: each case scored" in said[-1]


def test_a_longer_deal_points_at_closing_each_rounds_scoring(
    player: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    kind = catalog.get(KIND)
    assert kind.lesson is not None
    two_bakes = {"deck": [*kind.lesson.setup["deck"], *kind.lesson.setup["deck"]]}  # type: ignore[misc]
    monkeypatch.setattr(kind, "lesson", dataclasses.replace(kind.lesson, setup=two_bakes))
    game = tutorial.start_tutorial(player, KIND)
    said = follow(player, game)
    assert sum("The round is scored." in line for line in said) == 1  # bake 1, then dawn
    assert "Dawn: each case scored" in said[-1]


def test_the_tutorial_table_is_unrated_private_relaxed_and_dealt_the_lessons_deal(
    player: User,
) -> None:
    game = tutorial.start_tutorial(player, KIND)
    lesson = catalog.get(KIND).lesson
    assert lesson is not None
    assert (game.rated, game.private, game.pace) == (False, True, Game.Pace.RELAXED)
    assert game.setup == dict(lesson.setup)
    assert game.seats.count() == 2 and game.seats.filter(user__is_bot=True).count() == 1
    assert Tutorial.objects.get(game=game).user == player


def test_starting_again_resumes_the_unfinished_tutorial(player: User) -> None:
    client = client_for(player)
    first = client.post(f"/games/learn/{KIND}/")
    assert first.status_code == 302
    game = Game.objects.get(tutorial__user=player)
    move = legal_now(game, player)[0]
    services.play(game, player, move, None)
    again = client.post(f"/games/learn/{KIND}/")
    assert again["Location"] == first["Location"] == game.get_absolute_url()
    assert client.get(f"/games/learn/{KIND}/")["Location"] == game.get_absolute_url()
    assert Game.objects.filter(tutorial__user=player).count() == 1
    game.refresh_from_db()
    assert game.moves >= 1  # the move made before leaving is still there


def test_a_finished_tutorial_counts_in_no_rating_and_no_stat(player: User) -> None:
    game = tutorial.start_tutorial(player, KIND)
    follow(player, game)
    assert not Rating.objects.filter(user=player).exists()
    assert not RatingPoint.objects.exists()
    assert not StatCount.objects.exists()
    site = stats.totals()
    assert (site["finished"], site["active"]) == (0, [])
    profile = client_for(player).get(f"/u/{player.username}/").content.decode()
    assert "Games finished: 0, and 1 tutorial; won: 0." in profile


def test_a_profiles_count_of_finished_games_names_the_tutorials_it_lists(
    player: User, rival: User
) -> None:
    game = tutorial.start_tutorial(player, KIND)
    follow(player, game)
    played = finished_game([player, rival])
    profile = client_for(player).get(f"/u/{player.username}/").content.decode()
    recent = profile.split("<h2>Recent finished games</h2>", 1)[1].split("</section>", 1)[0]
    assert f'href="/games/{played.pk}/"' in recent and f'href="/games/{game.pk}/"' in recent
    assert "Games finished: 1, and 1 tutorial; won: " in profile
    assert "not counted" not in profile
    assert "Download all my finished games</a>" in recent and "NDJSON</a>" not in recent
    theirs = client_for(rival).get(f"/u/{player.username}/").content.decode()
    assert "Download all of alice's finished games</a>" in theirs


def test_the_lobby_offers_the_tutorial_until_a_game_of_that_kind_is_finished(
    player: User, rival: User
) -> None:
    client = client_for(player)
    assert f'action="/games/learn/{KIND}/"' in client.get("/").content.decode()
    finished_game([player, rival])  # a real night, finished
    assert f'action="/games/learn/{KIND}/"' not in client.get("/").content.decode()
    assert f'action="/games/learn/{KIND}/"' not in client_for(rival).get("/").content.decode()
    assert 'action="/games/learn/cakehalla/"' in client.get("/").content.decode()  # the other
    assert 'id="tutorial-offer"' not in client_for(None).get("/").content.decode()


def test_a_running_tutorial_is_offered_as_going_on(player: User) -> None:
    tutorial.start_tutorial(player, KIND)
    assert f"Go on with your {catalog.get(KIND).name} tutorial" in (
        client_for(player).get("/").content.decode()
    )


def test_a_resigned_tutorial_is_not_done(player: User) -> None:
    game = tutorial.start_tutorial(player, KIND)
    client_for(player).post(f"/games/{game.pk}/resign/", {"confirm": "yes"})
    game.refresh_from_db()
    assert game.status == Game.Status.OVER  # the house bot played the seat out
    assert tutorial.finished_kinds(player) == []
    assert KIND in [o.kind.slug for o in tutorial.offers(player)]


def test_the_step_is_only_for_the_learner(player: User, outsider: User) -> None:
    game = tutorial.start_tutorial(player, KIND)
    assert client_for(player).get(f"/games/{game.pk}/tutorial/").status_code == 200
    assert client_for(outsider).get(f"/games/{game.pk}/tutorial/").status_code == 404
    quick = services.quick_game(player, KIND)
    assert client_for(player).get(f"/games/{quick.pk}/tutorial/").status_code == 204
    assert (
        'id="tutorial-step"'
        not in client_for(player).get(quick.get_absolute_url()).content.decode()
    )


def test_an_unknown_game_has_no_tutorial(player: User) -> None:
    assert client_for(player).post("/games/learn/no-such-game/").status_code == 404
    with pytest.raises(services.ServiceError):
        tutorial.start_tutorial(player, "no-such-game")


def test_the_how_to_play_page_links_to_the_tutorial(client: Any) -> None:
    page = client.get(f"/games/rules/{KIND}/").content.decode()
    assert f'href="/games/learn/{KIND}/"' in page


def test_a_learner_away_for_long_keeps_their_seat_to_come_back_to(
    settings: Any, clock: Clock, player: User
) -> None:
    game = tutorial.start_tutorial(player, KIND)
    gone = at_table(game, player)
    clock.at = timezone.now()
    presence.closed(gone, game.pk)
    later(clock, settings.RELAXED_ABSENCE_SECONDS * 3, settings)
    assert not game.seats.get(user=player).resigned
    assert tutorial.step(game, player) is not None
    control = quick_against_bots(player)  # an ordinary relaxed table is handed over meanwhile
    gone = at_table(control, player)
    clock.at = timezone.now()
    presence.closed(gone, control.pk)
    later(clock, settings.RELAXED_ABSENCE_SECONDS + 10, settings)
    assert control.seats.get(user=player).resigned


def quick_against_bots(user: User) -> Game:
    """A relaxed two-seat table of the user against one bot, started."""
    game = services.create_game(user, KIND, 2, rated=False)
    services.add_bot(game, user, "greedy")
    services.start(game, user)
    return game


def test_a_finished_tutorial_is_tagged_tutorial_on_the_profile_and_the_history(
    player: User,
) -> None:
    game = tutorial.start_tutorial(player, KIND)
    follow(player, game)
    client = client_for(player)
    for page in (f"/u/{player.username}/", "/games/history/"):
        html = lxml.html.fromstring(client.get(page).content.decode())
        row = next(
            r for r in html.cssselect("tr") if r.cssselect(f"a[href='{game.get_absolute_url()}']")
        )
        assert [t.text_content() for t in row.cssselect(".tag")][:1] == ["tutorial"], page


def test_a_running_tutorial_is_tagged_tutorial_among_the_profiles_running_games(
    player: User,
) -> None:
    game = tutorial.start_tutorial(player, KIND)
    html = lxml.html.fromstring(client_for(player).get(f"/u/{player.username}/").content.decode())
    link = html.cssselect(f"a[href='{game.get_absolute_url()}']")[0]
    assert [t.text_content() for t in link.getparent().cssselect(".tag")] == ["tutorial"]


def test_your_games_says_a_running_tutorial_is_one(player: User) -> None:
    game = tutorial.start_tutorial(player, KIND)
    html = lxml.html.fromstring(client_for(player).get("/games/mine/").content.decode())
    row = html.cssselect(f"li.your-table[data-game='{game.pk}']")[0]
    assert "· tutorial" in row.text_content() and "private" not in row.text_content()


def test_download_my_data_lists_the_tutorials_and_whether_each_is_done(player: User) -> None:
    done = tutorial.start_tutorial(player, KIND)
    follow(player, done)
    going = tutorial.start_tutorial(player, "cakehalla")
    data = json.loads(client_for(player).get("/accounts/settings/data.json").content)
    assert [(t["game_id"], t["game"], t["done"]) for t in data["tutorials"]] == [
        (done.pk, KIND, True),
        (going.pk, "cakehalla", False),
    ]


def test_a_rated_tables_page_never_asks_whether_it_is_a_tutorial(
    player: User, rival: User, django_assert_num_queries: Any
) -> None:
    game = services.seat_people(KIND, [player, rival])
    assert game.rated
    with django_assert_num_queries(0):
        assert tutorial.step(game, player) is None
