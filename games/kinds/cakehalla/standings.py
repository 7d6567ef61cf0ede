"""How a Cakehalla game ended, in words: the final standings and why the winner won."""

from __future__ import annotations

from django.utils.translation import gettext, ngettext

from games.engines.cakehalla import View
from games.engines.cakehalla.shapes import Result, Rules
from games.kinds.cakehalla.words import and_list


def end_reason(result: Result, rules: Rules) -> str:
    """Why the game ended, as the engine's result says, in the language active."""
    if result["ended"] == "passes":
        return gettext("Every baker passed for a whole round, so the game ended as it stood.")
    points = rules["winning_points"]
    return ngettext(
        "A baker reached %(points)s point and the round was played out.",
        "A baker reached %(points)s points and the round was played out.",
        points,
    ) % {"points": points}


def standings(view: View, names: list[str]) -> dict[str, object]:
    """Final standings in the engine's order, with the winner (or shared win) and why."""
    seats = view["seats"]
    result = view["result"]
    assert result is not None, "standings are drawn once the game is over"
    winners = result["winners"]
    rows = []
    for place, i in enumerate(result["order"], start=1):
        rows.append(
            {
                "place": place,
                "position": i,
                "player": names[i],
                "points": seats[i]["points"],
                "cards": seats[i]["cards_bought"],
                "customers": len(seats[i]["customers"]),
                "winner": i in winners,
            }
        )
    return {"rows": rows, "why": why_won(view, names), "ended": end_reason(result, view["rules"])}


def why_won(view: View, names: list[str]) -> str:
    """Why the winner won (or the winners share), in the language active."""
    seats = view["seats"]
    result = view["result"]
    assert result is not None, "a game is won once it is over"
    winners = result["winners"]
    top = seats[winners[0]]
    said = {"points": top["points"], "cards": top["cards_bought"], "winner": names[winners[0]]}
    if len(winners) > 1:
        said["names"] = and_list([names[i] for i in winners])
        return (
            ngettext(
                "%(names)s share the win: %(points)s points and %(cards)s card bought each.",
                "%(names)s share the win: %(points)s points and %(cards)s cards bought each.",
                top["cards_bought"],
            )
            % said
        )
    if result["lost_tie"]:
        said["others"] = ", ".join(
            f"{names[i]} {seats[i]['cards_bought']}" for i in result["lost_tie"]
        )
        return (
            ngettext(
                "%(winner)s wins the tie on %(points)s points by buying fewer cards"
                " (%(cards)s against %(others)s).",
                "%(winner)s wins the tie on %(points)s points by buying fewer cards"
                " (%(cards)s against %(others)s).",
                top["points"],
            )
            % said
        )
    return (
        ngettext(
            "%(winner)s wins with %(points)s point.",
            "%(winner)s wins with %(points)s points.",
            top["points"],
        )
        % said
    )
