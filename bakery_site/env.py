"""How the settings read environment variables: flags, whole numbers, and the features' knobs."""

import importlib
import os
import sys


def env_flag(name: str, default: bool) -> bool:
    """Read a true/false environment variable."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    """Read a whole-number environment variable."""
    return int(os.environ.get(name, "").strip() or default)


def imported_confs(*apps: str) -> tuple[str, ...]:
    """The conf modules of these apps imported so far: the settings star-import each feature's
    conf.py (so mypy knows its knobs' types), and these are the modules those imports loaded, so
    the star imports stay the one list of them."""
    confs = (name for name in sys.modules if name.endswith(".conf"))
    return tuple(sorted(name for name in confs if name.split(".")[0] in apps))


def feature_knobs(*modules: str) -> dict[str, object]:
    """Each feature's knobs: the upper-case names of its conf module (as Django reads a settings
    module) with their defaults, each set instead by the environment variable of its name when
    that is set and not empty: a flag (1, true, yes or on), a number, words, or for a list of words
    words separated by commas. A module's `former_names` (a knob's older names) are read when the
    knob's own is not set, and its `choices` are the only words a knob may take."""
    knobs: dict[str, object] = {}
    for name in modules:
        module = importlib.import_module(name)
        former: dict[str, str] = getattr(module, "former_names", {})
        choices: dict[str, tuple[str, ...]] = getattr(module, "choices", {})
        for knob, default in vars(module).items():
            if not knob.isupper():
                continue
            text = os.environ.get(knob, "").strip() or os.environ.get(former.get(knob, ""), "")
            value = from_text(text.strip(), default) if text.strip() else default
            if knob in choices and value not in choices[knob]:
                raise RuntimeError(f"{knob} must be one of {', '.join(choices[knob])}.")
            knobs[knob] = value
    return knobs


def from_text(text: str, default: object) -> object:
    """An environment variable's text as a value of the default's type."""
    if isinstance(default, bool):
        return text.lower() in {"1", "true", "yes", "on"}
    if isinstance(default, int | float | str):
        return type(default)(text)
    if isinstance(default, list) and all(isinstance(item, str) for item in default):
        return [word.strip() for word in text.split(",") if word.strip()]
    raise RuntimeError(f"{text!r}: this setting is not read from the environment.")
