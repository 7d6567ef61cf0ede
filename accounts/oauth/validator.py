"""The toolkit's validator, narrowed to what Bakehouse offers: the authorization code flow
(and its refresh) with PKCE, S256 only, refused in words before the consent page is shown."""

from __future__ import annotations

import hashlib
import re
from typing import Any

from oauth2_provider.models import AccessToken as AppToken
from oauth2_provider.oauth2_validators import OAuth2Validator
from oauthlib.oauth2.rfc6749 import errors

from accounts.oauth import apps, keys
from accounts.tokens import SCOPES

GRANTS = ("authorization_code", "refresh_token")
"""The only grant types the token endpoint takes."""

CHALLENGE = re.compile(r"[A-Za-z0-9_-]{43}")
"""An S256 code challenge: the sha256 of the verifier in base64url without padding."""

NO_CHALLENGE = (
    "PKCE is required: send code_challenge (the S256 of your code_verifier) and "
    "code_challenge_method=S256."
)
NOT_S256 = 'Only code_challenge_method=S256 is accepted ("plain" and no method are refused).'
BAD_CHALLENGE = (
    "The code_challenge must be the S256 of your code_verifier: 43 characters of base64url "
    "without padding."
)

WORDS = {
    "access_denied": "The person denied the app access.",
    "invalid_scope": f"Ask only for Bakehouse's scopes: {', '.join(SCOPES)}.",
}
"""What the app is told where oauthlib says only the error's code (accounts/oauth/views.py)."""

NONCE_MAX = 255
"""The longest nonce the toolkit's Grant row keeps (longer failed its insert on PostgreSQL)."""
LONG_NONCE = f"The nonce is too long: at most {NONCE_MAX} characters."

NUL_REFUSED = "A NUL byte is in the request: no field may hold one."


def pkce_refusal(challenge: str | None, method: str | None) -> str:
    """Why an authorization request's PKCE is refused ("" when it is S256 and well formed)."""
    if not challenge:
        return NO_CHALLENGE
    if method != "S256":
        return NOT_S256
    if not CHALLENGE.fullmatch(challenge):
        return BAD_CHALLENGE
    return ""


class Validator(OAuth2Validator):  # type: ignore[misc]  # the toolkit is untyped
    """django-oauth-toolkit's validator, with PKCE S256 required and two grant types only."""

    def validate_response_type(
        self, client_id: str, response_type: str, client: Any, request: Any, *args: Any, **kw: Any
    ) -> bool:
        # Asked of an authorization request only, just before oauthlib's own PKCE check, once
        # the client and its redirect URI are known good: a refusal here goes back to the app.
        why = pkce_refusal(request.code_challenge, request.code_challenge_method) or (
            LONG_NONCE if len(getattr(request, "nonce", None) or "") > NONCE_MAX else ""
        )
        if response_type == "code" and why:
            raise errors.InvalidRequestError(description=why, request=request)
        return response_type == "code" and bool(
            super().validate_response_type(client_id, response_type, client, request, *args, **kw)
        )

    def validate_redirect_uri(
        self, client_id: str, redirect_uri: str, request: Any, *args: Any, **kw: Any
    ) -> bool:
        # An app registered in admin, too, comes back only to https or the loopback address.
        return not apps.redirect_refusal(redirect_uri) and bool(
            super().validate_redirect_uri(client_id, redirect_uri, request, *args, **kw)
        )

    def validate_grant_type(
        self, client_id: str, grant_type: str, client: Any, request: Any, *args: Any, **kw: Any
    ) -> bool:
        return grant_type in GRANTS and bool(
            super().validate_grant_type(client_id, grant_type, client, request, *args, **kw)
        )

    def revoke_token(
        self, token: str, token_type_hint: str | None, request: Any, *args: Any, **kw: Any
    ) -> None:
        """RFC 7009: an access token revoked takes its refresh tokens with it (RFC 7009 allows
        it), so a revoked app cannot quietly mint a new one; a refresh token as the toolkit
        does (its access token with it)."""
        digest = hashlib.sha256(token.encode()).hexdigest()
        client = getattr(request.client, "pk", None)
        row = AppToken.objects.filter(token_checksum=digest, application_id=client).first()
        if client is not None and row is not None:
            keys.revoke_grant(row)
            return
        super().revoke_token(token, token_type_hint, request, *args, **kw)
