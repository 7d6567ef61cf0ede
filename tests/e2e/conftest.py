"""A live Daphne on a free port with its own SQLite file, and Debian's Chromium to drive it.

The site runs as `make run` runs it: DEBUG off, its static files collected (into the session's
temp folder, bench/web/settings.py), SQLite and the in-memory channel layer.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from bench import _prepared as prepared
from bench.web.site import base_env, free_port, own_static, wait_ready
from tests.support.prepared import files as prepared_files


@pytest.fixture(autouse=True)
def _bots_inline_here(bots_inline: None) -> None:
    """What a browser test sets up in its own process (tables dealt, bots seated) has its bots'
    answers stored at once, before the site (its own Daphne, with its runner) is asked for the
    page: bots move inline in this folder's test process (tests/fixtures.py: bots_inline)."""


CHROMIUM = "/usr/bin/chromium"
HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
ARTIFACTS = ROOT / "artifacts"
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "gw")
"""This test process's name: its failures' screenshots are its own, beside the other's."""


# The browser tests run in two xdist groups (`--dist loadgroup` sends a group whole to one test
# process), so that CI's two test processes each run half of them side by side, each with its own
# Daphne site and Chromium (daphne_site, Chromium: one a process). The files are split by their
# durations, each file's setup, call and teardown seconds beside it (`--durations=0` on a run of
# tests/e2e with -n 2 at a load of 14-16 on two cores, 2026-12-07: about 1,240 s a group). The
# two Cakehalla searches (find_a_game_*) are in different groups: on one site, a person left
# looking by one would be counted, or seated, by the other. A file not named here runs in
# LATE_COMERS. Under pytest 9.2, pytest-xdist 3.8 ignores every group (pytest-xdist#1386,
# tests/test_xdist_groups.py): these durations are of files whose tests were handed out one by
# one to both processes, and so are the runs of today's `make test`.
GROUPS: dict[str, str] = {
    "test_german_on_phones.py": "e2e-a",  # German play pages (253 s) and axe at 360 px, merged
    "test_taps_at_the_start_of_a_pick.py": "e2e-a",  # 168 s
    "test_players_see.py": "e2e-a",  # 110 s
    "test_example_bot_against_a_person.py": "e2e-a",  # 99 s
    "test_axe.py": "e2e-a",  # 98 s
    "test_play_by_screen_reader.py": "e2e-a",  # 94 s
    "test_phone_targets.py": "e2e-a",  # 70 s
    "test_absent_baker.py": "e2e-a",  # 67 s
    "test_languages.py": "e2e-a",  # 49 s
    "test_taps_before_scripts.py": "e2e-a",  # 45 s
    "test_turn_based_phone.py": "e2e-a",  # 36 s
    "test_cakehalla_play.py": "e2e-a",  # 35 s
    "test_find_a_game_told_late.py": "e2e-a",  # 28 s
    "test_chat_and_move_cue.py": "e2e-a",  # 25 s
    "test_bake_results_beside_the_pick.py": "e2e-a",  # 24 s
    "test_turn_display_phone.py": "e2e-a",  # 20 s
    "test_rules_pages_in_german.py": "e2e-a",  # 13 s
    "test_logout_push.py": "e2e-a",  # 6 s
    "test_phone_pages.py": "e2e-b",  # 196 s
    "test_tutorial.py": "e2e-b",  # 191 s
    "test_deploy_reconnect.py": "e2e-b",  # 142 s
    "test_review_progress.py": "e2e-b",  # 108 s
    "test_live_connection.py": "e2e-b",  # 96 s
    "test_simultaneous_taps.py": "e2e-b",  # 89 s
    "test_inbox.py": "e2e-b",  # 74 s
    "test_tournament_live.py": "e2e-b",  # 57 s
    "test_play_again.py": "e2e-b",  # 51 s
    "test_two_bakers_play_a_night.py": "e2e-b",  # 49 s
    "test_master_at_the_table.py": "e2e-b",  # 38 s
    "test_screens_stay_true.py": "e2e-b",  # 29 s
    "test_find_a_game_on_phones.py": "e2e-b",  # 28 s
    "test_one_socket_client.py": "e2e-b",  # 28 s
    "test_practice_hint_on_screen.py": "e2e-b",  # 25 s
    "test_friends_on_a_phone.py": "e2e-b",  # 20 s
    "test_tournament_times.py": "e2e-b",  # 20 s
    "test_clock_words.py": "e2e-b",  # 3 s
    "test_heard_refusals_time_and_return.py": "e2e-b",  # new: three short tables
}
LATE_COMERS = "e2e-b"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in this folder drives the browser: marked e2e (so `-m "not e2e"` leaves it out)
    whether or not its module says so, and put in its file's group (GROUPS). A module's own
    xdist_group marker is dropped: xdist would join its name to the table's into a third group."""
    for item in items:
        if item.path.is_relative_to(HERE):
            module = item.getparent(pytest.Module)
            if module is not None:
                module.own_markers[:] = [m for m in module.own_markers if m.name != "xdist_group"]
            item.add_marker(pytest.mark.e2e)
            item.add_marker(pytest.mark.xdist_group(GROUPS.get(item.path.name, LATE_COMERS)))


def prepared_site(folder: Path) -> dict[str, str]:
    """The environment of a site with its own SQLite file in `folder`, migrated, its static
    files collected: as `make run` serves it, with the browser tests' shorter clocks. The
    database is a copy of the one this test process migrated once, the static files are the ones
    it collected once (tests/support/prepared.py: each migrate and collectstatic took 10-30 s of a
    loaded CI worker)."""
    env = site_env(folder)
    made = prepared_files(folder.parent / "prepared")
    shutil.copyfile(made[prepared.MIGRATED], folder / "db.sqlite3")
    env["BENCH_WEB_STATIC_ROOT"] = made[prepared.COLLECTED]
    return env


def site_env(folder: Path) -> dict[str, str]:
    """The site's environment: DEBUG off, a secret key, cookies over plain HTTP (as `make run`),
    its database in `folder`, and the browser tests' shorter clocks."""
    db = folder / "db.sqlite3"
    env = base_env()
    own_static(env, folder)
    env.update(
        {
            "DATABASE_URL": f"sqlite:///{db}",
            # Paced tables' clocks 0.4 times as long (fast: 8 s a move, 24 s bank); relaxed ones
            # (every other browser test) have none.
            "PACE_SCALE": "0.4",
            # Pages without a table socket ask for the menu's inbox badge this often (60 s live).
            "BADGE_POLL_SECONDS": "2",
            # A quick hasher for the sign-ups' passwords (bench/web/settings.py).
            "BENCH_WEB_QUICK_PASSWORDS": "1",
            # Every browser signs up from 127.0.0.1: more than one client's hourly allowance.
            "SIGNUPS_PER_CLIENT": "10000",
            # Masters (the house table's, a practice night's) think 20 ms a decision, not 250:
            # the site's thinking pool still runs them, beside the other worker's tests.
            "MASTER_BOT_SECONDS": "0.02",
            # A review's decisions weighed briefly, a run of the lane stopping after each one:
            # its progress moves in seconds (tests/e2e/test_review_progress.py).
            "REVIEW_ITERATIONS_MIDNIGHT_BAKERY": "300",
            "REVIEW_ITERATIONS_CAKEHALLA": "4",
            "REVIEW_RUN_SECONDS": "0.1",
            "REVIEW_SWEEP_SECONDS": "0.3",
        }
    )
    return env


@contextmanager
def running_site(
    tmp_path_factory: pytest.TempPathFactory, **overrides: str
) -> Iterator[dict[str, str]]:
    """The site under Daphne (site_env, with these settings overridden); yields its base URL and
    the path of its database."""
    if not os.path.exists(CHROMIUM):
        pytest.skip("Debian's Chromium is not installed at /usr/bin/chromium")
    folder = tmp_path_factory.mktemp("site")
    env = {**prepared_site(folder), **overrides}
    db = folder / "db.sqlite3"
    port = free_port()
    daphne = Path(sys.executable).parent / "daphne"
    log = open(tmp_path_factory.mktemp("log") / "daphne.log", "wb")  # noqa: SIM115
    proc = subprocess.Popen(
        [str(daphne), "-b", "127.0.0.1", "-p", str(port), "bakery_site.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        try:
            wait_ready(base, proc)
        except SystemExit as error:
            raise RuntimeError(f"Daphne did not answer: {error}") from None
        yield {"url": base, "db": str(db)}
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        log.close()


@pytest.fixture(scope="session")
def daphne_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The site under Daphne, shared by the session's browser tests (running_site)."""
    with running_site(tmp_path_factory) as site:
        yield site


class Chromium:
    """This process's Playwright and its one headless Chromium, launched at its first browser
    test and kept while its browser tests run one after another (a launch took 1.6 s more than
    a fresh context of a loaded machine, once per module); stopped before any other test, since
    Playwright's loop in this thread would keep an async test from running its own."""

    def __init__(self) -> None:
        self.playwright: Any = None
        self.browser: Any = None

    def get(self) -> Any:
        if self.browser is None:
            from playwright.sync_api import sync_playwright

            self.playwright = sync_playwright().start()
            self.browser = self.playwright.chromium.launch(
                executable_path=CHROMIUM,
                headless=True,
                args=["--no-sandbox", "--disable-background-networking"],
            )
        return self.browser

    def stop(self) -> None:
        if self.browser is not None:
            try:
                self.browser.close()
            finally:
                self.playwright.stop()
                self.browser = self.playwright = None


CHROMIUM_HERE = Chromium()


@pytest.fixture(scope="module")
def browser(daphne_site: dict[str, str]) -> Iterator[object]:
    """Headless Chromium through Playwright (the process's, Chromium above); each module's
    people's pages (its browser contexts) are closed at its end, as a browser of its own was."""
    chromium = CHROMIUM_HERE.get()
    try:
        yield chromium
    finally:
        if CHROMIUM_HERE.browser is chromium:  # not stopped already (pytest_runtest_teardown)
            for context in list(chromium.contexts):
                context.close()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """Once this process's next test is not a browser test (or there is none), Chromium and
    Playwright's loop stop, before any fixture's teardown: the session's (the test databases')
    would meet the loop still marked running in this thread."""
    if nextitem is None or not nextitem.path.is_relative_to(HERE):
        CHROMIUM_HERE.stop()


@pytest.fixture
def artifacts() -> Path:
    """Where screenshots go (gitignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


PAGE_STATE = """() => ({
    url: location.href,
    socket: document.body.dataset.socket || "",
    liveVersion: document.body.dataset.liveVersion || "",
    shown: (document.getElementById("board-live") || {dataset: {}}).dataset.version || "",
    message: (document.getElementById("board-message") || {}).textContent || "",
    board: ((document.getElementById("board") || document.body).innerText || "").slice(0, 1500),
})"""


def pages_at_failure(browser: Any) -> str:
    """What every open page of the module's browser showed when a test failed: its address,
    socket state, the board's version and words (a failure on a loaded CI machine is read from
    this, as its screenshots are not kept)."""
    lines = []
    for n, context in enumerate(browser.contexts):
        for m, page in enumerate(context.pages):
            try:
                state = page.evaluate(PAGE_STATE)
                page.screenshot(path=str(ARTIFACTS / f"failure-{WORKER}-{n}-{m}.png"))
            except Exception as error:  # a closed page says why; the others go on
                state = {"error": str(error)[:200]}
            lines.append(f"page {n}.{m}: {state}")
    return "\n".join(lines)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[Any]:
    """A failed browser test's report carries what its pages showed then (pages_at_failure)."""
    outcome: Any = yield
    report = outcome.get_result()
    browser = getattr(item, "funcargs", {}).get("browser")
    if report.when == "call" and report.failed and browser is not None:
        ARTIFACTS.mkdir(exist_ok=True)
        report.sections.append(("pages at failure", pages_at_failure(browser)))
