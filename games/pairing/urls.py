"""Quick pairing's URLs under /pairing/ (the socket is at /ws/pairing/, games/routing.py)."""

from django.urls import path

from games.pairing import views

app_name = "pairing"

urlpatterns = [
    path("", views.find, name="find"),
    path("look/", views.look, name="look"),
    path("stop/", views.stop, name="stop"),
    path("looking/", views.looking_now, name="looking"),
]
