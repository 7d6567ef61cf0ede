"""Words a person reads in a template (Django's or the boards' Jinja2) not marked for translation.

A template is read as its language's lexer reads it: its literal text outside {% translate %} and
{% blocktranslate %} (Jinja2: {% trans %}), with every tag and variable standing in as a sign with
no letters, is then
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
    """The Django templates (pages and mails)."""
    for pattern in TEMPLATE_DIRS:
        for top in sorted(ROOT.glob(pattern)):
            for path in sorted(top.rglob("*")):
                if path.suffix in (".html", ".txt") and "jinja2" not in path.parts:
                    yield path


JINJA_DIR = ROOT / "templates" / "jinja2"


def jinja_files() -> Iterator[Path]:
    """The boards' Jinja2 templates (every region, its pieces, the replay's hands)."""
    yield from sorted(p for p in JINJA_DIR.rglob("*.html"))


def all_templates() -> Iterator[Path]:
    """Every template a person reads words of, Django's and the boards'."""
    yield from template_files()
    yield from jinja_files()


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


def jinja_literal_text(source: str) -> str:
    """A Jinja2 template's own text, every tag, variable and {% trans %} block a SIGN."""
    from jinja2 import Environment

    env = Environment(extensions=["jinja2.ext.i18n"])
    out: list[str] = []
    inside = 0
    after_begin = False
    for _, kind, value in env.lex(source):
        if kind == "whitespace":
            continue
        if kind == "name" and after_begin:
            inside += value == "trans"
            inside -= value == "endtrans"
        after_begin = kind == "block_begin"
        if kind == "data" and not inside:
            out.append(value)
        elif kind in ("block_begin", "variable_begin"):
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


def unmarked_in(path: Path, jinja: bool | None = None) -> list[str]:
    """The unmarked strings of one template, as they read (tags and variables as SIGN); a
    template is read as Jinja2 if it says so (`jinja`), else if it sits under JINJA_DIR."""
    source = path.read_text(encoding="utf-8")
    if jinja is None:
        jinja = JINJA_DIR in path.parents
    text = jinja_literal_text(source) if jinja else literal_text(source)
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
    for path in all_templates():
        name = path.relative_to(ROOT).as_posix()
        found = unmarked_in(path)
        if name in waiting and not found:
            said.append(f"{name} has nothing unmarked: take it off {NOT_YET.name}.")
        elif name not in waiting:
            said += [f"{name}: {piece!r} is not marked for translation." for piece in found]
    return said
