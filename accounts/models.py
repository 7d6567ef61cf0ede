"""The Bakehouse user: a custom model from the first migration, so it can grow."""

from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A person (or a bot account) who plays at Bakehouse."""

    is_bot = models.BooleanField(default=False, help_text="A house bot account, not a person.")

    def __str__(self) -> str:
        return self.username
