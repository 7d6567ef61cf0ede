"""The reviews' URLs under /games/<id>/review/ (namespace "reviews"), included by the site's."""

from django.urls import path

from games.reviews import views

app_name = "reviews"

urlpatterns = [
    path("<int:game_id>/review/", views.game_reviews, name="reviews"),
    path("<int:game_id>/review/<int:seat>/", views.review_page, name="review"),
    path("<int:game_id>/review/<int:seat>/ask/", views.ask, name="ask"),
]
