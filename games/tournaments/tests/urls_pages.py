"""The site's URLs with tournament pages of its own (a stand-in detail page) or with none, so the
lobby's next event is tested both ways whatever pages the site has."""

from django.http import HttpRequest, HttpResponse
from django.urls import URLResolver, include, path

from bakery_site.urls import urlpatterns as site


def stand_in(request: HttpRequest, pk: int) -> HttpResponse:
    return HttpResponse(f"tournament {pk}")


without_pages = [p for p in site if getattr(p, "namespace", None) != "tournaments"]
pages: URLResolver = path(
    "tournaments/", include(([path("<int:pk>/", stand_in, name="detail")], "tournaments"))
)
