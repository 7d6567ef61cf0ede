"""How to play each game: one page a game, its words in templates/games/rules/<slug>.html."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games import catalog
from games.boards.page import summary_templates
from games.kinds.base import AnyKind
from games.web.errors import NO_SUCH_GAME


def kind_or_404(slug: str) -> AnyKind:
    """The game on offer under this slug, or a 404."""
    try:
        return catalog.get(slug)
    except KeyError:
        raise Http404(NO_SUCH_GAME) from None


@require_GET
def how_to_play(request: HttpRequest, slug: str) -> HttpResponse:
    """A game's rules in the site's own words, open to anyone (no account needed to read them)."""
    spec = kind_or_404(slug)
    others = [kind for kind in catalog.available() if kind.slug != spec.slug]
    # A game with no page of its own yet (a test's throwaway game) gets a short one, not a 500.
    pages = [f"games/rules/{spec.slug}.html", "games/rules/unwritten.html"]
    context = {"spec": spec, "others": others, "summary": summary_templates(spec.slug)}
    return render(request, pages, {**context, **spec.rules_context()})
