"""{% token t size %}: a Cakehalla ingredient token's picture, drawn once per kind and size.

A board shows dozens of tokens (the market, each baker's holdings, every cost on the counter);
as an {% include %} each cost a context push and a template's render on every push. The picture
depends only on the token's name, art, label and size, so it is made once per process.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from django import template
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag
def token(t: Mapping[str, Any], size: int = 20) -> SafeString:
    """The token `t` (its name, art and label) as an image `size` pixels square."""
    return token_image(str(t["name"]), str(t["art"]), str(t["label"]), int(size))


@lru_cache(maxsize=512)
def token_image(name: str, art: str, label: str, size: int) -> SafeString:
    """The <img> of one token at one size."""
    return format_html(
        '<img class="tok tok-{}" src="{}" alt="{}" width="{}" height="{}">',
        name,
        static(art),
        label,
        size,
        size,
    )
