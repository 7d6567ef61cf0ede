"""The challenges' URLs under /games/challenges/, named in the games namespace
(games:challenge, games:answer_challenge): games/urls.py includes them."""

from django.urls import path

from games.challenges import views

urlpatterns = [
    path("<int:challenge_id>/", views.challenge_page, name="challenge"),
    path("<int:challenge_id>/<slug:verb>/", views.answer, name="answer_challenge"),
]
