"""Third-party apps (the toolkit's Application rows) that people register for themselves.

A signed-in person registers an app on a page of their own (Settings, Apps): a name and its
redirect URIs, https or loopback http (RFC 8252). Every app registered there is a public client
(no secret: a secret inside a program people download is no secret, and PKCE is what keeps the
code to the app that asked for it) of the authorization code grant. Moderators see every app in
admin and may delete one.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from oauth2_provider.models import Application

LOOPBACK = ("127.0.0.1", "::1")
"""The hosts a plain-http redirect may name: the app on the person's own machine (RFC 8252)."""

NAME_MAX = 60


def redirect_refusal(uri: str) -> str:
    """Why this redirect URI may not be registered ("" when it may): https to a host, or http
    to the loopback address, with no fragment."""
    try:
        parts = urlsplit(uri)
        host = parts.hostname
        parts.port  # noqa: B018  # a port that is no number raises here
    except ValueError:
        return _("“%(uri)s” is not an address.") % {"uri": uri}
    if parts.fragment or "#" in uri:
        return _("“%(uri)s” has a fragment (#…): a redirect address may not.") % {"uri": uri}
    if parts.scheme == "https" and host:
        return ""
    if parts.scheme == "http" and host in LOOPBACK:
        return ""
    return _(
        "“%(uri)s” is neither https nor http on the loopback address (http://127.0.0.1:PORT/…)."
    ) % {"uri": uri}


def mine(user_id: int) -> QuerySet[Application]:
    """The apps this person registered, newest first."""
    rows: QuerySet[Application] = Application.objects.filter(user_id=user_id)
    return rows.order_by("-created", "-pk")


def register(user_id: int, name: str, uris: list[str]) -> Application:
    """A new public app of this person's (the form checked the name, the URIs and the count)."""
    app: Application = Application.objects.create(
        user_id=user_id,
        name=name,
        redirect_uris=" ".join(uris),
        client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        skip_authorization=False,
        algorithm=Application.NO_ALGORITHM,
    )
    return app


def remove(user_id: int, app_id: int) -> bool:
    """Delete one of this person's apps, and every token it holds with it; whether there was
    one to delete."""
    deleted, _rows = mine(user_id).filter(pk=app_id).delete()
    return deleted > 0
