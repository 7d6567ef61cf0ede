"""Web Push on the wire: a push built for one browser (its body encrypted to the browser's keys,
the request signed with the site's VAPID key, by pywebpush's and py_vapid's own pieces), and a
sweep's pushes POSTed all at once, each within PUSH_DEADLINE.

The sending is aiohttp's, so that what push_policy.py allows is where the connection goes:
the name is looked up once, by a resolver that answers only a listed host's addresses and only if
every one is public, and the connector connects to exactly what it answered (no second lookup an
attacker's DNS could answer otherwise); the sockets themselves are made only for a public
address, a second lock on the same door. IP addresses never reach a resolver, so an endpoint
naming one is refused before (the policy's names never are one). No redirect is followed, no
proxy from the environment is used, and a push that is not done at its deadline (a push service
that never answers, or drips a byte now and then) is cut off there, its socket closed.

A push service that answers 429 (too many) or a 5xx (its own trouble) is asked again, at most
TRIES times in all and within the same deadline: after its Retry-After when it gives one, else
after BACKOFF seconds, doubled each time. A Retry-After longer than WAIT_MOST, or past the
deadline, is not waited for here: the answer carries it, and push.py rests that browser so long.
"""

from __future__ import annotations

import asyncio
import errno
import math
import socket
import ssl
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from aiohappyeyeballs import AddrInfoType
from aiohttp import ClientSession, ClientTimeout, TCPConnector
from aiohttp.abc import AbstractResolver, ResolveResult
from aiohttp.resolver import ThreadedResolver
from py_vapid import Vapid
from pywebpush import WebPusher
from yarl import URL

from games.notifications import push_policy

if TYPE_CHECKING:
    from aiohappyeyeballs import AddrInfoType

PUSH_DEADLINE = 10.0
"""Seconds one push may take in all: the lookup, connecting, TLS, the request and the answer."""

SIGNED_FOR = 12 * 3600
"""Seconds a push's VAPID signature holds (RFC 8292 allows at most a day)."""

ENCODING = "aes128gcm"  # RFC 8188, what every browser takes

TRIES = 3
"""Tries of one push at most, when its push service answers 429 or a 5xx."""
BACKOFF = 0.5
"""Seconds before the second try when the push service names no Retry-After; doubled after."""
WAIT_MOST = 3.0
"""Seconds of a Retry-After waited for within a sweep; a longer one rests the browser instead."""
RETRY_AFTER_MOST = 3600.0
"""Seconds at most that a push service's Retry-After is taken at its word."""


@dataclass(frozen=True)
class Answer:
    """What a push service answered: its status, and the seconds it asked to be left alone
    (Retry-After, read as seconds or as a date), if it did."""

    status: int
    retry_after: float | None = None

    @property
    def again(self) -> bool:
        """Whether the push may go again later: too many (429) or the service's trouble (5xx)."""
        return self.status == 429 or 500 <= self.status < 600


def retry_after(value: str | None, now: float | None = None) -> float | None:
    """A Retry-After header as seconds from now (bounded to RETRY_AFTER_MOST), or None when
    there is none or it is neither a number of seconds nor an HTTP date."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        seconds = float(value)
    else:
        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        at = datetime.now(UTC).timestamp() if now is None else now
        seconds = when.timestamp() - at
    if not math.isfinite(seconds):
        return None
    return min(max(seconds, 0.0), RETRY_AFTER_MOST)


@dataclass(frozen=True)
class Push:
    """One push ready to go: the endpoint, its host as the policy read it, headers and body."""

    endpoint: str
    host: str
    headers: dict[str, str]
    body: bytes


def claims(subject: str, host: str) -> dict[str, str | int]:
    """The VAPID claims of a push to this push service's host."""
    return {"sub": subject, "aud": f"https://{host}", "exp": int(time.time()) + SIGNED_FOR}


def site_key(private_key: str, subject: str) -> Any:
    """The site's VAPID key, tried once: a key or subject the site got wrong fails the whole
    sweep, never counts against each browser."""
    vapid = Vapid.from_string(private_key=private_key)
    vapid.sign(claims(subject, "push.invalid"))
    return vapid


def build(info: dict[str, Any], payload: bytes, vapid: Any, subject: str, ttl: int) -> Push:
    """The push for one browser's subscription (pywebpush's info); raises on one it cannot be
    built for: an endpoint the policy refuses, keys that are no browser's."""
    endpoint = str(info["endpoint"])
    refusal = push_policy.endpoint_refusal(endpoint)
    if refusal is not None:
        raise ValueError(refusal)
    host = urlsplit(endpoint).hostname or ""
    body = WebPusher(info).encode(payload, ENCODING)["body"]
    headers = {"TTL": str(ttl), "Content-Encoding": ENCODING}
    headers.update(vapid.sign(claims(subject, host)))
    return Push(endpoint=endpoint, host=host, headers=headers, body=bytes(body))


class PublicResolver(AbstractResolver):
    """The name lookup of pushes: a listed host's addresses, only if every one is public."""

    def __init__(self) -> None:
        self.system = ThreadedResolver()

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        """The addresses to connect to, or OSError for a host off the list or a private one."""
        if not push_policy.listed(host):
            raise OSError(f"{host} is not a push service's host")
        found = await self.system.resolve(host, port, family)
        addresses = {row["host"] for row in found}
        barred = sorted(a for a in addresses if not push_policy.public_address(a))
        if barred or not addresses:
            raise OSError(f"{host} resolves to addresses that are not public: {', '.join(barred)}")
        return found

    async def close(self) -> None:
        """Let the system's resolver go."""
        await self.system.close()


def reads_alike(url: URL, push: Push) -> bool:
    """Whether the sender reads the endpoint as the policy did (one parser cannot be fooled
    where the other was not)."""
    wanted = ("https", None, None, push.host, push_policy.PUSH_PORT)
    return (url.scheme, url.user, url.password, url.host, url.port) == wanted


async def post_once(session: ClientSession, push: Push) -> Answer:
    """POST one push once; what the push service answered (a redirect is answered, never
    followed)."""
    url = URL(push.endpoint, encoded=True)
    if not reads_alike(url, push):
        raise ValueError("the endpoint reads differently to the sender")
    async with session.post(
        url, headers=push.headers, data=push.body, allow_redirects=False
    ) as answer:
        return Answer(answer.status, retry_after(answer.headers.get("Retry-After")))


async def post(session: ClientSession, push: Push) -> Answer:
    """POST one push, all its tries within PUSH_DEADLINE: a 429 or 5xx goes again after its
    Retry-After or the back-off, at most TRIES times; the last answer."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PUSH_DEADLINE
    async with asyncio.timeout_at(deadline):
        for tried in range(1, TRIES + 1):
            answer = await post_once(session, push)
            wait = BACKOFF * 2 ** (tried - 1) if answer.retry_after is None else answer.retry_after
            too_long = wait > WAIT_MOST or loop.time() + wait >= deadline
            if not answer.again or tried == TRIES or too_long:
                return answer
            await asyncio.sleep(wait)
    raise AssertionError("unreachable: the last try returns")


class PushSockets:
    """The sockets of one sweep's pushes: each made only for a public address (whatever led
    there), and every one closed when the sweep ends, whatever its TLS was doing (a push cut
    off mid-answer would otherwise keep its connection until the garbage collector came)."""

    def __init__(self) -> None:
        self.made: list[socket.socket] = []

    def __call__(self, addr_info: AddrInfoType) -> socket.socket:
        """A socket for this address, or OSError if it is not public."""
        family, kind, proto, _, address = addr_info
        if not push_policy.public_address(str(address[0])):
            raise OSError(errno.EACCES, f"{address[0]} is not a public address")
        made = socket.socket(family, kind, proto)
        self.made.append(made)
        return made

    def close(self) -> None:
        """Close every socket made (the loop they served is gone)."""
        for made in self.made:
            made.close()


async def post_all(pushes: Sequence[Push], sockets: PushSockets) -> list[Answer | BaseException]:
    """POST every push at once, each on its own deadline; each one's status or what failed."""
    connector = TCPConnector(
        resolver=PublicResolver(),
        socket_factory=sockets,
        limit=0,
        ssl=ssl.create_default_context(),
    )
    timeout = ClientTimeout(total=PUSH_DEADLINE)
    async with ClientSession(connector=connector, timeout=timeout, trust_env=False) as session:
        posts = (post(session, push) for push in pushes)
        return await asyncio.gather(*posts, return_exceptions=True)


def deliver(pushes: Sequence[Push]) -> list[Answer | BaseException]:
    """Send the pushes on an event loop of this thread's own (the push lane's); each one's
    answer or what failed, in order."""
    if not pushes:
        return []
    sockets = PushSockets()
    try:
        return asyncio.run(post_all(pushes, sockets))
    finally:
        sockets.close()
