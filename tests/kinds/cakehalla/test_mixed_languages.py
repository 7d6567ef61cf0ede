"""A Cakehalla table of mixed languages: what every viewer is pushed, with the renders and pieces
shared between viewers and the counter's words kept per language (counter.said_in, short_of,
words.shapes_in), equals a fresh render of that viewer's own board in that viewer's language,
over several seeded games; so sharing never hands one language's words to another's reader."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import translation

from accounts.models import User
from games.boards import Sent, render_changed
from games.boards.shared import forget_all
from games.kinds.cakehalla import counter, words
from games.models import Game
from tests.boards.test_region_changes import fresh_regions, someone_moves, table

LANGUAGES = ("en", "fr", "de")
MOVES = 40


def forget_words() -> None:
    """Forget the Cakehalla words kept per language, so a render asks the catalogue anew."""
    counter.said_in.cache_clear()
    counter.short_of.cache_clear()
    words.shapes_in.cache_clear()


def fresh_in(game: Game, viewer: User | AnonymousUser, language: str) -> dict[str, str]:
    """Every region of the viewer's board in this language, rendered now with nothing shared or
    kept: no region, no piece, no word of another render."""
    forget_words()
    with translation.override(language):
        return fresh_regions(game, viewer)


@pytest.mark.django_db
@pytest.mark.parametrize(("humans", "bots", "seed"), [(4, 0, 41), (3, 1, 42), (2, 0, 43)])
def test_every_viewer_is_pushed_its_own_board_in_its_own_language(
    make_user: Callable[[str], User], humans: int, bots: int, seed: int
) -> None:
    forget_all()
    forget_words()
    people = [make_user(f"baker{i}") for i in range(humans)]
    game = table("cakehalla", people, bots, seed)
    viewers: list[User | AnonymousUser] = [*people, make_user("watcher"), AnonymousUser()]
    # Dealt round the viewers, a different deal at each table.
    spoken = [LANGUAGES[(i + seed) % len(LANGUAGES)] for i in range(len(viewers))]
    kept: list[Sent] = [{} for _ in viewers]
    rng = random.Random(seed)
    for move in range(MOVES):
        # All fresh first, then all pushed: a word kept for one language must be there to be
        # (wrongly) found by the next viewer's push in another.
        fresh = [fresh_in(game, v, language) for v, language in zip(viewers, spoken, strict=True)]
        for i, viewer in enumerate(viewers):
            with translation.override(spoken[i]):
                changed, kept[i] = render_changed(game, viewer, kept[i])
            for name, html in changed.items():
                assert html == fresh[i][name], f"viewer {i} ({spoken[i]}), {name}, move {move}"
            shown = {name: kept[i][name][1] for name in kept[i]}
            assert shown == {name: hash(html) for name, html in fresh[i].items()}, f"move {move}"
        if not someone_moves(game, people, rng):
            break
    # The counter reads differently in each language.
    last = [fresh_in(game, viewers[-1], language)["counter"] for language in LANGUAGES]
    assert len(set(last)) == len(LANGUAGES)
