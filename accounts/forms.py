"""Sign-up form for the custom User."""

from django.contrib.auth.forms import UserCreationForm, UsernameField

from accounts.models import User


class SignUpForm(UserCreationForm):
    """A username and a password twice."""

    class Meta:
        model = User
        fields = ("username",)
        field_classes = {"username": UsernameField}
