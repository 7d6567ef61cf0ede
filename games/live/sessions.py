"""A socket belongs to a session: ending the session (or the account) closes its sockets."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from importlib import import_module
from typing import TypedDict

from django.conf import settings
from django.contrib.auth import (
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
    load_backend,
)
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.base import SessionBase
from django.db import transaction
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare

from accounts.models import User, signed_in
from games.groups import recheck_sockets, send_to_group, user_group

SESSION_ENDED = 4401
ACCOUNT_CLOSED = 4402  # the session ended because a moderator deactivated the account


def ended_code(user_id: int) -> int:
    """How a socket whose session ended says so: the account was closed, or the session ended
    (a log-out, a changed password)."""
    closed = get_user_model().objects.filter(pk=user_id, is_active=False).exists()
    return ACCOUNT_CLOSED if closed else SESSION_ENDED


def session_digest(session_key: str) -> str:
    """A session's name in channel messages (the key itself never leaves the server)."""
    return hashlib.sha256(session_key.encode()).hexdigest()[:32]


def auth_hashes(user: AbstractBaseUser) -> list[str]:
    """The session auth hashes that still log this user in (the secret key and its fallbacks)."""
    return [user.get_session_auth_hash(), *user.get_session_auth_fallback_hash()]


def session_alive(session_key: str, user_id: int) -> bool:
    """Whether the session still logs this active user in, as Django decides, changing nothing."""
    session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    try:
        stored_id = get_user_model()._meta.pk.to_python(session[SESSION_KEY])
        backend_path = session[BACKEND_SESSION_KEY]
    except KeyError:
        return False
    if stored_id != user_id or backend_path not in settings.AUTHENTICATION_BACKENDS:
        return False
    user = load_backend(backend_path).get_user(user_id)
    stored_hash = session.get(HASH_SESSION_KEY)
    if user is None or not stored_hash:
        return False
    return any(constant_time_compare(stored_hash, h) for h in auth_hashes(user))


# When each session last held (monotonic seconds): a push within SOCKET_SESSION_RECHECK of it
# trusts that yes. Logout and account changes close sockets at once by their messages; this
# re-check is the backstop for a message the channel layer lost (it delivers at most once).
_held: dict[str, float] = {}


@dataclass(frozen=True)
class SocketSession:
    """The session a socket was opened in, and its user."""

    key: str
    user_id: int

    def alive(self, recheck: bool = False) -> bool:
        """Whether the session still logs this user in (two primary-key reads, or a recent yes)."""
        at = time.monotonic()
        held = _held.get(self.key)
        if not recheck and held is not None and at - held < settings.SOCKET_SESSION_RECHECK:
            return True
        if not session_alive(self.key, self.user_id):
            _held.pop(self.key, None)
            return False
        hold(self.key, at)
        return True

    def forget(self) -> None:
        """Check this session in full next time (it was told to end)."""
        _held.pop(self.key, None)


MAX_HELD = 100_000


def hold(session_key: str, at: float | None = None) -> None:
    """The session was found to log its user in (at `at`, monotonic seconds; now if not given)."""
    if len(_held) > MAX_HELD:
        _held.clear()
    _held[session_key] = time.monotonic() if at is None else at


class Scope(TypedDict, total=False):
    """A socket's ASGI scope as the consumers read it: the handshake's, and what channels'
    middleware adds (the session, its user, the route's arguments)."""

    type: str
    headers: list[tuple[bytes, bytes]]
    client: tuple[str, int] | None
    query_string: bytes
    session: SessionBase
    user: User | AnonymousUser
    url_route: dict[str, dict[str, str]]


def socket_session(scope: Scope) -> SocketSession | None:
    """The logged-in session of a socket's scope (None for an anonymous socket)."""
    user, session = scope.get("user"), scope.get("session")
    if not signed_in(user) or session is None or not session.session_key:
        return None
    # Channels' AuthMiddleware has just read this user from the session, checking its auth hash
    # as Django does: the session holds now (a reconnecting page's first push need not read it
    # again; after a deploy that was two more reads for each of a process's sockets at once).
    hold(session.session_key)
    return SocketSession(session.session_key, user.pk)


def close_on_logout(
    sender: object, request: HttpRequest, user: User | None, **kwargs: object
) -> None:
    """Logging out closes the sockets this session opened (user_logged_out, games/wiring.py)."""
    session_key = request.session.session_key
    if user is not None and session_key:
        message: dict[str, object] = {
            "type": "session.ended",
            "session": session_digest(session_key),
        }
        send_to_group(user_group(user.pk), message)


def recheck_on_account_change(
    sender: object,
    instance: User,
    created: bool,
    update_fields: frozenset[str] | None,
    **kwargs: object,
) -> None:
    """A changed account (password, deactivation, a moderator's action) re-checks its sockets
    (post_save of the user model, games/wiring.py), once the change is committed: never while
    its transaction holds the database (on SQLite the write lock, which a send that waits for the
    event loop's thread could hold for good)."""
    if created or (update_fields is not None and set(update_fields) <= {"last_login"}):
        return
    user_id = instance.pk
    transaction.on_commit(lambda: recheck_sockets(user_id))
