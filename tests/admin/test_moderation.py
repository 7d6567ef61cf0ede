"""Moderators: exactly their permissions, deactivation, aborting a game, reports."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.admin.models import LogEntry
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import Rating, User
from games import services
from games.models import ChatMessage, Game, Report
from games.services import moderation
from tests.conftest import client_for
from tests.support.finished_games import finished_game, play_out
from tests.support.groups import group

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-baking-secret"


def logs_in(username: str) -> bool:
    """Whether the log-in form lets this person in."""
    response = Client().post("/accounts/login/", {"username": username, "password": PASSWORD})
    return response.status_code == 302


@pytest.fixture
def boss(db: None) -> User:
    return User.objects.create_superuser(username="boss", password=PASSWORD)


def test_the_moderators_group_has_exactly_its_permissions() -> None:
    perms = group("Moderators").permissions.all()
    assert sorted(f"{p.content_type.app_label}.{p.codename}" for p in perms) == [
        "accounts.deactivate_user",
        "accounts.delete_block",
        "accounts.delete_friendship",
        "accounts.view_block",
        "accounts.view_friendship",
        "accounts.view_rating",
        "accounts.view_user",
        "games.abort_game",
        "games.change_chatmessage",
        "games.change_report",
        "games.view_chatmessage",
        "games.view_game",
        "games.view_report",
        "games.view_seat",
        "notifications.delete_notification",
        "notifications.view_notification",
        "oauth2_provider.delete_application",
        "oauth2_provider.view_accesstoken",
        "oauth2_provider.view_application",
        "oauth2_provider.view_grant",
        "oauth2_provider.view_refreshtoken",
        "tournaments.change_chatline",
        "tournaments.change_entrant",
        "tournaments.change_tournament",
        "tournaments.view_chatline",
        "tournaments.view_entrant",
        "tournaments.view_round",
        "tournaments.view_table",
        "tournaments.view_tournament",
    ]


# --- finding a person ---------------------------------------------------------------------


def test_a_moderator_finds_a_person_and_sees_games_ratings_reports_and_chat(
    moderator: User, player: User, rival: User
) -> None:
    game = finished_game([player, rival])
    moderation.report(game, rival, player.pk, "abuse", "rude all night")
    ChatMessage.objects.create(game=game, author=player, text="you bake like a goose")
    admin = client_for(moderator)
    found = admin.get("/admin/accounts/user/", {"q": "alic"})
    assert found.status_code == 200 and f"/admin/accounts/user/{player.pk}/change/" in found.text
    page = admin.get(f"/admin/accounts/user/{player.pk}/change/")
    assert page.status_code == 200
    assert f"/admin/games/game/{game.pk}/change/" in page.text  # their games
    assert "Ratings" in page.text and "midnight-bakery" in page.text  # their ratings
    assert "reports about this person" in page.text.lower() and "rude all night" in page.text
    assert "chat lines by this person" in page.text.lower() and "you bake like a goose" in page.text
    assert "Deactivate the account" in page.text
    assert 'name="username"' not in page.text  # read only: no field to edit
    every = admin.get(f"/admin/games/seat/?user__id__exact={player.pk}")
    assert every.status_code == 200 and str(game) in every.text


def test_a_persons_page_lists_only_the_newest_lines_and_reports_with_a_link_to_all(
    moderator: User, player: User, rival: User
) -> None:
    from games.admin.people import INLINE_ROWS

    game = finished_game([player, rival])
    many = INLINE_ROWS + 5
    ChatMessage.objects.bulk_create(
        ChatMessage(game=game, author=player, text=f"line number {i:03}") for i in range(many)
    )
    Report.objects.bulk_create(
        Report(game=game, reporter=rival, reported=player, reason="abuse", note=f"note {i:03}")
        for i in range(many)
    )
    admin = client_for(moderator)
    page = admin.get(f"/admin/accounts/user/{player.pk}/change/").text
    assert page.count("<p>line number ") == INLINE_ROWS
    assert f"line number {many - 1:03}" in page and "line number 000" not in page  # newest
    assert page.count("<p>note ") == INLINE_ROWS and f"note {many - 1:03}" in page
    lines = f"/admin/games/chatmessage/?author__id__exact={player.pk}"
    about = f"/admin/games/report/?reported__id__exact={player.pk}"
    assert f'href="{lines}"' in page and f'href="{about}"' in page
    assert f"The newest {INLINE_ROWS} of {many}" in page
    assert "/admin/games/report/?reporter__id__exact=" not in page  # none by them: no link
    every_line = admin.get(lines)
    assert every_line.status_code == 200 and every_line.text.count(">line number ") == many
    every_report = admin.get(about)
    assert every_report.status_code == 200 and f"{many} reports" in every_report.text


def test_a_player_cannot_open_the_admin_or_use_the_services(
    player: User, rival: User, running_game: Game
) -> None:
    client = client_for(player)
    for url in [
        f"/admin/accounts/user/{rival.pk}/change/",
        f"/admin/accounts/user/{rival.pk}/deactivate/",
        f"/admin/games/game/{running_game.pk}/abort/",
        "/admin/games/report/",
    ]:
        response = client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"]
    response = client.post(f"/admin/accounts/user/{rival.pk}/deactivate/", {"reason": "spite"})
    assert response.status_code == 302
    with pytest.raises(services.NotAllowed):
        moderation.deactivate(rival, player, "spite")
    with pytest.raises(services.NotAllowed):
        moderation.abort(running_game, player, "spite")
    rival.refresh_from_db()
    running_game.refresh_from_db()
    assert rival.is_active and running_game.status == Game.Status.RUNNING


def test_a_moderator_cannot_do_a_superusers_work(
    moderator: User, boss: User, player: User, running_game: Game
) -> None:
    admin = client_for(moderator)
    # No edits of a user's fields, no new users, no groups or permissions.
    before = player.username
    response = admin.post(
        f"/admin/accounts/user/{player.pk}/change/",
        {"username": "renamed", "is_superuser": "on", "is_staff": "on"},
    )
    assert response.status_code == 403
    player.refresh_from_db()
    assert player.username == before and not player.is_superuser
    assert admin.get("/admin/accounts/user/add/").status_code == 403
    assert admin.get("/admin/auth/group/").status_code == 403
    assert admin.get(f"/admin/accounts/user/{player.pk}/password/").status_code == 403
    # No deleting games or actions.
    delete = admin.post(f"/admin/games/game/{running_game.pk}/delete/", {"post": "yes"})
    assert delete.status_code == 403
    assert Game.objects.filter(pk=running_game.pk).exists()
    assert admin.get("/admin/games/action/").status_code == 403
    # No closing a superuser's (or another staff member's) account.
    page = admin.post(f"/admin/accounts/user/{boss.pk}/deactivate/", {"reason": "coup"})
    assert page.status_code == 400 and "Only a superuser" in page.text
    boss.refresh_from_db()
    assert boss.is_active
    # The superuser can.
    moderation.deactivate(moderator, boss, "stepped down")
    moderator.refresh_from_db()
    assert not moderator.is_active


# --- deactivation -------------------------------------------------------------------------


def test_deactivation_seats_a_bot_blocks_log_in_and_reactivation_restores(
    moderator: User, player: User, rival: User, running_game: Game
) -> None:
    admin = client_for(moderator)
    page = admin.get(f"/admin/accounts/user/{rival.pk}/deactivate/")
    assert page.status_code == 200 and 'name="reason"' in page.text
    refused = admin.post(f"/admin/accounts/user/{rival.pk}/deactivate/", {"reason": " "})
    assert refused.status_code == 400
    rival.refresh_from_db()
    assert rival.is_active
    response = admin.post(f"/admin/accounts/user/{rival.pk}/deactivate/", {"reason": "abuse"})
    assert response.status_code == 302
    rival.refresh_from_db()
    assert not rival.is_active
    seat = running_game.seats.get(user=rival)
    assert seat.bot and seat.resigned
    assert not logs_in("bob")
    entry = LogEntry.objects.get(object_id=str(rival.pk), content_type__model="user")
    assert entry.user == moderator and "Deactivated: abuse" in entry.change_message
    # The bot plays the seat to the end; the rival's board no longer waits for bob.
    running_game.refresh_from_db()
    state = running_game.spec.engine.load(running_game.snapshot)
    assert seat.position not in running_game.spec.engine.active_seats(state)

    page = admin.get(f"/admin/accounts/user/{rival.pk}/change/")
    assert "Reactivate the account" in page.text
    admin.post(f"/admin/accounts/user/{rival.pk}/reactivate/", {"reason": "appeal heard"})
    rival.refresh_from_db()
    assert rival.is_active
    assert logs_in("bob")


def test_deactivation_closes_the_hosts_open_tables_and_leaves_others(
    moderator: User, player: User, rival: User, outsider: User
) -> None:
    hosted = services.create_game(rival, "midnight-bakery", 3)
    elsewhere = services.create_game(outsider, "cakehalla", 3)
    services.join(elsewhere, rival)
    moderation.deactivate(rival, moderator, "spam tables")
    hosted.refresh_from_db()
    assert hosted.status == Game.Status.CANCELLED
    assert not elsewhere.seats.filter(user=rival).exists()


def test_deactivation_keeps_for_the_bot_a_seat_it_already_plays(
    moderator: User, player: User, rival: User, running_game: Game
) -> None:
    services.resign(running_game, rival)  # a bot plays bob's seat: he left
    away = running_game.seats.get(user=rival)
    assert away.bot and away.handed_over == services.LEFT
    moderation.deactivate(rival, moderator, "abuse")
    away.refresh_from_db()
    assert away.bot and away.resigned and away.handed_over == services.DEACTIVATED
    moderation.reactivate(rival, moderator, "appeal heard")
    rival.refresh_from_db()
    with pytest.raises(services.NotAllowed, match="cannot be taken back"):
        services.take_seat_back(running_game, rival)
    away.refresh_from_db()
    assert away.bot and away.resigned
    board = client_for(rival).get(f"/games/{running_game.pk}/").text
    assert "/take-back/" not in board


def test_a_report_and_a_deactivation_lock_the_person_before_the_game(
    moderator: User, player: User, rival: User, running_game: Game
) -> None:
    """One lock order everywhere (user row, then game rows), so the two cannot deadlock."""

    def tables_in_order(queries: list[dict[str, str]]) -> list[str]:
        touched = []
        for query in queries:
            sql = query["sql"]
            if not sql.startswith("SELECT"):
                continue
            table = sql.split(" FROM ", 1)[1].split()[0].strip('"')
            if table in ("accounts_user", "games_game") and table not in touched:
                touched.append(table)
        return touched

    with CaptureQueriesContext(connection) as filing:
        moderation.report(running_game, player, rival.pk, "abuse")
    with CaptureQueriesContext(connection) as closing:
        moderation.deactivate(player, moderator, "abuse")
    assert tables_in_order(filing.captured_queries) == ["accounts_user", "games_game"]
    assert tables_in_order(closing.captured_queries)[0] == "accounts_user"


# --- aborting a game ----------------------------------------------------------------------


def test_abort_ends_a_game_with_the_reason_shown_and_no_rating_change(
    moderator: User, player: User, rival: User, running_game: Game
) -> None:
    finished_game([player, rival])
    ratings = {r.pk: (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
    admin = client_for(moderator)
    page = admin.get(f"/admin/games/game/{running_game.pk}/change/")
    assert "Abort this game" in page.text
    response = admin.post(
        f"/admin/games/game/{running_game.pk}/abort/", {"reason": "Players colluded."}
    )
    assert response.status_code == 302
    running_game.refresh_from_db()
    assert running_game.status == Game.Status.ABORTED
    assert running_game.abort_reason == "Players colluded." and running_game.aborted_by == moderator
    assert {r.pk: (r.mu, r.sigma, r.games) for r in Rating.objects.all()} == ratings
    assert not running_game.seats.exclude(place=None).exists()
    # Every screen shows the reason, the players' and a watcher's; no move is offered.
    for user in [player, rival, None]:
        board = client_for(user).get(f"/games/{running_game.pk}/").text
        assert "A moderator stopped this game:" in board and "Players colluded." in board
        assert "Waiting for the others" not in board  # nobody waits on an aborted night
    # A move after it is refused with the reason, and changes nothing.
    version = running_game.version
    refused = client_for(player).post(
        f"/games/{running_game.pk}/play/",
        {"action": '{"type": "keep", "card": "x"}', "version": version},
        HTTP_HX_REQUEST="true",
    )
    assert refused.status_code == 409 and "Players colluded." in refused.text
    running_game.refresh_from_db()
    assert running_game.version == version
    # History marks it.
    history = client_for(player).get("/games/history/").text
    assert "aborted" in history and "Players colluded." in history
    replay = client_for(player).get(f"/games/{running_game.pk}/replay/")
    assert replay.status_code == 404 and "Players colluded." in replay.text
    # The action log still rebuilds it.
    rebuilt = services.replay(running_game)
    assert running_game.spec.engine.dump(rebuilt) == running_game.snapshot


def test_an_aborted_games_reason_reads_as_a_sentence_and_its_replay_never_says_until_then(
    moderator: User, player: User, running_game: Game
) -> None:
    moderation.abort(running_game, moderator, "Testing: abort")
    board = client_for(player).get(f"/games/{running_game.pk}/").text
    assert "Testing: abort. The game does not count" in board
    replay = client_for(player).get(f"/games/{running_game.pk}/replay/")
    assert replay.status_code == 404 and "Testing: abort." in replay.text
    assert "Until then" not in replay.text and "has no replay" in replay.text
    history = client_for(player).get("/games/history/").text
    assert "Testing: abort." in history


def test_abort_needs_a_reason_and_a_running_game(
    moderator: User, player: User, rival: User, running_game: Game
) -> None:
    admin = client_for(moderator)
    response = admin.post(f"/admin/games/game/{running_game.pk}/abort/", {"reason": ""})
    assert response.status_code == 400
    running_game.refresh_from_db()
    assert running_game.status == Game.Status.RUNNING
    done = finished_game([player, rival])
    with pytest.raises(services.ServiceError, match="over"):
        moderation.abort(done, moderator, "too late")
    done.refresh_from_db()
    assert done.status == Game.Status.OVER


# --- reports ------------------------------------------------------------------------------


def test_a_player_reports_another_from_the_table(
    player: User, rival: User, running_game: Game
) -> None:
    client = client_for(player)
    table = client.get(f"/games/{running_game.pk}/").text
    assert f"/games/{running_game.pk}/report/" in table
    form = client.get(f"/games/{running_game.pk}/report/")
    assert form.status_code == 200 and f'value="{rival.pk}"' in form.text
    assert f'<option value="{player.pk}"' not in form.text
    response = client.post(
        f"/games/{running_game.pk}/report/",
        {"reported": rival.pk, "reason": "abuse", "note": "  called me   names "},
    )
    assert response.status_code == 302
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.game_id) == (player, rival, running_game.pk)
    assert report.note == "called me names" and report.status == Report.Status.OPEN


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"reported": "nobody", "reason": "abuse"}, "whole number"),
        ({"reported": "999999", "reason": "abuse"}, "Choose a person"),
        ({"reason": "abuse"}, "Choose a person"),
        ({"reported": "RIVAL", "reason": "because"}, "Choose a reason"),
        ({"reported": "RIVAL", "reason": "abuse", "note": "x" * 501}, "under 500"),
        ({"reported": "SELF", "reason": "abuse"}, "Choose a person"),
        ({"reported": "BOT", "reason": "abuse"}, "Choose a person"),
    ],
)
def test_a_bad_report_is_refused_and_stores_nothing(
    player: User, rival: User, running_game: Game, form: dict[str, str], message: str
) -> None:
    bot = running_game.seats.exclude(bot="").first()
    ids = {"RIVAL": rival.pk, "SELF": player.pk, "BOT": bot.user_id if bot else 0}
    posted = {k: str(ids.get(v, v)) for k, v in form.items()}
    response = client_for(player).post(f"/games/{running_game.pk}/report/", posted)
    assert response.status_code == 400 and message in response.text
    assert not Report.objects.exists()


def test_reports_are_rate_limited(
    player: User, make_user: Callable[[str], User], open_table: Game
) -> None:
    others = [make_user(f"baker{i}") for i in range(moderation.REPORTS_PER_WINDOW + 1)]
    games = []
    for other in others:
        game = services.create_game(other, "midnight-bakery", 2)
        services.join(game, player)
        services.start(game, other)
        games.append(game)
    for game, other in zip(games[:-1], others[:-1], strict=True):
        moderation.report(game, player, other.pk, "stalling")
    with pytest.raises(services.ServiceError, match="many reports"):
        moderation.report(games[-1], player, others[-1].pk, "stalling")
    # The same person twice at one game, while the first is open, is refused too.
    with pytest.raises(services.ServiceError, match="already reported"):
        moderation.report(games[0], player, others[0].pk, "abuse")
    assert Report.objects.count() == moderation.REPORTS_PER_WINDOW


def test_acting_on_a_report_is_logged_with_who_and_when(
    moderator: User, player: User, rival: User, running_game: Game
) -> None:
    first = moderation.report(running_game, player, rival.pk, "abuse")
    second = moderation.report(running_game, rival, player.pk, "stalling")
    admin = client_for(moderator)
    listing = admin.get("/admin/games/report/")
    assert (
        listing.status_code == 200
        and f"/admin/games/game/{running_game.pk}/change/" in listing.text
    )
    page = admin.get(f"/admin/games/report/{first.pk}/change/")
    assert f"/admin/games/report/{first.pk}/handle/" in page.text
    response = admin.post(
        f"/admin/games/report/{first.pk}/handle/",
        {"status": "acted", "resolution": "warned bob"},
    )
    assert response.status_code == 302
    first.refresh_from_db()
    assert first.status == Report.Status.ACTED and first.handled_by == moderator
    assert first.handled_at is not None and first.resolution == "warned bob"
    action = {"action": "dismiss", "_selected_action": [first.pk, second.pk]}
    admin.post("/admin/games/report/", action)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == Report.Status.ACTED  # closed reports stay as they were
    assert second.status == Report.Status.DISMISSED and second.handled_by == moderator
    entries = LogEntry.objects.filter(content_type__model="report").order_by("action_time")
    assert [(e.object_id, e.user_id, e.change_message) for e in entries] == [
        (str(first.pk), moderator.pk, "Acted on: warned bob"),
        (str(second.pk), moderator.pk, "Dismissed"),
    ]
    # A player cannot close reports.
    with pytest.raises(services.NotAllowed):
        moderation.handle_report(second, player, Report.Status.ACTED)


def test_abort_stops_every_clock(moderator: User, player: User, rival: User) -> None:
    game = services.create_game(player, "midnight-bakery", 2, pace="fast")
    services.join(game, rival)
    services.start(game, player)
    assert game.seats.exclude(deadline=None).count() == 2
    moderation.abort(game, moderator, "Players colluded.")
    assert not game.seats.exclude(deadline=None).exists()
    board = client_for(rival).get(f"/games/{game.pk}/").text
    assert "data-deadline" not in board and 'role="timer"' not in board
    assert services.run_bots(game.pk) == 0  # no stand-in moves at a stopped game


def test_a_game_that_ends_has_no_clock_left(player: User, rival: User) -> None:
    game = services.create_game(player, "midnight-bakery", 2, pace="fast")
    services.join(game, rival)
    services.start(game, player)
    over = play_out(game, [player, rival])
    assert over.status == Game.Status.OVER
    assert not over.seats.exclude(deadline=None).exists()
