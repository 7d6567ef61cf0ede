"""The night's log in the reader's language: each public event told from its type and codes (the
seat, the faces, a Peel, the bake, the winners), not from the engine's own sentence, which stays
the stored record in English. In English the words are the engine's, word for word
(tests/kinds/midnight_bakery/test_log_words.py)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from django.utils.translation import gettext, ngettext

from games.engines.midnight_bakery import View
from games.engines.midnight_bakery.cards import face_name, face_of
from games.engines.midnight_bakery.shapes import Event

# The deal's event carries no count of the deck: its sentence is the only record of it.
DECK_LEFT = re.compile(r"; (\d+) cards? wait")


def joined(words: Sequence[str]) -> str:
    """Words joined as the engine's sentences join them, "and" between each ("a and b and c")."""
    said = words[0] if words else ""
    for word in words[1:]:
        said = gettext("%(names)s and %(last)s") % {"names": said, "last": word}
    return said


def seat_names(view: View) -> list[str]:
    """Each seat's name (Flour, Sugar, ... the Night Owl: the game's own names) by position."""
    return [box["name"] for box in view["seats"]]


# An event's words by its language and its stored sentence, which names everything they say (the
# seat, the cards, the totals, the winners): the whole log is told on every push to every viewer,
# and a gettext costs microseconds (docs/performance.md).
_told: dict[tuple[str, str, str], str] = {}
TOLD_KEEP = 20_000


def told(event: Event, view: View, language: str) -> str:
    """event_words, kept per process by the language and the event's own sentence."""
    key = (language, event.get("type", ""), event.get("text", ""))
    found = _told.get(key)
    if found is None:
        if len(_told) >= TOLD_KEEP:
            _told.clear()
        found = _told[key] = event_words(event, view)
    return found


def event_words(event: Event, view: View) -> str:
    """One event of the night in the language active; an event it does not know, as stored."""
    kind = event.get("type")
    names = seat_names(view)
    seat = names[event["seat"]] if "seat" in event and event["seat"] < len(names) else ""
    faces = event.get("faces") or [face_of(card) for card in event.get("cards", [])]
    if kind == "keep" and seat and faces:
        cards = [gettext("a %(card)s") % {"card": face_name(f)} for f in faces]
        said = {"seat": seat, "cards": joined(cards)}
        if event.get("peel"):
            return gettext("%(seat)s used a Baker's Peel to take %(cards)s.") % said
        return gettext("%(seat)s kept %(cards)s.") % said
    if kind == "snatch" and "face" in event:
        return gettext("The Night Owl snatched a %(card)s.") % {"card": face_name(event["face"])}
    if kind == "deal":
        left = DECK_LEFT.search(event.get("text", ""))
        if left is not None:
            count = int(left.group(1))
            return ngettext(
                "Bake %(bake)s is dealt; %(count)s cards wait in the deck.",
                "Bake %(bake)s is dealt; %(count)s cards wait in the deck.",
                count,
            ) % {"bake": event.get("bake"), "count": count}
    if kind == "bake_end" and "totals" in event:
        summary = ", ".join(f"{names[i]} {total}" for i, total in enumerate(event["totals"]))
        return gettext("Bake %(bake)s is scored: %(summary)s.") % {
            "bake": event.get("bake"),
            "summary": summary,
        }
    if kind == "early_end":
        return gettext("The deck cannot deal anyone a card, so the night ends.")
    result = view.get("result")
    if kind == "dawn" and result is not None:
        winners = [names[i] for i in result.get("winners", []) if i < len(names)]
        said = {"names": joined(winners)}
        if len(winners) == 1:
            return gettext("Dawn. %(names)s wins the night.") % said
        return gettext("Dawn. %(names)s share the night.") % said
    return event.get("text", "")
