"""What an open stream costs its process: no database connection of its request (it goes back to
the pool once the stream's response is made, since the stream reads on the push threads; each
open stream kept its own until it ended, so 20 streams of a process took its whole pool and its
pages answered 503), and one query a period for every stream's token (bench-web, issue 49)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.test import AsyncRequestFactory

from accounts import tokens
from accounts.models import User
from games.api.game_stream import GameFeed
from games.api.streams import TokenWatch, open_stream
from games.live import streams
from games.models import TableSocket
from tests.support.cakehalla_tables import two_baker_table


@pytest.fixture
def asgi_request(player: User) -> Iterator[object]:
    made = tokens.make(player.pk, "t", list(tokens.SCOPES), None)
    request = AsyncRequestFactory().get("/api/games/1/stream")
    request.auth = tokens.find(made.token)  # type: ignore[attr-defined]
    request.META["REMOTE_ADDR"] = "203.0.113.9"
    yield request


@pytest.mark.django_db(transaction=True)
def test_the_requests_connection_goes_back_once_the_stream_is_made(
    player: User, rival: User, asgi_request: object
) -> None:
    game = two_baker_table(player, rival)
    connection.ensure_connection()
    answer = open_stream(asgi_request, GameFeed(player, game.pk, False))  # type: ignore[arg-type]
    assert answer.streaming and connection.connection is None  # handed back
    assert TableSocket.objects.filter(place=streams.STREAM_PLACE).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_connection_inside_a_transaction_is_kept(
    player: User, rival: User, asgi_request: object
) -> None:
    game = two_baker_table(player, rival)
    with transaction.atomic():
        open_stream(asgi_request, GameFeed(player, game.pk, False))  # type: ignore[arg-type]
        assert connection.connection is not None  # the caller's transaction goes on


@pytest.mark.django_db
def test_the_streams_tokens_are_looked_at_together(
    player: User, rival: User, settings: object, django_assert_num_queries: object
) -> None:
    """One query a period answers every stream's token, and a revoked one is seen the next."""
    settings.STREAM_RECHECK_SECONDS = 60  # type: ignore[attr-defined]
    mine, theirs = (tokens.make(u.pk, "t", list(tokens.SCOPES), None) for u in (player, rival))
    watch = TokenWatch()
    with django_assert_num_queries(1):  # type: ignore[operator]
        assert watch.refusal(mine.row.label) == ""  # read at once
    with django_assert_num_queries(1):  # type: ignore[operator]
        assert watch.refusal(theirs.row.label) == ""  # not read yet: read, with the first
    tokens.revoke(rival.pk, theirs.row.pk)
    with django_assert_num_queries(0):  # type: ignore[operator]
        assert watch.refusal(mine.row.label) == "" and watch.refusal(theirs.row.label) == ""
    watch.read_at -= 60  # a period later
    with django_assert_num_queries(1):  # type: ignore[operator]
        assert watch.refusal(mine.row.label) == ""
    assert watch.refusal(theirs.row.label) == "This token was revoked."


@pytest.mark.django_db
def test_streams_opened_together_have_their_tokens_read_once_even_by_a_late_look(
    player: User, django_assert_num_queries: object
) -> None:
    """A look after many openings reads their tokens in one query, and so does a look that
    came late (a busy process): each new token read the watched ones again, and a late look's
    first ask dropped the others from the watch, so every other ask read again (200 queries for
    200 streams' tokens)."""
    bots = [User.objects.create_user(f"bot{n}", plays_by_api=True) for n in range(20)]
    made = [tokens.make(bot.pk, "t", list(tokens.SCOPES), None).row for bot in bots]
    labels = [row.label for row in made]
    watch = TokenWatch()
    for label in labels:
        watch.expect(label)  # each stream opened (token_still)
    for late in (0.0, 10.0):  # the first look, then one ten periods after the read before
        watch.read_at -= late * settings.STREAM_RECHECK_SECONDS + 1  # a period has passed
        with django_assert_num_queries(1):  # type: ignore[operator]
            assert [watch.refusal(t) for t in labels] == [""] * len(labels)
    tokens.revoke(bots[3].pk, made[3].pk)
    watch.read_at -= settings.STREAM_RECHECK_SECONDS
    assert watch.refusal(labels[0]) == ""
    assert watch.refusal(labels[3]) == "This token was revoked."
