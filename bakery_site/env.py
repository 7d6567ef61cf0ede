"""How the settings read environment variables: flags and whole numbers."""

import os


def env_flag(name: str, default: bool) -> bool:
    """Read a true/false environment variable."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    """Read a whole-number environment variable."""
    return int(os.environ.get(name, "").strip() or default)
