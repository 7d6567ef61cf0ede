"""The site's Daphne processes on this machine, and a rolling deploy of them that nobody notices.

    python -m bakery_site.processes serve [--ports 8001,8002] [--run-dir var/run]
    python -m bakery_site.processes roll  [--ports 8001,8002] [--run-dir var/run]
    python -m bakery_site.processes stop  [--ports 8001,8002] [--run-dir var/run]

(`make serve`, `make roll`, `make stop` run them.) Each process serves one port through
bakery_site/serve.py, its pid in `<run-dir>/<port>.pid` and its log in `<run-dir>/<port>.log`;
every process gets this command's environment (DATABASE_URL, REDIS_URL, SECRET_KEY...).

`roll`, after the new code is in place (and `migrate`, `collectstatic` run), takes each port in
turn: it starts a new process on the port beside the old one, waits until the new one serves,
then sends the old one SIGTERM, and waits for it to drain and exit (games/live/drain.py) before
the next port. The proxy in front (deploy/nginx.conf) never sees a port close; a page whose
socket the old process closed comes back at once to the new one. docs/operations.md, "A rolling
deploy", says the rest.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# A websocket's handshake waits for the table's access check, which under load can take longer
# than Daphne's default 5 s; Daphne would reset it (the Makefile's DAPHNE_FLAGS say the same).
DAPHNE_FLAGS = ["--websocket_connect_timeout", "30"]
SERVING_SECONDS = 60.0  # a new process that does not serve by then fails the deploy
EXIT_MARGIN = 15.0  # seconds past DRAIN_SECONDS before a draining process is killed


def drain_seconds() -> float:
    """The processes' DRAIN_SECONDS, read from the environment they get (as settings.py does)."""
    return float(os.environ.get("DRAIN_SECONDS", "15"))


def command(port: int, pidfile: Path, *, host: str = "127.0.0.1") -> list[str]:
    """The command line of one serving process on `port`."""
    serve = [sys.executable, "-m", "bakery_site.serve", "-b", host, "-p", str(port)]
    options = ["--pidfile", str(pidfile), "--proxy-headers", *DAPHNE_FLAGS]
    return [*serve, *options, "bakery_site.asgi:application"]


def launch(
    port: int,
    pidfile: Path,
    log: Path,
    *,
    env: dict[str, str] | None = None,
    detach: bool = False,
) -> subprocess.Popen[bytes]:
    """Start a process on `port` (beside any already there); it writes `pidfile` once it
    serves. `detach`: it outlives this command (its own session)."""
    pidfile.unlink(missing_ok=True)
    with log.open("ab") as out:
        return subprocess.Popen(
            command(port, pidfile),
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=detach,
        )


def wait_serving(process: subprocess.Popen[bytes], pidfile: Path) -> None:
    """Wait until the new process says it serves (its pid in `pidfile`); fail if it exits."""
    deadline = time.monotonic() + SERVING_SECONDS
    while read_pid(pidfile) != process.pid:
        if process.poll() is not None:
            raise SystemExit(f"The new process exited ({process.returncode}); see its log.")
        if time.monotonic() > deadline:
            process.kill()
            raise SystemExit(f"The new process did not serve within {SERVING_SECONDS:.0f} s.")
        time.sleep(0.05)


def read_pid(pidfile: Path) -> int | None:
    """The pid a pidfile holds, if any."""
    try:
        return int(pidfile.read_text().strip())
    except (OSError, ValueError):
        return None


def alive(pid: int) -> bool:
    """Whether a process runs (a child that exited is reaped on the way)."""
    with contextlib.suppress(ChildProcessError):
        if os.waitpid(pid, os.WNOHANG)[0] == pid:
            return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def drain(pid: int) -> float:
    """SIGTERM a serving process and wait while it drains; killed if it outlives its bound.
    The seconds it took."""
    started = time.monotonic()
    deadline = started + drain_seconds() + EXIT_MARGIN
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    while alive(pid):
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            print(f"process {pid} did not drain in time: killed", file=sys.stderr)
        time.sleep(0.05)
    return time.monotonic() - started


def replace(
    port: int, run_dir: Path, old: int | None, *, env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """One step of a rolling deploy: a new process on `port` serves, then the old one drains."""
    pidfile = run_dir / f"{port}.pid"
    fresh = run_dir / f"{port}.next.pid"
    new = launch(port, fresh, run_dir / f"{port}.log", env=env, detach=True)
    wait_serving(new, fresh)
    fresh.replace(pidfile)
    if old is not None and alive(old):
        seconds = drain(old)
        print(f"port {port}: process {new.pid} serves; {old} drained in {seconds:.1f} s")
    else:
        print(f"port {port}: process {new.pid} serves")
    return new


def main(argv: list[str]) -> None:
    """serve, roll or stop the processes on these ports."""
    parser = argparse.ArgumentParser(prog="python -m bakery_site.processes")
    parser.add_argument("action", choices=["serve", "roll", "stop"])
    parser.add_argument("--ports", default="8001,8002")
    parser.add_argument("--run-dir", type=Path, default=ROOT / "var" / "run")
    args = parser.parse_args(argv)
    ports = [int(port) for port in args.ports.split(",")]
    run_dir: Path = args.run_dir.resolve()
    run_dir.mkdir(parents=True, exist_ok=True)
    for port in ports:
        old = read_pid(run_dir / f"{port}.pid")
        running = old is not None and alive(old)
        if args.action == "stop":
            if running and old is not None:
                print(f"port {port}: {old} drained in {drain(old):.1f} s")
            (run_dir / f"{port}.pid").unlink(missing_ok=True)
        elif args.action == "roll" or not running:
            replace(port, run_dir, old if running else None)
        else:
            print(f"port {port}: process {old} already serves (roll to replace it)")


if __name__ == "__main__":
    main(sys.argv[1:])
