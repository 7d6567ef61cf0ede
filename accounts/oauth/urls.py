"""The OAuth2 endpoints at /oauth/ (mounted in bakery_site.urls): authorize (the consent page),
token (a code or a refresh token for tokens) and revoke (RFC 7009), the toolkit's own views."""

from django.urls import path
from oauth2_provider import views as toolkit

from accounts.oauth.views import Consent, refuses_nul

app_name = "oauth"

urlpatterns = [
    path("authorize/", refuses_nul(Consent.as_view()), name="authorize"),
    path("token/", refuses_nul(toolkit.TokenView.as_view()), name="token"),
    path("revoke/", refuses_nul(toolkit.RevokeTokenView.as_view()), name="revoke"),
]
