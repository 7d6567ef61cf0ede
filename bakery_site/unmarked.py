"""Words a person reads in a Django template that are not marked for translation.

A template is read as Django's lexer reads it: its literal text outside {% translate %} and
{% blocktranslate %}, with every tag and variable standing in as a sign with no letters, is then
read as HTML: text outside <script>, <style> and <code> (a program's words), and the attributes
a person reads or hears (title, alt, placeholder, aria-label, a meta description, a button's
value). Any letter left, beyond the names (NAMES), is an unmarked string. A mail's .txt is all
text.

The templates not marked yet are listed in locale/not-yet-marked.txt; the gate grows as it
shrinks (a listed template with nothing unmarked is a problem too: take it off the list).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

from django.template.base import Lexer, TokenType

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE_DIRS = ("templates", "games/*/templates")


def template_files() -> Iterator[Path]:
    """The Django templates (pages and mails); the boards' Jinja2 ones are not marked yet."""
    for pattern in TEMPLATE_DIRS:
        for top in sorted(ROOT.glob(pattern)):
            for path in sorted(top.rglob("*")):
                if path.suffix in (".html", ".txt") and "jinja2" not in path.parts:
                    yield path


NOT_YET = ROOT / "locale" / "not-yet-marked.txt"
NAMES = ("Midnight Bakery", "Cakehalla", "Bakehouse", "NDJSON", "JSON", "API", "UTC")
"""Names, the same in every language."""
SIGN = "\u00a7"
"""What a tag, a variable or a marked block leaves in the text: no letter."""
UNREAD = ("script", "style", "code")
"""Elements whose text is no prose to translate: scripts, styles, a program's words."""
HEARD = {"title", "alt", "placeholder", "aria-label", "aria-description"}
LETTER = re.compile(r"[^\W\d_]")
OPENS = ("blocktranslate", "blocktrans", "comment")
CLOSES = ("endblocktranslate", "endblocktrans", "endcomment")


def literal_text(source: str) -> str:
    """The template's own text, every tag and variable and marked block a SIGN."""
    out: list[str] = []
    inside = 0
    for token in Lexer(source).tokenize():
        word = token.contents.split(" ", 1)[0] if token.token_type == TokenType.BLOCK else ""
        if word in OPENS:
            inside += 1
        elif word in CLOSES:
            inside -= 1
        if token.token_type == TokenType.TEXT and not inside:
            out.append(token.contents)
        elif token.token_type != TokenType.COMMENT:
            out.append(SIGN)
    return "".join(out)


def has_words(text: str) -> bool:
    for name in NAMES:
        text = text.replace(name, "")
    return LETTER.search(text) is not None


class ReadText(HTMLParser):
    """The pieces of an HTML text a person reads or hears."""

    def __init__(self) -> None:
        super().__init__()
        self.pieces: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in UNREAD:
            self.hidden += 1
        values = dict(attrs)
        for name, value in attrs:
            if value and (
                name in HEARD
                or (name == "content" and values.get("name") == "description")
                or (name == "value" and tag == "input" and values.get("type") == "submit")
            ):
                self.pieces.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in UNREAD:
            self.hidden = max(0, self.hidden - 1)

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.pieces.append(data)


def unmarked_in(path: Path) -> list[str]:
    """The unmarked strings of one template, as they read (tags and variables as SIGN)."""
    text = literal_text(path.read_text(encoding="utf-8"))
    if path.suffix == ".txt":
        pieces = text.splitlines()
    else:
        reader = ReadText()
        reader.feed(text)
        reader.close()
        pieces = reader.pieces
    return [" ".join(piece.split()) for piece in pieces if has_words(piece)]


def not_yet_marked() -> set[str]:
    lines = NOT_YET.read_text(encoding="utf-8").splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


def unmarked_strings() -> list[str]:
    """One sentence for each unmarked string of a template said to be marked, and for each
    template on the not-yet list with nothing left to mark."""
    waiting = not_yet_marked()
    said: list[str] = []
    for path in template_files():
        name = path.relative_to(ROOT).as_posix()
        found = unmarked_in(path)
        if name in waiting and not found:
            said.append(f"{name} has nothing unmarked: take it off {NOT_YET.name}.")
        elif name not in waiting:
            said += [f"{name}: {piece!r} is not marked for translation." for piece in found]
    return said
