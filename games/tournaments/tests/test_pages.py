"""The tournament pages: the list, a tournament's page (rules, countdown, standings with their
tie-breaks, tables with watch and replay links, podium, your own line), its buttons, and the
private tournament that looks missing to outsiders."""

from __future__ import annotations

import html as markup
import re
from collections.abc import Callable

import pytest

from accounts.models import User
from games.notifications.models import Notification
from games.tournaments import services
from games.tournaments.forms import TournamentForm
from games.tournaments.models import Entrant, Table, Tournament
from games.tournaments.tests.conftest import entered, play_table, rules, running_tables, swept
from tests.conftest import client_for
from tests.support.clock import Clock

Crowd = Callable[[int], list[User]]

# backend: standings are ordered in SQL.
pytestmark = [pytest.mark.django_db, pytest.mark.backend]


def text_of(html: bytes) -> str:
    """A page's words, tags dropped and spaces squeezed."""
    return " ".join(markup.unescape(re.sub(r"<[^>]+>", " ", html.decode())).split())


def test_the_list_shows_the_sites_events_peoples_events_and_a_create_form(
    clock: Clock, crowd: Crowd
) -> None:
    (maker,) = crowd(1)
    services.create(None, rules(clock, name="Sunday site Swiss"), scheduled_by="sunday-swiss")
    services.create(maker, rules(clock, name="Maker's own Swiss"))
    services.create(maker, rules(clock, name="Hidden Swiss", private=True))
    page = text_of(client_for(maker).get("/tournaments/").content)
    site = page.index("Coming up: Bakehouse's own")
    people = page.index("Coming up: made by people")
    assert site < page.index("Sunday site Swiss") < people < page.index("Maker's own Swiss", people)
    assert "Make the tournament" in page
    # A private one is listed to its maker alone, under Yours.
    assert "Hidden Swiss" in page
    outsider = text_of(client_for(crowd(1)[0]).get("/tournaments/").content)
    assert "Hidden Swiss" not in outsider and "Sunday site Swiss" in outsider


def test_the_create_form_shows_its_fields_in_three_parts_in_the_forms_order(crowd: Crowd) -> None:
    (maker,) = crowd(1)
    page = client_for(maker).get("/tournaments/").content.decode()
    parts = re.findall(r"<fieldset><legend>([^<]+)</legend>(.*?)</fieldset>", page, re.S)
    assert [legend for legend, _ in parts] == ["The event", "Points", "Who may enter"]
    names = [re.findall(r'name="(\w+)"', fields) for _, fields in parts]
    assert names[0][-3:] == ["starts_in", "starts_at", "zone"]  # the zone after its start
    assert names[1] == ["place_points", "bye", "streak_bonus"]
    assert names[2][0] == "rating_min" and names[2][-1] == "bots_welcome"
    assert [n for part in names for n in part] == list(TournamentForm().fields)  # each once


def test_a_tournament_page_states_its_rules_and_a_countdown_in_words(
    clock: Clock, crowd: Crowd
) -> None:
    tournament = services.create(
        None, rules(clock, seats=4, fewest=3, rounds=5), scheduled_by="weekly"
    )
    response = client_for(None).get(tournament.get_absolute_url())
    assert response.status_code == 200
    page = text_of(response.content)
    assert "Swiss of 5 rounds" in page
    assert "At a table of 3: 6/3/0; at a table of 4: 6/4/2/0 (the defaults)" in page
    assert "bye worth 3 points" in page
    assert "1) points, 2) Buchholz (the sum of the points of everyone a person met" in page
    assert "3) wins (first places), 4) rating at entry" in page
    assert "At this turn-based pace nobody is skipped as away" in page
    assert "Open to everyone with an account" in page
    html = response.content.decode()
    assert 'class="countdown" data-at="' in html and "UTC" in page
    assert "Log in or sign up to join" in page
    assert "one of Bakehouse's own" in page


def test_a_tournament_whose_maker_left_is_not_called_the_sites(clock: Clock, crowd: Crowd) -> None:
    (maker,) = crowd(1)
    tournament = services.create(maker, rules(clock, name="Orphan Swiss"))
    maker.delete()
    page = text_of(client_for(None).get(tournament.get_absolute_url()).content)
    assert "made by someone who has left" in page and "Bakehouse's own" not in page
    listed = text_of(client_for(None).get("/tournaments/").content)
    assert listed.index("Coming up: made by people") < listed.index("Orphan Swiss")


def test_joining_shows_you_in_the_standings_and_withdrawing_takes_you_out(
    clock: Clock, crowd: Crowd
) -> None:
    (person,) = crowd(1)
    tournament = services.create(None, rules(clock))
    client = client_for(person)
    page = text_of(client.get(tournament.get_absolute_url()).content)
    assert "You are not in this tournament yet" in page and "Join" in page
    joined = client.post(f"/tournaments/{tournament.pk}/join/", follow=True)
    assert "You are in Test Swiss." in text_of(joined.content)
    assert "You are in, one of 1 entrant so far." in text_of(joined.content)
    assert Entrant.objects.filter(tournament=tournament, user=person).exists()
    left = client.post(f"/tournaments/{tournament.pk}/withdraw/", {"confirm": "yes"}, follow=True)
    assert "You left Test Swiss." in text_of(left.content)
    assert not Entrant.objects.filter(tournament=tournament, user=person).exists()


def test_a_private_tournament_is_missing_without_its_link_and_open_with_it(
    clock: Clock, crowd: Crowd
) -> None:
    maker, guest, outsider = crowd(3)
    tournament = services.create(maker, rules(clock, private=True))
    url = tournament.get_absolute_url()
    assert client_for(outsider).get(url).status_code == 404
    assert client_for(None).get(url).status_code == 404
    assert client_for(outsider).get(f"{url}?invite=wrong").status_code == 404
    page = client_for(maker).get(url)
    assert page.status_code == 200 and tournament.invite_url in page.content.decode()
    client = client_for(guest)
    assert client.get(tournament.invite_url).status_code == 200
    assert client.get(url).status_code == 200  # the link is kept in the session
    client.post(f"/tournaments/{tournament.pk}/join/")
    assert Entrant.objects.filter(tournament=tournament, user=guest).exists()


def test_a_running_swiss_lists_its_tables_with_watch_links_and_your_table_is_ready(
    clock: Clock, crowd: Crowd
) -> None:
    people = crowd(4)
    tournament = entered(services.create(None, rules(clock, seats=2, rounds=2)), people)
    clock.forward(61)
    tournament = swept(tournament)
    tables = running_tables(tournament)
    assert len(tables) == 2
    mine = next(t for t in tables if Entrant.objects.get(user=people[0]).pk in t.people)
    page = client_for(people[0]).get(tournament.get_absolute_url()).content.decode()
    assert f'href="/games/{mine.game_id}/"' in page  # watch, and "your table" too
    assert "Your table is ready: round 1, table" in text_of(page.encode())
    assert "Round 1 of 2 under way" in text_of(page.encode())
    # The core told them so in the inbox, with a link to the table.
    told = Notification.objects.get(recipient=people[0], kind="tournament", key__contains=":table:")
    assert "Round 1 of Test Swiss is ready" in told.text and told.url == f"/games/{mine.game_id}/"


def test_a_finished_tournament_shows_its_podium_and_replay_links(
    clock: Clock, crowd: Crowd
) -> None:
    people = crowd(4)
    tournament = entered(services.create(None, rules(clock, seats=2, rounds=1)), people)
    clock.forward(61)
    tournament = swept(tournament)
    for table in running_tables(tournament):
        play_table(table)
    tournament = swept(tournament)  # the sweep counts what the games' end signals would
    assert tournament.status == Tournament.Status.FINISHED
    response = client_for(people[0]).get(tournament.get_absolute_url())
    html = response.content.decode()
    podium = re.search(r'<ol class="podium".*?</ol>', html, re.S)
    assert podium is not None
    standing = services.standings(tournament)
    place = r'<span class="podium-place">(\w+)</span> <a[^>]*>(\w+)<'
    shown = re.findall(place, podium.group(0))
    assert shown == [
        ("1st", standing[0].username),
        ("2nd", standing[1].username),
        ("3rd", standing[2].username),
    ]
    for table in Table.objects.filter(tournament=tournament):
        assert f'href="/games/{table.game_id}/replay/"' in html
    mine = next(s for s in standing if s.user_id == people[0].pk)
    assert f"You finished {ordinal(mine.place)} of 4" in text_of(response.content)


def ordinal(n: int | None) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n or 0, f"{n}th")


def test_standings_show_the_tie_break_figures_as_columns_and_say_how_ties_are_broken(
    clock: Clock, crowd: Crowd
) -> None:
    people = crowd(4)
    tournament = entered(services.create(None, rules(clock, seats=2, rounds=2)), people)
    clock.forward(61)
    tournament = swept(tournament)
    for table in running_tables(tournament):
        play_table(table)
    tournament = swept(tournament)
    html = client_for(None).get(tournament.get_absolute_url()).content.decode()
    header = re.search(r'<table class="list standings">\s*<thead>(.*?)</thead>', html, re.S)
    assert header is not None
    columns = re.findall(r"<th[^>]*>(?:<abbr[^>]*>)?(\w+)", header.group(1))
    assert columns == ["Player", "Points", "Buchholz", "Wins", "Games", "Byes", "Rating"]
    assert "Ties are broken by Buchholz" in text_of(html.encode())
    rows = re.findall(r'<tr data-user="(\d+)"', html)
    assert [int(r) for r in rows] == [s.user_id for s in services.standings(tournament)]
    # Wider than a phone: in the pages' one wide-table box, its hint right after (wide_table).
    boxed = r'<div class="table-scroll">\s*<table class="list standings">.*?</table>\s*</div>\s*'
    assert re.search(boxed + r'<p class="scroll-hint', html, re.S)


def test_an_arena_entrant_pauses_and_comes_back_from_the_page(clock: Clock, crowd: Crowd) -> None:
    people = crowd(3)
    arena = rules(clock, format="arena", pace="fast", minutes=30, seats=3)
    tournament = entered(services.create(None, arena), people)
    clock.forward(61)
    swept(tournament)
    client = client_for(people[0])
    page = text_of(client.get(tournament.get_absolute_url()).content)
    assert "Pause" in page
    client.post(f"/tournaments/{tournament.pk}/pause/")
    assert Entrant.objects.get(user=people[0]).paused
    assert "Come back" in text_of(client.get(tournament.get_absolute_url()).content)
    client.post(f"/tournaments/{tournament.pk}/resume/")
    assert not Entrant.objects.get(user=people[0]).paused
