"""The vacation form: from which day, for how many days."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class VacationForm(forms.Form):
    """A few days away from turn-based games: from which day, for how many days."""

    starts = forms.DateField(
        label=_("From"),
        widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}),
        help_text=_("Today starts it now."),
    )
    days = forms.IntegerField(label=_("Days away"), initial=3)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["starts"].initial = timezone.now().date()
