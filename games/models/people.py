"""A person a row names who may be gone: the rows' one shape for it."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

from accounts.models import User


def optional_person(related_name: str, **more: Any) -> models.ForeignKey[User | None, User | None]:
    """A person a row names beside its own people (who handled a report, stopped a game, asked a
    review, made a tournament): empty from the start if nobody, and emptied when their account
    is deleted, the row kept (what it records outlives them)."""
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name=related_name,
        **more,
    )
