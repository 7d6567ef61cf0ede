"""The tutorial's URLs under /games/, named in the games namespace (games:learn,
games:tutorial_step) as they were before the tutorial had an app of its own: games/urls.py
includes them."""

from django.urls import path

from games.tutorial import views

urlpatterns = [
    path("learn/<slug:slug>/", views.learn, name="learn"),
    path("<int:game_id>/tutorial/", views.step, name="tutorial_step"),
]
