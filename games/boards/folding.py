"""The boards' constant words translated when a template is compiled, once per language.

A board's render said a hundred to four hundred words through gettext on every push (105 a
Midnight Bakery move, 373 a Cakehalla one: docs/performance.md), nearly all of them constants.
Each board template is compiled once per language (jinja.BoardEnvironment.template), and this
pass over its parsed tree, before the code is made, puts in that language's words:

- `_("...")`, `gettext("...")`, `pgettext("...", "...")` and a `{% trans %}` block without
  variables (the i18n extension makes it a `gettext` call): the words themselves, as the runtime
  call would have returned them (the very same function called on the same constants), as HTML
  the template does not escape again (a translator's HTML is trusted as the source's);
- the same calls with variables (`_("%(n)s left", n=x)`, a `{% trans %}` block naming values):
  the language's words as a constant, the variables put in at render (escaped: `fill`);
- plurals (`ngettext`, `npgettext`, `{% pluralize %}`) with constant words: a call at render
  (the form hangs on the count) to the words of that site in that language, kept by count.

A name the template binds itself (`{% set _ = ... %}`, a loop's or a macro's `_`) is not folded.
"""

from __future__ import annotations

from collections.abc import Callable

from jinja2 import nodes
from jinja2.visitor import NodeTransformer
from markupsafe import Markup

# The names folded, and how many constant arguments each takes (its message, its context).
FOLDED = {"_": 1, "gettext": 1, "pgettext": 2}

# The global a call with variables becomes: fill(words, **variables) (jinja.py).
FILL = "fill_words"

# The plurals, and how many constant arguments come before the count (context, singular, plural).
PLURALS = {"ngettext": 2, "npgettext": 3}

# The global a plural becomes: plural_words(site, num, **variables), `site` the number a
# template's plural was given in its language (Sites: jinja.py keeps each one's forms by count).
PLURAL = "plural_words"
Sites = Callable[[str, tuple[str, ...]], int]

# (the name called, its constant arguments, whether it passes variables) -> the words in the
# language being compiled: as the runtime call gives them with no variables, or else as they
# are before its variables go in.
Words = Callable[[str, tuple[str, ...], bool], Markup]


class Folding(NodeTransformer):
    """Turns the constant translation calls of one template into its language's words."""

    def __init__(self, words: Words, sites: Sites | None, bound: set[str]) -> None:
        self.words = words
        self.sites = sites
        self.bound = bound
        self.folded = 0

    def visit_Call(self, node: nodes.Call) -> nodes.Node:
        self.generic_visit(node)
        constants = folded_arguments(node, self.bound)
        if constants is None:
            return self.plural(node)
        name = node.node.name  # type: ignore[attr-defined]  # a Name: folded_arguments saw it
        said = self.words(name, constants, bool(node.kwargs))
        self.folded += 1
        words = nodes.MarkSafe(nodes.Const(str(said), lineno=node.lineno), lineno=node.lineno)
        if not node.kwargs:
            return words
        return nodes.Call(
            nodes.Name(FILL, "load", lineno=node.lineno),
            [words],
            node.kwargs,
            None,
            None,
            lineno=node.lineno,
        )

    def plural(self, node: nodes.Call) -> nodes.Node:
        """A plural with constant words: its site in this language, the count and the
        variables at render (the words by count kept per site: no language asked)."""
        callee = node.node
        if self.sites is None or not isinstance(callee, nodes.Name):
            return node
        before = PLURALS.get(callee.name)
        if before is None or callee.name in self.bound or len(node.args) != before + 1:
            return node
        if node.dyn_args is not None or node.dyn_kwargs is not None:
            return node
        constants = node.args[:before]
        if not all(isinstance(c, nodes.Const) and isinstance(c.value, str) for c in constants):
            return node
        site = self.sites(callee.name, tuple(c.value for c in constants))  # type: ignore[attr-defined]
        self.folded += 1
        return nodes.Call(
            nodes.Name(PLURAL, "load", lineno=node.lineno),
            [nodes.Const(site, lineno=node.lineno), node.args[before]],
            node.kwargs,
            None,
            None,
            lineno=node.lineno,
        )


def folded_arguments(node: nodes.Call, bound: set[str]) -> tuple[str, ...] | None:
    """The constant arguments of a call this pass folds, or None to leave it a call."""
    callee = node.node
    if not isinstance(callee, nodes.Name) or callee.name not in FOLDED or callee.name in bound:
        return None
    if node.dyn_args is not None or node.dyn_kwargs is not None:
        return None
    if len(node.args) != FOLDED[callee.name]:
        return None
    constants = []
    for argument in node.args:
        if not isinstance(argument, nodes.Const) or not isinstance(argument.value, str):
            return None
        constants.append(argument.value)
    return tuple(constants)


def bound_names(tree: nodes.Template) -> set[str]:
    """The names a template binds itself (set, loops, macros and their parameters, imports)."""
    bound = {name.name for name in tree.find_all(nodes.Name) if name.ctx != "load"}
    bound.update(macro.name for macro in tree.find_all(nodes.Macro))
    bound.update(imported.target for imported in tree.find_all(nodes.Import))
    for imports in tree.find_all(nodes.FromImport):
        bound.update(n if isinstance(n, str) else n[1] for n in imports.names)
    return bound


def fold(tree: nodes.Template, words: Words, sites: Sites | None = None) -> int:
    """Fold this template's constant words (and its plurals' sites, given `sites`) in place;
    how many calls were folded."""
    folding = Folding(words, sites, bound_names(tree))
    folding.visit(tree)
    return folding.folded
