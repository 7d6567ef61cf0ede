"""The site's URLs with a stand-in tournament page (see urls_pages)."""

from games.tournaments.tests.urls_pages import pages, without_pages

urlpatterns = [*without_pages, pages]
