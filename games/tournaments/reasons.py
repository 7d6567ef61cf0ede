"""Why a tournament stopped early, stored as a code and its values (Tournament.stop_code and
stop_values) and said in each reader's language when read: a page, a refusal or a notice is read
by people of several languages, so no sentence is stored once in one of them. A moderator's own
reason (stop_reason) is what they typed, shown as it is.

No query and no import from the services: the model's `reason` and the services both say it.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext, ngettext

NOBODY_CAME = "nobody-came"
"""A Swiss's first round: nobody was here at the end of its wait (entrants, wait)."""
TOO_FEW_CAME = "too-few-came"
"""A Swiss's first round: fewer here than a table needs (came, entrants, fewest, wait)."""
NOBODY_FOR_ROUND = "nobody-for-round"
"""A later round: nobody was here (number); the event ended after the rounds before it."""

CODES = (NOBODY_CAME, TOO_FEW_CAME, NOBODY_FOR_ROUND)


def wait_said(seconds: int) -> str:
    """A wait as a sentence says it: "2 minutes", "90 seconds" (in the language active)."""
    if seconds >= 60 and seconds % 60 == 0:
        minutes = seconds // 60
        return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}
    return ngettext("%(count)d second", "%(count)d seconds", seconds) % {"count": seconds}


def said(code: str, values: Mapping[str, int]) -> str:
    """The reason of `code` with its values, in the language active ("" for no known code)."""
    if code == NOBODY_CAME:
        return gettext(
            "Nobody was here when it was due to start: none of its %(entrants)d entrants had a "
            'page of Bakehouse open or pressed "I\'m here" in the %(wait)s it waited.'
        ) % {"entrants": values["entrants"], "wait": wait_said(values["wait"])}
    if code == TOO_FEW_CAME:
        return ngettext(
            "Only %(came)d of its %(entrants)d entrants was here when it was due to start, "
            "fewer than the %(fewest)d a table needs, in the %(wait)s it waited.",
            "Only %(came)d of its %(entrants)d entrants were here when it was due to start, "
            "fewer than the %(fewest)d a table needs, in the %(wait)s it waited.",
            values["came"],
        ) % {**values, "wait": wait_said(values["wait"])}
    if code == NOBODY_FOR_ROUND:
        number = values["number"]
        return gettext("It ended after round %(played)d: nobody was here for round %(number)d.") % {
            "played": number - 1,
            "number": number,
        }
    return ""


def cancelled_said(tournament: str, code: str, values: Mapping[str, int]) -> str:
    """The notice that a tournament was called off for this reason, in the language active."""
    return gettext("%(tournament)s was cancelled. %(why)s") % {
        "tournament": tournament,
        "why": said(code, values),
    }
