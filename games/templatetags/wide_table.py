"""A table wider than a phone's screen, the same on every page: `{% wide_table %}<table>…
</table>{% endwide_table %}` puts it in a box that scrolls sideways and adds the line that says
so, shown only while the box overflows (static/css/site.css, static/js/board.js). The markup is
the partial templates/_wide_table.html; the boards' Jinja2 twin is the macro in
templates/jinja2/_wide_table.html.
"""

from __future__ import annotations

from django import template
from django.template import Engine
from django.template.base import NodeList, Parser, Token
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

PARTIAL = "_wide_table.html"


class WideTableNode(template.Node):
    def __init__(self, nodelist: NodeList) -> None:
        self.nodelist = nodelist

    def render(self, context: template.Context) -> SafeString:
        # Rendered by the template engine, so already escaped where it must be.
        table = mark_safe(self.nodelist.render(context))
        partial = Engine.get_default().get_template(PARTIAL)  # the pages' engine, not the boards'
        with context.push(table=table):
            return partial.render(context)


@register.tag("wide_table")
def wide_table(parser: Parser, token: Token) -> WideTableNode:
    if len(token.split_contents()) != 1:
        raise template.TemplateSyntaxError("wide_table takes no arguments")
    nodelist = parser.parse(("endwide_table",))
    parser.delete_first_token()
    return WideTableNode(nodelist)
