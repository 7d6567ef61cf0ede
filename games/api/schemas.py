"""The shapes the API answers and takes, as the OpenAPI schema describes them."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ninja import Field, Schema


class Rated(Schema):
    """A person's rating at one game."""

    game: str
    rating: int
    games: int
    wins: int
    provisional: bool = Field(description="Too few rated games for the rating to mean much yet.")


class Person(Schema):
    """A person's public face."""

    name: str
    bot: bool = Field(description="A bot account, not a person.")
    joined: datetime
    ratings: list[Rated]


class Account(Schema):
    """The token's own account."""

    name: str
    bot: bool
    joined: datetime
    email_verified: bool
    scopes: list[str] = Field(description="What the token asking may do.")
    ratings: list[Rated]


class YourTable(Schema):
    """One table you sit at that is still in play."""

    id: int
    game: str
    status: str
    version: int
    your_move: bool = Field(description="The table waits on your move.")
    deadline: datetime | None = Field(description="When a stand-in moves for you, if a clock runs.")
    to_move: list[str] = Field(description="Who else the table waits on.")


class Ranked(Schema):
    """One line of a leaderboard."""

    rank: int
    name: str
    bot: bool
    rating: int
    games: int
    wins: int


class Board(Schema):
    """A game's leaderboard, a page of it."""

    game: str
    page: int
    pages: int
    lines: list[Ranked]


class SeatOut(Schema):
    """Who sits at a seat of a table."""

    name: str
    position: int | None = Field(description="The seat's number in the game, once dealt.")
    bot: bool = Field(description="A bot plays the seat (a house bot, or a bot account).")
    you: bool
    resigned: bool
    place: int | None
    score: int | None


class Table(Schema):
    """A table as the token's person may see it: never more than their seat's view."""

    id: int
    game: str
    status: str
    version: int = Field(description="Send it back with a move: a move on an older one is stale.")
    moment: str | None = Field(
        description="Your seat's moment: send it with a move so that a rival's move in between "
        "(a pick locked in Midnight Bakery) does not make yours stale."
    )
    rated: bool
    private: bool
    pace: str
    seats: list[SeatOut]
    you: int | None = Field(description="Your seat's position, if you play here.")
    your_move: bool
    view: dict[str, Any] | None = Field(
        description="engine.view of your seat (a spectator's if you do not play); null before "
        "the deal."
    )
    legal: list[dict[str, Any]] = Field(description="Your legal actions now, when it is your move.")


class Move(Schema):
    """A move: one of the legal actions, on the version it was chosen at."""

    action: dict[str, Any]
    version: int
    moment: str | None = None


class Moved(Schema):
    """The table's version after the move (bots may have answered since)."""

    id: int
    version: int
    status: str


class Line(Schema):
    """One chat line."""

    id: int
    name: str
    text: str
    at: datetime


class Chat(Schema):
    """The chat as the token's person sees it (newest last)."""

    open: bool = Field(description="Whether you may write in it now.")
    lines: list[Line]


class Say(Schema):
    """A line to say."""

    text: str


class BotAccount(Schema):
    """An account after its upgrade to a bot account."""

    name: str
    bot: bool = Field(description="Always true: the account plays through the API only.")


class OpenTable(Schema):
    """A public table waiting for players, with a free seat you could take."""

    id: int
    game: str
    host: str
    seated: int = Field(description="How many sit there now.")
    capacity: int
    rated: bool
    pace: str


class Join(Schema):
    """A seat to take; `invite` only for a private table (the code of its invite link)."""

    invite: str | None = None
