"""Sign-up form for the custom User."""

from django import forms
from django.contrib.auth.forms import UserCreationForm, UsernameField

from accounts.models import User
from accounts.names import validate_person_name


class SignUpForm(UserCreationForm[User]):
    """A username and a password twice."""

    class Meta:
        model = User
        fields = ("username",)
        field_classes = {"username": UsernameField}

    def clean_username(self) -> str:
        """The username, unless it is kept for the house or breaks its profile link."""
        name = super().clean_username()
        validate_person_name(name)
        return name


class SettingsForm(forms.ModelForm[User]):
    """A person's own settings: for now, the sound when a game waits on their move."""

    class Meta:
        model = User
        fields = ("move_sound",)
        labels = {"move_sound": "Play a short sound when a game waits on my move"}
        help_texts = {"move_sound": "Off by default. The tab title and icon show it either way."}
