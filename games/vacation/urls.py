"""The vacation's URLs under /games/vacation/, named in the games namespace (games:vacation,
games:end_vacation) as they were before vacations had an app of their own: games/urls.py
includes them."""

from django.urls import path

from games.vacation import views

urlpatterns = [
    path("", views.vacation_page, name="vacation"),
    path("<int:vacation_id>/end/", views.end_vacation_now, name="end_vacation"),
]
