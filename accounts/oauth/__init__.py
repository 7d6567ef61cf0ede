"""OAuth2 for third-party apps, on django-oauth-toolkit: a person registers an app (apps.py,
forms.py), another person allows it on the consent page (views.py) through the authorization
code flow with PKCE (S256 only: validator.py), and the app calls the API with the access token
it gets, exactly where a personal token goes (keys.py: what the API reads of it; the scopes are
the personal tokens' own, scopes.py). A person sees and revokes the apps' tokens at Settings,
Access tokens. See docs/architecture.md, "The public API"."""
