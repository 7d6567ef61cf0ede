"""Accounts in Django admin: users (bots marked, deleted accounts found) and their ratings.

Written without game code (accounts imports none): what a person did at the tables (their
games, reports, chat lines, friendships and the moderator's deactivate button) is added by the
games' admin, which registers its own subclass of BakehouseUserAdmin (games/admin/people.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from django.contrib import admin
from django.contrib.admin.options import InlineModelAdmin
from django.contrib.auth.admin import UserAdmin
from django.db.models import Model, Q, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts.models import AccessToken, Rating, User
from accounts.oauth import admin as oauth_admin  # noqa: F401  # the apps' admin, registered there

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


class ReadOnly:
    """Viewed, searched and filtered in admin, never added or changed behind the services."""

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class ChoiceFilter(admin.SimpleListFilter):
    """A list filter of a few named choices, each a condition on the rows (CHOICES: the value
    in the address, its label and its condition)."""

    CHOICES: Mapping[str, tuple[StrOrPromise, Q]] = {}

    def lookups(
        self, request: HttpRequest, model_admin: admin.ModelAdmin[Model]
    ) -> list[tuple[str, str]]:
        return [(value, str(label)) for value, (label, _) in self.CHOICES.items()]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Model]) -> QuerySet[Model]:
        chosen = self.CHOICES.get(self.value() or "")
        return queryset.filter(chosen[1]) if chosen is not None else queryset


class DeletedFilter(ChoiceFilter):
    """Accounts their people deleted ("Delete my account"), or the others."""

    title = _("deleted")
    parameter_name = "deleted"
    CHOICES = {
        "yes": (_("Deleted"), Q(deleted_at__isnull=False)),
        "no": (_("Not deleted"), Q(deleted_at__isnull=True)),
    }


class RatingInline(ReadOnly, admin.TabularInline[Rating, User]):
    """The person's rating at each game."""

    model = Rating
    extra = 0
    fields = ("kind", "rating", "games", "wins", "last_played_at")
    readonly_fields = fields


@admin.register(User)
class BakehouseUserAdmin(UserAdmin[User]):
    """The stock user admin plus the bot flag, which only the services set, and the person's
    ratings. Moderators see it read only (no change permission)."""

    list_display = (
        "username",
        "email",
        "email_verified",
        "is_bot",
        "plays_by_api",
        "is_staff",
        "is_active",
        "date_joined",
    )
    list_filter = (
        "is_bot",
        "plays_by_api",
        "is_staff",
        "is_active",
        "email_verified",
        DeletedFilter,
    )
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        ("Bakehouse", {"fields": ("email_verified", "is_bot", "plays_by_api", "deleted_at")}),
    )
    readonly_fields: ClassVar[tuple[str, ...]] = ("is_bot", "plays_by_api", "deleted_at")
    inlines: ClassVar[tuple[type[InlineModelAdmin[Any, Any]], ...]] = (RatingInline,)

    def get_readonly_fields(
        self, request: HttpRequest, obj: User | None = None
    ) -> list[str] | tuple[str, ...]:
        """A deleted account's name ("a deleted baker #n") is the site's, not a username the
        form would accept: it stays as it is, and the rest of the account can still be saved."""
        fields = super().get_readonly_fields(request, obj)
        return (*fields, "username") if obj is not None and obj.deleted_at else fields


@admin.register(Rating)
class RatingAdmin(ReadOnly, admin.ModelAdmin[Rating]):
    """Ratings per player and game; moved only by finished games (or `manage.py rerate`)."""

    list_display = (
        "user",
        "kind",
        "rating",
        "mu",
        "sigma",
        "games",
        "wins",
        "last_played_at",
        "updated_at",
    )
    list_filter = ("kind", "user__is_bot")
    search_fields = ("user__username",)
    ordering = ("kind", "-ordinal")
    raw_id_fields = ("user",)
    readonly_fields = ("ordinal", "rating", "updated_at", "last_played_at")


@admin.register(AccessToken)
class AccessTokenAdmin(ReadOnly, admin.ModelAdmin[AccessToken]):
    """People's API tokens, read only: the public prefix and the scopes, never a secret (only
    its digest is stored, and not shown); a person revokes their own at Settings."""

    list_display = (
        "name",
        "user",
        "prefix",
        "scopes",
        "created_at",
        "last_used_at",
        "expires_at",
        "revoked_at",
    )
    list_filter = ("revoked_at",)
    search_fields = ("user__username", "name", "prefix")
    raw_id_fields = ("user",)
    exclude = ("digest",)
