"""The boards' constant words translated when a template is compiled, once per language
(games/boards/folding.py): folded where they are constants, calls where they are not, and the
same HTML as the runtime calls give."""

from __future__ import annotations

from typing import Any

import jinja2
import pytest
from django.utils import translation
from markupsafe import Markup

from games.boards import folding, jinja, pieces

TEMPLATES = {
    "constant.html": "<p>{% trans %}(you){% endtrans %} {{ _('(bot account)') }}</p>",
    "variable.html": "<p>{% trans who=who %}{{ who }} waits{% endtrans %}</p>",
    "plural.html": (
        "<p>{% trans count=n %}{{ count }} card{% pluralize count %}"
        "{{ count }} cards{% endtrans %}</p>"
    ),
    "plurals.html": (
        "{{ ngettext('%(num)s card', '%(num)s cards', n) }}|"
        "{{ ngettext('%(count)s card', '%(count)s cards', n, count=n) }}|"
        "{{ npgettext('cake', '%(num)s tier of %(card)s', '%(num)s tiers', n, card=card) }}|"
        "{% trans count=n, card=card %}{{ count }} of {{ card }} 5%{% pluralize count %}"
        "{{ count }} of {{ card }}{% endtrans %}"
    ),
    "bound.html": (
        "{% for _ in [1] %}{{ gettext('(you)') }}{% endfor %}"
        "{% macro pgettext(a, b) %}[{{ b }}]{% endmacro %}{{ pgettext('x', '(you)') }}"
    ),
    "escaping.html": (
        "<p>{% trans %}Salt & <b>pepper</b> 100%{% endtrans %}|"
        "{{ _('a < b & c, 5%%') }}|{{ gettext('%(x)s & 50%% <i>', x=x) }}|"
        "{% trans v=v %}50% of {{ v }} & <more>{% endtrans %}|"
        "{{ pgettext('cake', 'Tier < 1') }}</p>"
    ),
    "include.html": "<div>{% include 'constant.html' %}</div>",
    "not_cut.html": (
        "{{ _('Keep %(card)s', card=names|join(', ')) }}|"
        "{{ ngettext('%(count)s card', '%(count)s cards', cards|sum, count=cards|sum) }}|"
        "{{ piece_words(_('Keep %(card)s', card=who)) }}"
    ),
}


def board_env() -> jinja.BoardEnvironment:
    env = jinja.environment(loader=jinja2.DictLoader(TEMPLATES), autoescape=True)
    assert isinstance(env, jinja.BoardEnvironment)
    return env


def render(env: jinja.BoardEnvironment, name: str, language: str, **values: Any) -> str:
    """The template rendered as a board's region is: in `language`, compiled in it."""
    with translation.override(language), pieces.speaking(language):
        return str(jinja.render_template(env.template(name), values))


def runtime(env: jinja.BoardEnvironment, name: str, language: str, **values: Any) -> str:
    """The same template compiled without folding: every word a gettext call at render."""
    with translation.override(language), pieces.speaking(language):
        template = env.from_string(TEMPLATES[name])
        return str(jinja.render_template(template, values))


def refusing(*args: object, **kwargs: object) -> None:
    raise AssertionError(f"gettext called at render: {args}")


def test_a_constant_is_folded_into_each_language() -> None:
    env = board_env()
    english = render(env, "constant.html", "en")
    french = render(env, "constant.html", "fr")
    german = render(env, "constant.html", "de")
    # Rendered again with every gettext refusing: the words are in the compiled code.
    for name in ("gettext", "_", "pgettext", "ngettext"):
        env.globals[name] = refusing
    assert render(env, "constant.html", "en") == english == "<p>(you) (bot account)</p>"
    assert render(env, "constant.html", "fr") == french == "<p>(vous) (compte bot)</p>"
    assert render(env, "constant.html", "de") == german == "<p>(du) (Bot-Konto)</p>"
    assert {key[0] for key in env.compiled} == {"en", "fr", "de"}


def test_an_include_is_compiled_in_the_viewers_language() -> None:
    env = board_env()
    assert render(env, "include.html", "de") == "<div><p>(du) (Bot-Konto)</p></div>"
    assert render(env, "include.html", "fr") == "<div><p>(vous) (compte bot)</p></div>"


def test_a_block_with_a_variable_is_not_folded_into_text() -> None:
    env = board_env()
    source = env.compile(env._parse(TEMPLATES["variable.html"], "v", None), raw=True)
    assert "gettext" in source  # the unfolded code calls it
    assert render(env, "variable.html", "en", who="Ada") == "<p>Ada waits</p>"
    assert render(env, "variable.html", "en", who="<Bo>") == "<p>&lt;Bo&gt; waits</p>"
    compiled = env.compiled[("en", "variable.html")]
    assert compiled is not None
    env.globals["gettext"] = refusing  # folded to the words, the variable put in its place
    env.globals["fill_words"] = refusing
    assert render(env, "variable.html", "en", who="Cy") == "<p>Cy waits</p>"


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_folded_words_with_variables_are_written_into_the_template_as_its_own_text(
    language: str,
) -> None:
    env = board_env()
    render(env, "plurals.html", language, n=2, card="x")
    source = env.compile(env._parse(TEMPLATES["plurals.html"], "p", None), raw=True)
    assert "ngettext" in source  # unfolded, they are calls
    for name in ("gettext", "_", "pgettext", "ngettext", "npgettext", "fill_words"):
        env.globals[name] = refusing
    env.globals["plural_words"] = refusing  # what a plural was folded to before (a call)
    # Folded, every one of them is the template's own text and output: nothing is called.
    assert render(env, "plurals.html", language, n=2, card="<b>") == runtime(
        board_env(), "plurals.html", language, n=2, card="<b>"
    )


def test_a_call_whose_variables_are_more_than_reads_is_filled_at_render() -> None:
    env = board_env()
    env.globals["piece_words"] = lambda words: words
    values = {"names": ["<Ada>", "Bo"], "cards": [1, 1], "who": "Cy"}
    folded = render(env, "not_cut.html", "fr", **values)
    assert folded == runtime(env, "not_cut.html", "fr", **values)
    assert folded == "Garder : &lt;Ada&gt;, Bo|2 cartes|Garder : Cy"


def test_a_plural_is_folded_to_its_forms_and_picks_one_by_the_count_at_render() -> None:
    env = board_env()
    for name in ("gettext", "_", "pgettext", "ngettext", "npgettext", "fill_words"):
        env.globals[name] = refusing
    # French says 0 in the singular, English and German in the plural (each catalogue's rule).
    assert [render(env, "plural.html", "fr", n=n) for n in (0, 1, 2)] == [
        "<p>0 carte</p>",
        "<p>1 carte</p>",
        "<p>2 cartes</p>",
    ]
    assert [render(env, "plural.html", "de", n=n) for n in (0, 1, 2)] == [
        "<p>0 Karten</p>",
        "<p>1 Karte</p>",
        "<p>2 Karten</p>",
    ]
    assert [render(env, "plural.html", "en", n=n) for n in (0, 1, 2)] == [
        "<p>0 cards</p>",
        "<p>1 card</p>",
        "<p>2 cards</p>",
    ]


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_a_plural_says_what_the_runtime_call_says(language: str) -> None:
    env = board_env()
    for n in (0, 1, 2, 21):
        values = {"n": n, "card": "<b>&"}
        folded = render(env, "plurals.html", language, **values)
        assert folded == runtime(env, "plurals.html", language, **values)
    assert "&lt;b&gt;&amp;" in folded


def test_a_name_the_template_binds_is_not_folded() -> None:
    env = board_env()
    # gettext is the global (folded: it says French); pgettext the template's own macro.
    assert render(env, "bound.html", "fr") == "(vous)[(you)]"
    env.globals["gettext"] = refusing
    assert render(env, "bound.html", "de") == "(du)[(you)]"
    source = env.compile(env._parse(TEMPLATES["bound.html"], "b", None), raw=True)
    tree = env._parse(TEMPLATES["bound.html"], "b", None)
    assert folding.bound_names(tree) >= {"_", "pgettext"}
    assert folding.fold(tree, jinja.words) == 1  # the gettext call only
    assert "pgettext" in source


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_escaping_is_the_runtime_paths(language: str) -> None:
    env = board_env()
    values = {"x": "<script>&", "v": "<i>"}
    folded = render(env, "escaping.html", language, **values)
    assert folded == runtime(env, "escaping.html", language, **values)
    assert folded == (
        "<p>Salt & <b>pepper</b> 100%|a < b & c, 5%|&lt;script&gt;&amp; & 50% <i>|"
        "50% of &lt;i&gt; & <more>|Tier < 1</p>"
    )


def test_a_german_and_a_french_viewer_each_get_their_words_in_turn() -> None:
    env = board_env()
    seen = [render(env, "constant.html", language) for language in ("de", "fr", "de", "fr")]
    assert seen == [
        "<p>(du) (Bot-Konto)</p>",
        "<p>(vous) (compte bot)</p>",
        "<p>(du) (Bot-Konto)</p>",
        "<p>(vous) (compte bot)</p>",
    ]


def test_a_plural_rule_is_written_down_only_when_it_gives_every_count_its_form() -> None:
    def english(n: int) -> Markup:
        return Markup("card" if n == 1 else "cards")

    def french(n: int) -> Markup:
        return Markup("carte" if n <= 1 else "cartes")

    def polish(n: int) -> Markup:  # 1, 2-4 (not 12-14), 5 and more: three forms
        if n == 1:
            return Markup("karta")
        few = n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14)
        return Markup("karty" if few else "kart")

    assert folding.plural_rule(english) == "ne"
    assert folding.plural_rule(french) == "gt"
    assert folding.plural_rule(polish) is None  # left a call: the catalogue picks the form
