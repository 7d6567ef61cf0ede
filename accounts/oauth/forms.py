"""The form a person registers an app with (accounts/oauth/apps.py)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.oauth import apps


class AppForm(forms.Form):
    """An app's name and its redirect URIs, one a line."""

    name = forms.CharField(
        label=gettext_lazy("The app's name"),
        max_length=apps.NAME_MAX,
        help_text=gettext_lazy("People see it when the app asks them for access."),
    )
    redirect_uris = forms.CharField(
        label=gettext_lazy("Redirect addresses"),
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=2000,
        help_text=gettext_lazy(
            "One a line: https, or http on the loopback address for an app on the person's own "
            "machine (http://127.0.0.1:PORT/…, any port at sign-in)."
        ),
    )

    def __init__(self, *args: Any, user_id: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user_id = user_id

    def clean_name(self) -> str:
        name = str(self.cleaned_data["name"]).strip()
        if not name:
            raise forms.ValidationError(_("Give the app a name."))
        return name

    def clean_redirect_uris(self) -> list[str]:
        uris = list(dict.fromkeys(str(self.cleaned_data["redirect_uris"]).split()))
        refusals = [why for why in map(apps.redirect_refusal, uris) if why]
        if refusals:
            raise forms.ValidationError(refusals)
        if not uris:
            raise forms.ValidationError(_("Give at least one redirect address."))
        return uris

    def clean(self) -> dict[str, Any] | None:
        most = settings.OAUTH_APPS_PER_PERSON
        if apps.mine(self.user_id).count() >= most:
            raise forms.ValidationError(
                _("You have %(most)s apps, the most one person may have: delete one first.")
                % {"most": most}
            )
        return super().clean()
