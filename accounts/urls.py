"""Account URLs: /accounts/... and the profile at /u/<username>/ (mounted in bakery_site.urls)."""

from django.contrib.auth import views as auth_views
from django.urls import URLPattern, path, reverse_lazy
from django.views import View

from accounts import token_views, views
from accounts.oauth import views as app_views

# Where each of Django's password pages goes once done, if it is a form (the others only say).
THEN = {
    "password_change": "password_change_done",
    "password_reset_confirm": "password_reset_complete",
}


def django_page(route: str, view: type[View], name: str) -> URLPattern:
    """One of Django's own password pages, drawn by the template named after it
    (templates/accounts/<name>.html), a form going on to its THEN page."""
    then = {"success_url": reverse_lazy(THEN[name])} if name in THEN else {}
    return path(route, view.as_view(template_name=f"accounts/{name}.html", **then), name=name)


urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("language/", views.set_language, name="set_language"),
    path("settings/", views.settings_page, name="settings"),
    path("settings/email/", views.email_settings, name="email_settings"),
    path("settings/tokens/", token_views.access_tokens, name="access_tokens"),
    path("settings/tokens/<int:token_id>/revoke/", token_views.revoke_token, name="revoke_token"),
    path(
        "settings/tokens/apps/<int:token_id>/revoke/",
        app_views.revoke_app_token,
        name="revoke_app_token",
    ),
    path("settings/apps/", app_views.my_apps, name="oauth_apps"),
    path("settings/apps/<int:app_id>/delete/", app_views.remove_app, name="remove_oauth_app"),
    path("email/verify/<str:token>/", views.verify_email, name="verify_email"),
    path("email/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    django_page("password/", auth_views.PasswordChangeView, "password_change"),
    django_page("password/done/", auth_views.PasswordChangeDoneView, "password_change_done"),
    path("password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    django_page("password/reset/sent/", auth_views.PasswordResetDoneView, "password_reset_done"),
    django_page(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView,
        "password_reset_confirm",
    ),
    django_page(
        "password/reset/done/", auth_views.PasswordResetCompleteView, "password_reset_complete"
    ),
]
