"""How a Cakehalla game ended, in words: the final standings and why the winner won."""

from __future__ import annotations

from games.engines.cakehalla import View
from games.engines.cakehalla.shapes import Result, Rules


def end_reason(result: Result, rules: Rules) -> str:
    """Why the game ended, as the engine's result says."""
    if result["ended"] == "passes":
        return "Every baker passed for a whole round, so the game ended as it stood."
    return f"A baker reached {rules['winning_points']} points and the round was played out."


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
    top = seats[winners[0]]
    if len(winners) > 1:
        why = (
            f"{' and '.join(names[i] for i in winners)} share the win: "
            f"{top['points']} points and {top['cards_bought']} cards bought each."
        )
    elif result["lost_tie"]:
        others = ", ".join(f"{names[i]} {seats[i]['cards_bought']}" for i in result["lost_tie"])
        why = (
            f"{names[winners[0]]} wins the tie on {top['points']} points by buying fewer "
            f"cards ({top['cards_bought']} against {others})."
        )
    else:
        why = f"{names[winners[0]]} wins with {top['points']} points."
    return {"rows": rows, "why": why, "ended": end_reason(result, view["rules"])}
