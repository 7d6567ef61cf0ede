"""A table wider than a phone, framed the same everywhere: the pages' {% wide_table %} and the
boards' wide_table macro put it in its sideways-scrolling box and add the hint right after it
(static/css/site.css shows the hint only as the box's next sibling)."""

from __future__ import annotations

import re

import pytest
from django.template import TemplateSyntaxError, engines
from django.utils import translation

from games.boards.jinja import board_environment

TABLE = "<table><tr><td>{{ cell }}</td></tr></table>"


def pages(source: str, **context: object) -> str:
    return engines["django"].from_string(source).render(context)


def squeezed(html: str) -> str:
    return re.sub(r">\s+<", "><", html.strip())


def test_a_pages_wide_table_is_boxed_and_followed_by_its_hint() -> None:
    html = pages(
        "{% load wide_table %}{% wide_table %}" + TABLE + "{% endwide_table %}", cell="<b>"
    )
    assert squeezed(html) == (
        '<div class="table-scroll"><table><tr><td>&lt;b&gt;</td></tr></table></div>'
        '<p class="scroll-hint muted small" aria-hidden="true">'
        "Swipe sideways for every column &rarr;</p>"
    )


def test_the_pages_hint_speaks_the_readers_language() -> None:
    source = "{% load wide_table %}{% wide_table %}" + TABLE + "{% endwide_table %}"
    with translation.override("fr"):
        html = pages(source, cell=1)
    assert "Faites glisser pour voir toutes les colonnes" in html


def test_the_tag_takes_no_arguments() -> None:
    with pytest.raises(TemplateSyntaxError, match="takes no arguments"):
        pages("{% load wide_table %}{% wide_table 'x' %}<table></table>{% endwide_table %}")


def test_a_boards_wide_table_is_a_named_focusable_region_followed_by_its_hint() -> None:
    template = board_environment().from_string(
        '{% call wide_table("Scores & places") %}' + TABLE + "{% endcall %}"
    )
    assert squeezed(template.render(cell="<b>")) == (
        '<div class="table-scroll" tabindex="0" role="region" aria-label="Scores &amp; places">'
        "<table><tr><td>&lt;b&gt;</td></tr></table></div>"
        '<p class="scroll-hint muted small" aria-hidden="true">'
        "Swipe sideways for every column →</p>"
    )
