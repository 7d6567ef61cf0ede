"""The settings page's personal access tokens (accounts/tokens.py): listed, made and revoked.

A new token's secret is on the page that answers the form, and nowhere else ever after: the
answer is rendered, not redirected, so the secret never rests in the session or a message.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from accounts import tokens
from accounts.forms import TokenForm
from accounts.oauth import keys as app_keys
from accounts.tokens import AccessToken
from accounts.views import SignedInRequest, person_form_page


def tokens_page(
    request: SignedInRequest, form: TokenForm, status: int = 200, made: tokens.Made | None = None
) -> HttpResponse:
    """The person's tokens, newest first, the form to make one, and a new one's secret."""
    rows = AccessToken.objects.filter(user=request.user)
    ctx = {
        "form": form,
        "tokens": rows,
        "made": made,
        "scopes": tokens.SCOPES,
        "app_tokens": app_keys.held(request.user.pk),
    }
    return render(request, "accounts/tokens.html", ctx, status=status)


@person_form_page(TokenForm, tokens_page)
def access_tokens(request: SignedInRequest, form: TokenForm) -> HttpResponse:
    """List the person's tokens; a post makes one and shows its secret this once."""
    user_id, data = request.user.pk, form.cleaned_data
    made = tokens.make(user_id, data["name"], data["scopes"], data["expiry"])
    return tokens_page(request, TokenForm(user_id=user_id), 201, made)


@login_required
@require_POST
def revoke_token(request: SignedInRequest, token_id: int) -> HttpResponse:
    """Revoke one of the person's tokens: it stops working at once."""
    if tokens.revoke(request.user.pk, token_id):
        messages.success(request, gettext("The token is revoked: it no longer works."))
    else:
        messages.info(request, gettext("There is no such token of yours to revoke."))
    return redirect("access_tokens")
