"""Sign-up, settings and the email address; log-in, log-out, password change and reset are
Django's own. A person's profile and the leaderboards are pages of the games
(games/web/people.py)."""

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from accounts import emails
from accounts.client_ip import client_ip
from accounts.forms import EmailForm, SettingsForm, SignUpForm
from accounts.models import User

KIND_NAMES = {
    "turn": "your move at a turn-based table",
    "invite": "invitations to tables",
    "rematch": "rematches offered",
    "ended": "games that ended",
    "friend": "friend requests and their answers",
    "tournament": "your tournaments starting, seating you and ending",
}

NOT_SENT = (
    "We could not send the mail just now. Try again later with “Send the link again” on this page."
)


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
        if user.email:
            if emails.send_verification(request, user):
                messages.info(request, f"We sent a link to {user.email}: follow it to verify it.")
            else:
                messages.warning(request, NOT_SENT.replace("this page", "your settings page"))
        return redirect(safe_next(request))
    # Passed on to the log-in link, so "Log in" from here also comes back to where they were.
    nxt = safe_next(request) if request.GET.get("next") else ""
    return render(request, "accounts/signup.html", {"form": form, "next": nxt})


class SignedInRequest(HttpRequest):
    """A request of a logged-in person (a view behind login_required)."""

    user: User


def settings_context(request: SignedInRequest, **forms: Any) -> dict[str, Any]:
    """The settings page's two forms: the given ones, else fresh ones for the person."""
    return {
        "form": forms.get("form") or SettingsForm(instance=request.user),
        "email_form": forms.get("email_form") or EmailForm(instance=request.user),
    }


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request: SignedInRequest) -> HttpResponse:
    """The person's own settings (the move sound) and their email address."""
    form = SettingsForm(request.POST if request.method == "POST" else None, instance=request.user)
    if request.method == "POST":
        if form.is_valid():
            form.save()
            messages.success(request, "Your settings are saved.")
            return redirect("settings")
        context = settings_context(request, form=form)
        return render(request, "accounts/settings.html", context, status=400)
    return render(request, "accounts/settings.html", settings_context(request))


@login_required
@require_http_methods(["POST"])
def email_settings(request: SignedInRequest) -> HttpResponse:
    """Change or remove the address (a new one is unverified until its link is followed), or
    send the link again."""
    user = request.user
    if "resend" in request.POST:
        if not user.email or user.email_verified:
            messages.info(request, "There is no address waiting to be verified.")
        elif emails.send_verification(request, user):
            messages.info(request, f"We sent a new link to {user.email}.")
        else:
            messages.warning(request, NOT_SENT)
        return redirect("settings")
    old = user.email
    form = EmailForm(request.POST, instance=user)
    if not form.is_valid():
        context = settings_context(request, email_form=form)
        return render(request, "accounts/settings.html", context, status=400)
    if form.cleaned_data["email"] == old:
        messages.info(request, "Your address is unchanged.")
        return redirect("settings")
    user = form.save(commit=False)
    user.email_verified = False
    user.save(update_fields=["email", "email_verified"])
    if not user.email:
        messages.success(request, "Your address is removed.")
    elif emails.send_verification(request, user):
        messages.success(request, f"Saved. We sent a link to {user.email}: follow it to verify it.")
    else:
        messages.warning(request, NOT_SENT)
    return redirect("settings")


@require_http_methods(["GET"])
def verify_email(request: HttpRequest, token: str) -> HttpResponse:
    """Follow a verification link: the address is verified, or the page says why not."""
    try:
        user = emails.verify(token)
    except emails.VerificationRefused as refused:
        context = {"verified": False, "reason": str(refused)}
        return render(request, "accounts/email_verified.html", context, status=400)
    return render(
        request, "accounts/email_verified.html", {"verified": True, "address": user.email}
    )


# The token is the credential (a mail's one-click unsubscribe, RFC 8058, posts with no cookie).
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """A mail's unsubscribe link: GET asks to confirm, POST stops those kinds of mail."""
    try:
        user, kinds = emails.unsubscribe_target(token)
    except ValueError as refused:
        return render(request, "accounts/unsubscribe.html", {"reason": str(refused)}, status=400)
    done = request.method == "POST"
    if done:
        emails.unsubscribe(user, kinds)
    context = {"address": user.email, "names": [KIND_NAMES[k] for k in kinds], "done": done}
    return render(request, "accounts/unsubscribe.html", context)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's "forgot your password" with a limit: over it, the same answer and no mail.

    The answer never says whether the address belongs to anyone (VerifiedPasswordResetForm
    mails only a verified address, quietly).
    """

    form_class = emails.VerifiedPasswordResetForm
    template_name = "accounts/password_reset_form.html"
    email_template_name = "accounts/email/password_reset_body.txt"
    subject_template_name = "accounts/email/password_reset_subject.txt"
    success_url = reverse_lazy("password_reset_done")

    def form_valid(self, form: Any) -> HttpResponse:
        """Send the link, unless this client or this address has asked too often this hour."""
        client = client_ip(self.request) or "unknown"
        address = emails.address_key(form.cleaned_data["email"])
        # The address's count goes up only for a client within its own limit, so one client
        # asking over and over does not use up the address's requests for everyone.
        if emails.under_limit(
            f"reset:client:{client}", emails.RESETS_PER_CLIENT
        ) and emails.under_limit(f"reset:address:{address}", emails.RESETS_PER_ADDRESS):
            return super().form_valid(form)
        return HttpResponseRedirect(self.get_success_url())
