"""Pure-Python rules engines, one package per game; nothing here imports Django."""

from games.engines.errors import IllegalAction

__all__ = ["IllegalAction"]
