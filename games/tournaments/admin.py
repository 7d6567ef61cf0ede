"""Tournaments in Django admin: read only, only the services change them; a moderator's
actions, "remove from the tournament", "stop the tournament" and hiding chat lines, call the
services."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django import forms
from django.contrib import admin, messages
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.access import AuthedRequest
from games.admin.pages import ReadOnly, ReadOnlyAdmin
from games.admin.tables import lines_hidden, lines_shown
from games.tournaments import services
from games.tournaments.models import ChatLine, Entrant, Round, Table, Tournament

M = TypeVar("M", bound=Model)


class ReasonForm(forms.Form):
    """What the moderator writes: the reason (the people told read it)."""

    reason = forms.CharField(max_length=200, widget=forms.Textarea(attrs={"rows": 3}))


def with_reason(
    model_admin: admin.ModelAdmin[M],
    request: AuthedRequest,
    queryset: QuerySet[M],
    title: str,
    act: Callable[[M, User, str], object],
) -> HttpResponse | None:
    """An action that asks for a reason first: the form, then each row acted on (a refusal is
    told and leaves that row as it was)."""
    form = ReasonForm(request.POST if "reason" in request.POST else None)
    if not form.is_valid():
        context = {
            **model_admin.admin_site.each_context(request),
            "title": title,
            "form": form,
            "rows": queryset,
            "action": request.POST.get("action", ""),
            "opts": model_admin.model._meta,
        }
        return TemplateResponse(request, "admin/tournaments/reason.html", context)
    done = 0
    for row in queryset:
        try:
            act(row, request.user, form.cleaned_data["reason"])
        except services.ServiceError as refused:
            model_admin.message_user(request, f"{row}: {refused}", messages.WARNING)
        else:
            done += 1
    said = ngettext("%(title)s: %(count)s done.", "%(title)s: %(count)s done.", done)
    model_admin.message_user(request, said % {"title": title, "count": done}, messages.SUCCESS)
    return None


class Moderated(ReadOnlyAdmin[M]):
    """Read only; the change permission serves the moderator's action alone."""

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        opts = self.model._meta
        return bool(request.user.has_perm(f"{opts.app_label}.change_{opts.model_name}"))


class EntrantInline(ReadOnly, admin.TabularInline[Entrant, Tournament]):
    model = Entrant
    extra = 0
    fields = ("user", "points", "buchholz", "wins", "games", "withdrawn", "place")
    readonly_fields = fields
    ordering = ("-points", "-buchholz", "-wins", "-rating", "pk")


@admin.register(Tournament)
class TournamentAdmin(Moderated[Tournament]):
    """Every tournament; a moderator stops one with a reason its people read."""

    list_display = ("id", "name", "kind", "format", "pace", "status", "starts_at", "creator")
    list_filter = ("status", "format", "kind", "pace")
    search_fields = ("name", "creator__username")
    date_hierarchy = "starts_at"
    fields = (
        "name",
        "kind",
        "format",
        "pace",
        "seats",
        "fewest",
        "rounds",
        "minutes",
        "starts_at",
        "ends_at",
        "status",
        "current_round",
        "round_due_at",
        "place_points",
        "bye",
        "streak_bonus",
        "rating_min",
        "rating_max",
        "games_min",
        "age_min_days",
        "max_entrants",
        "private",
        "creator",
        "scheduled_by",
        "version",
        "created_at",
        "started_at",
        "finished_at",
        "stop_reason",
    )
    readonly_fields = fields
    inlines = [EntrantInline]
    actions = ["stop_tournaments"]

    @admin.action(description=_("Stop the tournament"), permissions=["change"])
    def stop_tournaments(
        self, request: AuthedRequest, queryset: QuerySet[Tournament]
    ) -> HttpResponse | None:
        return with_reason(self, request, queryset, gettext("Stop the tournament"), services.stop)


@admin.register(Entrant)
class EntrantAdmin(Moderated[Entrant]):
    """The people in tournaments; a moderator removes one with a reason."""

    list_display = ("user", "tournament", "points", "buchholz", "wins", "games", "withdrawn")
    list_filter = ("withdrawn", "withdrawn_why", "paused")
    list_select_related = ("user", "tournament")
    search_fields = ("user__username", "tournament__name", "tournament__id")
    fields = (
        "tournament",
        "user",
        "joined_at",
        "rating",
        "points",
        "buchholz",
        "wins",
        "games",
        "byes",
        "streak",
        "absences",
        "paused",
        "withdrawn",
        "withdrawn_why",
        "withdrawn_round",
        "checked_in_at",
        "place",
    )
    readonly_fields = fields
    actions = ["remove_entrants"]

    @admin.action(description=_("Remove from the tournament"), permissions=["change"])
    def remove_entrants(
        self, request: AuthedRequest, queryset: QuerySet[Entrant]
    ) -> HttpResponse | None:
        return with_reason(
            self, request, queryset, gettext("Remove from the tournament"), services.remove
        )


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin[Round]):
    """Swiss rounds, each paired once."""

    list_display = ("tournament", "number", "paired_at")
    list_select_related = ("tournament",)
    search_fields = ("tournament__name", "tournament__id")
    fields = ("tournament", "number", "paired_at", "skipped")
    readonly_fields = fields


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin[Table]):
    """Tournament tables (and byes), their games and what each was awarded."""

    list_display = ("tournament", "round", "number", "game", "recorded", "recorded_at")
    list_filter = ("recorded",)
    list_select_related = ("tournament", "round", "game")
    search_fields = ("tournament__name", "tournament__id", "game__id")
    fields = ("tournament", "round", "number", "game", "people", "recorded", "recorded_at")
    readonly_fields = (*fields, "awarded")


@admin.register(ChatLine)
class ChatLineAdmin(Moderated[ChatLine]):
    """Tournament chat lines; moderators hide (or show again) lines, which vanish from screens."""

    list_display = ("created_at", "tournament", "author", "text", "hidden")
    list_filter = ("hidden", ("created_at", admin.DateFieldListFilter))
    list_select_related = ("tournament", "author")
    search_fields = ("text", "author__username", "tournament__name", "tournament__id")
    fields = ("tournament", "author", "text", "created_at", "hidden")
    readonly_fields = fields
    actions = ["hide_lines", "show_lines"]

    @admin.action(
        description=_("Hide the selected lines from every screen"), permissions=["change"]
    )
    def hide_lines(self, request: AuthedRequest, queryset: QuerySet[ChatLine]) -> None:
        count = services.chat.hide(queryset, request.user, hidden=True)
        self.message_user(request, lines_hidden(count))

    @admin.action(description=_("Show the selected lines again"), permissions=["change"])
    def show_lines(self, request: AuthedRequest, queryset: QuerySet[ChatLine]) -> None:
        count = services.chat.hide(queryset, request.user, hidden=False)
        self.message_user(request, lines_shown(count))
