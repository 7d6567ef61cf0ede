"""Games, seats and the action log in Django admin: read only, only the services change them."""

import json
from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from games.models import LIVE, Action, ChatMessage, Game, Seat
from games.services import chat

HIDDEN = "Hidden while the game runs or waits to start: it fixes seats, deck and every hand."


def spoils_play(game: Game) -> bool:
    """Whether the seed, snapshot and secret picks of this game could still spoil it."""
    return game.status in LIVE


class ReadOnly:
    """Viewed, searched and filtered in admin, never added or changed behind the services."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyAdmin(ReadOnly, admin.ModelAdmin):
    """A model only the services change."""


class SeatInline(ReadOnly, admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("user", "bot", "position", "resigned", "score", "place", "winner")
    readonly_fields = fields


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    """Tables, filterable by game, status and date."""

    list_display = (
        "id",
        "kind",
        "status",
        "host",
        "capacity",
        "private",
        "version",
        "created_at",
        "replay_link",
    )
    list_filter = ("kind", "status", "private", ("created_at", admin.DateFieldListFilter))
    list_select_related = ("host",)
    search_fields = ("id", "host__username", "seats__user__username")
    date_hierarchy = "created_at"
    fields = (
        "kind",
        "status",
        "host",
        "capacity",
        "options",
        "private",
        "watchers",
        "spectator_chat",
        "rematch_of",
        "invite",
        "version",
        "moves",
        "created_at",
        "started_at",
        "finished_at",
        "seed_shown",
        "snapshot_shown",
        "replay_link",
    )
    readonly_fields = fields
    inlines = [SeatInline]

    @admin.display(description="Seed")
    def seed_shown(self, game: Game) -> str:
        """The seed, once the game can no longer be spoiled."""
        return HIDDEN if spoils_play(game) else str(game.seed)

    @admin.display(description="Snapshot")
    def snapshot_shown(self, game: Game) -> str:
        """The stored state, once the game can no longer be spoiled."""
        return HIDDEN if spoils_play(game) else json.dumps(game.snapshot)

    @admin.display(description="Replay")
    def replay_link(self, game: Game) -> str:
        """A link to the move-by-move replay, once the game is over."""
        if game.status != Game.Status.OVER:
            return "when the game ends"
        return format_html('<a href="{}">replay</a>', reverse("games:replay", args=[game.pk]))


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    """Who sat where, and how it went."""

    list_display = ("game", "user", "bot", "position", "resigned", "score", "place", "winner")
    list_filter = ("game__kind", "game__status", "winner", "resigned", "bot")
    list_select_related = ("game", "user")
    search_fields = ("user__username", "game__id")
    fields = (
        "game",
        "user",
        "bot",
        "position",
        "joined_at",
        "resigned",
        "results_seen",
        "score",
        "place",
        "winner",
        "breakdown",
    )
    readonly_fields = fields


@admin.register(Action)
class ActionAdmin(ReadOnlyAdmin):
    """The action log, the truth every game is rebuilt from."""

    list_display = ("game", "seq", "seat", "payload_shown", "user", "bot", "created_at")
    list_filter = ("game__kind", "bot")
    list_select_related = ("game", "user")
    search_fields = ("game__id",)
    fields = ("game", "seq", "seat", "payload_shown", "user", "bot", "created_at")
    readonly_fields = fields

    @admin.display(description="Payload")
    def payload_shown(self, action: Action) -> str:
        """The action as posted; a secret pick only once its game is over."""
        game = action.game
        secret = spoils_play(game) and game.spec.secret_moves
        return HIDDEN if secret else json.dumps(action.payload)


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    """Table chat lines; moderators hide (or show again) lines, which vanish from screens."""

    list_display = ("created_at", "game", "author", "text", "hidden")
    list_filter = ("hidden", ("created_at", admin.DateFieldListFilter))
    list_select_related = ("game", "author")
    search_fields = ("text", "author__username", "game__id")
    fields = ("game", "author", "text", "created_at", "hidden")
    readonly_fields = fields
    actions = ["hide_lines", "show_lines"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Change rights, for the actions only: every field stays read only.
        return bool(request.user.has_perm("games.change_chatmessage"))

    @admin.action(description="Hide the selected lines from every screen")
    def hide_lines(self, request: HttpRequest, queryset: Any) -> None:
        count = chat.hide(queryset, hidden=True)
        self.message_user(request, f"{count} line(s) hidden.")

    @admin.action(description="Show the selected lines again")
    def show_lines(self, request: HttpRequest, queryset: Any) -> None:
        count = chat.hide(queryset, hidden=False)
        self.message_user(request, f"{count} line(s) shown again.")
