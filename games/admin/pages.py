"""What the admin's pages share: read-only rows (some a moderator may delete; ReadOnly itself is
accounts' admin's), the moderator's button on a row's page, the moderator's one-form pages that
call a service and say what it did; a person's link, and a friendship's state, as every admin page
names them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext

from accounts.admin import ReadOnly
from accounts.models import Friendship, User
from games import services

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

M = TypeVar("M", bound=Model)

__all__ = ["ReadOnly", "ReadOnlyAdmin", "ReadOrDeleteAdmin", "ModeratorButton", "ReasonForm"]


class ReadOnlyAdmin(ReadOnly, admin.ModelAdmin[M]):
    """A model only the services change."""


class ReadOrDeleteAdmin(ReadOnlyAdmin[M]):
    """Read only, but a row may be deleted by whoever holds the delete permission (the admin
    log keeps who deleted what, and when)."""

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        # The row is this admin's model's (Django asks only of its own rows).
        return admin.ModelAdmin.has_delete_permission(self, request, cast("M | None", obj))


class ModeratorButton(admin.ModelAdmin[M]):
    """A row's page with the moderator's one button (to a moderation_page) when
    `moderator_button` names one for this row and this moderator: its address and its words."""

    def moderator_button(self, request: HttpRequest, object_id: str) -> tuple[str, str] | None:
        return None

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, object] | None = None,
    ) -> HttpResponse:
        button = self.moderator_button(request, object_id) if object_id.isdigit() else None
        extra = dict(extra_context or {})
        if button is not None:
            extra["moderation_buttons"] = [button]
        return super().change_view(request, object_id, form_url, extra)


class ReasonForm(forms.Form):
    """What a moderator writes when acting: the reason, kept in the admin log."""

    reason = forms.CharField(max_length=200, widget=forms.Textarea(attrs={"rows": 3}))


def moderation_page(
    model_admin: admin.ModelAdmin[M],
    request: HttpRequest,
    obj: M,
    *,
    title: str,
    button: str,
    form_class: type[forms.Form],
    run: Callable[[dict[str, object]], str],
) -> HttpResponse:
    """A small admin page with one form; a valid post runs a service and says what it did.

    A refused service leaves everything as it was and shows its message.
    """
    opts = model_admin.model._meta
    form = form_class(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            done = run(form.cleaned_data)
        except services.ServiceError as exc:
            form.add_error(None, str(exc))
        else:
            model_admin.message_user(request, done, messages.SUCCESS)
            return redirect(
                reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk])
            )
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": opts,
        "original": obj,
        "title": title,
        "button": button,
        "form": form,
    }
    status = 400 if request.method == "POST" else 200
    return TemplateResponse(request, "admin/moderation_form.html", context, status=status)


def refuse_unless(allowed: bool) -> None:
    """A 403 for an admin page this person may not use."""
    if not allowed:
        raise PermissionDenied


def person_link(person: User) -> str:
    """The person's name, a link to their page in admin."""
    url = reverse("admin:accounts_user_change", args=[person.pk])
    return format_html('<a href="{}">{}</a>', url, person)


def person_column(field: str, description: StrOrPromise) -> Callable[[Any, Any], str]:
    """An admin column naming the person a row's `field` holds, a link to their page, sorted by
    name: the one way every admin page shows who sent, received or blocked what."""

    @admin.display(description=description, ordering=f"{field}__username")
    def column(model_admin: Any, row: Model) -> str:
        return person_link(getattr(row, field))

    return column


def friendship_state(friendship: Friendship) -> str:
    """Asked (no answer yet) or accepted (the two are friends)."""
    return gettext("accepted") if friendship.accepted else gettext("asked")
