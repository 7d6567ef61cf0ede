"""A game's record: the archive (rebuild from actions, export), stats and history lists."""
