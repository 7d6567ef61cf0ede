"""A table's regions are named for what each is: a screen reader lists them by name, so two that
read alike (the status and the log were both "The night so far") cannot be told apart."""

from __future__ import annotations

import lxml.html
import pytest

from accounts.models import User
from tests.conftest import client_for
from tests.support.finished_games import running_game

pytestmark = pytest.mark.django_db


def region_names(html: bytes) -> list[str]:
    """The accessible name of each named region of the page (aria-label, or the words of the
    element aria-labelledby points at), as a screen reader's list of regions reads them."""
    page = lxml.html.fromstring(html)
    names = []
    for region in page.cssselect("section[aria-label], section[aria-labelledby], [role=region]"):
        label = region.get("aria-label")
        if label is None:
            ids = str(region.get("aria-labelledby")).split()
            label = " ".join(page.get_element_by_id(i).text_content() for i in ids)
        names.append(" ".join(label.split()))
    return names


def alike(names: list[str]) -> list[tuple[str, str]]:
    """Pairs of names a listener cannot tell apart: the same, or one the start of the other."""
    folded = [n.casefold() for n in names]
    return [
        (a, b)
        for i, a in enumerate(folded)
        for b in folded[i + 1 :]
        if a == b or a.startswith(b) or b.startswith(a)
    ]


@pytest.mark.parametrize("kind", ["midnight-bakery", "cakehalla"])
def test_each_region_of_a_live_table_has_a_name_of_its_own(
    player: User, rival: User, kind: str
) -> None:
    game = running_game([player, rival], kind)
    names = region_names(client_for(player).get(f"/games/{game.pk}/").content)
    assert len(names) >= 4, names  # the status, the log or info, the seats, your own
    assert alike(names) == []
