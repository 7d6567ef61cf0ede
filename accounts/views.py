"""Sign-up and profiles; log-in, log-out and password change are Django's own views."""

from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from accounts.forms import SignUpForm
from accounts.models import User
from games.models import Seat


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and log straight in."""
    if request.user.is_authenticated:
        return redirect("lobby")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        # Axes needs a backend named explicitly, since the user did not authenticate().
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(request.GET.get("next") or "lobby")
    return render(request, "accounts/signup.html", {"form": form})


@require_http_methods(["GET"])
def profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's page: their finished and running games."""
    person = get_object_or_404(User, username=username)
    seats = (
        Seat.objects.filter(user=person).select_related("game").order_by("-game__created_at")[:30]
    )
    visible = [s for s in seats if not s.game.private or s.user_id == request.user.pk]
    wins = Seat.objects.filter(user=person, winner=True).count()
    played = Seat.objects.filter(user=person, game__status="over").count()
    return render(
        request,
        "accounts/profile.html",
        {"person": person, "seats": visible, "wins": wins, "played": played},
    )
