"""The soak's people: its sizes, what it counts, and each person's browser outside a table.

A person is a bench.web.client.Person (cookies, the page shown, a table's socket) with what they
remember between their visits (Someone). Pages are loaded and forms posted as a browser does:
redirects followed, a form's own inputs and the button pressed, htmx's buttons with their
hx-vals; what the site says in words (Django's messages, a refused tap) is read from the page.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from dataclasses import dataclass, field

import httpx

from bench.web.client import Person, Tally, selects
from bench.web.page import Element, Page, inputs

REDIRECTS = 5
REFUSED = {400, 403, 409, 429}  # a refusal in words (services.ServiceError and its kinds)


@dataclass
class Config:
    """The sizes of a soak."""

    people: int
    minutes: float
    sample: float
    think: float
    timeout: float
    game_minutes: float
    seed: int
    setup: str


def config() -> Config:
    """Read the sizes from the environment."""
    env = os.environ.get
    return Config(
        people=int(env("BENCH_SOAK_PEOPLE", "6")),
        minutes=float(env("BENCH_SOAK_MINUTES", "60")),
        sample=float(env("BENCH_SOAK_SAMPLE", "30")),
        think=float(env("BENCH_SOAK_THINK", "0.3")),
        timeout=float(env("BENCH_SOAK_TIMEOUT", "10")),
        game_minutes=float(env("BENCH_SOAK_GAME_MINUTES", "10")),
        seed=int(env("BENCH_SOAK_SEED", "1")),
        setup=env("BENCH_SOAK_SETUP", "postgres"),
    )


@dataclass
class Soak:
    """What the soak counts, shared by every person: per kind of visit (quick games,
    notifications, ...) the visits made, what they did, and a Tally of its tables' moves, the
    refusals told in words and the errors (HTTP, socket)."""

    visits: Counter[str] = field(default_factory=Counter)
    did: dict[str, Counter[str]] = field(default_factory=dict)
    tallies: dict[str, Tally] = field(default_factory=dict)
    samples: list[tuple[float, float, int, int]] = field(default_factory=list)

    def tally(self, kind: str) -> Tally:
        """The moves, refusals and errors of this kind of visit."""
        return self.tallies.setdefault(kind, Tally())

    def count(self, kind: str, what: str, n: int = 1) -> None:
        """Count something a visit of this kind did."""
        self.did.setdefault(kind, Counter())[what] += n

    def counted(self, kind: str, what: str) -> int:
        """How many times a visit of this kind did this so far."""
        return self.did.get(kind, Counter())[what]

    def refused(self, kind: str, words: str) -> None:
        """A refusal the site told in words (two people's taps crossing, a limit)."""
        self.tally(kind).refused[words[:70]] += 1

    def error(self, kind: str, what: str) -> None:
        """Something that should not happen: an HTTP error, a page without what it offers."""
        self.tally(kind).errors[what[:80]] += 1

    def errors(self, kind: str | None = None) -> int:
        """The errors so far, of one kind or of all."""
        kinds = [kind] if kind is not None else list(self.tallies)
        return sum(sum(self.tally(k).errors.values()) for k in kinds)

    @property
    def moves(self) -> int:
        """The people's moves the site took so far, at every kind of table."""
        return sum(sum(t.accepted.values()) for t in self.tallies.values())

    @property
    def games(self) -> int:
        """The games finished so far (quick games, tutorials, turn-based tables)."""
        return sum(c["finished"] for c in self.did.values())


@dataclass
class Someone:
    """One person of the soak, and what they remember between visits."""

    person: Person
    others: list[str]  # the other people's names (whom they may befriend)
    rng: random.Random
    asked_at: list[float] = field(default_factory=list)  # their friend requests' times
    waited: Counter[int] = field(default_factory=Counter)  # visits a table they host waited
    tables: int = 0  # tables sat at so far (each game's moves draw from its own stream)

    @property
    def name(self) -> str:
        """Their username."""
        return self.person.name

    def game_rng(self, seed: int) -> random.Random:
        """A stream for the next table's moves."""
        self.tables += 1
        return random.Random(f"{seed}-{self.name}-{self.tables}")


async def browse(person: Person, url: str) -> str:
    """Load a page as the browser does, following redirects; the URL it landed on."""
    for _ in range(REDIRECTS):
        answer = await person.http.get(url)
        if not answer.is_redirect:
            answer.raise_for_status()
            person.show(url, answer.text)
            return url
        url = answer.headers["location"]
    raise RuntimeError(f"more than {REDIRECTS} redirects, last to {url}")


async def submit(person: Person, form: Element, button: Element | None = None) -> str:
    """Post a form as the browser does (its inputs, the pressed button's name and value) and
    follow the answer's redirect; the URL of the page it landed on."""
    data = inputs(form) | selects(form)
    if button is not None and button.attrs.get("name"):
        data[button.attrs["name"]] = button.attrs.get("value", "")
    action = form.attrs.get("action") or person.url
    referer = {"Referer": person.base + person.url}
    answer = await person.http.post(action, data=data, headers=referer)
    if answer.is_redirect:
        return await browse(person, answer.headers["location"])
    answer.raise_for_status()
    person.show(person.url, answer.text)
    return person.url


async def press(person: Person, element: Element, target: str = "board") -> httpx.Response:
    """Press an htmx button (hx-post with its hx-vals) or submit an htmx form, as the page does;
    the answer is swapped into the page."""
    if element.tag == "form":
        data = inputs(element) | selects(element)
    else:
        data = {k: str(v) for k, v in json.loads(element.attrs.get("hx-vals") or "{}").items()}
    return await person.hx_post(element.attrs["hx-post"], data, target)


def took(answer: httpx.Response, soak: Soak, kind: str, what: str) -> bool:
    """Whether the site took a press; a refusal in words is counted, an error raised."""
    if answer.status_code in REFUSED:
        soak.refused(kind, f"{what}: {answer.status_code}")
        return False
    answer.raise_for_status()
    return True


def said(page: Page) -> list[str]:
    """What the page says in Django's messages (the list above its content)."""
    return [
        " ".join(li.text_content().split())
        for ul in page.root.iter("ul")
        if "messages" in (ul.attrs.get("class") or "").split()
        for li in ul.iter("li")
    ]


def button_to(page: Page, action: str) -> Element | None:
    """The page's enabled htmx control that posts to a URL ending in `action`."""
    return next(
        (
            e
            for e in page.root.walk()
            if e.attrs.get("hx-post", "").endswith(action) and "disabled" not in e.attrs
        ),
        None,
    )


def form_to(page: Page, action: str) -> Element | None:
    """The page's (plain) form that posts to a URL ending in `action`."""
    return next(
        (f for f in page.root.iter("form") if f.attrs.get("action", "").endswith(action)), None
    )
