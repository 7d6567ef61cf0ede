"""Bakehouse URLs."""

from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.utils.functional import lazy
from django.views.generic import RedirectView

from games.api import pages as api_pages
from games.web import health, lobby, people
from games.web import history as game_views_history

# Every 404 says what was not found in the site's words (never "No Game matches the given query.").
handler404 = "games.web.errors.not_found"
# A refusal's page says its sentence in the reader's language.
handler403 = "games.web.errors.forbidden"

FAVICON = "img/favicon.svg"  # also base.html's <link rel="icon">, swapped by notify.js on a move

urlpatterns = [
    path("", lobby.lobby, name="lobby"),
    path("healthz", health.healthz, name="healthz"),
    # Browsers ask for /favicon.ico on their own: the page's one icon, a small SVG among the
    # static files. Not a permanent redirect: in production its name carries the file's hash,
    # which changes with the icon.
    path("favicon.ico", RedirectView.as_view(url=lazy(static, str)(FAVICON), permanent=False)),
    # The person's own data and account deletion reach into the games (games/web/people.py).
    path("accounts/settings/data.json", people.my_data, name="my_data"),
    path("accounts/settings/delete/", people.delete_account, name="delete_account"),
    path("accounts/settings/bot/", api_pages.become_bot, name="become_bot"),  # games/api/bots.py
    path("accounts/", include("accounts.urls")),
    path("u/<str:username>/games.ndjson", game_views_history.player_games, name="player_games"),
    path("u/<str:username>/", people.profile, name="profile"),
    path("games/", include("games.urls")),
    path("games/", include("games.reviews.urls")),
    path("pairing/", include("games.pairing.urls")),
    path("tournaments/", include("games.tournaments.urls")),
    path("leaderboards/", people.leaderboard_index, name="leaderboards"),
    path("leaderboards/<slug:slug>/", people.leaderboard, name="leaderboard"),
    path("stats/", game_views_history.site_stats, name="stats"),
    path("stats/<slug:slug>/", game_views_history.game_stats, name="game_stats"),
    path("admin/", admin.site.urls),
    # The public API (games/api/): JSON for programs and bots, a token on every request.
    path("api/", include("games.api.urls")),
    # OAuth2 for third-party apps (accounts/oauth/): authorize (the consent page), token, revoke.
    path("oauth/", include("accounts.oauth.urls")),
]
