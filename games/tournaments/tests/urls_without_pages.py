"""The site's URLs without tournament pages (see urls_pages)."""

from games.tournaments.tests.urls_pages import without_pages

urlpatterns = without_pages
