"""Games, seats, the action log and reports in Django admin: read only, only the services change
them; a moderator's buttons (abort a game, close a report) call the services."""

from __future__ import annotations

import json
from typing import cast

from django import forms
from django.contrib import admin, messages
from django.db.models import Case, Model, QuerySet, When
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games import services
from games.access import AuthedRequest
from games.admin.pages import (
    ModeratorButton,
    ReadOnly,
    ReadOnlyAdmin,
    ReasonForm,
    moderation_page,
    refuse_unless,
)
from games.models import LIVE, Action, ChatMessage, Game, Report, Seat
from games.services import chat, moderation

HIDDEN = _("Hidden while the game runs or waits to start: it fixes seats, deck and every hand.")


def spoils_play(game: Game) -> bool:
    """Whether the seed, snapshot and secret picks of this game could still spoil it."""
    return game.status in LIVE


class SeatInline(ReadOnly, admin.TabularInline[Seat, Game]):
    model = Seat
    extra = 0
    fields = ("user", "bot", "position", "resigned", "score", "place", "winner")
    readonly_fields = fields


@admin.register(Game)
class GameAdmin(ModeratorButton[Game], ReadOnlyAdmin[Game]):
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
        "rated",
        "rematch_of",
        "invite",
        "version",
        "moves",
        "created_at",
        "started_at",
        "finished_at",
        "abort_reason",
        "aborted_by",
        "seed_shown",
        "snapshot_shown",
        "replay_link",
    )
    readonly_fields = fields
    inlines = [SeatInline]

    def get_urls(self) -> list[URLPattern]:
        abort = path(
            "<path:object_id>/abort/",
            self.admin_site.admin_view(
                lambda request, object_id: abort_view(self, request, object_id)
            ),
            name="games_game_abort",
        )
        return [abort, *super().get_urls()]

    def moderator_button(self, request: HttpRequest, object_id: str) -> tuple[str, str] | None:
        """A running game's Abort, for a moderator who may abort."""
        running = Game.objects.filter(pk=object_id, status=Game.Status.RUNNING).exists()
        if not running or not request.user.has_perm("games.abort_game"):
            return None
        return reverse("admin:games_game_abort", args=[object_id]), gettext("Abort this game")

    @admin.display(description=_("Seed"))
    def seed_shown(self, game: Game) -> str:
        """The seed, once the game can no longer be spoiled."""
        return str(HIDDEN) if spoils_play(game) else str(game.seed)

    @admin.display(description=_("Snapshot"))
    def snapshot_shown(self, game: Game) -> str:
        """The stored state, once the game can no longer be spoiled."""
        return str(HIDDEN) if spoils_play(game) else json.dumps(game.snapshot)

    @admin.display(description=_("Replay"))
    def replay_link(self, game: Game) -> str:
        """A link to the move-by-move replay, once the game is over."""
        if game.status != Game.Status.OVER:
            return "when the game ends"
        return format_html('<a href="{}">replay</a>', reverse("games:replay", args=[game.pk]))


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin[Seat]):
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
class ActionAdmin(ReadOnlyAdmin[Action]):
    """The action log, the truth every game is rebuilt from."""

    list_display = ("game", "seq", "seat", "payload_shown", "user", "bot", "created_at")
    list_filter = ("game__kind", "bot")
    list_select_related = ("game", "user")
    search_fields = ("game__id",)
    fields = ("game", "seq", "seat", "payload_shown", "user", "bot", "created_at")
    readonly_fields = fields

    @admin.display(description=_("Payload"))
    def payload_shown(self, action: Action) -> str:
        """The action as posted; a secret pick only once its game is over."""
        game = action.game
        secret = spoils_play(game) and game.spec.secret_moves
        return str(HIDDEN) if secret else json.dumps(action.payload)


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin[ChatMessage]):
    """Table chat lines; moderators hide (or show again) lines, which vanish from screens."""

    list_display = ("created_at", "game", "author", "text", "hidden")
    list_filter = ("hidden", ("created_at", admin.DateFieldListFilter))
    list_select_related = ("game", "author")
    search_fields = ("text", "author__username", "game__id")
    fields = ("game", "author", "text", "created_at", "hidden")
    readonly_fields = fields
    actions = ["hide_lines", "show_lines"]

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        # Change rights, for the actions only: every field stays read only.
        return bool(request.user.has_perm("games.change_chatmessage"))

    @admin.action(description=_("Hide the selected lines from every screen"))
    def hide_lines(self, request: AuthedRequest, queryset: QuerySet[ChatMessage]) -> None:
        count = chat.hide(queryset, request.user, hidden=True)
        self.message_user(request, lines_hidden(count))

    @admin.action(description=_("Show the selected lines again"))
    def show_lines(self, request: AuthedRequest, queryset: QuerySet[ChatMessage]) -> None:
        count = chat.hide(queryset, request.user, hidden=False)
        self.message_user(request, lines_shown(count))


# --- moderation: buttons that call the services ---------------------------------------------


class ReportForm(forms.Form):
    """A moderator closing a report: dismissed or acted on, and what was done."""

    status = forms.ChoiceField(
        choices=[(Report.Status.ACTED, _("Acted on")), (Report.Status.DISMISSED, _("Dismissed"))],
        widget=forms.RadioSelect,
    )
    resolution = forms.CharField(
        max_length=500, required=False, widget=forms.Textarea(attrs={"rows": 3})
    )


def abort_view(model_admin: GameAdmin, request: AuthedRequest, object_id: str) -> HttpResponse:
    """Abort a running game with a reason every player reads."""
    refuse_unless(request.user.has_perm("games.abort_game"))
    game = get_object_or_404(Game, pk=object_id)

    def run(data: dict[str, object]) -> str:
        moderation.abort(game, request.user, cast(str, data["reason"]))
        return gettext("%(game)s was aborted; every screen shows the reason.") % {"game": game}

    return moderation_page(
        model_admin,
        request,
        game,
        title=gettext("Abort %(game)s") % {"game": game},
        button=gettext("Abort the game"),
        form_class=ReasonForm,
        run=run,
    )


@admin.register(Report)
class ReportAdmin(ModeratorButton[Report], ReadOnlyAdmin[Report]):
    """Players' reports: open first; a moderator dismisses one or marks it acted on."""

    list_display = (
        "id",
        "created_at",
        "status",
        "reason",
        "reported_link",
        "reporter",
        "game_link",
        "handled_by",
        "handled_at",
    )
    list_filter = ("status", "reason", ("created_at", admin.DateFieldListFilter))
    list_select_related = ("reporter", "reported", "game", "handled_by")
    search_fields = ("reported__username", "reporter__username", "game__id")
    fields = (
        "status",
        "reason",
        "note",
        "reported_link",
        "reporter",
        "game_link",
        "created_at",
        "handled_by",
        "handled_at",
        "resolution",
    )
    readonly_fields = fields
    actions = ["dismiss", "act_on"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Report]:
        # Open reports first, then the newest.
        open_first = Case(When(status=Report.Status.OPEN, then=0), default=1)
        return super().get_queryset(request).order_by(open_first, "-created_at", "-pk")

    def has_handle_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.change_report")

    @admin.display(description=_("Reported"))
    def reported_link(self, report: Report) -> str:
        url = reverse("admin:accounts_user_change", args=[report.reported_id])
        return format_html('<a href="{}">{}</a>', url, report.reported)

    @admin.display(description=_("Game"))
    def game_link(self, report: Report) -> str:
        url = reverse("admin:games_game_change", args=[report.game_id])
        return format_html(
            '<a href="{}">{}</a> (<a href="{}">table</a>)',
            url,
            report.game,
            report.game.get_absolute_url(),
        )

    def handle_many(self, request: AuthedRequest, queryset: QuerySet[Report], status: str) -> None:
        done = 0
        for report in queryset:
            try:
                moderation.handle_report(report, request.user, status)
            except services.ServiceError as exc:
                self.message_user(
                    request,
                    gettext("Report %(number)s: %(refusal)s")
                    % {"number": report.pk, "refusal": exc},
                    messages.WARNING,
                )
            else:
                done += 1
        self.message_user(request, reports_closed(done, status))

    @admin.action(description=_("Dismiss the selected reports"), permissions=["handle"])
    def dismiss(self, request: AuthedRequest, queryset: QuerySet[Report]) -> None:
        self.handle_many(request, queryset, Report.Status.DISMISSED)

    @admin.action(description=_("Mark the selected reports acted on"), permissions=["handle"])
    def act_on(self, request: AuthedRequest, queryset: QuerySet[Report]) -> None:
        self.handle_many(request, queryset, Report.Status.ACTED)

    def get_urls(self) -> list[URLPattern]:
        handle = path(
            "<path:object_id>/handle/",
            self.admin_site.admin_view(self.handle_view),
            name="games_report_handle",
        )
        return [handle, *super().get_urls()]

    def handle_view(self, request: AuthedRequest, object_id: str) -> HttpResponse:
        refuse_unless(self.has_handle_permission(request))
        report = get_object_or_404(Report, pk=object_id)

        def run(data: dict[str, object]) -> str:
            moderation.handle_report(
                report, request.user, cast(str, data["status"]), cast(str, data["resolution"])
            )
            return reports_closed(1, report.status, report.pk)

        return moderation_page(
            self,
            request,
            report,
            title=gettext("Close report %(number)s") % {"number": report.pk},
            button=gettext("Close the report"),
            form_class=ReportForm,
            run=run,
        )

    def moderator_button(self, request: HttpRequest, object_id: str) -> tuple[str, str] | None:
        """An open report's Dismiss or act, for a moderator who may handle reports."""
        still_open = Report.objects.filter(pk=object_id, status=Report.Status.OPEN).exists()
        if not still_open or not self.has_handle_permission(request):
            return None
        return reverse("admin:games_report_handle", args=[object_id]), gettext(
            "Dismiss or act on it"
        )


def lines_hidden(count: int) -> str:
    """What hiding chat lines did, in the moderator's language."""
    return ngettext("%(count)s line hidden.", "%(count)s lines hidden.", count) % {"count": count}


def lines_shown(count: int) -> str:
    """What showing chat lines again did, in the moderator's language."""
    return ngettext("%(count)s line shown again.", "%(count)s lines shown again.", count) % {
        "count": count
    }


def reports_closed(done: int, status: str, number: int | None = None) -> str:
    """What closing reports did: how many (or which one) were dismissed or acted on."""
    if number is not None:
        if status == Report.Status.DISMISSED:
            return gettext("Report %(number)s: dismissed.") % {"number": number}
        return gettext("Report %(number)s: acted on.") % {"number": number}
    if status == Report.Status.DISMISSED:
        return ngettext("%(count)s report dismissed.", "%(count)s reports dismissed.", done) % {
            "count": done
        }
    return ngettext("%(count)s report acted on.", "%(count)s reports acted on.", done) % {
        "count": done
    }
