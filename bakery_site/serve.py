"""Daphne on a port that a new process can share: `python -m bakery_site.serve -b HOST -p PORT
[--pidfile FILE] [any other Daphne option] APPLICATION` (the application last).

A rolling deploy starts the new process beside the old one before the old one drains
(games/live/drain.py; bakery_site/processes.py does it): for those seconds both accept on the same
port, so no connection is ever refused and the proxy in front needs no change. The port (IPv4) is
bound here with SO_REUSEPORT (Linux and the BSDs) and handed to Daphne by file descriptor (its
`--fd`); Twisted takes a copy and closes the one handed over, so a draining process that stops
listening leaves the port to the new one alone.

`--pidfile` is written once the process serves, which is what a deploy waits for.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
from pathlib import Path

BACKLOG = 1024


def listening(host: str, port: int) -> socket.socket:
    """A listening socket on an IPv4 host:port, shared with any other process that binds it so."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.listen(BACKLOG)
    return sock


def write_pidfile(path: Path) -> None:
    """Say this process serves: its pid in `path`, written whole (a reader never sees half)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(f".{path.name}.{os.getpid()}")
    part.write_text(f"{os.getpid()}\n")
    part.replace(path)


def main(argv: list[str]) -> None:
    """Bind the port, then run Daphne's own command line on it."""
    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    parser.add_argument("-b", "--bind", default="127.0.0.1")
    parser.add_argument("-p", "--port", type=int, default=8000)
    parser.add_argument("--pidfile", type=Path)
    ours, daphne_args = parser.parse_known_args(argv)

    from daphne.cli import CommandLineInterface  # installs Twisted's asyncio reactor
    from daphne.utils import import_by_path
    from twisted.internet import reactor

    # The application (Django, the site, its warm-up) is loaded before the port is bound: bound
    # first, the port's share of new connections would wait in this process's backlog for those
    # seconds, while the process it replaces could have served them.
    import_by_path(daphne_args[-1])
    fileno = listening(ours.bind, ours.port).detach()  # Daphne's now: it closes it

    if ours.pidfile is not None:
        reactor.callWhenRunning(write_pidfile, ours.pidfile)
    CommandLineInterface().run(["--fd", str(fileno), *daphne_args])


if __name__ == "__main__":
    main(sys.argv[1:])
