"""The translators' catalogues: the marked strings extracted, the languages' .po files updated and
compiled, and the checks `make check` runs on them. Babel, in pure Python, so a fresh clone needs
no gettext tools; the compiled .mo files are in the repository, checked against their .po.

    python -m bakery_site.catalogues messages   # `make messages`: extract, update, compile
    python -m bakery_site.catalogues check      # `make check`: exits 1 with each problem

The check also fails on an unmarked sentence of a template (bakery_site/unmarked.py) or of the
app's Python code (bakery_site/unmarked_code.py).

Django templates are read through Django's own templatize (what makemessages hands xgettext),
then Babel's Python extractor; Python code for the gettext family, lazy ones too; the boards'
Jinja2 templates by Jinja2's own extractor ({% trans %} blocks trimmed, as the boards render
them: games/boards/jinja.py).
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TypeAlias

from babel.messages.catalog import Catalog
from babel.messages.catalog import Message as Message_
from babel.messages.extract import extract
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po, write_po
from django.utils.translation.template import templatize

from bakery_site.unmarked import ROOT, jinja_files, template_files, unmarked_strings
from bakery_site.unmarked_code import unmarked_code

LOCALES = ("fr", "de")
"""The shipped languages besides English, the source (settings.LANGUAGES)."""
CODE = ("accounts", "bakery_site", "games")
KEYWORDS = {
    "gettext": None,
    "gettext_lazy": None,
    "gettext_noop": None,
    "N_": None,
    "ngettext_noop": (1, 2),  # a plural marked where it is not said yet (games/engines/errors.py)
    "_": None,
    "ngettext": (1, 2),
    "ngettext_lazy": (1, 2),
    "pgettext": ((1, "c"), 2),
    "pgettext_lazy": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "npgettext_lazy": ((1, "c"), 2, 3),
}
COMMENT_TAGS = ("Translators:",)
JINJA = "jinja2.ext:babel_extract"
JINJA_OPTIONS = {"trimmed": "true", "newstyle_gettext": "true"}

Message: TypeAlias = tuple[str | tuple[str, ...], str | None]
"""A catalogue's key: the msgid (singular and plural for a plural) and its context."""


def po_path(locale: str) -> Path:
    return ROOT / "locale" / locale / "LC_MESSAGES" / "django.po"


def python_files() -> Iterator[Path]:
    for top in CODE:
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = path.relative_to(ROOT).parts
            if "migrations" not in parts and "tests" not in parts:
                yield path


def extracted() -> Catalog:
    """Every marked string of the code and the templates, with where it is."""
    catalog = Catalog(project="Bakehouse", fuzzy=False)
    sources: list[tuple[Path, bytes]] = [(p, p.read_bytes()) for p in python_files()]
    for path in template_files():
        text = templatize(path.read_text(encoding="utf-8"), origin=str(path))
        sources.append((path, text.encode("utf-8")))
    for path, source in sources:
        found = extract("python", io.BytesIO(source), KEYWORDS, COMMENT_TAGS)
        add(catalog, path, found)
    for path in jinja_files():
        with path.open("rb") as template:
            found = extract(JINJA, template, KEYWORDS, COMMENT_TAGS, JINJA_OPTIONS)
            add(catalog, path, found)
    return catalog


def add(catalog: Catalog, path: Path, found: Iterable[tuple[int, Any, list[str], Any]]) -> None:
    """The messages found in one source added to the catalogue, with where each is."""
    for lineno, message, comments, context in found:
        where = (path.relative_to(ROOT).as_posix(), lineno)
        catalog.add(message, locations=[where], auto_comments=comments, context=context)


def read(locale: str) -> Catalog:
    with po_path(locale).open("rb") as po:
        return read_po(po, locale=locale)


def messages() -> None:
    """`make messages`: each language's .po brought up to the sources (new strings empty, a
    changed one fuzzy with its old translation, removed ones dropped), then compiled."""
    template = extracted()
    for locale in LOCALES:
        path = po_path(locale)
        path.parent.mkdir(parents=True, exist_ok=True)
        new = Catalog(locale=locale, project="Bakehouse", fuzzy=False)
        catalog = read(locale) if path.exists() else new
        catalog.update(template, update_creation_date=False)
        with path.open("wb") as po:
            write_po(po, catalog, width=100, ignore_obsolete=True, sort_by_file=True)
        compile_mo(locale)


def compile_mo(locale: str) -> None:
    """The .mo of a language's .po: its translated messages only (Babel would fill an
    untranslated plural with the English, which the check below could not tell apart)."""
    catalog = read(locale)
    done = translated(catalog)
    for message in list(catalog):
        if message.id and key(message) not in done:
            catalog.delete(message.id, context=message.context)
    with po_path(locale).with_suffix(".mo").open("wb") as mo:
        write_mo(mo, catalog)


def key(message: Message_) -> Message:
    """A message's msgid (both forms of a plural) and context, as .po and .mo files both read."""
    msgid, context = message.id, message.context
    if isinstance(context, bytes):  # Babel's read_mo leaves a context undecoded
        context = context.decode("utf-8")
    return (tuple(msgid) if isinstance(msgid, list | tuple) else msgid), context


def translated(catalog: Catalog) -> dict[Message, object]:
    """What a compiled catalogue says: each translated message's translation."""
    found: dict[Message, object] = {}
    for m in catalog:
        strings = tuple(m.string) if isinstance(m.string, list | tuple) else (m.string,)
        if m.id and all(strings) and not m.fuzzy:
            found[key(m)] = strings
    return found


def problems(locale: str, sources: Catalog) -> list[str]:
    """What keeps a language from shipping, one sentence each: its .po's problems (below), and a
    .mo that is not its .po compiled."""
    path = po_path(locale).relative_to(ROOT)
    if not po_path(locale).exists():
        return [f"{path} is missing: run `make messages`."]
    catalog = read(locale)
    said = catalog_problems(str(path), catalog, sources)
    mo = po_path(locale).with_suffix(".mo")
    with mo.open("rb") as compiled:
        if translated(read_mo(compiled)) != translated(catalog):
            said.append(f"{mo.relative_to(ROOT)} is not its .po compiled: run `make messages`.")
    return said


def catalog_problems(name: str, catalog: Catalog, sources: Catalog) -> list[str]:
    """A catalogue's problems against the sources' strings: a string missing from it or left
    untranslated (a plural form empty too), a fuzzy one, an obsolete one (in the catalogue, gone
    from the sources, or kept as a #~ entry)."""
    said: list[str] = []
    wanted = {key(m) for m in sources if m.id}
    have = {key(m): m for m in catalog if m.id}
    for k in sorted(wanted - set(have), key=str):
        said.append(f"{name}: {k[0]!r} is not in the catalogue: run `make messages`.")
    for k in sorted(set(have) - wanted, key=str):
        said.append(f"{name}: {k[0]!r} is obsolete (no source has it): run `make messages`.")
    for old in catalog.obsolete.values():
        said.append(f"{name}: {old.id!r} is an obsolete (#~) entry: delete it.")
    for k, m in have.items():
        strings = m.string if isinstance(m.string, list | tuple) else [m.string]
        if m.fuzzy:
            said.append(f"{name}: {k[0]!r} is fuzzy: check its translation, drop the flag.")
        elif not all(strings):
            said.append(f"{name}: {k[0]!r} is not translated.")
    return said


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else ""
    if command == "messages":
        messages()
        return 0
    if command == "check":
        sources = extracted()
        said = [p for locale in LOCALES for p in problems(locale, sources)]
        said += unmarked_strings()
        said += unmarked_code()
        print(
            "\n".join(said)
            or "The catalogues are whole; every template string and code sentence is marked."
        )
        return 1 if said else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bakery_site.settings")
    django.setup()  # templatize reads the template engine's settings
    sys.exit(main(sys.argv))
