"""A person's page for the moderators: accounts' user admin (accounts/admin.py: bots marked,
ratings) with what the person did at the tables added (their games, reports about and by them,
chat lines, friendships and blocks) and the button that deactivates or reactivates them."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django import forms
from django.contrib import admin
from django.db.models import Model, QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.admin import BakehouseUserAdmin, ReadOnly
from accounts.models import Block, Friendship, User
from games.access import AuthedRequest
from games.admin.pages import (
    ModeratorButton,
    ReasonForm,
    friendship_state,
    moderation_page,
    refuse_unless,
)
from games.models import ChatMessage, Report, Seat
from games.services import moderation

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

RECENT_SEATS = 20
# A person's page lists this many of their newest reports and chat lines in each inline, and
# links to the list of all of them: someone with thousands of lines still gets a quick page.
INLINE_ROWS = 20


class NewestRowsFormSet(BaseInlineFormSet[Model, User, forms.ModelForm[Model]]):
    """An inline's first INLINE_ROWS rows in its order, and a link to the list of every one."""

    def get_queryset(self) -> QuerySet[Model]:
        if not hasattr(self, "_newest"):
            self._newest = super().get_queryset()[:INLINE_ROWS]
        return self._newest

    def more(self) -> dict[str, object] | None:
        """How many rows there are in all and where the list of all of them is, when capped."""
        if len(self.get_queryset()) < INLINE_ROWS:
            return None
        total = super().get_queryset().count()
        if total <= INLINE_ROWS:
            return None
        meta = self.model._meta
        url = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
        query = f"?{self.fk.name}__id__exact={self.instance.pk}"
        return {"shown": INLINE_ROWS, "total": total, "url": url + query}


class NewestRowsInline(ReadOnly, admin.TabularInline[Model, User]):
    """A read-only inline of the newest rows only, with a link to all of them; the people each
    row names (`people`) are read with it."""

    formset = NewestRowsFormSet
    template = "admin/newest_rows_tabular.html"
    extra = 0
    ordering = ("-created_at", "-pk")
    people: tuple[str, ...] = ()

    def get_queryset(self, request: HttpRequest) -> QuerySet[Model]:
        return super().get_queryset(request).select_related(*self.people)


class ReportInline(NewestRowsInline):
    """Reports about this person (or by them), newest first, each a link to its own page."""

    model = Report
    fields = ("report_link", "created_at", "status", "reason", "note", "game")
    readonly_fields = fields
    show_change_link = True

    @admin.display(description=_("Report"))
    def report_link(self, report: Report) -> str:
        url = reverse("admin:games_report_change", args=[report.pk])
        return format_html('<a href="{}">#{}</a>', url, report.pk)


def one_way(
    rows: type[NewestRowsInline],
    fk_name: str,
    names: tuple[StrOrPromise, StrOrPromise],
    fields: tuple[str, ...] = (),
) -> type[NewestRowsInline]:
    """The inline of those rows that name the person as `fk_name` (a report's reported or its
    reporter, ...), called by `names` (one row, many: "report about this person", "reports
    about this person", marked for translation), showing `fields` (else the rows' own)."""
    name, plural = names
    shown = {"fields": fields, "readonly_fields": fields} if fields else {}
    words = {"fk_name": fk_name, "verbose_name": name, "verbose_name_plural": plural}
    return type(f"{rows.__name__}_{fk_name}", (rows,), {**words, **shown})


class ChatLinesInline(NewestRowsInline):
    """What the person said at tables, newest first; a line is hidden from the chat admin."""

    model = ChatMessage
    fk_name = "author"
    fields = ("created_at", "game", "text", "hidden")
    readonly_fields = fields
    verbose_name = _("chat line by this person")
    verbose_name_plural = _("chat lines by this person")


class FriendshipInline(NewestRowsInline):
    """The person's friendships and friend requests, newest first, each a link to its page."""

    model = Friendship
    show_change_link = True
    people = ("from_user", "to_user")

    @admin.display(description=_("State"))
    def state(self, friendship: Friendship) -> str:
        return friendship_state(friendship)


class BlockInline(NewestRowsInline):
    """The person's blocks, newest first, each a link to its page."""

    model = Block
    show_change_link = True
    people = ("blocker", "blocked")


ASKED_BY = ("to_user", "state", "created_at")
ASKED_OF = ("from_user", "state", "created_at")
# What the games add to accounts' person page (its ratings first): reports, what they said in
# table chats, then their friendships and blocks, both ways.
PERSON_INLINES = (
    one_way(
        ReportInline, "reported", (_("report about this person"), _("reports about this person"))
    ),
    one_way(ReportInline, "reporter", (_("report by this person"), _("reports by this person"))),
    ChatLinesInline,
    one_way(
        FriendshipInline,
        "from_user",
        (_("friendship asked by this person"), _("friendships asked by this person")),
        ASKED_BY,
    ),
    one_way(
        FriendshipInline,
        "to_user",
        (_("friendship asked of this person"), _("friendships asked of this person")),
        ASKED_OF,
    ),
    one_way(
        BlockInline,
        "blocker",
        (_("block by this person"), _("blocks by this person")),
        ("blocked", "created_at"),
    ),
    one_way(
        BlockInline,
        "blocked",
        (_("block of this person"), _("blocks of this person")),
        ("blocker", "created_at"),
    ),
)


admin.site.unregister(User)  # accounts' own (accounts/admin.py), extended here


@admin.register(User)
class PersonAdmin(ModeratorButton[User], BakehouseUserAdmin):
    """Accounts' user admin with the person's games and doings at the tables.

    Moderators see it read only (no change permission) and deactivate or reactivate an account
    with a button that calls the service: bots take the running seats, sockets close.
    """

    fieldsets = (
        *(BakehouseUserAdmin.fieldsets or ()),
        (_("Games"), {"fields": ("recent_games",)}),
    )
    readonly_fields = (*BakehouseUserAdmin.readonly_fields, "recent_games")
    inlines = (*BakehouseUserAdmin.inlines, *PERSON_INLINES)

    @admin.display(description=_("Games"))
    def recent_games(self, person: User) -> str:
        """The person's latest games (links to each), and a link to all of them."""
        if person.pk is None:
            return "—"
        seats = (
            Seat.objects.filter(user=person)
            .select_related("game")
            .order_by("-game__created_at")[:RECENT_SEATS]
        )
        rows = format_html_join(
            "",
            '<li><a href="{}">{}</a>: {}{}</li>',
            (
                (
                    reverse("admin:games_game_change", args=[s.game_id]),
                    s.game,
                    s.game.get_status_display(),
                    gettext(", place %(place)s") % {"place": s.place} if s.place else "",
                )
                for s in seats
            ),
        )
        every = reverse("admin:games_seat_changelist") + f"?user__id__exact={person.pk}"
        words = gettext("Every game of %(person)s")
        link = format_html('<a href="{}">{}</a>', every, words % {"person": person})
        return format_html("<ul>{}</ul>{}", rows, link)

    def get_urls(self) -> list[URLPattern]:
        def view(request: AuthedRequest, object_id: str, active: bool) -> HttpResponse:
            return self.activation_view(request, object_id, active)

        mine = [
            path(
                "<path:object_id>/deactivate/",
                self.admin_site.admin_view(lambda r, object_id: view(r, object_id, False)),
                name="accounts_user_deactivate",
            ),
            path(
                "<path:object_id>/reactivate/",
                self.admin_site.admin_view(lambda r, object_id: view(r, object_id, True)),
                name="accounts_user_reactivate",
            ),
        ]
        return [*mine, *super().get_urls()]

    def activation_view(self, request: AuthedRequest, object_id: str, active: bool) -> HttpResponse:
        """Deactivate (or reactivate) an account with a reason, through the services."""
        refuse_unless(request.user.has_perm("accounts.deactivate_user"))
        person = self.get_object(request, object_id)
        refuse_unless(person is not None)
        assert person is not None
        moderator = request.user

        def run(data: dict[str, object]) -> str:
            if active:
                moderation.reactivate(person, moderator, cast(str, data["reason"]))
                return gettext("%(person)s can log in again.") % {"person": person}
            moderation.deactivate(person, moderator, cast(str, data["reason"]))
            return gettext(
                "%(person)s is deactivated: logged out everywhere, bots play their games."
            ) % {"person": person}

        if active:
            title, button = gettext("Reactivate %(person)s"), gettext("Reactivate the account")
        else:
            title, button = gettext("Deactivate %(person)s"), gettext("Deactivate the account")
        return moderation_page(
            self,
            request,
            person,
            title=title % {"person": person},
            button=button,
            form_class=ReasonForm,
            run=run,
        )

    def moderator_button(self, request: HttpRequest, object_id: str) -> tuple[str, str] | None:
        """A person's Deactivate (Reactivate once deactivated), for a moderator who may."""
        person = User.objects.filter(pk=object_id, is_bot=False).first()
        if person is None or not request.user.has_perm("accounts.deactivate_user"):
            return None
        verb = "deactivate" if person.is_active else "reactivate"
        if person.is_active:
            words = gettext("Deactivate the account")
        else:
            words = gettext("Reactivate the account")
        return reverse(f"admin:accounts_user_{verb}", args=[person.pk]), words
