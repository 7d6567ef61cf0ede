"""The apps in admin: the toolkit's own admin, but an app may be deleted with every token it holds.

The toolkit lets nobody delete a token row in admin (its "Revoke selected" action revokes one),
so admin refused to delete an app that had ever held a token: who may delete an app (a
moderator, a hostile app) deletes its tokens with it, which revokes them all at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from oauth2_provider.admin import ApplicationAdmin
from oauth2_provider.models import Application

HELD = {"access token", "refresh token", "grant", "id token"}
"""What an app holds, by admin's names for it: deleted with the app."""


class AppAdmin(ApplicationAdmin):  # type: ignore[misc]  # the toolkit is untyped
    """The toolkit's application admin; deleting an app takes what it holds."""

    def get_deleted_objects(self, objs: Sequence[Any], request: HttpRequest) -> Any:
        deleted, counts, needed, protected = super().get_deleted_objects(objs, request)
        return deleted, counts, set(needed) - HELD, protected


admin.site.unregister(Application)
admin.site.register(Application, AppAdmin)
