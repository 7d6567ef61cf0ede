"""Games, seats and the read-only action log in Django admin."""

import json
from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from games.models import Action, Game, Seat

HIDDEN = "Hidden while the game runs: it would show the deck order and every hand."


def hidden_while_running(game: Game) -> bool:
    """A running game's seed, snapshot and fresh picks stay out of admin pages too."""
    return game.status == Game.Status.RUNNING


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("user", "bot", "position", "score", "place", "winner")
    readonly_fields = ("user", "bot", "position", "score", "place", "winner")
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
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
    search_fields = ("id", "host__username")
    date_hierarchy = "created_at"
    readonly_fields = (
        "seed_shown",
        "snapshot_shown",
        "version",
        "moves",
        "invite",
        "started_at",
        "finished_at",
        "replay_link",
    )
    inlines = [SeatInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """A started table changes only through the services (its log must rebuild it)."""
        if obj is not None and obj.status != Game.Status.OPEN:
            return (
                *self.readonly_fields,
                "kind",
                "host",
                "status",
                "capacity",
                "options",
                "private",
            )
        return self.readonly_fields

    @admin.display(description="Seed")
    def seed_shown(self, game: Game) -> str:
        """The seed, once the game can no longer be spoiled."""
        return HIDDEN if hidden_while_running(game) else str(game.seed)

    @admin.display(description="Snapshot")
    def snapshot_shown(self, game: Game) -> str:
        """The stored state, once the game can no longer be spoiled."""
        return HIDDEN if hidden_while_running(game) else json.dumps(game.snapshot)

    @admin.display(description="Replay")
    def replay_link(self, game: Game) -> str:
        """A link to the move-by-move replay, once the game is over."""
        if game.status != Game.Status.OVER:
            return "when the game ends"
        return format_html('<a href="{}">replay</a>', reverse("games:replay", args=[game.pk]))


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    """Who sat where, and how it went."""

    list_display = ("game", "user", "bot", "position", "score", "place", "winner")
    list_filter = ("game__kind", "winner", "bot")
    search_fields = ("user__username",)
    raw_id_fields = ("game", "user")


@admin.register(Action)
class ActionAdmin(admin.ModelAdmin):
    """The action log: read only, since it is the truth every game is rebuilt from."""

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
        secret = hidden_while_running(game) and game.spec.secret_moves
        return HIDDEN if secret else json.dumps(action.payload)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
