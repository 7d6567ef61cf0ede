"""Reviews in Django admin: who asked for which, how far each got, why one failed. Read only:
the lane (lane.py) makes them."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games.admin.pages import ReadOnlyAdmin
from games.reviews.models import Review


@admin.register(Review)
class ReviewAdmin(ReadOnlyAdmin[Review]):
    """Every review, newest first, with its progress."""

    list_display = ("id", "game", "seat", "asked_by", "status", "progress", "created_at")
    list_filter = ("status", ("created_at", admin.DateFieldListFilter))
    list_select_related = ("game", "asked_by")
    search_fields = ("asked_by__username", "game__id")
    date_hierarchy = "created_at"
    ordering = ("-created_at",)
    fields = (
        "game",
        "seat",
        "asked_by",
        "status",
        "progress",
        "iterations",
        "worker",
        "heartbeat",
        "why",
        "created_at",
        "finished_at",
    )
    readonly_fields = fields

    @admin.display(description=_("Progress"))
    def progress(self, review: Review) -> str:
        return f"{review.done} of {review.total}"
