"""Quick pairing through the API (games/pairing/services.py does it): enter the pool of a game
and pace, leave it. The pool lets go of a seek whose waiting page went quiet; a program's
"page" is its event stream: while one is open, its look (every STREAM_RECHECK_SECONDS) keeps the
seek (games/api/event_stream.py), and the table it is seated at comes on it as `gameStart`.

A bot account enters too: the pass seats it only with other bot accounts and with the people
whose seek says bots are welcome (`bots_welcome`, false unless said: the lobby's form has the
box too)."""

from __future__ import annotations

import logging
from typing import Any

from django.http import HttpRequest
from ninja import Field, Router, Schema
from pydantic import ConfigDict, StrictBool

from games import catalog
from games.api.challenges import player
from games.api.errors import Error
from games.models import Game
from games.pairing import services as pairing

logger = logging.getLogger(__name__)
router = Router(tags=["pairing"])

REFUSED = {400: Error, 401: Error, 403: Error, 404: Error, 409: Error, 413: Error, 429: Error}


KINDS: list[Any] = [spec.slug for spec in catalog.available()]  # as pydantic types its JSON
PACES: list[Any] = list(Game.Pace.values)
FEWEST = MOST = 2  # when the body does not say


def seats_rule(slug: str, low: int, high: int) -> dict[str, Any]:
    """One game's rule on `fewest` and `most` as JSON Schema: each from `low` to `high`, the
    fewest no more than the most. JSON Schema cannot compare two fields, so there is one
    choice a value of `fewest` (a game seats at most a dozen), each saying which `most` may go
    with it, and which of the two must be said when its default would break the rule."""
    choices = []
    for fewest in range(low, high + 1):
        said = [*(["fewest"] if fewest != FEWEST else []), *(["most"] if fewest > MOST else [])]
        most = {"minimum": fewest, "maximum": high}
        choice: dict[str, Any] = {"properties": {"fewest": {"const": fewest}, "most": most}}
        choices.append({**choice, "required": said} if said else choice)
    return {"properties": {"kind": {"const": slug}}, "required": ["kind"], "anyOf": choices}


SEATS_RULES: dict[str, Any] = {
    "anyOf": [
        seats_rule(spec.slug, spec.min_players, spec.max_players) for spec in catalog.available()
    ]
}
"""The schema's word on the seats each game takes (pairing.check_search says it to a person)."""


class Seeking(Schema):
    """What to look for: a game, a pace, how many at the table (from the game's fewest to its
    most bakers, the fewest first); bots after some seconds, or never (null)."""

    model_config = ConfigDict(json_schema_extra=SEATS_RULES)

    kind: str = Field(json_schema_extra={"enum": KINDS})
    pace: str = Field("normal", json_schema_extra={"enum": PACES})
    fewest: int = Field(FEWEST, ge=2, le=12)
    most: int = Field(MOST, ge=2, le=12)
    bots_after: int | None = Field(
        None, ge=5, le=600, description="Seconds after which house bots may fill in (null: never)."
    )
    bots_welcome: StrictBool = Field(  # 0 or "no" refused in words, as the schema says
        False,
        description="Bot accounts may be seated with you (a bot account's own seek: always).",
    )


class Looking(Schema):
    """Whether you are in a pool now, and the table a pass seated you at if it did at once."""

    looking: bool
    table: int | None = Field(None, description="The table you were seated at, if any.")


@router.post("/pairing", response={200: Looking, **REFUSED}, summary="Enter quick pairing")
def enter_pairing(request: HttpRequest, body: Seeking) -> Looking:
    """Look for a game (scope games:play or bot:play); a pass runs at once. Keep your event
    stream open while you look: the pool lets go of you some seconds after it closes. A bot
    account is seated only with bot accounts and people who said bots are welcome."""
    me = player(request)
    seek = pairing.look(
        me, body.kind, body.pace, body.fewest, body.most, body.bots_after, body.bots_welcome
    )
    try:
        paired = pairing.pass_pool(seek.kind, seek.pace)
    except Exception:  # the seek stands: the sweep pairs it within a second
        logger.exception("the pass after an API look failed")
        paired = []
    table = next((p.game_id for p in paired if me.pk in p.people), None)
    return Looking(looking=table is None, table=table)


@router.delete("/pairing", response={200: Looking, **REFUSED}, summary="Leave quick pairing")
def leave_pairing(request: HttpRequest) -> Looking:
    """Stop looking (scope games:play or bot:play)."""
    pairing.stop(player(request))
    return Looking(looking=False, table=None)
