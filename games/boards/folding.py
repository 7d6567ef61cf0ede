"""The boards' words translated when a template is compiled, once per language.

A board's render said a hundred to four hundred words through gettext on every push (105 a
Midnight Bakery move, 373 a Cakehalla one: docs/performance.md), nearly all of them constants.
Each board template is compiled once per language (jinja.BoardEnvironment.template), and this
pass over its parsed tree, before the code is made, writes that language's words into it, so
that a push calls no gettext and keeps no words of its own:

- `_("...")`, `gettext("...")`, `pgettext("...", "...")` and a `{% trans %}` block without
  variables (the i18n extension makes it a `gettext` call): the words themselves, as the runtime
  call would have returned them (the very same function called on the same constants), as HTML
  the template does not escape again (a translator's HTML is trusted as the source's);
- the same calls with variables (`_("%(n)s left", n=x)`, a `{% trans %}` block naming values):
  the language's words cut at their `%(name)s`, each variable put in its place, escaped, as if
  the template said `... {{ x }} left`;
- plurals (`ngettext`, `npgettext`, `{% pluralize %}`) with constant words, in a language whose
  rule is one this pass can write down (`n != 1`: English, German; `n > 1`: French, read from
  the catalogue's own answers): an `{% if %}` on the count between the two forms, each as above.

A name the template binds itself (`{% set _ = ... %}`, a loop's or a macro's `_`) is not folded;
nor is a call whose words cannot be cut (a `%d`, a name it is not given), whose variables are
more than reads (`x.y`, `x[0]`, `x|length`: they could be read twice or not at all), or a plural
in a language of another rule: those stay calls (jinja.py), or a fill of the words at render.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from jinja2 import nodes
from jinja2.visitor import NodeTransformer
from markupsafe import Markup

# The names folded, and how many constant arguments each takes (its message, its context).
FOLDED = {"_": 1, "gettext": 1, "pgettext": 2}

# The global a call with variables becomes when its words cannot be cut: fill(words, **variables).
FILL = "fill_words"

# The plurals, and how many constant arguments come before the count (context, singular, plural).
PLURALS = {"ngettext": 2, "npgettext": 3}

# (the name called, its constant arguments, whether it passes variables) -> the words in the
# language being compiled: as the runtime call gives them with no variables, or else as they
# are before its variables go in.
Words = Callable[[str, tuple[str, ...], bool], Markup]

# (the plural's name, its constant arguments, a count) -> its words for that count in the
# language being compiled, before its variables go in.
Forms = Callable[[str, tuple[str, ...], int], Markup]

# The plural rules written down: when a count takes the plural form (gettext's own formulas).
RULES: dict[str, Callable[[int], bool]] = {"ne": lambda n: n != 1, "gt": lambda n: n > 1}
COUNTS_TRIED = (*range(0, 112), 1000, 1001, 1_000_000)  # a rule must give every one's form

# A variable in the words, or a percent sign written twice; anything else with % is not cut.
PLACE = re.compile(r"%\((\w+)\)s|%%")


class Folding(NodeTransformer):
    """Turns the constant translation calls of one template into its language's words."""

    def __init__(self, words: Words, forms: Forms | None, bound: set[str]) -> None:
        self.words = words
        self.forms = forms
        self.bound = bound
        self.folded = 0
        self.made: set[int] = set()  # the Concat, CondExpr and escapes made here (by id)

    def visit_Output(self, node: nodes.Output) -> nodes.Node | list[nodes.Node]:
        self.generic_visit(node)
        return self.spliced(node)

    def visit_Call(self, node: nodes.Call) -> nodes.Node:
        self.generic_visit(node)
        constants = folded_arguments(node, self.bound)
        if constants is None:
            return self.plural(node)
        name = node.node.name  # type: ignore[attr-defined]  # a Name: folded_arguments saw it
        said = str(self.words(name, constants, bool(node.kwargs)))
        self.folded += 1
        if not node.kwargs:
            return safe(said, node.lineno)
        variables = {k.key: k.value for k in node.kwargs}
        cut = self.cut(said, variables, node.lineno)
        if cut is not None:
            return cut
        return nodes.Call(
            nodes.Name(FILL, "load", lineno=node.lineno),
            [safe(said, node.lineno)],
            node.kwargs,
            None,
            None,
            lineno=node.lineno,
        )

    def plural(self, node: nodes.Call) -> nodes.Node:
        """A plural with constant words, in a language whose rule is written down: the count's
        test between its two forms (see the module's docstring); else the call as it was."""
        callee = node.node
        if self.forms is None or not isinstance(callee, nodes.Name):
            return node
        before = PLURALS.get(callee.name)
        if before is None or callee.name in self.bound or len(node.args) != before + 1:
            return node
        if node.dyn_args is not None or node.dyn_kwargs is not None:
            return node
        constants = node.args[:before]
        if not all(isinstance(c, nodes.Const) and isinstance(c.value, str) for c in constants):
            return node
        words = tuple(c.value for c in constants)  # type: ignore[attr-defined]
        count = node.args[before]
        variables = {"num": count, **{k.key: k.value for k in node.kwargs}}
        if not all(read_only(v) for v in variables.values()):
            return node
        forms = self.forms
        rule = plural_rule(lambda n: forms(callee.name, words, n))
        if rule is None:
            return node
        one = self.cut(str(forms(callee.name, words, 1)), variables, node.lineno)
        other = self.cut(str(forms(callee.name, words, 2)), variables, node.lineno)
        if one is None or other is None:
            return node
        self.folded += 1
        many = nodes.Compare(count, [nodes.Operand(rule, nodes.Const(1))], lineno=node.lineno)
        chosen = nodes.CondExpr(nodes.Not(many, lineno=node.lineno), one, other)
        chosen.set_lineno(node.lineno)
        self.made.add(id(chosen))
        return chosen

    def cut(self, said: str, variables: dict[str, nodes.Expr], lineno: int) -> nodes.Concat | None:
        """The words with each `%(name)s` the variable's value, escaped, as one concatenation;
        None if they say something else with % or a name not given, or a variable is more than
        a read (it could be read twice, or not at all)."""
        if "%" in PLACE.sub("", said):
            return None
        parts: list[nodes.Expr] = []
        text: list[str] = []
        at = 0
        for place in PLACE.finditer(said):
            text.append(said[at : place.start()])
            at = place.end()
            name = place.group(1)
            if name is None:
                text.append("%")
                continue
            value = variables.get(name)
            if value is None or not read_only(value):
                return None
            if "".join(text):
                parts.append(safe("".join(text), lineno))
            text = []
            escaped = nodes.Filter(value, "escape", [], [], None, None, lineno=lineno)
            self.made.add(id(escaped))
            parts.append(escaped)
        text.append(said[at:])
        if "".join(text) or not parts:
            parts.append(safe("".join(text), lineno))
        cut = nodes.Concat(parts, lineno=lineno)
        self.made.add(id(cut))
        return cut

    def spliced(self, node: nodes.Output) -> nodes.Node | list[nodes.Node]:
        """An output whose folded words are written into it: each concatenation's parts in its
        place (the variables escaped by the output itself, the words joined to the template's
        text as it compiles), each plural an `{% if %}` between two outputs."""
        if not any(id(child) in self.made for child in node.nodes):
            return node
        done: list[nodes.Node] = []
        children: list[nodes.Expr] = []
        for child in node.nodes:
            if id(child) in self.made and isinstance(child, nodes.CondExpr):
                if children:
                    done.append(nodes.Output(children, lineno=node.lineno))
                    children = []
                one = nodes.Output(self.parts(child.expr1), lineno=node.lineno)
                other = nodes.Output(self.parts(child.expr2), lineno=node.lineno)
                done.append(nodes.If(child.test, [one], [], [other], lineno=node.lineno))
            else:
                children.extend(self.parts(child))
        if children:
            done.append(nodes.Output(children, lineno=node.lineno))
        return done

    def parts(self, node: nodes.Expr | None) -> list[nodes.Expr]:
        """What an output writes for this expression: a concatenation made here, its parts (an
        escape made here, its value: the output escapes it); anything else, itself."""
        assert node is not None
        if id(node) not in self.made or not isinstance(node, nodes.Concat):
            return [node]
        written = []
        for part in node.nodes:
            if id(part) in self.made and isinstance(part, nodes.Filter):
                assert part.node is not None  # an escape made here has its value
                part = part.node
            written.append(part)
        return written


def safe(words: str, lineno: int) -> nodes.MarkSafe:
    """Words written as they are (already HTML: a translator's is trusted as the source's)."""
    return nodes.MarkSafe(nodes.Const(words, lineno=lineno), lineno=lineno)


def read_only(value: nodes.Node) -> bool:
    """Whether an expression only reads (a name, a constant, an attribute or constant key of
    one, a length): one the words may read twice, or not at all, with nothing else changed."""
    if isinstance(value, (nodes.Name, nodes.Const)):
        return True
    if isinstance(value, nodes.Getattr):
        return read_only(value.node)
    if isinstance(value, nodes.Getitem):
        return isinstance(value.arg, nodes.Const) and read_only(value.node)
    if isinstance(value, nodes.Filter):
        plain = not (value.args or value.kwargs or value.dyn_args or value.dyn_kwargs)
        return value.name == "length" and plain and read_only(value.node)  # type: ignore[arg-type]
    return False


def plural_rule(forms: Callable[[int], Markup]) -> str | None:
    """The comparison with 1 ("ne", "gt") for which a count takes the plural form in every
    answer of `forms` (COUNTS_TRIED), or None if neither rule gives them all."""
    one, other = forms(1), forms(2)
    said = [(n, forms(n)) for n in COUNTS_TRIED]
    for name, many in RULES.items():
        if all(words == (other if many(n) else one) for n, words in said):
            return name
    return None


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


def fold(tree: nodes.Template, words: Words, forms: Forms | None = None) -> int:
    """Fold this template's constant words (and its plurals, given `forms`) in place; how many
    calls were folded."""
    folding = Folding(words, forms, bound_names(tree))
    folding.visit(tree)
    return folding.folded
