"""The gate on the app code's sentences (bakery_site/unmarked_code.py, run by make check): the
code as it is passes, and a sentence a person reads left unmarked fails it."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from bakery_site import unmarked_code
from bakery_site.unmarked_code import looks_like_sentence, unmarked_in_source


def found(source: str) -> list[str]:
    return [text for _, text in unmarked_in_source(textwrap.dedent(source))]


def test_every_sentence_of_the_app_code_is_marked_or_allowed() -> None:
    assert unmarked_code.unmarked_code() == []


def test_an_unmarked_refusal_fails_the_gate() -> None:
    source = """
        def refusal(name):
            if name == "house":
                return "That name is kept for the house."
            raise ServiceError(f"You cannot challenge {name}.")
    """
    assert found(source) == ["That name is kept for the house.", "You cannot challenge §."]


def test_a_marked_sentence_passes_the_gate() -> None:
    source = """
        from django.utils.translation import gettext, gettext_lazy, ngettext
        from django.utils.translation import gettext_noop as N_

        NOT_FOUND = N_("We could not find that tournament.")
        TIE_BREAKS = gettext_lazy("Ties are broken by Buchholz.")

        def refusal(name, n):
            said = ngettext("%(n)d baker waits.", "%(n)d bakers wait.", n) % {"n": n}
            return gettext("You cannot challenge %(name)s.") % {"name": name} + said
    """
    assert found(source) == []


def test_docstrings_logs_and_programmers_errors_are_not_a_persons_words() -> None:
    source = '''
        """A module's docstring: it says what this is."""
        import logging

        logger = logging.getLogger(__name__)
        LIMIT = 3
        """An attribute's docstring: how many."""

        def f(x):
            """What f does."""
            logger.warning("Redis lost its keys: %s sockets close.", x)
            assert x, "The caller passes a value."
            if x is None:
                raise ValueError(f"Expected a number, got {x!r}.")
            cursor.execute("SELECT id FROM games_game WHERE id = %s", [x])
            return "a_code"
    '''
    assert found(source) == []


def test_a_message_for_a_person_is_found_wherever_it_is_handed_out() -> None:
    source = """
        def view(request):
            messages.success(request, "Your vacation is called off.")
            form.add_error("name", "Give the tournament a name.")
            raise Http404("We could not find that report.")
    """
    assert found(source) == [
        "Your vacation is called off.",
        "Give the tournament a name.",
        "We could not find that report.",
    ]


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("You left the tournament.", True),
        ("Time ran out for %(name)s", True),
        ("Is it your turn?", True),
        ("Seat §", True),
        ("games:lobby", False),
        ("application/json", False),
        ("NOT_FOUND", False),
        ("Content-Disposition", False),
        ("an unmarked lower-case phrase.", False),  # the heuristic's bound, on purpose
        ("https://example.com/a page.", False),
    ],
)
def test_what_looks_like_a_sentence(text: str, sentence: bool) -> None:
    assert looks_like_sentence(text) is sentence


def test_an_allowed_entry_no_longer_found_is_a_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    allowed = tmp_path / "allowed.txt"
    allowed.write_text(
        "# why\n" + unmarked_code.ALLOWED.read_text(encoding="utf-8") + "\ngames/x.py: Gone.\n"
    )
    monkeypatch.setattr(unmarked_code, "ALLOWED", allowed)
    assert unmarked_code.unmarked_code() == [
        "allowed.txt: 'games/x.py: Gone.' is not found any more: take it off."
    ]
