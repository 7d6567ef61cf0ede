"""A game's lobby options in the reader's language: a label is said with gettext, a choice in
its option's own context (the option's name, "passing"), the words the boards say it in."""

from __future__ import annotations

from django.utils.translation import gettext, pgettext


def choice_words(option: str, choice: str) -> str:
    """A choice of this option in words ("Alternate", in the context "passing")."""
    return pgettext(option, choice)


def option_words(option: str, label: str, choice: str) -> str:
    """An option as chosen, in words ("Passing: Alternate")."""
    said = {"option": gettext(label), "choice": choice_words(option, choice)}
    return gettext("%(option)s: %(choice)s") % said
