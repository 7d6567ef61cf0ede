"""Friends as a Django app: a friend request, a yes, a block (services.py), the friends' pages
(views.py, urls.py), their admin, template tags and templates. Its events' receivers are
registered with everyone else's in games/wiring.py."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FriendsConfig(AppConfig):
    name = "games.friends"
    label = "friends"
    verbose_name = _("Friends")
