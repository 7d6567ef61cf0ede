"""Sign-up and settings forms for the custom User."""

from datetime import datetime
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm, UsernameField
from django.contrib.auth.models import BaseUserManager
from django.utils import formats, timezone
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from accounts import tokens
from accounts.models import HeldName, User
from accounts.names import validate_person_name


def clean_address(form: forms.ModelForm[User]) -> str:
    """The optional address, its domain lower-cased. An address another account verified is
    taken like any other (the page must not tell a stranger whose address has an account): its
    mailbox is told instead (emails.mail_verification), and it never verifies here."""
    return BaseUserManager.normalize_email(form.cleaned_data.get("email") or "")


def held_words(name: str, held: str, free_at: datetime) -> str:
    """Why a held name (or one that looks like it) cannot be taken yet, and until when."""
    day = formats.date_format(timezone.localtime(free_at), "j F Y")
    if held.casefold() == name.casefold():
        said = _("That name belonged to a deleted account; it is free again on %(day)s.")
        return said % {"day": day}
    said = _(
        "That name looks too much like “%(held)s”, which belonged to a deleted account; "
        "names like it are free again on %(day)s."
    )
    return said % {"held": held, "day": day}


class SignUpForm(UserCreationForm[User]):
    """A username, an optional email address, and a password twice."""

    class Meta:
        model = User
        fields = ("username", "email")
        field_classes = {"username": UsernameField}
        labels = {"email": _("Email address (optional)")}
        help_texts = {
            "email": _(
                "To send you a link when you forget your password, and the notifications "
                "you choose at Settings (none unless you tick them). We send a link to check it "
                "is yours."
            )
        }

    def clean_username(self) -> str:
        """The username, unless it is kept for the house or breaks its profile link."""
        name = super().clean_username()
        if not name:  # Django found it taken (in any case) and already put that on the form
            return name
        validate_person_name(name)
        held = HeldName.held_like(name)
        if held is not None:
            raise forms.ValidationError(held_words(name, *held), code="held")
        return name

    def clean_email(self) -> str:
        """The address, normalised."""
        return clean_address(self)


class SettingsForm(forms.ModelForm[User]):
    """A person's own settings: the sound when a game waits on their move, and which mails."""

    class Meta:
        model = User
        fields = (
            "move_sound",
            "mail_turn",
            "mail_invite",
            "mail_rematch",
            "mail_friend",
            "mail_tournament",
            "mail_ended",
        )
        labels = {
            "move_sound": _("Play a short sound when a game waits on my move"),
            "mail_turn": _("Mail me when it is my move at a turn-based table"),
            "mail_invite": _("Mail me when someone invites me to a table"),
            "mail_rematch": _("Mail me when someone offers a rematch"),
            "mail_friend": _("Mail me when someone asks to be my friend or says yes"),
            "mail_tournament": _("Mail me when my tournament is about to start, seats me or ends"),
            "mail_ended": _("Mail me when one of my games ends"),
        }
        help_texts = {
            "move_sound": _("Off by default. The tab title and icon show it either way."),
            "mail_turn": "",
            "mail_invite": "",
            "mail_rematch": "",
            "mail_friend": "",
            "mail_tournament": "",
            "mail_ended": _(
                "Mails go only to a verified address, several together in one mail; "
                "each has a link that stops them. Your inbox shows everything either way."
            ),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Each label follows its box on the page (site.css): words, not "words:".
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


class EmailForm(forms.ModelForm[User]):
    """A person's address: changed (to be verified again) or removed (left empty)."""

    class Meta:
        model = User
        fields = ("email",)
        labels = {"email": _("Email address")}
        help_texts = {
            "email": _("Leave it empty to remove it. A new address is verified by a link.")
        }

    def clean_email(self) -> str:
        """The address, normalised."""
        return clean_address(self)


EXPIRY = tokens.EXPIRY_DAYS


def expiries() -> list[tuple[str, str]]:
    """The expiries offered, in the reader's language (made with each form)."""
    days = [
        (str(d), ngettext("In %(days)d day", "In %(days)d days", d) % {"days": d}) for d in EXPIRY
    ]
    return [("", gettext("Never")), *days]


class TokenForm(forms.Form):
    """A new personal access token: its name, its scopes and how long it works."""

    name = forms.CharField(
        max_length=tokens.NAME_MAX,
        label=_("Name"),
        help_text=_("To tell your tokens apart: the bot or program that will use it."),
    )
    scopes = forms.MultipleChoiceField(
        choices=[(scope, _(words)) for scope, words in tokens.SCOPES.items()],
        widget=forms.CheckboxSelectMultiple,
        label=_("What it may do"),
        error_messages={"required": _("Tick at least one thing the token may do.")},
    )
    expiry = forms.TypedChoiceField(
        choices=[],  # expiries(), with each form
        coerce=int,
        empty_value=None,
        required=False,
        label=_("It stops working"),
    )

    def __init__(self, *args: Any, user_id: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user_id = user_id
        self.fields["expiry"].choices = expiries()  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        """The fields, unless the person already holds as many tokens as allowed."""
        cleaned = super().clean() or {}
        most: int = settings.API_TOKENS_PER_PERSON
        if tokens.live_count(self.user_id) >= most:
            raise forms.ValidationError(
                gettext("You hold %(most)s tokens already, the most allowed: revoke one first.")
                % {"most": most},
                code="too_many",
            )
        return cleaned
