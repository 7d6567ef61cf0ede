"""The translators' gate (make check runs it too): French and German whole, compiled, and every
word of a marked template marked; and the gate itself fails on each fault it names."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from bakery_site import catalogues
from bakery_site.unmarked import ROOT, all_templates, not_yet_marked, unmarked_in, unmarked_strings


@pytest.fixture(scope="module")
def sources() -> Catalog:
    return catalogues.extracted()


@pytest.mark.parametrize("locale", catalogues.LOCALES)
def test_each_shipped_language_is_whole_and_compiled(locale: str, sources: Catalog) -> None:
    assert catalogues.problems(locale, sources) == []


def test_every_word_of_a_marked_template_is_marked() -> None:
    assert unmarked_strings() == []


def test_the_not_yet_list_names_only_templates_that_exist() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in all_templates()}
    assert not_yet_marked() <= names


def po(text: str) -> Catalog:
    header = 'msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'
    return read_po(io.StringIO(header + text), locale="fr")


def source(*ids: str) -> Catalog:
    catalog = Catalog()
    for msgid in ids:
        catalog.add(msgid)
    return catalog


def test_the_gate_passes_a_whole_catalogue() -> None:
    catalog = po('msgid "Lobby"\nmsgstr "Salon"\n')
    assert catalogues.catalog_problems("fr", catalog, source("Lobby")) == []


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ('msgid "Lobby"\nmsgstr ""\n', "'Lobby' is not translated"),
        ('#, fuzzy\nmsgid "Lobby"\nmsgstr "Salon"\n', "'Lobby' is fuzzy"),
        ('msgid "Lobby"\nmsgstr "Salon"\n\nmsgid "Gone"\nmsgstr "Parti"\n', "'Gone' is obsolete"),
        (
            'msgid "Lobby"\nmsgstr "Salon"\n\n#~ msgid "Old"\n#~ msgstr "Vieux"\n',
            "'Old' is an obsolete",
        ),
        ("", "'Lobby' is not in the catalogue"),
        (
            'msgid "Lobby"\nmsgstr "Salon"\n\nmsgid "a seat"\nmsgid_plural "%(n)s seats"\n'
            'msgstr[0] "une place"\nmsgstr[1] ""\n',
            "is not translated",
        ),
    ],
)
def test_the_gate_fails_on_each_fault(text: str, fault: str) -> None:
    sources = source("Lobby")
    if "a seat" in text:
        sources.add(("a seat", "%(n)s seats"))
    said = catalogues.catalog_problems("fr", po(text), sources)
    assert any(fault in line for line in said), said


@pytest.mark.parametrize(
    ("template", "found"),
    [
        ("<p>Hello {{ name }}</p>", ["Hello §"]),
        ('<a title="Open it" href="{% url \'x\' %}">{% translate "Go" %}</a>', ["Open it"]),
        ('<button aria-label="Close">&times;</button>', ["Close"]),
        ('<input type="submit" value="Send">', ["Send"]),
        ("{% blocktranslate %}Hello {{ name }}{% endblocktranslate %} <b>{{ n }}</b>", []),
        ("<script>var words = 'not read';</script>{# a comment #}<p>Bakehouse · {{ x }}</p>", []),
    ],
)
def test_the_scanner_finds_the_words_a_person_reads(
    tmp_path: Path, template: str, found: list[str]
) -> None:
    path = tmp_path / "page.html"
    path.write_text("{% load i18n %}" + template, encoding="utf-8")
    assert unmarked_in(path) == found


def test_the_scanner_reads_a_mail_as_text(tmp_path: Path) -> None:
    path = tmp_path / "mail.txt"
    path.write_text("{% load i18n %}{% translate 'Hello' %}\nSee you {{ name }}\n", "utf-8")
    assert unmarked_in(path) == ["See you §"]


@pytest.mark.parametrize(
    ("template", "found"),
    [
        ("<p>Hello {{ name }}</p>", ["Hello §"]),
        ('<p title="Open it">{{ _("Go") }}</p>', ["Open it"]),
        (
            "{% trans n=x %}{{ n }} seat{% pluralize %}{{ n }} seats{% endtrans %} <b>{{ n }}</b>",
            [],
        ),
        ("{%- trans -%} Hello {%- endtrans %} {# a note #}<p>Cakehalla · {{ x }}</p>", []),
        ('<button aria-label="{{ _("Close") }}">{% if x %}Shut{% endif %}</button>', ["§Shut§"]),
    ],
)
def test_the_scanner_reads_a_board_template_as_jinja(
    tmp_path: Path, template: str, found: list[str]
) -> None:
    path = tmp_path / "_region.html"
    path.write_text(template, encoding="utf-8")
    assert unmarked_in(path, jinja=True) == found
