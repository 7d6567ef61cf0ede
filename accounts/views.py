"""Sign-up and settings; log-in, log-out and password change are Django's own. A person's
profile and the leaderboards are pages of the games (games/web/people.py)."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from accounts.forms import SettingsForm, SignUpForm
from accounts.models import User


def safe_next(request: HttpRequest) -> str:
    """Where to go after signing up: the ?next= page on this site, else the lobby."""
    target = request.GET.get("next", "")
    allowed = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if target and allowed else reverse("lobby")


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and log straight in."""
    if request.user.is_authenticated:
        return redirect(safe_next(request))
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        # Axes needs a backend named explicitly, since the user did not authenticate().
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(safe_next(request))
    # Passed on to the log-in link, so "Log in" from here also comes back to where they were.
    nxt = safe_next(request) if request.GET.get("next") else ""
    return render(request, "accounts/signup.html", {"form": form, "next": nxt})


class SignedInRequest(HttpRequest):
    """A request of a logged-in person (a view behind login_required)."""

    user: User


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request: SignedInRequest) -> HttpResponse:
    """The person's own settings (the move sound)."""
    form = SettingsForm(request.POST if request.method == "POST" else None, instance=request.user)
    if request.method == "POST":
        if form.is_valid():
            form.save()
            messages.success(request, "Your settings are saved.")
            return redirect("settings")
        return render(request, "accounts/settings.html", {"form": form}, status=400)
    return render(request, "accounts/settings.html", {"form": form})
