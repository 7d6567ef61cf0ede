"""Midnight Bakery's hints: what each face scores in one line (on every card of the batch), and
a practice table's advice (games/services/hints.py): the pastry to keep in words and one line of
why, from the seat's own batch and case only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_noop as N_

from games.engines.midnight_bakery import Action, View
from games.engines.midnight_bakery.bots import LOAVES, TART_VALUE
from games.engines.midnight_bakery.scoring import bun_points

# What each face scores, in one line (rules/midnight-bakery.md's numbers): the board shows it on
# every card of the batch (its title, its description, a small line under its name). Every face
# of the deck has one (tests/kinds/midnight_bakery/test_hints.py).
# Marked here, translated as they are read (hint).
HINTS: dict[str, str] = {
    "croissant": N_("A pair scores 4."),
    "macaron": N_("Three score 9."),
    "bun": N_("1, 3, 5, 8, 12 for 1 to 5 buns; +3 each after."),
    "baguette-1": N_("Most loaves 7, second 3 (third 1 at 6+ bakers)."),
    "baguette-2": N_("Most loaves 7, second 3 (third 1 at 6+ bakers)."),
    "baguette-3": N_("Most loaves 7, second 3 (third 1 at 6+ bakers)."),
    "jam": N_("Scores 1, or 5 glazed."),
    "fruit": N_("Scores 2, or 6 glazed."),
    "chocolate": N_("Scores 3, or 7 glazed."),
    "truffle": N_("At dawn: most truffles 7, none -3."),
    "glaze": N_("+4 on your best unglazed tart."),
    "peel": N_("Scores 0. Later, take two at once."),
}


def hint(face: str, language: str | None = None) -> str:
    """What a face scores, in one line, in the language active ("" for a face with no hint);
    `language`: the language active, said by a caller that asked once for every card (kept per
    language and face: a board's batch asks on every push)."""
    found = HINTS.get(face)
    if not found:
        return ""
    if language is None:
        return gettext(found)
    key = (language, face)
    said = _said.get(key)
    if said is None:
        said = _said[key] = gettext(found)
    return said


_said: dict[tuple[str, str], str] = {}  # (language, face) -> its hint, as hint() said it


def later_batches(view: View, taking: int) -> list[int]:
    """The most cards each later pick of this bake could hand this seat, in order, once it takes
    `taking` from its batch now: every batch with cards loses at least one a pick (each baker
    keeps one or more, the owl snatches one) and passes along the ring, and a baker whose batch
    is empty sits out. Read off the public batch sizes only (a rival's locked choice is hidden:
    a Peel spent on it now may leave a batch shorter still)."""
    me = view["seat"]
    if me is None:
        return []
    seats = view["seats"]
    step = 1 if view["direction"] == "next" else -1
    after = [max(0, seat["batch_count"] - 1) for seat in seats]
    after[me] = max(0, len(view["batch"]) - taking)
    sizes = []
    for passes in range(1, max(after) + 1):
        size = after[(me - step * passes) % len(seats)] - (passes - 1)
        if size > 0:
            sizes.append(size)
    return sizes


def later_cards(view: View, taking: int, peels: int) -> int:
    """The most cards this seat could still keep in this bake after this pick: one a later pick,
    and one more for each of its `peels` spent on a pick with two cards or more."""
    sizes = later_batches(view, taking)
    return len(sizes) + min(peels, sum(1 for n in sizes if n >= 2))


def peels_in_case(view: View) -> int:
    """The Peels in this seat's case now."""
    seat = view["seat"]
    case = view["seats"][seat]["case"] if seat is not None else []
    return sum(1 for card in case if card["face"] == "peel")


def keep_why(view: View, face: str) -> str:
    """Why keeping one more of this face helps, read off the seat's own case (public) and the
    picks still to come this bake; it promises no card that no later pick can bring. In the
    reader's language (a tutorial's step, a practice table's hint)."""
    seat = view["seat"]
    case = view["seats"][seat]["case"] if seat is not None else []
    count = sum(1 for card in case if card["face"] == face)
    mine = view["seats"][seat] if seat is not None else None
    later = later_cards(view, 1, peels_in_case(view))
    if face == "croissant":
        if count % 2:
            return gettext("It completes your croissant pair (4 points).")
        if later:
            return gettext("It starts a croissant pair: a pair scores 4.")
        return gettext("This is your last pick of the bake: a croissant without its pair scores 0.")
    if face == "macaron":
        return macaron_why(count % 3 + 1, later)
    if face == "bun":
        gain = bun_points(count + 1) - bun_points(count)
        return ngettext(
            "Buns grow in worth: your bun number %(number)s adds %(gain)s point.",
            "Buns grow in worth: your bun number %(number)s adds %(gain)s points.",
            gain,
        ) % {"number": count + 1, "gain": gain}
    if face in TART_VALUE:
        value = TART_VALUE[face]
        if mine is not None and mine["waiting_glazes"]:
            return gettext("A glaze waits in your case: this tart scores %(points)s.") % {
                "points": value + 4
            }
        if later:
            return gettext("It scores %(now)s now, %(glazed)s once glazed.") % {
                "now": value,
                "glazed": value + 4,
            }
        return gettext(
            "It scores %(points)s: no glaze can come to it after your last pick of the bake."
        ) % {"points": value}
    if face == "glaze":
        return glaze_why(case, later)
    if face in LOAVES:
        loaves = LOAVES[face]
        return ngettext(
            "It adds %(loaves)s loaf in the race for most loaves (most score 7).",
            "It adds %(loaves)s loaves in the race for most loaves (most score 7).",
            loaves,
        ) % {"loaves": loaves}
    if face == "truffle":
        have = mine["truffles"] if mine is not None else 0
        return gettext("At dawn most truffles score 7 and none -3; you have %(have)s.") % {
            "have": have
        }
    if face == "peel":
        if any(n >= 2 for n in later_batches(view, 1)):
            return gettext("A Peel lets you take two cards at once on a later pick of this bake.")
        return gettext(
            "A Peel scores 0, and no later pick of this bake holds two cards for it to take."
        )
    return hint(face) or gettext("The greedy bot scores it highest from what you can see.")


def macaron_why(have: int, later: int) -> str:
    """Why one more macaron, the one that makes `have` of a three, with `later` cards to come."""
    if have == 3:
        return gettext("It completes three macarons (9 points).")
    if later >= 3 - have:
        return gettext("Three macarons score 9: it makes %(have)s of 3.") % {"have": have}
    if not later:
        return gettext(
            "This is your last pick of the bake: macarons score only in threes, so it adds nothing."
        )
    return gettext(
        "Macarons score only in threes, and too few cards can still come to you this bake."
    )


def glaze_why(case: Sequence[Mapping[str, object]], later: int) -> str:
    """Why a glaze, from the tarts in the case and whether a later pick can bring one."""
    if any(c["face"] in TART_VALUE and not c["glazed"] for c in case):
        return gettext("It glazes a tart in your case: +4 points.")
    if later:
        return gettext("It waits for your next tart: +4 points then.")
    return gettext(
        "This is your last pick of the bake and no tart of yours waits for it:"
        " a glaze alone scores 0."
    )


def peel_why(view: View, faces: Sequence[str]) -> str:
    """Why spend the Peel on these two now: the rule it follows (it takes both from this batch,
    then leaves the game), then what that means here (one left unused scores 0 when the bake
    ends). Two whole sentences, each its own msgid: the rule is said, and translated, once."""
    rule = gettext("Your Peel takes both from this batch, then leaves the game.")
    return f"{rule} {peel_now_why(view, faces)}"


def peel_now_why(view: View, faces: Sequence[str]) -> str:
    """What spending the Peel on these two means at this pick of the bake."""
    if "peel" in faces:
        if any(n >= 2 for n in later_batches(view, 2)):
            return gettext("The Peel you take stays in your case for a later pick of this bake.")
        return gettext("The Peel you take scores 0: no later pick of this bake holds two cards.")
    if any(n >= 2 for n in later_batches(view, 1)):
        return gettext("Two cards now are worth more than saving it for a later pick of this bake.")
    return gettext("No later pick of this bake holds two cards for it, and unused it scores 0.")


def advise(view: View, action: Action) -> tuple[str, str]:
    """The suggested keep (or peel) in words and one line of why, from the seat's own view, in
    the reader's language; the cards keep their names."""
    names = {c["id"]: c["name"] for c in view["batch"]}
    faces = {c["id"]: c["face"] for c in view["batch"]}
    pastry = gettext("pastry")
    if action["type"] == "peel":
        first, second = (names.get(c, pastry) for c in action["cards"])
        return (
            gettext("Use your Peel: take the %(first)s, then the %(second)s.")
            % {"first": first, "second": second},
            peel_why(view, [faces.get(c, "") for c in action["cards"]]),
        )
    card = action["card"]
    return (
        gettext("Keep the %(card)s.") % {"card": names.get(card, pastry)},
        keep_why(view, faces.get(card, "")),
    )
