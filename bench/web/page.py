"""A browser page reduced to what htmx and live.js do with it: elements swapped by id."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
VERSION = re.compile(r'<input[^>]*\bid="board-version"[^>]*>')
VALUE = re.compile(r'\bvalue="(\d+)"')


@dataclass(eq=False)
class Element:
    """One element: its tag, its attributes, its child elements (text is dropped)."""

    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Element] = field(default_factory=list)
    parent: Element | None = None

    def walk(self) -> Iterator[Element]:
        """This element and every element below it, in document order."""
        yield self
        for child in self.children:
            yield from child.walk()

    def find(self, element_id: str) -> Element | None:
        """The element with this id at or below this one."""
        return next((e for e in self.walk() if e.attrs.get("id") == element_id), None)

    def replace_with(self, others: list[Element]) -> None:
        """Swap this element for others in its parent (htmx's outerHTML swap)."""
        if self.parent is None:
            return
        siblings = self.parent.children
        at = siblings.index(self)
        for other in others:
            other.parent = self.parent
        siblings[at : at + 1] = others


class TreeBuilder(HTMLParser):
    """Builds Elements from an HTML fragment, tolerating unclosed tags."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#fragment")
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(
            tag, {k: v if v is not None else "" for k, v in attrs}, [], self.stack[-1]
        )
        self.stack[-1].children.append(element)
        if tag not in VOID:
            self.stack.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(
            tag, {k: v if v is not None else "" for k, v in attrs}, [], self.stack[-1]
        )
        self.stack[-1].children.append(element)

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return


def parse(html: str) -> list[Element]:
    """The top-level elements of an HTML fragment."""
    builder = TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root.children


def pushed_version(html: str) -> int | None:
    """The board version a pushed message carries (`<input id="board-version" value="N">`)."""
    tag = VERSION.search(html)
    found = VALUE.search(tag.group(0)) if tag else None
    return int(found.group(1)) if found else None


class Page:
    """One person's table page: the HTTP answers and the socket's pushes swapped into it."""

    def __init__(self, html: str) -> None:
        self.root = Element("#document")
        for element in parse(html):
            element.parent = self.root
            self.root.children.append(element)

    def find(self, element_id: str) -> Element | None:
        """The element with this id on the page."""
        return self.root.find(element_id)

    def apply(self, html: str) -> bool:
        """Swap in a piece of board HTML as the page's live.js does; False if it was stale.

        Each top-level element replaces the page's element with its id; a piece older than the
        board shown (#board-live's data-version) brings only its #board-message.
        """
        elements = parse(html)
        incoming = next(
            (
                e.attrs.get("data-version", "")
                for top in elements
                for e in top.walk()
                if e.attrs.get("id") == "board-live"
            ),
            None,
        )
        shown = self.version()
        stale = (
            incoming is not None
            and incoming.isdigit()
            and shown is not None
            and int(incoming) < shown
        )
        for element in elements:
            old = self.find(element.attrs.get("id", "")) if element.attrs.get("id") else None
            if old is not None and (not stale or element.attrs["id"] == "board-message"):
                old.replace_with([element])
        return not stale

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
        return [e for e in self.root.walk() if e.tag == "form" and "hx-post" in e.attrs]

    def include(self, selector: str) -> dict[str, str]:
        """The named inputs of an hx-include target (`#id` selectors only)."""
        if not selector.startswith("#"):
            return {}
        element = self.find(selector[1:])
        return inputs(element) if element is not None else {}

    def links(self) -> set[str]:
        """The hrefs of the page's links."""
        return {e.attrs["href"] for e in self.root.walk() if e.tag == "a" and "href" in e.attrs}


def inputs(element: Element) -> dict[str, str]:
    """The named, enabled inputs below an element, as a form would send them."""
    out: dict[str, str] = {}
    for e in element.walk():
        if e.tag not in {"input", "select", "textarea"} or "disabled" in e.attrs:
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
        for e in form.walk()
        if e.tag == "button"
        and e.attrs.get("type", "submit") == "submit"
        and "disabled" not in e.attrs
        and e.attrs.get("aria-disabled") != "true"
    ]
