"""A table's page around its board, for one person: the part that names its table (#table-page:
the event line, the rules panel, the board, the report link, the chat), drawn for a visit
(games/web/table_page.py, with its request) and for a socket that takes its person's page to
the table they were just seated at (swap_html, without one).

Why a socket draws it: a Swiss round's start sends 200 pages to their new tables at once; a
page that swaps this part in place (static/js/live.js) spares the serving processes its
request (middleware, session, person, the menu) in the minute that counts, and the person sees
the new board as soon as the message lands. What is drawn is this person's own view of the
table, in their language, as their visit would draw it, less the CSRF tokens (the page adds its
own).
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.html import format_html

from accounts.models import User
from games import services
from games.access import can_watch, watch_refused
from games.boards.chat import chat_context
from games.boards.context import epoch_ms
from games.boards.render import render_whole
from games.boards.shared import TableAt, table_at
from games.models import Game


def summary_templates(slug: str) -> list[str]:
    """A game's rules in short (the panel at its table, the top of its How to play), or its blurb
    for a game with no summary written yet."""
    return [f"games/rules/_summary_{slug}.html", "games/rules/_summary.html"]


def page_context(
    game: Game,
    user: User | AnonymousUser,
    table: TableAt,
    board: str,
    *,
    chatted: bool = True,
    muting: bool = True,
) -> dict[str, object]:
    """What #table-page shows this person beside `board` (chat_context says `chatted` and
    `muting`: a visit passes the rows its request just read)."""
    return {
        "game": game,
        "user": user,
        "board": board,
        # A guided table's step (the tutorial's tag in the page) says what to press instead.
        "hints": not game.guided and services.offers_hints(game, user, table.seats),
        "hints_on": services.hints_on(game, table.seats),
        "chat": chat_context(game, user, table.seats, chatted=chatted, muting=muting),
        "server_now": epoch_ms(timezone.now()),
        "rules_summary": summary_templates(game.spec.slug),
        "seated": any(s.user_id == user.pk for s in table.seats),
        # "Round 1 of Sunday Swiss": read once a version for all the table's pages (shared.Event).
        "event": table.played_for(),
    }


def swappable(game: Game, kind: str) -> bool:
    """Whether a page of a `kind` table can take this table's part in place: the same game (its
    scripts and styles are the page's), dealt (a waiting room's invitations and a guided table's
    step are drawn with a request), and not the page's own table."""
    return game.kind == kind and game.status != Game.Status.OPEN and not game.guided


def swap_html(game_id: int, url: str, user: User | AnonymousUser, kind: str) -> str:
    """The table at `url` (game `game_id`) as this person's page swaps it in: its title and its
    #table-page, this person's own view (only engine.view() of their seat reaches it). Empty
    where the page must go there instead: another game, a table not dealt, one they may not
    see (the page's GET says why)."""
    try:
        table = table_at(game_id)
    except Game.DoesNotExist:
        return ""
    game = table.game
    if not swappable(game, kind) or not can_watch(game, user, []):
        return ""
    if watch_refused(game, user, table.seats):
        return ""
    board, _ = render_whole(game, user, table)
    part = render_to_string("games/_table_page.html", page_context(game, user, table, board))
    return format_html(
        '<template id="page-swap" data-url="{}" data-title="{} · Bakehouse">'
        '<div id="table-page">{}</div></template>',
        url,
        str(game),
        part,
    )
