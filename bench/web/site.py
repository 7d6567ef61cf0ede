"""The site under load: Daphne processes on a throwaway database, and what they cost."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from bakery_site import processes
from bench import _prepared as prepared

ROOT = Path(__file__).resolve().parents[2]
TICKS = os.sysconf("SC_CLK_TCK")
READY_SECONDS = 60.0


@dataclass
class Site:
    """One set-up of the site: its environment, its database, its Daphne processes."""

    label: str
    processes: int
    env: dict[str, str]
    folder: Path
    admin_url: str = ""
    database: str = ""
    sqlite_path: str = ""
    ports: list[int] = field(default_factory=list)
    daphnes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    external: list[str] = field(default_factory=list)
    pids: list[int] = field(default_factory=list)
    owned: bool = True

    @property
    def urls(self) -> list[str]:
        """The base URL of each Daphne process."""
        return self.external or [f"http://127.0.0.1:{port}" for port in self.ports]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def base_env() -> dict[str, str]:
    """The site's environment: production-like, nothing inherited that points elsewhere."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        DEBUG="0",
        SECRET_KEY="bench-web-not-a-secret-" + str(os.getpid()),
        SECURE_COOKIES="0",  # plain http on 127.0.0.1: the client must get its cookies back
        ALLOWED_HOSTS="127.0.0.1",
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )
    return env


def busy_evening(env: dict[str, str]) -> None:
    """The bench plays a busy evening: no house table (it plays only while no person's game may
    be watched, so on a freshly started site it would add its bots' moves to the first run)."""
    env["HOUSE_TABLE"] = "0"


def own_static(env: dict[str, str], folder: Path) -> None:
    """The set-up collects and serves static files in its temp folder (bench/web/settings.py)."""
    env.update(
        DJANGO_SETTINGS_MODULE="bench.web.settings", BENCH_WEB_STATIC_ROOT=str(folder / "static")
    )


def with_database(url: str, name: str) -> str:
    """The same server URL with another database name."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


def postgres_site(processes: int) -> Site:
    """Daphne processes on a fresh PostgreSQL database (BENCH_DATABASE_URL) and Redis."""
    import psycopg

    server = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    redis = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
    for target in (server, redis):
        if urlsplit(target).hostname not in {"127.0.0.1", "localhost"}:
            raise SystemExit(f"bench-web only targets this machine, not {target}.")
    database = f"bench_web_{os.getpid()}"
    admin = with_database(server, "postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{database}"')
    env = base_env()
    env.update(
        DATABASE_URL=with_database(server, database),
        REDIS_URL=redis,
        REDIS_PREFIX=f"benchweb{os.getpid()}",
    )
    folder = Path(tempfile.mkdtemp(prefix="bench-web-"))
    own_static(env, folder)
    busy_evening(env)
    label = f"PostgreSQL + Redis, {processes} Daphne process{'es' if processes > 1 else ''}"
    return Site(label, processes, env, folder, admin_url=admin, database=database)


def sqlite_site() -> Site:
    """`make run`'s defaults: one Daphne, DEBUG off, SQLite (a temp file), the in-memory layer."""
    folder = Path(tempfile.mkdtemp(prefix="bench-web-"))
    env = base_env()
    path = str(folder / "db.sqlite3")
    env.update(DATABASE_URL=f"sqlite:///{path}")  # DEBUG off, cookies over HTTP: as make run
    env.pop("REDIS_PREFIX", None)
    own_static(env, folder)
    busy_evening(env)
    return Site(
        "make run defaults (SQLite, in-memory layer), 1 Daphne process",
        1,
        env,
        folder,
        sqlite_path=path,
    )


def running_site(urls: str, pids: str) -> Site:
    """A site already running at these base URLs (this machine only), on $DATABASE_URL.

    Its people are made on the database the environment names; its CPU is read from the given
    process ids (none: not reported); queries from pg_stat_database when it is PostgreSQL.
    """
    external = [u.strip().rstrip("/") for u in urls.split(",") if u.strip()]
    for url in external:
        if urlsplit(url).hostname not in {"127.0.0.1", "localhost"}:
            raise SystemExit(f"bench-web only targets this machine, not {url}.")
    env = dict(os.environ)
    folder = Path(tempfile.mkdtemp(prefix="bench-web-"))
    site = Site(f"the site at {', '.join(external)}", len(external), env, folder, external=external)
    site.pids = [int(p) for p in pids.split(",") if p.strip()]
    database_url = env.get("DATABASE_URL", "")
    if database_url.startswith(("postgres://", "postgresql://")):
        site.database = urlsplit(database_url).path.lstrip("/")
        site.admin_url = with_database(database_url, "postgres")
        site.owned = False
    elif database_url.startswith("sqlite:///"):
        site.sqlite_path = database_url.removeprefix("sqlite:///")
    else:
        site.sqlite_path = str(ROOT / "db.sqlite3")
    return site


def manage(site: Site, *args: str) -> str:
    """Run a command of the site (or of this bench) with the site's environment."""
    done = subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=site.env, check=True, capture_output=True, text=True
    )
    return done.stdout


def prepare(site: Site, people: int) -> dict[str, str]:
    """Migrate, collect static files (DEBUG=0 serves the manifest), make people: their sessions.
    A SQLite site copies the migrated database and serves the static files a test session made
    once (bench/_prepared.py), when the environment names them."""
    if not site.external:
        if not (site.sqlite_path and prepared.copy_migrated(site.sqlite_path)):
            manage(site, "manage.py", "migrate", "--noinput", "--verbosity", "0")
        if prepared.collected():
            site.env["BENCH_WEB_STATIC_ROOT"] = prepared.collected()
        else:
            manage(site, "manage.py", "collectstatic", "--noinput", "--verbosity", "0")
    return dict(json.loads(manage(site, "-m", "bench.web.people", str(people))))


def start(site: Site) -> None:
    """Start the Daphne processes (as production does: bakery_site/processes.py) and wait until
    each answers /healthz."""
    if site.external:
        for url in site.urls:
            wait_ready(url)
        return
    site.ports = [free_port() for _ in range(site.processes)]
    site.daphnes = [launch(site, i) for i in range(site.processes)]
    site.pids = [p.pid for p in site.daphnes]
    for url, process in zip(site.urls, site.daphnes, strict=True):
        wait_ready(url, process)


def launch(site: Site, i: int) -> subprocess.Popen[bytes]:
    """Start process `i` on its port (beside the one there, if any); it serves on return."""
    pidfile = site.folder / f"daphne-{i}.pid"
    process = processes.launch(
        site.ports[i], pidfile, site.folder / f"daphne-{i}.log", env=site.env
    )
    processes.wait_serving(process, pidfile)
    return process


def roll(site: Site, i: int) -> float:
    """A rolling deploy's step for process `i`: a new process serves on its port, then the old
    one gets SIGTERM and drains (games/live/drain.py). The seconds the old one took to exit."""
    old = site.daphnes[i]
    site.daphnes[i] = launch(site, i)
    site.pids[i] = site.daphnes[i].pid
    seconds = processes.drain(old.pid)
    old.wait()
    return seconds


def wait_ready(url: str, process: subprocess.Popen[bytes] | None = None) -> None:
    """Poll /healthz until it answers 200 (bounded); give up at once if `process`, the one that
    should answer, has exited."""
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise SystemExit(f"The process for {url} exited ({process.returncode}); see its log.")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"The site at {url} did not start; see its log.")


def stop(site: Site) -> None:
    """Stop the Daphne processes this bench started (SIGTERM, then SIGKILL after 10 s)."""
    for process in site.daphnes:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    for process in site.daphnes:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
    site.daphnes = []
    site.pids = []


ERROR_LINES = ("Exception inside application", "Internal Server Error", "ERROR")


def log_errors(site: Site) -> int:
    """Errors the Daphne processes logged (exceptions in consumers, 500s) in this run."""
    count = 0
    for log in site.folder.glob("daphne-*.log"):
        lines = log.read_text(errors="replace").splitlines()
        count += sum(1 for line in lines if line.startswith(ERROR_LINES))
    return count


def cpu_seconds(site: Site) -> list[float]:
    """User + system CPU seconds of each Daphne process so far (from /proc/<pid>/stat)."""
    out = []
    for pid in site.pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            out.append(0.0)
            continue
        fields = stat.rsplit(")", 1)[1].split()
        out.append((int(fields[11]) + int(fields[12])) / TICKS)
    return out


def transactions(site: Site) -> int | None:
    """Committed and rolled-back transactions of the site's database (pg_stat_database)."""
    if not site.database:
        return None
    import psycopg

    with psycopg.connect(site.admin_url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = %s",
            [site.database],
        ).fetchone()
    return int(row[0]) if row else None


def people_moves(site: Site, games: list[int]) -> dict[int, int]:
    """How many moves by people each game's action log holds."""
    if not games:
        return {}
    query = "SELECT game_id, COUNT(*) FROM games_action WHERE user_id IS NOT NULL AND game_id IN "
    query += "(" + ",".join(str(int(g)) for g in games) + ") GROUP BY game_id"
    if site.database:
        import psycopg

        with psycopg.connect(site.env["DATABASE_URL"], autocommit=True) as conn:
            rows = conn.execute(query).fetchall()
    else:
        with sqlite3.connect(site.sqlite_path) as conn:
            rows = conn.execute(query).fetchall()
    return {int(g): int(n) for g, n in rows}


def drop(site: Site) -> None:
    """Remove the throwaway database, its Redis keys and the temp folder."""
    if site.database and site.owned:
        import psycopg
        import redis

        with psycopg.connect(site.admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{site.database}" WITH (FORCE)')
        client = redis.Redis.from_url(site.env["REDIS_URL"])
        for key in client.scan_iter(match=site.env["REDIS_PREFIX"] + "*", count=1000):
            client.delete(key)
        client.close()
    if os.environ.get("BENCH_WEB_KEEP_LOGS") == "1":
        print(f"   Daphne logs kept in {site.folder}")
    else:
        shutil.rmtree(site.folder, ignore_errors=True)


@contextmanager
def running(site: Site) -> Iterator[Site]:
    """Daphne up for the block, down after it."""
    start(site)
    try:
        yield site
    finally:
        stop(site)
