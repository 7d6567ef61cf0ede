"""Account URLs: /accounts/... and the profile at /u/<username>/ (mounted in bakery_site.urls)."""

from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from accounts import token_views, views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("language/", views.set_language, name="set_language"),
    path("settings/", views.settings_page, name="settings"),
    path("settings/email/", views.email_settings, name="email_settings"),
    path("settings/tokens/", token_views.access_tokens, name="access_tokens"),
    path("settings/tokens/<int:token_id>/revoke/", token_views.revoke_token, name="revoke_token"),
    path("email/verify/<str:token>/", views.verify_email, name="verify_email"),
    path("email/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path(
        "password/",
        auth_views.PasswordChangeView.as_view(
            template_name="accounts/password_change.html",
            success_url=reverse_lazy("password_change_done"),
        ),
        name="password_change",
    ),
    path(
        "password/done/",
        auth_views.PasswordChangeDoneView.as_view(
            template_name="accounts/password_change_done.html"
        ),
        name="password_change_done",
    ),
    path("password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(template_name="accounts/password_reset_done.html"),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            template_name="accounts/password_reset_confirm.html",
            success_url=reverse_lazy("password_reset_complete"),
        ),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="accounts/password_reset_complete.html"
        ),
        name="password_reset_complete",
    ),
]
