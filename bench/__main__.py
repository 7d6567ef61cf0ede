"""Run every benchmark module in this package (`make bench`); `make bench-web` runs web."""

import importlib
import pkgutil

import bench


def main() -> None:
    """Import each bench module and call its main()."""
    for info in sorted(pkgutil.iter_modules(bench.__path__), key=lambda m: m.name):
        if info.name.startswith("_") or info.name in {"common", "web"}:
            continue
        module = importlib.import_module(f"bench.{info.name}")
        print(f"== {info.name}")
        module.main()


if __name__ == "__main__":
    main()
