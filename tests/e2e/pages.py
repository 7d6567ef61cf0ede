"""Steps every browser test takes on the site's pages."""

from __future__ import annotations

import re
from typing import Any

PASSWORD = "midnight-oven-2024"
# How long a step may take before a browser test gives up: generous, since the suite must pass on a
# machine that runs another suite beside it (a sign-up there once took over 15 s).
PATIENCE = 30_000  # ms


def sign_up(page: Any, base: str, name: str) -> None:
    """Create an account through the sign-up form; the site logs it in and shows the lobby."""
    page.goto(base + "/accounts/signup/")
    page.fill("#id_username", name)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("main button[type=submit]")
    # A refused sign-up (a name another test of this site took) says so at once, not as a
    # navigation that never comes.
    page.wait_for_function(
        "() => location.pathname === '/' || !!document.querySelector('.errorlist')"
    )
    refused = page.locator(".errorlist")
    if refused.count():
        raise AssertionError(f"the sign-up of {name!r} was refused: {refused.first.inner_text()}")
    page.wait_for_url(base + "/")


def person(browser: Any, base: str, name: str, init_script: str = "", **context: Any) -> Any:
    """A new person's page, in a browser context of their own (Playwright's options `context`:
    viewport, is_mobile, locale...; `init_script` runs before each page's own scripts), patient
    (PATIENCE) and signed up."""
    own = browser.new_context(**context)
    if init_script:
        own.add_init_script(init_script)
    page = own.new_page()
    page.set_default_timeout(PATIENCE)
    sign_up(page, base, name)
    return page


def version(page: Any) -> str:
    """The table version the page shows."""
    return str(page.locator("#board-version").input_value())


MY_MOVE_AFTER = """after => {
    const live = document.getElementById("board-live");
    return live !== null && live.dataset.yourMove === "yes" && Number(live.dataset.version) > after;
}"""


def wait_for_my_move(page: Any, after: int = -1, patience: int = PATIENCE) -> int:
    """Wait (up to `patience` ms) for a board newer than version `after` on which it is this
    person's move, and return its version. The board a move was made on still shows that move's
    cards until the move's answer lands: a look at the cards alone can pass at once, and a press
    on them then comes too late (refused: the table moved on)."""
    page.wait_for_function(MY_MOVE_AFTER, arg=after, timeout=patience)
    return int(page.locator("#board-live").get_attribute("data-version") or "-1")


def lock_first_pastry(page: Any) -> int:
    """Keep the first pastry of the batch (holding a Baker's Peel, the pastry and then "Keep
    one") and wait until the table has moved on from it; the version it was pressed on. One
    press: a tap is never lost, even to a board redrawn under it
    (test_taps_at_the_start_of_a_pick.py)."""
    before = version(page)
    # Read before the press: once a kept Peel's board arrives, the next batch holds one.
    holds_a_peel = page.locator("#batch-form[data-peel]").count() > 0
    page.locator("#batch-form button.card").first.click()
    if holds_a_peel:
        page.get_by_role("button", name="Keep one").click()
    page.wait_for_function(
        "v => Number(document.getElementById('board-version').value) > Number(v)", arg=before
    )
    return int(before)


PICK_UNLESS = """shown => {
    if (document.querySelector(shown)) return null;
    const form = document.querySelector('#batch-form');
    const card = form && form.querySelector('button.card');
    if (!card) return null;
    const before = document.getElementById('board-version').value;
    card.click();
    const keep = form.hasAttribute('data-peel') && form.querySelector('[data-submit=keep]');
    if (keep) keep.click();
    return before;
}"""


def pick_unless(page: Any, shown: str) -> bool:
    """Keep the first pastry unless `shown` is on the page, the look and the press in one task of
    the page, so no board can arrive between them; then wait until the table moved on from it.
    False if nothing was pressed. (Looked at and pressed in two steps, a board bringing a bake's
    results came between: the press landed on the next bake's batch beside them, and that pick
    rightly put them away.)"""
    before = page.evaluate(PICK_UNLESS, shown)
    if before is None:
        return False
    page.wait_for_function(
        "v => Number(document.getElementById('board-version').value) > Number(v)", arg=before
    )
    return True


def open_table(page: Any, base: str, kind: str, seats: int, pace: str = "") -> str:
    """Open a new table of that game (at that pace, if given) through the new-table form; its
    URL."""
    page.goto(base + "/games/new/")
    page.select_option("#id_kind", kind)
    page.fill("#id_capacity", str(seats))
    if pace:
        page.select_option("#id_pace", pace)
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    return str(page.url)


def take_a_seat(page: Any, table_url: str) -> None:
    """Sit down at an open table through its page."""
    page.goto(table_url)
    page.get_by_role("button", name="Take a seat").click()
    page.get_by_role("button", name="Leave the table").wait_for()


def errors_seen(page: Any) -> list[str]:
    """Collect every failed answer (4xx, 5xx) the page gets from here on; the list fills live."""
    failed: list[str] = []
    page.on(
        "response",
        lambda r: (
            failed.append(f"{r.status} {r.request.method} {r.url}") if r.status >= 400 else None
        ),
    )
    return failed


def two_at_a_table(
    browser: Any,
    base: str,
    names: tuple[str, str],
    kind: str,
    init_script: str = "",
    viewport: dict[str, int] | None = None,
    pace: str = "",
) -> list[Any]:
    """Two people sign up in browsers of their own, sit at a new two-seat table, and the host
    starts it; their pages are returned once both boards are live."""
    screen = viewport or {"width": 1280, "height": 900}
    pages = [person(browser, base, name, init_script, viewport=screen) for name in names]
    take_a_seat(pages[1], open_table(pages[0], base, kind, 2, pace))
    start = "Start the night" if kind == "midnight-bakery" else "Start the game"
    pages[0].get_by_role("button", name=start).click()
    for page in pages:
        page.wait_for_function("() => window.bakehouseLive === true")
        page.locator("#board-live[data-your-move]").wait_for(state="attached")
    return pages


def open_tournament(
    page: Any, base: str, kind: str = "midnight-bakery", seats: int = 2, rounds: int = 1
) -> str:
    """Make a Swiss at the relaxed pace, starting in a minute, through the tournaments page's
    form; its page's URL."""
    page.goto(base + "/tournaments/")
    form = page.locator("form.tournament-form")
    form.locator("#id_name").fill("Evening Swiss")
    form.locator("#id_kind").select_option(kind)
    form.locator("#id_format").select_option("swiss")
    form.locator("#id_pace").select_option("relaxed")
    form.locator("#id_seats").fill(str(seats))
    form.locator("#id_rounds").fill(str(rounds))
    form.locator("#id_starts_in").select_option("1")
    form.get_by_role("button", name="Make the tournament").click()
    page.wait_for_url(re.compile(r".*/tournaments/\d+/$"))
    return str(page.url)
