"""Viewers who see the same thing share one render per version; viewers who do not, never do.

A region is rendered once per table, version and process for every viewer whose region reads
the very same values (games/boards/shared.py). The hidden-information rule must hold unchanged:
a seat's own batch (the `mine` region) is never handed to another seat, and every render a
viewer gets equals a fresh render of that viewer's own board.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils.safestring import SafeString

from accounts.models import User
from games import services
from games.boards import Sent, board_context, changes, pieces, render_changed
from games.boards.changes import UNKNOWN
from games.boards.jinja import board_environment, render_plain, render_template
from games.boards.plain import plain
from games.boards.renders import render_counts
from games.boards.shared import forget_all
from games.kinds.cakehalla.board import numbered
from games.models import Game
from tests.boards.test_region_changes import fresh_regions, someone_moves, table
from tests.live.test_consumer import batch_ids

pytestmark = pytest.mark.django_db


def counted(call: Callable[[], Any]) -> tuple[Any, int, int]:
    """What the call returns, and how many regions it rendered and took from another viewer."""
    rendered, shared = render_counts["rendered"], render_counts["shared"]
    out = call()
    return out, render_counts["rendered"] - rendered, render_counts["shared"] - shared


def test_seats_never_get_each_others_batch_and_tabs_and_spectators_share(
    make_user: Callable[[str], User],
) -> None:
    people = [make_user(f"s{i}") for i in range(4)]
    watchers = [make_user("w0"), make_user("w1")]
    game = table("midnight-bakery", people, 0, 13)
    # Each seat, a second tab of the first seat, two logged-in spectators and an anonymous one.
    viewers: list[User | AnonymousUser] = [*people, people[0], *watchers, AnonymousUser()]
    kept: list[Sent] = [{} for _ in viewers]
    rng = random.Random(13)
    shared_by = [0] * len(viewers)
    for move in range(60):
        mine: list[str] = []
        for i, viewer in enumerate(viewers):
            fresh = fresh_regions(game, viewer)
            (changed, kept[i]), _, shared = counted(partial(render_changed, game, viewer, kept[i]))
            shared_by[i] += shared
            for name, html in changed.items():
                assert html == fresh[name], f"viewer {i}, region {name}, move {move}"
            if i < len(people):
                others = {c for p in people if p != people[i] for c in batch_ids(game, p)}
                assert not any(card in fresh["mine"] for card in others), f"seat {i}"
                mine.append(fresh["mine"])
        if any(batch_ids(game, p) for p in people):
            assert len(set(mine)) == len(people), "each seat's own batch region is its own"
        if not someone_moves(game, people, rng):
            break
        game.refresh_from_db()
    # The second tab of seat 0 rendered nothing of its own: every region came from the first.
    tab = viewers.index(people[0], 1)
    assert shared_by[tab] > 0 and all(s >= 0 for s in shared_by)
    assert shared_by[len(people) + 2] > 0, "the second spectator shares the first's renders"


def test_a_second_tab_renders_nothing_of_its_own(
    running_game: Game, player: User, rival: User
) -> None:
    (_, first), rendered, _ = counted(lambda: render_changed(running_game, player, {}))
    (_, second), again, shared = counted(lambda: render_changed(running_game, player, {}))
    assert rendered > 0 and again == 0 and shared == rendered
    assert first == second
    (_, _), theirs, _ = counted(lambda: render_changed(running_game, rival, {}))
    assert theirs > 0, "the rival's own regions are rendered for the rival"


class Opaque:
    """An object whose repr is its address."""


def test_a_value_that_cannot_be_compared_is_never_equal_to_another() -> None:
    thing = Opaque()
    assert plain(thing) != plain(thing)
    assert plain({"a": [1, "x"]}) == plain({"a": [1, "x"]})
    # Equal values are equal stand-ins however they are held (viewers share their renders).
    shared_string = "x" * 40
    assert plain([shared_string, shared_string]) == plain(["x" * 40, "x" * 40])
    assert plain([{"a": (1, None)}, SafeString("s")]) == plain([{"a": (1, None)}, SafeString("s")])


def test_values_that_render_differently_have_different_stand_ins() -> None:
    twins = [
        (True, 1),  # equal in Python, "True" and "1" on a page
        (1.0, 1),
        (SafeString("<b>"), "<b>"),  # one is escaped
        ({"a": 1, "b": 2}, {"b": 2, "a": 1}),  # iterated in their order
        ([1, 2], (1, 2)),  # "[1, 2]" and "(1, 2)"
        (["opaque", 1], ("opaque", 1)),
        # The same inside containers, whether written whole (marshal) or part by part.
        ({"a": True}, {"a": 1}),
        ([1.0], [1]),
        ({"a": SafeString("<b>")}, {"a": "<b>"}),
        ([[1, 2]], [(1, 2)]),
        ({"a": {"x": 1, "y": 2}}, {"a": {"y": 2, "x": 1}}),
        ([{"a": 1}, SafeString("s")], [{"a": True}, SafeString("s")]),
    ]
    for one, other in twins:
        assert plain(one) != plain(other), (one, other)


def test_a_template_included_by_a_variable_name_is_read_as_unknown() -> None:
    env = board_environment()
    found: set[changes.Path] = set()
    changes.reads(env, env.parse("{% include name %}{{ view.bake }}"), found, set())
    assert UNKNOWN in found and ("view", "bake") in found and ("name",) in found
    # Each look at an unknown part is unlike every other: no two viewers share it.
    unknown, nothing = changes.grouped([UNKNOWN]), dict[str, Any]()
    assert changes.read_groups(nothing.get, unknown) != changes.read_groups(nothing.get, unknown)


def test_a_regions_paths_are_what_it_reads_and_not_the_names_it_binds_or_calls() -> None:
    env = board_environment()
    found: set[changes.Path] = set()
    source = (
        "{% for box in boxes %}{{ box.name }}{% endfor %}{{ static('x.svg') }}"
        "{{ piece('games/_table_seat.html', row=rows|first) }}{{ game.get_absolute_url() }}"
        "{% if view.over %}{{ view.result.scores|join(', ') }}{% endif %}"
    )
    changes.reads(env, env.parse(source), found, set())
    assert {
        ("boxes",),
        ("rows",),
        ("game",),
        ("view", "over"),
        ("view", "result", "scores"),
    } <= found
    assert not any(path[0] in {"static", "piece"} for path in found)
    assert ("game", "get_absolute_url") not in found  # a called method: its value is read whole
    # A loop's own name is looked up too (the context lacks it: one MISSING); never a value
    # that escapes the paths, since the list it walks is read whole.
    assert ("box", "name") in found


def test_a_piece_is_kept_by_exactly_the_values_passed_to_it() -> None:
    env = board_environment()
    region = env.from_string(
        "{% for row in rows %}{{ piece('games/_table_seat.html', row=row) }}{% endfor %}"
    )
    row = {"name": "Rye", "player": "ann", "me": False, "presence": "here", "waiting": True}

    def drawn(rows: list[Any]) -> tuple[str, int, int]:
        rendered, shared = render_counts["pieces rendered"], render_counts["pieces shared"]
        html = render_template(region, {"rows": rows})
        return (
            html,
            render_counts["pieces rendered"] - rendered,
            render_counts["pieces shared"] - shared,
        )

    forget_all()
    first, rendered, shared = drawn([row, dict(row)])
    assert (rendered, shared) == (1, 1)  # equal values: drawn once
    # Anything passed that differs, even a value equal in Python but written otherwise.
    for other in ({**row, "me": True}, {**row, "waiting": 1}, {**row, "name": "Spelt"}):
        _, rendered, _ = drawn([other])
        assert rendered == 1, other
    assert "(you)" in drawn([{**row, "me": True}])[0] and "(you)" not in first
    forget_all()
    assert drawn([row, row])[0] == first  # as drawn with nothing kept


def test_a_name_the_context_lacks_is_missing_under_every_path() -> None:
    groups = changes.grouped([("box", "name"), ("box", "locked"), ("card", "id")])
    values = changes.read_groups({"box": {"name": "Ada", "locked": False}}.get, groups)
    assert values[1] is changes.MISSING  # the loop's `card`, looked up outside its loop
    assert values[0] == (plain(False), "Ada")  # its paths in order: locked, name


def test_a_models_stand_in_tells_its_field_values_and_their_types_apart(
    make_user: Callable[[str], User],
) -> None:
    seat = services.create_game(make_user("host"), "midnight-bakery", 3).seats.get()
    twin = type(seat).objects.get(pk=seat.pk)
    assert plain(seat) == plain(twin)
    seat.bank, twin.bank = 120.0, 120
    assert plain(seat) != plain(twin)  # "120.0" and "120" on a page
    twin.bank = seat.bank
    assert plain(seat) == plain(twin)
    twin.stand_ins += 1
    assert plain(seat) != plain(twin)


def test_a_blind_reservation_shows_only_on_its_bakers_screens(
    make_user: Callable[[str], User],
) -> None:
    people = [make_user(f"c{i}") for i in range(3)]
    watcher = make_user("cw")
    game = table("cakehalla", people, 0, 21)
    engine = game.spec.engine
    viewers: list[User | AnonymousUser] = [*people, watcher, AnonymousUser()]
    kept: list[Sent] = [render_changed(game, v, {})[1] for v in viewers]
    shown = [fresh_regions(game, v)["bakers"] for v in viewers]
    state = engine.load(game.snapshot)
    mover = state.turn
    blind = next(
        a for a in engine.legal_actions(state, mover) if a["type"] == "reserve" and "tier" in a
    )
    reserver = game.seats.get(position=mover).user
    services.play(game.pk, reserver, blind, None)
    game.refresh_from_db()
    own = engine.view(engine.load(game.snapshot), mover)["seats"][mover]["reserved"][-1]
    name = own["name"]
    for i, viewer in enumerate(viewers):
        changed, kept[i] = render_changed(game, viewer, kept[i])
        shown[i] = changed.get("bakers", shown[i])
        assert shown[i] == fresh_regions(game, viewer)["bakers"], f"viewer {i}"
        assert (name in shown[i]) == (viewer == reserver), f"viewer {i}"


def test_a_seat_at_the_table_is_drawn_once_for_everyone_who_sees_it_alike(
    running_game: Game, player: User, rival: User, outsider: User
) -> None:
    def table_region(viewer: User) -> tuple[str, int, int]:
        rendered, shared = render_counts["pieces rendered"], render_counts["pieces shared"]
        html = render_plain("games/_table.html", board_context(running_game, viewer))
        return (
            html,
            render_counts["pieces rendered"] - rendered,
            render_counts["pieces shared"] - shared,
        )

    forget_all()
    rivals, rendered, _ = table_region(rival)
    assert rendered == 2  # alice's seat, and bob's own (with "(you)")
    watchers, rendered, shared = table_region(outsider)
    assert (rendered, shared) == (1, 1)  # alice's seat looks the same to bob and to a watcher
    assert rivals.count("(you)") == 1 and "(you)" not in watchers
    forget_all()
    assert table_region(outsider)[0] == watchers  # as drawn with nothing kept


def test_no_board_context_key_hides_a_templates_global(
    running_game: Game, player: User, outsider: User
) -> None:
    # A region's paths leave out the environment's globals (changes.reads): a context key of the
    # same name would be read by the templates but never fingerprinted.
    env = board_environment()
    for viewer in (player, outsider, AnonymousUser()):
        ctx = board_context(running_game, viewer)
        assert all(ctx[name] is value for name, value in env.globals.items())


def test_a_box_that_only_locks_keeps_its_case(running_game: Game, player: User) -> None:
    boxes = board_context(running_game, player)["boxes"]
    assert isinstance(boxes, list)
    box = next(b for b in boxes)
    template = "games/midnight-bakery/_box.html"
    forget_all()
    _, rendered, _ = pieces_of(template, {"box": box, "resigned": False})
    assert rendered >= 1  # the case (and each of its cards' faces)
    locked = {**box, "locked": True, "backs": box["backs"][1:]}
    html, rendered, shared = pieces_of(template, {"box": locked, "resigned": False})
    assert (rendered, shared) == (0, 1) and "one locked" in html  # the case, as it was


def test_a_card_in_a_case_is_drawn_once_for_every_case_holding_its_face() -> None:
    def case(box: dict[str, Any]) -> tuple[str, int, int]:
        rendered, shared = render_counts["pieces rendered"], render_counts["pieces shared"]
        just = box["last"]["cards"] if box["last"] and box["last"]["newest"] else []
        values = {"name": box["name"], "case": box["case"], "just": just, "waiting_glazes": 0}
        html = render_plain("games/midnight-bakery/_case.html", values)
        return (
            html,
            render_counts["pieces rendered"] - rendered,
            render_counts["pieces shared"] - shared,
        )

    def card(card_id: int, face: str, glazed: bool = False) -> dict[str, Any]:
        return {"id": card_id, "face": face, "name": face.title(), "glazed": glazed}

    first = {"name": "Butter", "case": [card(1, "croissant"), card(2, "tart", True)], "last": None}
    second = {
        "name": "Sugar",
        "case": [card(7, "croissant"), card(8, "croissant")],
        "last": {"newest": True, "cards": [8]},
    }
    forget_all()
    html, rendered, shared = case(first)
    assert (rendered, shared) == (2, 0)
    assert "Tart (glazed)" in html and " just" not in html
    html, rendered, shared = case(second)
    assert (rendered, shared) == (1, 1)  # card 7 looks as card 1 does; card 8 is just kept
    assert html.count('class="mini just"') == 1 and html.count('class="mini"') == 1
    forget_all()
    assert case(second)[0] == html  # as drawn with nothing kept


def pieces_of(template: str, context: dict[str, Any]) -> tuple[str, int, int]:
    """A template rendered for a socket, and the pieces it rendered and took from another render."""
    rendered, shared = render_counts["pieces rendered"], render_counts["pieces shared"]
    html = render_plain(template, context)
    return (
        html,
        render_counts["pieces rendered"] - rendered,
        render_counts["pieces shared"] - shared,
    )


def test_a_bakers_holdings_are_kept_while_only_the_turn_moves() -> None:
    rows = [
        {"name": "sugar", "label": "Sugar", "art": "cakehalla/tokens/sugar.svg", "discount": 1,
         "held": 2},
        {"name": "cocoa", "label": "Cocoa", "art": "cakehalla/tokens/cocoa.svg", "discount": 0,
         "held": 0},
    ]  # fmt: skip
    baker = {"position": 1, "player": "Spelt (bob)", "points": 3, "rows": rows, "turn": False}
    forget_all()
    waiting, rendered, shared = pieces_of("games/cakehalla/_baker.html", {"b": baker})
    assert (rendered, shared) == (1, 0)  # its holdings (the box itself is a piece of _bakers)
    playing, rendered, shared = pieces_of(
        "games/cakehalla/_baker.html", {"b": {**baker, "turn": True}}
    )
    assert (rendered, shared) == (0, 1)  # the turn moved; the holdings did not
    assert "playing" in playing and "playing" not in waiting
    richer = [{**rows[0], "held": 3}, rows[1]]
    html, rendered, _ = pieces_of("games/cakehalla/_baker.html", {"b": {**baker, "rows": richer}})
    assert rendered == 1 and "<td>3</td>" in html
    forget_all()
    assert pieces_of("games/cakehalla/_baker.html", {"b": {**baker, "turn": True}})[0] == playing


def test_the_kitchen_log_is_drawn_once_for_every_viewer_reading_the_same_lines() -> None:
    lines = ["Rye (ann) took Sugar, Cocoa.", "Spelt (bob) reserved the Plum Tart."]
    secret = ["Rye (ann) reserved the top of the tier 2 pile face down (the Rum Baba)."]
    forget_all()
    ann, rendered, _ = pieces_of(
        "games/cakehalla/_info.html", {"log": numbered(secret, 1), "log_total": 1}
    )
    assert rendered == 1 and "Rum Baba" in ann
    bob, rendered, shared = pieces_of(
        "games/cakehalla/_info.html", {"log": numbered(lines, 2), "log_total": 2}
    )
    assert (rendered, shared) == (1, 0) and "Rum Baba" not in bob
    again, rendered, shared = pieces_of(
        "games/cakehalla/_info.html", {"log": numbered(lines, 2), "log_total": 2}
    )
    assert (rendered, shared) == (0, 1) and again == bob


def test_the_pieces_kept_are_bounded_by_what_they_hold(monkeypatch: pytest.MonkeyPatch) -> None:
    """A piece and its key are about 1.5 KB: the cache holds at most PIECES_BYTES of them, the
    least recently used going first, however many there are."""
    monkeypatch.setattr(pieces, "PIECES_BYTES", 10_000)
    pieces.forget_all()
    html = "x" * 900
    for n in range(100):
        pieces.render_piece("piece.html", f"{n:0100d}".encode(), lambda: html)
    assert pieces.held() <= 10_000
    kept = len(pieces._pieces)
    assert kept == 10_000 // 1000 and pieces.held() == kept * 1000
    newest = pieces.render_piece("piece.html", f"{99:0100d}".encode(), lambda: "rendered again")
    assert newest == html  # the newest are the ones kept
    pieces.forget_all()
    assert pieces.held() == 0
