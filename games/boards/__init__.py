"""Rendering any game's table for one user: only engine.view() of their own seat reaches a template.

This package hands on the names its callers use. context.py: what a board shows one viewer;
render.py: its regions rendered, and which changed; shared.py: what every viewer of a table
shares at one version (the read, the renders); jinja.py, changes.py, plain.py, pieces.py: the
templates' environment, what a region reads, and its pieces; chat.py: the table's chat panel.
"""

from games.boards.context import board_context, epoch_ms, local_day
from games.boards.render import (
    Sent,
    board_message,
    diff_marker,
    region_names,
    region_prints,
    render_board,
    render_changed,
    render_diff,
    render_page_part,
    render_regions,
    render_whole,
)

__all__ = [
    "Sent",
    "board_context",
    "board_message",
    "diff_marker",
    "epoch_ms",
    "local_day",
    "region_names",
    "region_prints",
    "render_board",
    "render_changed",
    "render_diff",
    "render_page_part",
    "render_regions",
    "render_whole",
]
