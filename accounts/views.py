"""Sign-up, settings and the email address; log-in, log-out, password change and reset are
Django's own views (a next page only when accounts.redirects finds it local; the reset mail
queued). A person's profile and the leaderboards are pages of the games (games/web/people.py)."""

from collections.abc import Callable
from functools import wraps
from typing import Any, Protocol, TypeVar

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST
from django.views.i18n import set_language as django_set_language

from accounts import emails, languages
from accounts.client_ip import client_ip
from accounts.forms import EmailForm, SettingsForm, SignUpForm
from accounts.models import User
from accounts.redirects import next_page

KIND_NAMES = {
    "turn": gettext_lazy("your move at a turn-based table"),
    "invite": gettext_lazy("invitations to tables"),
    "rematch": gettext_lazy("rematches offered"),
    "ended": gettext_lazy("games that ended"),
    "friend": gettext_lazy("friend requests and their answers"),
    "tournament": gettext_lazy("your tournaments starting, seating you and ending"),
}


def after_signup(request: HttpRequest) -> str:
    """Where to go after signing up: the ?next= page on this site, else the lobby."""
    return next_page(request, reverse("lobby"))


def over_signup_limits(request: HttpRequest, form: SignUpForm) -> bool:
    """Count this sign-up against the hourly limits (accounts from this client, links to this
    address); over one, the form says which and no account is made. The address's count goes up
    only for a client within its own limit."""
    client = client_ip(request) or "unknown"
    if not emails.under_limit(f"signup:client:{client}", settings.SIGNUPS_PER_CLIENT):
        form.add_error(None, emails.TOO_MANY_SIGNUPS)
        return True
    email = form.cleaned_data.get("email")
    refusal = emails.verification_refusal(email) if email else None
    if refusal is not None:
        form.add_error("email", refusal)
        return True
    return False


def save_new_account(form: SignUpForm) -> User | None:
    """The new account, or None when another sign-up took the name or a look-alike of it since
    the form was checked (the unique indexes decide): the form then says so."""
    try:
        with transaction.atomic():
            form.instance.language = languages.supported(translation.get_language())
            return form.save()
    except IntegrityError:
        twin = form.instance.look_alike() or form.instance.username
        if twin.casefold() == form.instance.username.casefold():
            said = _("Someone took the name “%(name)s” a moment ago.") % {"name": twin}
            form.add_error("username", said)
        else:
            said = _("That name looks too much like “%(name)s”, a name already taken.") % {
                "name": twin
            }
            form.add_error("username", said)
        return None


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and log straight in."""
    if request.user.is_authenticated:
        return HttpResponseRedirect(after_signup(request))
    form = SignUpForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        if over_signup_limits(request, form):
            status = 429
        elif (user := save_new_account(form)) is not None:
            # Axes needs a backend named explicitly, since the user did not authenticate().
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            if user.email:
                emails.queue_verification(request, user)
                said = _("We are mailing a link to %(address)s: follow it to verify it.") % {
                    "address": user.email
                }
                messages.info(request, said)
            return HttpResponseRedirect(after_signup(request))
    # Passed on to the log-in link, so "Log in" from here also comes back to where they were.
    nxt = after_signup(request) if request.GET.get("next") else ""
    return render(request, "accounts/signup.html", {"form": form, "next": nxt}, status=status)


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The menu's language picker: Django's set_language (the cookie, back to the page), and a
    logged-in person's choice saved on the account, for every browser and their mails."""
    response = django_set_language(request)
    chosen = request.POST.get("language", "")
    if request.user.is_authenticated and chosen in dict(settings.LANGUAGES):
        User.objects.filter(pk=request.user.pk).update(language=chosen)
    return response


class SignedInRequest(HttpRequest):
    """A request of a logged-in person (a view behind login_required)."""

    user: User


class PersonForm(Protocol):
    """A form of a person's own things (a token, an app), made for that person."""

    cleaned_data: dict[str, Any]

    def __init__(self, data: Any = None, *, user_id: int) -> None: ...

    def is_valid(self) -> bool: ...


F = TypeVar("F", bound=PersonForm)
V = TypeVar("V", bound=Callable[..., HttpResponse])


def own_things_page(view: V) -> V:
    """A signed-in person's page of their own things, read fresh (never cached), GET or POST."""
    return never_cache(login_required(require_http_methods(["GET", "POST"])(view)))


ActsOn = Callable[[SignedInRequest, F], HttpResponse]  # a view given a person's valid form
PersonView = Callable[[SignedInRequest], HttpResponse]


def person_form_page(
    form_class: type[F], page: Callable[[SignedInRequest, F, int], HttpResponse]
) -> Callable[[ActsOn[F]], PersonView]:
    """A page of a person's own things (own_things_page) that lists them above a form to make
    one: a GET draws the `page` with an empty form, a post with errors the page with them (400);
    the view it wraps is called with a valid posted form only, to act on it."""

    def with_form(act: ActsOn[F]) -> PersonView:
        @own_things_page
        @wraps(act)
        def view(request: SignedInRequest) -> HttpResponse:
            user_id = request.user.pk
            if request.method != "POST":
                return page(request, form_class(user_id=user_id), 200)
            form = form_class(request.POST, user_id=user_id)
            return act(request, form) if form.is_valid() else page(request, form, 400)

        return view

    return with_form


def settings_context(
    request: SignedInRequest, **forms: SettingsForm | EmailForm
) -> dict[str, object]:
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
            messages.success(request, _("Your settings are saved."))
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
            messages.info(request, _("There is no address waiting to be verified."))
        else:
            said = _("We are mailing a new link to %(address)s.") % {"address": user.email}
            mail_link(request, user, said)
        return redirect("settings")
    old = user.email
    form = EmailForm(request.POST, instance=user)
    if not form.is_valid():
        context = settings_context(request, email_form=form)
        return render(request, "accounts/settings.html", context, status=400)
    if form.cleaned_data["email"] == old:
        messages.info(request, _("Your address is unchanged."))
        return redirect("settings")
    user = form.save(commit=False)
    user.email_verified = False
    user.save(update_fields=["email", "email_verified"])
    if not user.email:
        messages.success(request, _("Your address is removed."))
    else:
        said = _("Saved. We are mailing a link to %(address)s: follow it to verify it.") % {
            "address": user.email
        }
        mail_link(request, user, said)
    return redirect("settings")


def mail_link(request: SignedInRequest, user: User, said: str) -> None:
    """Queue a verification link to the person's address and say so, or say why not (a limit)."""
    refusal = emails.verification_refusal(user.email, user)
    if refusal is None:
        emails.queue_verification(request, user)
        messages.success(request, said)
    else:
        messages.warning(request, _("No link was sent. %(why)s") % {"why": refusal})


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
    # No address: whoever holds the link (a forwarded mail) learns nothing of the account.
    context = {"names": [KIND_NAMES[k] for k in kinds], "done": done}
    return render(request, "accounts/unsubscribe.html", context)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's "forgot your password" with a limit, and the mail queued, not sent.

    The request does the same for any address: count, look the account up, queue one task (the
    account found or none, and a digest of the address: emails.queue_password_reset), answer
    the same words. The task mails only a verified address of an active account
    (emails.mail_reset_link), so neither the answer nor its time says who has an account.
    """

    form_class = emails.VerifiedPasswordResetForm
    template_name = "accounts/password_reset_form.html"
    success_url = reverse_lazy("password_reset_done")

    def form_valid(self, form: emails.VerifiedPasswordResetForm) -> HttpResponse:
        """Queue the link, unless this client or this address has asked too often this hour."""
        email = form.cleaned_data["email"]
        client = client_ip(self.request) or "unknown"
        # The address's count goes up only for a client within its own limit, so one client
        # asking over and over does not use up the address's requests for everyone.
        if emails.under_limit(
            f"reset:client:{client}", emails.RESETS_PER_CLIENT
        ) and emails.under_limit(
            f"reset:address:{emails.address_key(email)}", emails.RESETS_PER_ADDRESS
        ):
            emails.queue_password_reset(self.request, email)
        return HttpResponseRedirect(self.get_success_url())


class LocalNextMixin:
    """Log-in and log-out follow ?next= (or a posted next) only to a path on this site."""

    request: HttpRequest

    def get_redirect_url(self) -> str:
        """The next page when it is a local path, else "" (the view's default)."""
        return next_page(self.request, "")


class LoginView(LocalNextMixin, auth_views.LoginView):
    """Django's log-in, its next checked by accounts.redirects; the account's language becomes
    this browser's too, so the pages stay in it after logging out."""

    template_name = "accounts/login.html"

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_valid(form)
        languages.remember_in_browser(response, form.get_user())
        return response


class LogoutView(LocalNextMixin, auth_views.LogoutView):
    """Django's log-out, its next checked by accounts.redirects."""
