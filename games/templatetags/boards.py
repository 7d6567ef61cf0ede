"""{% include_shared %}: an {% include %} rendered once per process for the values it reads.

A piece of a region that shows many viewers the same thing (one rival's box, one card on the
counter) is rendered once for all of them, and again only when something it reads changes: its
HTML is kept (games/boards/shared.py) under the exact plain values that the included template and
its `with` arguments read in the context at hand (changes.inputs, compared whole). A viewer to whom
the piece shows anything else gets a render of their own. Renders with a request (whole pages,
with their CSRF token and lazy user) are never kept.
"""

from __future__ import annotations

from typing import Any, cast

from django import template
from django.template.base import Parser, Token
from django.template.context import Context
from django.template.loader_tags import IncludeNode, do_include
from django.utils.safestring import SafeString

from games.boards.changes import (
    MISSING,
    UNKNOWN,
    Inputs,
    Path,
    descend,
    include_expressions,
    paths_of,
    plain,
    resolve,
)
from games.boards.shared import render_piece

register = template.Library()


class SharedIncludeNode(IncludeNode):
    """An include whose output is shared by every render that reads the same values."""

    paths: tuple[Path, ...] | None = None

    def render(self, context: Context) -> SafeString:
        if getattr(context, "request", None) is not None:
            return super().render(context)
        if self.paths is None:
            found = {p for e in include_expressions(self, set()) for p in paths_of(e)}
            self.paths = tuple(sorted(found))
        seen = Inputs(tuple(plain(looked_up(context, path)) for path in self.paths))
        name = str(self.template.var)
        html = render_piece(name, seen, lambda: super(SharedIncludeNode, self).render(context))
        return cast(SafeString, html)


def looked_up(context: Context, path: Path) -> Any:
    """The value at a path in a template's context, its first name looked up as the template
    does (innermost scope first), without flattening the whole context for each piece."""
    if path == UNKNOWN:
        return resolve({}, path)
    return descend(context.get(path[0], MISSING), path[1:])


@register.tag("include_shared")
def include_shared(parser: Parser, token: Token) -> SharedIncludeNode:
    """{% include_shared "template.html" [with a=b] %}: as {% include %}, shared (see above)."""
    node = do_include(parser, token)
    if not isinstance(node.template.var, str):
        raise template.TemplateSyntaxError("include_shared needs a template name in quotes.")
    return SharedIncludeNode(
        node.template, extra_context=node.extra_context, isolated_context=node.isolated_context
    )
