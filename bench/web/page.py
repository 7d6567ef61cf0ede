"""A browser page reduced to what htmx and live.js do with it: elements swapped by id.

Pages are parsed by libxml2 (lxml), natively as a browser parses them: a tokenizer in Python
was 60% of the load generator's CPU at 100 tables, and the generator shares the machine it
measures."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from lxml import etree
from lxml.html import HtmlElement

VERSION = re.compile(r'<input[^>]*\bid="board-version"[^>]*>')
VALUE = re.compile(r'\bvalue="(\d+)"')
BOARD_LIVE = re.compile(r'<[^>]*\bid="board-live"[^>]*>')
DATA_VERSION = re.compile(r'\bdata-version="(\d+)"')
DIFF = re.compile(r'<template id="board-diff" data-base="(\d+)" data-version="(\d+)">')
ID = re.compile(r"""\bid\s*=\s*(?:"([^"]*)"|'([^']*)')""")


class Element(HtmlElement):
    """One element of a page, parsed by libxml2 (lxml) as a browser parses natively: what the
    bench reads of it is its tag, its attributes (entities decoded) and the elements below it."""

    @property
    def attrs(self) -> Any:
        """The element's attributes (a live mapping: setting one changes the element)."""
        return self.attrib

    @property
    def id(self) -> str:
        """The element's id ("" if none)."""
        return self.get("id") or ""

    def walk(self) -> Iterator[Element]:
        """This element and every element below it, in document order (no comments)."""
        return self.iter(etree.Element)


WITH_ID = etree.XPath("descendant-or-self::*[@id]")
PARSER = etree.HTMLParser(recover=True, remove_comments=True, no_network=True)
PARSER.set_element_class_lookup(etree.ElementDefaultClassLookup(element=Element))


def parse(text: str) -> list[Element]:
    """The top-level elements of an HTML fragment, as a browser's parser would build them."""
    if not text or text.isspace():
        return []
    body = etree.fromstring(f"<html><body>{text}</body></html>", PARSER).find("body")
    return list(body) if body is not None else []


def document(text: str) -> Element:
    """A whole page (its <html> element), or an empty one."""
    if not text or text.isspace():
        return etree.fromstring("<html><body></body></html>", PARSER)
    return etree.fromstring(text, PARSER)


def pushed_version(html: str) -> int | None:
    """The board version a pushed message carries (`<input id="board-version" value="N">`)."""
    tag = VERSION.search(html)
    found = VALUE.search(tag.group(0)) if tag else None
    return int(found.group(1)) if found else None


class Page:
    """One person's table page: the HTTP answers and the socket's pushes swapped into it."""

    def __init__(self, text: str) -> None:
        self.root = document(text)
        self.ids: dict[str, Element] = {}
        self.generation = 0
        self.gap = False
        self.cached: tuple[int, set[str]] = (-1, set())
        self.index(self.root)
        self.whole_at = self.version() or -1
        self.region_at: dict[str, int] = {}

    def index(self, element: Element) -> None:
        """Note the ids of an element and everything below it."""
        for e in WITH_ID(element):
            self.ids[e.id] = e

    def find(self, element_id: str) -> Element | None:
        """The element with this id on the page (not one swapped out since it was noted)."""
        element = self.ids.get(element_id)
        return element if element is not None and self.shows(element) else None

    def shows(self, element: Element) -> bool:
        """Whether an element is still on the page. A swap notes the ids of what it brings and
        leaves those of what it took out, which this tells apart: walking every swapped-out
        piece for its ids cost the load generator a tenth of its time."""
        ancestors = list(element.iterancestors())  # (a swapped-out piece stays in lxml's document)
        return (ancestors[-1] if ancestors else element) is self.root

    def replace(self, old: Element, new: Element) -> None:
        """Swap an element for another in its place (htmx's outerHTML swap)."""
        parent = old.getparent()
        if parent is None:
            return
        parent.replace(old, new)
        self.index(new)
        self.generation += 1

    def apply(self, html: str, versions_only: bool = False) -> bool:
        """Swap in a piece of board HTML as the page's live.js does; False if it did not fit.

        Each top-level element replaces the page's element with its id. A regions-only piece
        (#board-diff) fits only the board of its base version; a newer one that does not fit sets
        `gap` (the page then fetches the whole board). Any other piece older than the board
        shown brings only its #board-message. `versions_only`: a piece that a later one
        overwrites entirely moves only the version shown (see client.superseding).
        """
        elements = parse(html)
        fits = self.fits(html, elements)
        if fits:
            self.note_swapped(html, elements)
        if versions_only:
            if fits:
                self.move_version(html)
            return fits
        for element in elements:
            old = self.find(element.id) if element.id else None
            if old is not None and (fits or element.id == "board-message"):
                self.replace(old, element)
        return fits

    def fits(self, html: str, elements: list[Element]) -> bool:
        """Whether a piece fits the board shown (live.js's fits())."""
        shown = self.version()
        diff = DIFF.search(html)
        if diff is not None:
            base, version = int(diff.group(1)), int(diff.group(2))
            if shown is None or base == shown:
                return True
            if base < shown < version and self.covers(elements, base):
                return True
            if version > shown:
                self.gap = True
            return False
        tag = BOARD_LIVE.search(html)
        found = DATA_VERSION.search(tag.group(0)) if tag is not None else None
        return found is None or shown is None or int(found.group(1)) >= shown

    def covers(self, elements: list[Element], base: int) -> bool:
        """Whether a regions-only piece from `base` brings every region set since (live.js)."""
        brought = {e.id for e in elements if e.id}
        return all(
            name in brought
            for name, element in self.ids.items()
            if (name.startswith("region-") or name == "board-live")
            and self.shows(element)
            and self.region_at.get(name, self.whole_at) > base
        )

    def note_swapped(self, html: str, elements: list[Element]) -> None:
        """Note the version the regions of a fitting piece were rendered at (live.js)."""
        tag = BOARD_LIVE.search(html)
        found = DATA_VERSION.search(tag.group(0)) if tag is not None else None
        if found is None:
            return
        version = int(found.group(1))
        if DIFF.search(html) is None:
            self.whole_at, self.region_at = version, {}
            return
        for element in elements:
            if element.id:
                self.region_at[element.id] = version

    def move_version(self, html: str) -> None:
        """Set the version shown to the piece's, without swapping anything else in."""
        tag = BOARD_LIVE.search(html)
        found = DATA_VERSION.search(tag.group(0)) if tag is not None else None
        live = self.find("board-live")
        if found is not None and live is not None:
            live.attrs["data-version"] = found.group(1)

    def version(self) -> int | None:
        """The version of the board shown (#board-live's data-version)."""
        live = self.find("board-live")
        value = live.attrs.get("data-version", "") if live is not None else ""
        return int(value) if value.isdigit() else None

    def data(self, element_id: str, name: str) -> str:
        """A data- attribute of an element of the page ("" if absent)."""
        element = self.find(element_id)
        return element.attrs.get(f"data-{name}", "") if element is not None else ""

    def your_move(self) -> bool:
        """Whether the page says it waits for this person's move."""
        live = self.find("board-live")
        return live is not None and live.attrs.get("data-your-move") == "yes"

    def forms(self) -> list[Element]:
        """Every form on the page that htmx posts."""
        return [e for e in self.root.iter("form") if "hx-post" in e.attrib]

    def include(self, selector: str) -> dict[str, str]:
        """The named inputs of an hx-include target (`#id` selectors only)."""
        if not selector.startswith("#"):
            return {}
        element = self.find(selector[1:])
        return inputs(element) if element is not None else {}

    def links(self) -> set[str]:
        """The hrefs of the page's links."""
        if self.cached[0] != self.generation:
            hrefs = {e.attrib["href"] for e in self.root.iter("a") if "href" in e.attrib}
            self.cached = (self.generation, hrefs)
        return self.cached[1]


def inputs(element: Element) -> dict[str, str]:
    """The named, enabled inputs below an element, as a form would send them."""
    out: dict[str, str] = {}
    for e in element.iter("input", "select", "textarea"):
        if "disabled" in e.attrs:
            continue
        kind = e.attrs.get("type", "text")
        if not e.attrs.get("name") or kind in {"submit", "button", "image"}:
            continue
        if kind in {"checkbox", "radio"} and "checked" not in e.attrs:
            continue
        out[e.attrs["name"]] = e.attrs.get("value", "")
    return out


def form_post(page: Page, form: Element, button: Element | None) -> dict[str, str]:
    """What htmx posts for a form: its inputs, the pressed button's name, the hx-include inputs."""
    values = inputs(form)
    if button is not None and button.attrs.get("name"):
        values[button.attrs["name"]] = button.attrs.get("value", "")
    values.update(page.include(form.attrs.get("hx-include", "")))
    return values


def buttons(form: Element) -> list[Element]:
    """The submit buttons of a form that a person can press (not disabled, not aria-disabled)."""
    return [
        e
        for e in form.iter("button")
        if e.attrs.get("type", "submit") == "submit"
        and "disabled" not in e.attrs
        and e.attrs.get("aria-disabled") != "true"
    ]
