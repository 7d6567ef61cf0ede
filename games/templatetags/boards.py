"""{% include_shared %}: an {% include %} rendered once per process for the values it reads.

A piece of a region that shows many viewers the same thing (one rival's box, one card on the
counter) is rendered once for all of them, and again only when something it reads changes: its
HTML is kept (games/boards/shared.py) under the exact plain values that the included template and
its `with` arguments read in the context at hand (changes.inputs, compared whole). A viewer to whom
the piece shows anything else gets a render of their own. Renders with a request (whole pages,
with their CSRF token and lazy user) are never kept.
"""

from __future__ import annotations

from typing import cast

from django import template
from django.template.base import Parser, Token
from django.template.context import Context
from django.template.loader_tags import IncludeNode, do_include
from django.utils.safestring import SafeString

from games.boards.changes import Groups, Inputs, grouped, include_expressions, paths_of, read_groups
from games.boards.shared import render_piece

register = template.Library()


class SharedIncludeNode(IncludeNode):
    """An include whose output is shared by every render that reads the same values."""

    groups: Groups | None = None

    def render(self, context: Context) -> SafeString:
        if getattr(context, "request", None) is not None:
            return super().render(context)
        if self.groups is None:
            self.groups = grouped(p for e in include_expressions(self, set()) for p in paths_of(e))
        # Each name as the template finds it (innermost scope first), without flattening the
        # whole context; a piece reads one thing of its region whole (a box, a card).
        seen = Inputs(read_groups(context.get, self.groups, whole=True))
        name = str(self.template.var)
        html = render_piece(name, seen, lambda: super(SharedIncludeNode, self).render(context))
        return cast(SafeString, html)


@register.tag("include_shared")
def include_shared(parser: Parser, token: Token) -> SharedIncludeNode:
    """{% include_shared "template.html" [with a=b] %}: as {% include %}, shared (see above)."""
    node = do_include(parser, token)
    if not isinstance(node.template.var, str):
        raise template.TemplateSyntaxError("include_shared needs a template name in quotes.")
    return SharedIncludeNode(
        node.template, extra_context=node.extra_context, isolated_context=node.isolated_context
    )
