"""The vacation's page: a person takes a few days away from their turn-based games (from
Settings), or ends them early."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import VACATION_DAYS_A_YEAR, VACATION_MOST_AT_ONCE, Vacation
from accounts.words import hours_words
from games.access import AuthedRequest
from games.boards import local_day
from games.services import ServiceError, clocks
from games.vacation.allowance import vacation_hours_left
from games.vacation.forms import VacationForm
from games.vacation.services import end_vacation, take_vacation


@login_required
@require_http_methods(["GET", "POST"])
def vacation_page(request: AuthedRequest) -> HttpResponse:
    """The person's vacations and the form to take one; a refusal is said in a sentence."""
    form = VacationForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        refusal = gettext("Choose the day your vacation starts and how many days it lasts.")
        if form.is_valid():
            try:
                vacation = take_vacation(
                    request.user, form.cleaned_data["starts"], form.cleaned_data["days"]
                )
            except ServiceError as error:
                refusal = str(error)
            else:
                until = clocks.day_words(vacation.ends_at)
                said = gettext("You are on vacation until %(day)s.") % {"day": until}
                messages.success(request, said)
                return redirect("games:vacation")
        return render(
            request, "vacation/vacation.html", vacation_context(request, form, refusal), status=400
        )
    return render(request, "vacation/vacation.html", vacation_context(request, form, ""))


def vacation_context(request: AuthedRequest, form: VacationForm, refusal: str) -> dict[str, object]:
    """The form, the refusal, the person's vacations not over yet and the days left this year."""
    at = clocks.now()
    coming = Vacation.objects.filter(user=request.user, ends_at__gt=at).order_by("starts_at")
    return {
        "form": form,
        "refusal": refusal,
        "vacations": [
            {
                "pk": v.pk,
                "started": v.starts_at <= at,
                "starts": local_day(v.starts_at),  # in the reader's zone: local-time.js
                "ends": local_day(v.ends_at),
                "days": v.days,
            }
            for v in coming
        ],
        "left": hours_words(vacation_hours_left(request.user.pk, at.year)),
        "year": at.year,
        "per_year": VACATION_DAYS_A_YEAR,
        "at_once": VACATION_MOST_AT_ONCE,
    }


@login_required
@require_POST
def end_vacation_now(request: AuthedRequest, vacation_id: int) -> HttpResponse:
    """End a vacation under way now, or call off one still to come."""
    try:
        ended = end_vacation(request.user, vacation_id)
    except ServiceError as error:
        form = VacationForm()
        return render(
            request,
            "vacation/vacation.html",
            vacation_context(request, form, str(error)),
            status=400,
        )
    if ended is None:
        messages.success(request, gettext("Your vacation is called off."))
    else:
        messages.success(
            request, gettext("Your vacation is over: your turn-based clocks run again.")
        )
    return redirect("games:vacation")
