"""The OAuth2 scopes: the personal tokens' own list (accounts/tokens.py: SCOPES), one list."""

from __future__ import annotations

from typing import Any

from oauth2_provider.scopes import BaseScopes

from accounts.tokens import SCOPES

DEFAULT = ["account:read"]
"""What an app that names no scope asks for: to read the account."""


class Scopes(BaseScopes):  # type: ignore[misc]  # the toolkit is untyped
    """django-oauth-toolkit's scopes backend, read from accounts/tokens.py."""

    def get_all_scopes(self) -> dict[str, str]:
        return dict(SCOPES)

    def get_available_scopes(
        self, application: object = None, request: object = None, *args: Any, **kwargs: Any
    ) -> list[str]:
        return list(SCOPES)

    def get_default_scopes(
        self, application: object = None, request: object = None, *args: Any, **kwargs: Any
    ) -> list[str]:
        return list(DEFAULT)
