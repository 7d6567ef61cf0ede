"""Golden games: finished games stored with their setup, rules version, every action, the
result and a digest of every replay frame. Today's engine must reproduce each exactly; a rules
change that alters one is deliberate (bump the engine's RULES_VERSION, then renew the files).
A key only added to the view or the result plays every stored game alike: renew the files
without a bump, once checked that with the new key taken out every frame, the result and the
last view are the stored ones.

The `legacy` ones were played before setups were stored, dealt from the seed alone by the
engines of that day (Cakehalla still shuffled its unused seat order first); their setups are
what the backfill migration computes for such games.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent


def canonical(data: Any) -> str:
    """JSON with sorted keys and no spaces, the form digests are taken of."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def frame_digest(engine: Any, state: Any, players: int) -> str:
    """A replay frame: what a spectator and every seat saw at that moment, as one digest."""
    views = [engine.view(state, None), *(engine.view(state, seat) for seat in range(players))]
    return hashlib.sha256(canonical(views).encode()).hexdigest()


def golden_games() -> list[dict[str, Any]]:
    """Every golden game, by file name order."""
    return [json.loads(path.read_text()) for path in sorted(HERE.glob("*.json"))]


def golden_ids() -> list[str]:
    """The golden games' file names, for test ids."""
    return [path.stem for path in sorted(HERE.glob("*.json"))]
