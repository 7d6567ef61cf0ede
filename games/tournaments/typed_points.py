"""Points by place as a person types them in the create form: one table size a line, "4:
6/4/2/0", read into the rules' shape and every way it can be wrong said in words; and the
defaults, as the form states them (games/tournaments/scoring.py keeps the points themselves)."""

from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext, ngettext

from games import catalog
from games.tournaments import scoring, services
from games.tournaments.services.creation import check_points

POINTS_LINE = re.compile(r"^(\d+)\s*:\s*(.+)$")


def default_points_words() -> str:
    """The default points by place, as the form states them."""
    most = max((s.max_players for s in catalog.available()), default=4)
    said = [
        f"{n}: {'/'.join(f'{p:g}' for p in scoring.place_points(n))}" for n in range(2, most + 1)
    ]
    return "; ".join(said)


def parse_points(text: str, fewest: int, seats: int) -> dict[str, list[float]]:
    """Points by place as typed, one table size a line ("4: 6/4/2/0"), for the sizes this
    tournament seats; a ValidationError in words for anything else."""
    points: dict[str, list[float]] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        found = POINTS_LINE.match(line)
        if found is None:
            raise forms.ValidationError(
                gettext(
                    "Points by place: write each line as a table size, a colon and the points "
                    "best first, such as 4: 6/4/2/0 (not %(line)s)."
                )
                % {"line": repr(line[:30])}
            )
        size = int(found.group(1))
        if not fewest <= size <= seats:
            raise forms.ValidationError(
                gettext(
                    "Points by place: this tournament seats tables of %(fewest)s to %(seats)s, "
                    "not %(size)s."
                )
                % {"fewest": fewest, "seats": seats, "size": size}
            )
        try:
            row = [float(p) for p in re.split(r"[/,\s]+", found.group(2).strip()) if p]
        except ValueError:
            raise forms.ValidationError(
                gettext(
                    "Points by place: the points at a table of %(size)s are numbers, such as "
                    "6/4/2/0."
                )
                % {"size": size}
            ) from None
        if len(row) != size:
            raise forms.ValidationError(
                ngettext(
                    "Points by place: a table of %(size)s needs %(size)s number, one a place.",
                    "Points by place: a table of %(size)s needs %(size)s numbers, one a place.",
                    size,
                )
                % {"size": size}
            )
        points[str(size)] = row
    try:
        check_points(points)
    except services.ServiceError as refused:
        raise forms.ValidationError(
            gettext("Points by place: %(refused)s") % {"refused": refused}
        ) from None
    return points
