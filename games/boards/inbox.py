"""The menu's inbox link with its unread badge, as a socket sends it when notifications change."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string

from games.services.notices import unread_count


def badge_html(user: Any) -> str:
    """The inbox link of the menu for this person (the page swaps it in by its id); "" for
    someone signed out."""
    if not getattr(user, "is_authenticated", False):
        return ""
    count = unread_count(user)
    return render_to_string("games/inbox/_menu_link.html", {"inbox_unread": count})
