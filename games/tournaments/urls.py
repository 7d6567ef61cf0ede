"""Tournaments' URLs under /tournaments/ (the page's socket is at /ws/tournaments/<id>/,
games/routing.py)."""

from django.urls import path

from games.tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views.create, name="create"),
    path("<int:tournament_id>/", views.detail, name="detail"),
    path("<int:tournament_id>/join/", views.join, name="join"),
    path("<int:tournament_id>/withdraw/", views.withdraw, name="withdraw"),
    path("<int:tournament_id>/pause/", views.pause, name="pause"),
    path("<int:tournament_id>/here/", views.check_in, name="check_in"),
    path("<int:tournament_id>/resume/", views.resume, name="resume"),
    path("<int:tournament_id>/chat/", views.chat, name="chat"),
    path("<int:tournament_id>/chat/log/", views.chat_log, name="chat_log"),
]
