"""Run every benchmark module in this package (`make bench`); `make bench-web` runs web, and
`make soak` the hour-long soak, `make lighthouse` Lighthouse's audits; push_hashes times
nothing (one hash of every push text, to compare two trees' renders) and is run by hand.

Each runs in a process of its own: the Django benches each set Django up on their own throwaway
database, which a process can do once. Exits non-zero if any of them failed.
"""

import pkgutil
import subprocess
import sys

import bench


def modules() -> list[str]:
    """The names of the bench modules `make bench` runs, in order."""
    return sorted(
        info.name
        for info in pkgutil.iter_modules(bench.__path__)
        if not info.name.startswith("_")
        and info.name not in {"common", "web", "soak", "lighthouse", "push_hashes"}
    )


def main() -> int:
    """Run each bench module's main() in its own process; how many failed."""
    failed = []
    for name in modules():
        print(f"== {name}", flush=True)
        if subprocess.run([sys.executable, "-m", f"bench.{name}"], check=False).returncode:
            failed.append(name)
    if failed:
        print(f"== failed: {', '.join(failed)}", flush=True)
    return len(failed)


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
