"""The accounts' knobs: sign-up and the links mails carry. Each is a setting of that name, its
default here; the environment variable of the same name sets it (bakery_site/env.py:
feature_knobs), and a test sets it as any setting."""

#: Accounts one client address may make in an hour (accounts/views.py: signup); the browser
#: tests, all from 127.0.0.1, raise it.
SIGNUPS_PER_CLIENT = 5
#: Seconds an address-verification link works (accounts/emails.py).
EMAIL_VERIFY_MAX_AGE = 3 * 24 * 3600
#: Seconds a notification mail's unsubscribe link works, and only while the account has the
#: address it was mailed to (accounts/emails.py).
UNSUBSCRIBE_MAX_AGE = 60 * 24 * 3600
#: Personal access tokens (accounts/tokens.py) a person may hold at once, revoked ones apart.
API_TOKENS_PER_PERSON = 20
#: Seconds an OAuth2 access token of a third-party app works (accounts/oauth/); the app then
#: asks for a new one with its refresh token.
OAUTH_ACCESS_TOKEN_SECONDS = 3600
#: Seconds an OAuth2 refresh token works unused (each use gives a new one): a person who stops
#: using an app is asked again after this.
OAUTH_REFRESH_TOKEN_SECONDS = 60 * 24 * 3600
#: Third-party apps (OAuth2 clients) one person may register (accounts/oauth/forms.py).
OAUTH_APPS_PER_PERSON = 10
