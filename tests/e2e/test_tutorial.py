"""A person who never played reads How to play, then finishes the guided first game by pressing
whatever the tutorial points at, on a phone and on a desktop; leaves half-way and comes back by
the lobby's link; and then finds it done on their profile and no longer offered on the lobby.
Midnight Bakery's moves are one tap each; Cakehalla's take several (ingredients then Take, a
card's menu then Buy), and the pointer walks through each tap in turn. On phones (390 and 360 px)
every step is checked: the tag hides none of the pointed control's words or icons, stays within
the screen, and the step leaves the board's headings and most of the screen in sight."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import ARTIFACTS
from tests.e2e.pages import PATIENCE, errors_seen, person, sign_up, version

KIND = "midnight-bakery"
VIEWPORTS = {
    "phone": {"width": 390, "height": 844},
    "small-phone": {"width": 360, "height": 740},
    "desktop": {"width": 1280, "height": 900},
}
# The most of a phone's screen height the sticky step may take, so the board stays in sight.
STEP_SHARE = 0.25
LEAVE_AFTER = 4


def clear_of(page: Any, box: dict[str, float], selector: str) -> None:
    """The box covers none of the words of the board's lines the selector names."""
    words = page.evaluate(
        """selector => Array.from(document.querySelectorAll(selector)).flatMap(line => {
          const range = document.createRange();
          range.selectNodeContents(line);
          const box = r => ({x: r.x, y: r.y, w: r.width, h: r.height});
          return Array.from(range.getClientRects(), box);
        })""",
        selector,
    )
    for line in words:
        apart = (
            box["x"] + box["width"] <= line["x"]
            or line["x"] + line["w"] <= box["x"]
            or box["y"] + box["height"] <= line["y"]
            or line["y"] + line["h"] <= box["y"]
        )
        assert apart, f"the tag covers {selector}: {box} over {line}"


def beside(tag: dict[str, float], box: dict[str, float]) -> bool:
    """Whether the tag sits just above the control, just below it, or on its top edge."""
    above = -1 <= box["y"] - (tag["y"] + tag["height"]) <= 12
    below = -1 <= tag["y"] - (box["y"] + box["height"]) <= 12
    on = box["y"] - tag["height"] / 2 - 1 <= tag["y"] <= box["y"] + box["height"] - tag["height"]
    return above or below or on


# What the learner reads on the control the tag points at: its words and icons (a token's count, a
# card's cost), and, for a card's Buy or Reserve, the card's own (the cost it pays).
TAG_COVERS = """() => {
  const tag = document.getElementById('tutorial-pointer').getBoundingClientRect();
  const target = document.querySelector('#live .tutorial-target');
  const parts = [target];
  const card = target.closest('details.offer');
  if (card && !target.matches('summary')) parts.push(card.querySelector(':scope > summary'));
  // Out of sight: in a closed menu, or a screen reader's words (clipped to 1 px).
  const unseen = element => {
    const box = element.getBoundingClientRect();
    const shown = element.checkVisibility({visibilityProperty: true});
    return !shown || box.width <= 1 || box.height <= 1;
  };
  const ink = [];
  for (const part of parts) {
    const walker = document.createTreeWalker(part, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      if (!walker.currentNode.data.trim() || unseen(walker.currentNode.parentElement)) continue;
      const range = document.createRange();
      range.selectNodeContents(walker.currentNode);
      for (const box of range.getClientRects()) ink.push([walker.currentNode.data.trim(), box]);
    }
    for (const icon of part.querySelectorAll('svg, img')) {
      if (!unseen(icon)) ink.push([icon.tagName + ' icon', icon.getBoundingClientRect()]);
    }
  }
  const over = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const at = box => `${Math.round(box.left)},${Math.round(box.top)}`;
  const problems = ink.filter(([, box]) => box.width && box.height && over(tag, box))
    .map(([what, box]) => `covers ${JSON.stringify(what)} at ${at(box)}`);
  const width = document.documentElement.clientWidth;
  if (tag.left < 0 || tag.right > width) {
    const [left, right] = [tag.left, tag.right].map(Math.round);
    problems.push(`reaches past the screen (${left} to ${right} of ${width})`);
  }
  const wide = document.documentElement.scrollWidth - width;
  if (wide > 0) problems.push(`the page scrolls sideways by ${wide} px`);
  const step = document.getElementById('tutorial-step');
  if (step && over(tag, step.getBoundingClientRect())) problems.push('lies under the step');
  return problems;
}"""


def tag_problems(page: Any, where: str) -> list[str]:
    """What the pointer's tag hides or where it strays, at this tap: it must leave the pointed
    control's words and icons (and its card's) in sight, stay within the screen's width, not sit
    under the step, and the page must not scroll sideways."""
    return [f"{where}: the tag {problem}" for problem in page.evaluate(TAG_COVERS)]


# The heading of the pointed control's section, where the screen holds it with the control
# under the step: whether the step (or the top of the screen) hides it.
HEADING_HIDDEN = """() => {
  const step = document.getElementById('tutorial-step').getBoundingClientRect();
  const target = document.querySelector('#live .tutorial-target');
  const section = target.closest('section');
  const heading = section && section.querySelector('h2');
  if (!heading) return '';
  const top = heading.getBoundingClientRect().top;
  const fits = step.height + 8 + target.getBoundingClientRect().bottom - top + 40 <= innerHeight;
  return fits && top < step.bottom ? heading.textContent.trim() : '';
}"""


def step_problems(page: Any, where: str) -> list[str]:
    """Whether the sticky step takes more of a phone's screen than STEP_SHARE, or hides the
    heading of the pointed control's section where the screen could show both."""
    height = page.viewport_size["height"]
    step = page.locator("#tutorial-step").bounding_box()
    problems = []
    if step is not None and step["height"] > STEP_SHARE * height:
        problems.append(f"{where}: the step is {step['height']:.0f} px of a {height} px screen")
    hidden = page.evaluate(HEADING_HIDDEN)
    if hidden:
        problems.append(f"{where}: the step hides the heading {hidden!r}")
    return problems


def shot(page: Any, name: str) -> None:
    """A screenshot for a person to look at (artifacts/ and /tmp)."""
    for folder in (ARTIFACTS, Path("/tmp")):
        folder.mkdir(exist_ok=True)
        page.screenshot(path=str(folder / f"tutorial-{name}.png"))


def no_sideways_scroll(page: Any) -> None:
    wide = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert wide <= 0, f"the page scrolls sideways by {wide} px"


def pointed(page: Any, before: str | None, problems: list[str] | None = None) -> str:
    """Wait until the step names a new control and the board shows it outlined, with the
    pointer's tag by it in sight; the step's target. On a phone, what the tag hides (and a
    step too tall) goes into problems."""
    page.wait_for_function(
        """before => {
          const step = document.getElementById('tutorial-step');
          const target = document.querySelector('#live .tutorial-target');
          const tag = document.getElementById('tutorial-pointer');
          return step && step.dataset.target && step.dataset.target !== before
            && target && target.matches(step.dataset.target) && tag && !tag.hidden;
        }""",
        arg=before,
    )
    target = str(page.locator("#tutorial-step").get_attribute("data-target"))
    height = page.viewport_size["height"]
    box = page.locator("#live .tutorial-target").bounding_box()
    tag = page.locator("#tutorial-pointer").bounding_box()
    assert box is not None and tag is not None
    assert 0 <= box["y"] < height, "the pointed control is out of sight"
    assert beside(tag, box), f"the tag {tag} is not by the control {box}"
    clear_of(page, tag, "#board .hint")  # "Press a pastry to keep it." stays readable
    if problems is not None:
        problems += tag_problems(page, target) + step_problems(page, target)
    return target


def redrawn_keeps_pointer(page: Any) -> bool:
    """Redraw the whole board as a socket push would (morphed in by live.js) and tell whether
    the control is still outlined right after."""
    return bool(
        page.evaluate(
            """async () => {
              const root = document.getElementById('live');
              const answer = await fetch(root.dataset.board, { headers: { 'HX-Request': 'true' } });
              const html = await answer.text();
              window.bakehouseApply(html);
              return !!document.querySelector('#live .tutorial-target');
            }"""
        )
    )


def press_pointed(page: Any) -> None:
    """Press the outlined control and wait until the table has moved on from it."""
    before = version(page)
    page.locator("#live .tutorial-target").click()
    page.wait_for_function(
        "v => Number(document.getElementById('board-version').value) > Number(v)", arg=before
    )


# Each whole tutorial at a desktop's width and one phone's, the two phones' widths shared
# between them (the quick taps below use all three).
@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_a_newcomer_finishes_the_tutorial_by_following_the_pointer(
    browser: Any, daphne_site: dict[str, str], screen: str
) -> None:
    base = daphne_site["url"]
    phone = screen != "desktop"
    context = browser.new_context(viewport=VIEWPORTS[screen], is_mobile=phone, has_touch=phone)
    page = context.new_page()
    page.set_default_timeout(PATIENCE)
    problems: list[str] | None = [] if phone else None
    failed = errors_seen(page)
    sign_up(page, base, f"learner-{screen}")
    assert page.locator("#tutorial-offer").is_visible()
    no_sideways_scroll(page)
    shot(page, f"{screen}-lobby")

    page.goto(f"{base}/games/rules/{KIND}/")
    page.get_by_role("link", name="Learn by playing").click()
    no_sideways_scroll(page)
    shot(page, f"{screen}-learn")
    page.get_by_role("button", name="Start the guided game").click()
    page.wait_for_function("() => window.bakehouseLive === true")
    table = page.url
    assert "A short night" in page.locator("#tutorial-step").inner_text()

    target: str | None = None
    steps = 0
    while not page.locator("#tutorial-step.done").count():
        target = pointed(page, target, problems)
        if steps == 0:
            assert redrawn_keeps_pointer(page), "a redraw of the board lost the pointer"
        if steps in (0, LEAVE_AFTER) or phone:
            no_sideways_scroll(page)
            shot(page, f"{screen}-step-{steps + 1}")
        if steps == LEAVE_AFTER:
            said = page.locator("#tutorial-step").inner_text()
            page.goto(base + "/")  # away, then back by the lobby's link
            page.get_by_role("button", name="Go on with your Midnight Bakery tutorial").click()
            page.wait_for_url(table)
            page.wait_for_function("() => window.bakehouseLive === true")
            target = pointed(page, None)
            assert page.locator("#tutorial-step").inner_text() == said
            assert "A short night" not in said
        press_pointed(page)
        steps += 1
        assert steps <= 15, "the tutorial runs on past ten picks"
        page.wait_for_function(
            """before => {
              const step = document.getElementById('tutorial-step');
              return step && step.dataset.target !== before;
            }""",
            arg=target,
        )

    assert problems in (None, []), "\n".join(problems or [])
    pointed(page, None)  # the scoring, outlined
    assert page.locator("#region-results .results-card").is_visible()
    assert "Dawn: each case scored" in page.locator("#tutorial-step").inner_text()
    assert steps == 10
    no_sideways_scroll(page)
    shot(page, f"{screen}-scoring")

    page.goto(f"{base}/u/learner-{screen}/")
    assert "Midnight Bakery" in page.locator("#tutorials-done").inner_text()
    shot(page, f"{screen}-profile")
    page.goto(base + "/")
    assert page.get_by_role("button", name="Learn Midnight Bakery").count() == 0
    assert page.get_by_role("button", name="Learn Cakehalla").count() == 1  # not played yet
    assert failed == []
    context.close()


CAKEHALLA_LEAVE_AFTER = 3  # moves made before leaving and coming back


def presses_of(page: Any) -> list[list[str]]:
    """The taps the step names now: [[target, done], ...]."""
    return list(json.loads(page.locator("#tutorial-step").get_attribute("data-presses") or "[]"))


def made(page: Any, done: str) -> bool:
    """Whether a tap's "done" selector matches on the board now."""
    return bool(
        page.evaluate("done => !!document.getElementById('live').querySelector(done)", done)
    )


def tap_pointed(
    page: Any, target: str, done: str, screen: str, name: str, problems: list[str] | None = None
) -> None:
    """Wait until the pointer outlines this tap's control in sight with its tag by it, press
    it, and wait until the tap is made (or, for the move's last tap, the table moved on). On a
    phone, what the tag hides (and a step too tall) goes into problems."""
    page.wait_for_function(
        """target => {
          const element = document.querySelector('#live .tutorial-target');
          const tag = document.getElementById('tutorial-pointer');
          return element && element.matches(target) && tag && !tag.hidden;
        }""",
        arg=target,
    )
    if name:  # taken first, to show a step that fails below
        shot(page, f"cakehalla-{screen}-{name}")
    height = page.viewport_size["height"]
    box = page.locator("#live .tutorial-target").bounding_box()
    tag = page.locator("#tutorial-pointer").bounding_box()
    assert box is not None and tag is not None
    assert 0 <= box["y"] < height, f"{target} is out of sight"
    assert beside(tag, box), f"the tag {tag} is not by the control {box}"
    clear_of(page, tag, "#board .hint, #board .picks")
    if problems is not None:
        problems += tag_problems(page, name) + step_problems(page, name)
    if name:
        no_sideways_scroll(page)
    before = version(page)
    page.locator("#live .tutorial-target").click()
    if done:
        page.wait_for_function(
            "done => !!document.querySelector('#live').querySelector(done)", arg=done
        )
    else:
        page.wait_for_function(
            "v => Number(document.getElementById('board-version').value) > Number(v)", arg=before
        )


@pytest.mark.parametrize("screen", ["small-phone", "desktop"])
def test_a_newcomer_finishes_the_cakehalla_tutorial_tap_by_tap(
    browser: Any, daphne_site: dict[str, str], screen: str
) -> None:
    base = daphne_site["url"]
    phone = screen != "desktop"
    context = browser.new_context(viewport=VIEWPORTS[screen], is_mobile=phone, has_touch=phone)
    page = context.new_page()
    page.set_default_timeout(15_000)
    problems: list[str] | None = [] if phone else None
    failed = errors_seen(page)
    sign_up(page, base, f"baker-{screen}")
    assert page.get_by_role("button", name="Learn Cakehalla").is_visible()

    page.goto(f"{base}/games/rules/cakehalla/")  # reads how to play first
    assert page.get_by_role("heading", name="Cakehalla").first.is_visible()
    page.get_by_role("link", name="Learn by playing").click()
    no_sideways_scroll(page)
    page.get_by_role("button", name="Start the guided game").click()
    page.wait_for_function("() => window.bakehouseLive === true")
    table = page.url
    assert "A game joined part way" in page.locator("#tutorial-step").inner_text()

    moves, taps = 0, 0
    said: list[str] = []
    while not page.locator("#tutorial-step.done").count():
        presses = presses_of(page)
        assert presses, "the step names no control while the game runs"
        said.append(page.locator("#tutorial-step").inner_text())
        if moves == CAKEHALLA_LEAVE_AFTER:
            page.goto(base + "/")  # away, then back by the lobby's link
            page.get_by_role("button", name="Go on with your Cakehalla tutorial").click()
            page.wait_for_url(table)
            page.wait_for_function("() => window.bakehouseLive === true")
            assert page.locator("#tutorial-step").inner_text() == said[-1]
            assert presses_of(page) == presses
        made_now = 0
        for target, done in presses:
            if done and made(page, done):  # Clear, when nothing else is picked
                continue
            made_now += 1
            shown = f"move-{moves + 1}-tap-{made_now}" if moves in (0, 1, 2, 3) or phone else ""
            tap_pointed(page, target, done, screen, shown, problems)
        taps += made_now
        moves += 1
        assert moves <= 10, "the tutorial runs on past ten moves"
        page.wait_for_function(
            """before => {
              const step = document.getElementById('tutorial-step');
              return step && step.dataset.presses !== before
                && (step.dataset.presses !== '[]' || step.classList.contains('done'));
            }""",
            arg=json.dumps(presses),
        )

    assert problems in (None, []), "\n".join(problems or [])
    assert moves == 6 and taps == 17  # 4 + 3 + 2 + 2 + 4 + 2 taps
    page.wait_for_function("() => !!document.querySelector('#live .tutorial-target')")
    assert page.locator("#region-results .results-card").is_visible()
    step = page.locator("#tutorial-step").inner_text()
    assert "fewer cards" in step and "You finished the tutorial" in step
    assert "winner" in page.locator("#region-results").inner_text()
    no_sideways_scroll(page)
    shot(page, f"cakehalla-{screen}-scoring")
    assert any("Saffron" in line for line in said) and any("Matcha Monk" in line for line in said)

    page.goto(f"{base}/u/baker-{screen}/")
    assert "Cakehalla" in page.locator("#tutorials-done").inner_text()
    page.goto(base + "/")
    assert page.get_by_role("button", name="Learn Cakehalla").count() == 0
    assert failed == []
    context.close()


# A quick tap between a move's board and its step (issue 38): the step is held on its way, so the
# window stays open for as long as the test looks. (kind, screen, the tap made in the window)
QUICK_TAPS = [
    ("midnight-bakery", "phone", "#batch-form button.card"),
    ("midnight-bakery", "desktop", "#batch-form button.card"),
    ("cakehalla", "small-phone", "#market-form [data-ing='sugar']"),
]


def learners_moves(db: str, game_id: int, name: str) -> int:
    """How many moves the learner made at the table, as the server stored them."""
    with sqlite3.connect(db) as conn:
        (count,) = conn.execute(
            "SELECT COUNT(*) FROM games_action a JOIN games_seat s"
            " ON s.game_id = a.game_id AND s.position = a.seat"
            " JOIN accounts_user u ON u.id = s.user_id WHERE a.game_id = ? AND u.username = ?",
            (game_id, name),
        ).fetchone()
    return int(count)


@pytest.mark.parametrize(("kind", "screen", "tap"), QUICK_TAPS)
def test_a_tap_before_the_next_step_is_shown_makes_no_move(
    browser: Any, daphne_site: dict[str, str], kind: str, screen: str, tap: str
) -> None:
    base, db = daphne_site["url"], daphne_site["db"]
    phone = screen != "desktop"
    name = f"quick-{kind[:4]}-{screen}"
    page = person(browser, base, name, viewport=VIEWPORTS[screen], is_mobile=phone, has_touch=phone)
    page.goto(f"{base}/games/learn/{kind}/")
    page.get_by_role("button", name="Start the guided game").click()
    page.wait_for_function("() => window.bakehouseLive === true")
    game_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    held: list[Any] = []
    steps = f"**/games/{game_id}/tutorial/"

    def hold(route: Any) -> None:
        held.append(route)

    # The first move, tap by tap as pointed; its step answers are held from its last tap on.
    presses = presses_of(page) if kind == "cakehalla" else [[pointed(page, None), ""]]
    for target, done in presses:
        if done and made(page, done):
            continue
        if not done:
            page.route(steps, hold)
        tap_pointed(page, target, done, screen, "")
    # The table moved on to the learner's next move (the bot's answer in), its step held back.
    page.locator('#board-live[data-your-move="yes"]').wait_for(state="attached")
    assert held, "the page asked for no step after the move"
    assert page.locator("#tutorial-pointer").is_hidden()
    assert page.locator("#live .tutorial-target").count() == 0, "the old step's control outlined"
    shot(page, f"quick-tap-{kind}-{screen}-window")

    page.locator(tap).first.click()  # the quick tap, on the board as it stands
    assert not page.locator("#live.awaiting-push").count(), "the tap sent a move"
    assert page.locator("#live [data-picked='1']").count() == 0, "the tap picked an ingredient"

    for route in held:
        route.continue_()
    page.unroute(steps, hold)
    # The next step, read at the board shown, and its control pointed at once it is in.
    page.wait_for_function(
        """() => {
          const step = document.getElementById('tutorial-step');
          const board = document.getElementById('board-live');
          return step.dataset.version === board.dataset.version
            && !!document.querySelector('#live .tutorial-target')
            && !document.getElementById('tutorial-pointer').hidden;
        }"""
    )
    shot(page, f"quick-tap-{kind}-{screen}-next")
    assert learners_moves(db, game_id, name) == 1
    assert page.locator('#board-live[data-your-move="yes"]').count() == 1

    if kind == "midnight-bakery":
        # A move the table refuses (sent as from a board it moved past) leaves the step as it
        # was: its control is pointed at again, and taken.
        page.evaluate(
            """() => {
              // The version and moment the forms send (#board-live's, one for each move form).
              document.querySelectorAll('#board-live input[name=version]').forEach((i) => {
                i.value = '0';
              });
              document.querySelectorAll('#board-live input[name=moment]').forEach((i) => {
                i.value = 'gone';
              });
            }"""
        )
        page.locator("#live .tutorial-target").click()
        page.locator("#board-message.error").wait_for()
        page.wait_for_function(
            """() => !!document.querySelector('#live .tutorial-target')
              && !document.getElementById('tutorial-pointer').hidden
              && !document.getElementById('live').classList.contains('tutorial-waiting')"""
        )
        assert learners_moves(db, game_id, name) == 1
    page.context.close()
