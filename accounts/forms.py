"""Sign-up form for the custom User."""

from django.contrib.auth.forms import UserCreationForm, UsernameField

from accounts.models import User
from accounts.names import validate_person_name


class SignUpForm(UserCreationForm):
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
