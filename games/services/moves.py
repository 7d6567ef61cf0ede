"""A move as the page sends it: the board form's fields, posted over HTTP or sent on the socket
(and, the same way, closing a round's results).

Both ways read the same fields (`action` as JSON, the `version` and `moment` the move was chosen
on) and refuse the same things in the same words, so a forged or garbled move is told why and
changes nothing whichever way it came.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from django.utils.translation import gettext, gettext_lazy

from accounts.models import User
from games import services
from games.engines import IllegalAction
from games.models import Game

MAX_ACTION_CHARS = 2000  # longer than any legal action of any game: refused before parsing


def parse_action(raw: str) -> dict[str, object]:
    """The posted action, or IllegalAction if it is not a short JSON object."""
    if len(raw) > MAX_ACTION_CHARS:
        raise IllegalAction(gettext("That action is too long to be a move."))
    try:
        action = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise IllegalAction(gettext("That is not an action.")) from exc
    if not isinstance(action, dict):
        raise IllegalAction(gettext("That is not an action."))
    return action


NOT_WHOLE = {
    "version": gettext_lazy("The version must be a whole number."),
    "count of results": gettext_lazy("The count of results must be a whole number."),
    "person": gettext_lazy("The person must be a whole number."),
    "seat": gettext_lazy("The seat must be a whole number."),
    "player": gettext_lazy("The player must be a whole number."),
}
"""What each posted number is, said when it is not a whole number (the language active's)."""


def parse_number(raw: str | None, what: str) -> int | None:
    """A posted whole number (None when not sent); a ServiceError when it is not one."""
    if raw is None or raw == "":
        return None
    try:
        return int(raw)
    except ValueError as exc:
        said = NOT_WHOLE.get(what)
        sentence = str(said) if said else gettext("A number sent is not a whole number.")
        raise services.ServiceError(sentence) from exc


BY_API_ONLY = gettext_lazy(
    "This is a bot account: it plays through the API only (POST /api/games/<id>/move with a "
    "token), not from the pages."
)


def play_posted(
    game: Game | int, user: User, fields: Mapping[str, str], *, by_api: bool = False
) -> Game:
    """Make the move these fields say; a stale page gets StaleVersion, an illegal move
    IllegalAction, anything else malformed a ServiceError. A bot account's move comes only
    through the API (`by_api`): its person's browser session may not move for the program."""
    if getattr(user, "plays_by_api", False) and not by_api:  # a socket's user may be anonymous
        raise services.NotAllowed(str(BY_API_ONLY))
    action = parse_action(fields.get("action", ""))
    version = parse_number(fields.get("version"), "version")
    if version is None:
        # Without it a move chosen on an old screen would land on the new table unnoticed.
        raise services.ServiceError(
            gettext("The move did not say which table it was chosen on; reload.")
        )
    # The results the page showed beside the move (a bake's, in Midnight Bakery): put away by it.
    seen = parse_number(fields.get("seen"), "count of results")
    return services.play(game, user, action, version, fields.get("moment") or None, seen)


def close_posted(game: Game | int, user: User, fields: Mapping[str, str]) -> Game | None:
    """Close the results up to the count these fields say ("Back to the ovens"): the game, or
    None if they were closed already."""
    seen = parse_number(fields.get("seen"), "count of results") or 0
    return services.close_results(game, user, seen)
