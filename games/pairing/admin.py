"""Quick pairing in admin: who is looking now (a moderator may end a search), and the pools."""

from __future__ import annotations

from django.contrib import admin

from games.pairing.models import Pool, Seek


@admin.register(Seek)
class SeekAdmin(admin.ModelAdmin[Seek]):
    list_display = ["user", "kind", "pace", "fewest", "most", "rating", "created_at", "last_seen"]
    list_filter = ["kind", "pace"]
    search_fields = ["user__username"]
    readonly_fields = [f.name for f in Seek._meta.fields]
    list_select_related = ["user"]

    def has_add_permission(self, request: object) -> bool:
        return False


@admin.register(Pool)
class PoolAdmin(admin.ModelAdmin[Pool]):
    list_display = ["kind", "pace", "passed_at"]
    readonly_fields = ["kind", "pace", "passed_at"]

    def has_add_permission(self, request: object) -> bool:
        return False
