"""The soak's visits outside the tables: the inbox (its badge, its notifications followed, marked
read) and friends (requests made and answered, friends removed, so the cycle goes on)."""

from __future__ import annotations

import re
import time

import httpx

from bench.soak.people import (
    Config,
    Soak,
    Someone,
    browse,
    button_to,
    form_to,
    press,
    said,
    submit,
    took,
)
from bench.web.client import Person
from bench.web.page import Element

NOTIFICATIONS = "notifications"
FRIENDS = "friends"
# What each notification says (games/notifications/services.py), by the kind it is counted as.
NOTICES = {
    "turn": re.compile(r"It is your move at "),
    "invitation": re.compile(r" invites you to "),
    "friend request": re.compile(r" asks to be your friend"),
    "friend accepted": re.compile(r" accepted your friend request"),
    "game ended": re.compile(r" is over\.$"),
    "rematch": re.compile(r" offers a rematch of "),
}
# The friends' buttons' words once done (games/friends/views.py: CHANGES); anything else said is a
# refusal in words (two people's presses crossing, the hourly limit).
DONE = re.compile(
    r"You asked .* to be your friend|You and .* are friends now|You declined .*'s friend"
    r"|is no longer on your friends list"
)
DONE_WORDS = {"ask": "asked", "accept": "accepted", "decline": "declined", "remove": "unfriended"}
ASKS_PER_HOUR = 20  # games/friends/services.py: REQUESTS_PER_HOUR, which a person keeps under
ACCEPTING = 0.75  # of the requests answered, the share accepted (the rest declined)
UNFRIENDING = 0.5  # of the visits to a friend's page, the share that removes them


def notice_kind(text: str) -> str:
    """The kind of a notification, from its words."""
    return next((kind for kind, words in NOTICES.items() if words.search(text)), "other")


async def notifications(me: Someone, soak: Soak, cfg: Config, until: float) -> None:
    """The menu's badge (as a page without a socket asks for it), the inbox, every invitation
    and the newest other unread notification followed (an invitation's table is joined), and
    "Mark all read" if anything is left unread."""
    person = me.person
    badge = await person.http.get("/games/inbox/badge/", headers={"HX-Request": "true"})
    badge.raise_for_status()
    soak.count(NOTIFICATIONS, "badges")
    await browse(person, "/games/inbox/")
    soak.count(NOTIFICATIONS, "inboxes read")
    unread = unread_notices(person.page.root)
    for _, kind in unread:
        soak.count(NOTIFICATIONS, f"unread {kind}")
    invitations = [link for link, kind in unread if kind == "invitation"]
    others = [link for link, kind in unread if kind != "invitation"][:1]
    for link in invitations + others:
        if not await follow(person, link, soak):
            continue
        join = button_to(person.page, "/join/")
        if join is not None and took(await press(person, join), soak, NOTIFICATIONS, "join"):
            soak.count(NOTIFICATIONS, "joined an invitation's table")
    if len(unread) > len(invitations) + len(others):
        await browse(person, "/games/inbox/")
        form = form_to(person.page, "/games/inbox/read/")
        if form is not None:
            await submit(person, form)
            soak.count(NOTIFICATIONS, "marked all read")


async def follow(person: Person, link: str, soak: Soak) -> bool:
    """Open a notification from the inbox; whether it was still there. A turn told anew at the
    same table deletes the older one (games/notifications/services.py: keep_latest_turns), so an
    inbox read a moment before may link to one gone: its page says "No such notification." (404),
    counted as a refusal in words."""
    try:
        await browse(person, link)
    except httpx.HTTPStatusError as exc:
        if exc.response.status_code != 404 or exc.request.url.path != link:
            raise
        soak.refused(NOTIFICATIONS, "follow: 404 No such notification (gone since the inbox)")
        return False
    soak.count(NOTIFICATIONS, "followed")
    return True


def unread_notices(root: Element) -> list[tuple[str, str]]:
    """The inbox's unread notifications, newest first: each one's link and kind."""
    found = []
    for li in root.iter("li"):
        if "unread" not in (li.attrs.get("class") or "").split():
            continue
        link = next(li.iter("a"), None)
        if link is not None:
            found.append((link.attrs["href"], notice_kind(" ".join(link.text_content().split()))))
    return found


async def friends(me: Someone, soak: Soak, cfg: Config, until: float) -> None:
    """The friends page: answer the requests waiting there (most accepted), else open someone's
    page and press what it offers: Add friend (under the hourly limit), Accept, or Remove
    friend (half the time); a request of theirs not answered yet is left waiting."""
    person = me.person
    await browse(person, "/games/friends/")
    soak.count(FRIENDS, "pages read")
    asking = person.page.find("friend-requests")
    if asking is not None:
        verb = "accept" if me.rng.random() < ACCEPTING else "decline"
        button = next(b for b in asking.iter("button") if b.attrs.get("data-friend") == verb)
        await change(me, button, soak)
        return
    if not me.others:
        return
    other = me.rng.choice(me.others)
    await browse(person, f"/u/{other}/")
    offered = {b.attrs.get("data-friend"): b for b in person.page.root.iter("button")}
    if "accept" in offered:
        await change(me, offered["accept"], soak)
    elif "ask" in offered and under_limit(me):
        me.asked_at.append(time.monotonic())
        await change(me, offered["ask"], soak)
    elif "remove" in offered and "Remove friend" in offered["remove"].text_content():
        if me.rng.random() < UNFRIENDING:
            await change(me, offered["remove"], soak)
    else:
        soak.count(FRIENDS, "profiles looked at")


def under_limit(me: Someone) -> bool:
    """Whether the person asked fewer than ASKS_PER_HOUR people in the last hour."""
    hour_ago = time.monotonic() - 3600
    me.asked_at = [t for t in me.asked_at if t > hour_ago]
    return len(me.asked_at) < ASKS_PER_HOUR


async def change(me: Someone, button: Element, soak: Soak) -> None:
    """Press a friend button (its own small form) and read what the page says of it."""
    verb = button.attrs["data-friend"]
    form = next(a for a in button.iterancestors() if a.tag == "form")
    await submit(me.person, form, button)
    words = said(me.person.page)
    if any(DONE.search(w) for w in words):
        soak.count(FRIENDS, DONE_WORDS[verb])
    else:
        soak.refused(FRIENDS, f"{verb}: {' '.join(words) or 'nothing said'}")
