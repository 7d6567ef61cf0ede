"""How people stand to each other, in Django admin: friendships and blocks. Moderators look and
may delete a row (after a harassment report, say); nobody adds or edits one here: the friends'
rules (games/friends/services.py) make them. (What people are told, their notifications, is in
games/notifications/admin.py.)"""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts.admin import ChoiceFilter
from accounts.models import Block, Friendship
from games.admin.pages import ReadOrDeleteAdmin, friendship_state, person_column


class StateFilter(ChoiceFilter):
    """Friend requests still waiting for an answer, or accepted ones (friends)."""

    title = _("state")
    parameter_name = "state"
    CHOICES = {
        "asked": (_("Asked"), Q(accepted=False)),
        "accepted": (_("Accepted"), Q(accepted=True)),
    }


@admin.register(Friendship)
class FriendshipAdmin(ReadOrDeleteAdmin[Friendship]):
    """Friend requests and friendships; deleting one ends it as unfriending does."""

    list_display = ("id", "from_link", "to_link", "state", "created_at")
    list_filter = (StateFilter, ("created_at", admin.DateFieldListFilter))
    list_select_related = ("from_user", "to_user")
    search_fields = ("from_user__username", "to_user__username")
    date_hierarchy = "created_at"
    fields = ("from_link", "to_link", "state", "created_at")
    readonly_fields = fields

    from_link = person_column("from_user", _("From"))
    to_link = person_column("to_user", _("To"))

    @admin.display(description=_("State"), ordering="accepted")
    def state(self, friendship: Friendship) -> str:
        return friendship_state(friendship)


@admin.register(Block)
class BlockAdmin(ReadOrDeleteAdmin[Block]):
    """Who blocks whom; deleting one lifts it as unblocking does (no friendship comes back)."""

    list_display = ("id", "blocker_link", "blocked_link", "created_at")
    list_filter = (("created_at", admin.DateFieldListFilter),)
    list_select_related = ("blocker", "blocked")
    search_fields = ("blocker__username", "blocked__username")
    date_hierarchy = "created_at"
    ordering = ("-created_at", "-pk")
    fields = ("blocker_link", "blocked_link", "created_at")
    readonly_fields = fields

    blocker_link = person_column("blocker", _("Blocker"))
    blocked_link = person_column("blocked", _("Blocked"))
