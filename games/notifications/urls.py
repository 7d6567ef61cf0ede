"""The inbox's URLs under /games/inbox/, named in the games namespace (games:inbox, ...) as they
were before notifications had an app of their own: games/urls.py includes them."""

from django.urls import path

from games.notifications import views

urlpatterns = [
    path("", views.inbox, name="inbox"),
    path("read/", views.mark_all_read, name="inbox_read"),
    path("badge/", views.badge, name="inbox_badge"),
    path("<int:notification_id>/", views.open_notification, name="inbox_open"),
    path("push/subscribe/", views.push_subscribe, name="push_subscribe"),
    path("push/unsubscribe/", views.push_unsubscribe, name="push_unsubscribe"),
]
