"""Users in Django admin, bots marked; ratings by game."""

from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.http import HttpRequest

from accounts.models import Rating, User


@admin.register(User)
class BakehouseUserAdmin(UserAdmin):
    """The stock user admin plus the bot flag, which only the services set."""

    list_display = ("username", "email", "is_bot", "is_staff", "is_active", "date_joined")
    list_filter = ("is_bot", "is_staff", "is_active")
    fieldsets = (*(UserAdmin.fieldsets or ()), ("Bakehouse", {"fields": ("is_bot",)}))
    readonly_fields = ("is_bot",)


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    """Ratings per player and game; moved only by finished games (or `manage.py rerate`)."""

    list_display = ("user", "kind", "rating", "mu", "sigma", "games", "wins", "updated_at")
    list_filter = ("kind", "user__is_bot")
    search_fields = ("user__username",)
    ordering = ("kind", "-ordinal")
    raw_id_fields = ("user",)
    readonly_fields = ("ordinal", "rating", "updated_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
