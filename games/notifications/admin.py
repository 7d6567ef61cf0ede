"""What people are told, in Django admin: their notifications. Moderators look and may delete one
(after a harassment report, say; the person's open pages lower their badge); nobody adds or
edits one here: services.py makes them."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.admin.pages import ReadOrDeleteAdmin, person_column
from games.notifications import services
from games.notifications.models import Notification


class ReadFilter(admin.SimpleListFilter):
    """Notifications their person has read, or not yet."""

    title = _("read")
    parameter_name = "read"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("no", gettext("Unread")), ("yes", gettext("Read"))]

    def queryset(self, request: HttpRequest, queryset: Any) -> Any:
        if self.value() == "yes":
            return queryset.exclude(read_at=None)
        if self.value() == "no":
            return queryset.filter(read_at=None)
        return queryset


@admin.register(Notification)
class NotificationAdmin(ReadOrDeleteAdmin[Notification]):
    """What each person was told (inbox, mail, push), newest first."""

    list_display = ("id", "recipient_link", "kind", "text", "game", "created_at", "read")
    list_filter = ("kind", ReadFilter)
    list_select_related = ("recipient", "game")
    search_fields = ("recipient__username",)
    date_hierarchy = "created_at"
    fields = (
        "recipient_link",
        "kind",
        "text",
        "game",
        "url",
        "key",
        "created_at",
        "read_at",
        "emailed_at",
        "pushed_at",
    )
    readonly_fields = fields

    recipient_link = person_column("recipient", _("Recipient"))

    @admin.display(description=_("Read"), boolean=True, ordering="read_at")
    def read(self, notification: Notification) -> bool:
        return notification.read_at is not None

    def delete_model(self, request: HttpRequest, obj: Notification) -> None:
        services.remove(Notification.objects.filter(pk=obj.pk))

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Notification]) -> None:
        services.remove(queryset)
