"""The friends' URLs, under /games/ and the `games` namespace as they always were
(included by games/urls.py: people's links keep working)."""

from django.urls import path

from games.friends import views

urlpatterns = [
    path("friends/", views.friends_page, name="friends"),
    path("friends/<str:username>/<slug:verb>/", views.change, name="friend_change"),
    path("<int:game_id>/invite/", views.invite, name="invite"),
]
