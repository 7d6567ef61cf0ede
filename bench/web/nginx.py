"""deploy/nginx.conf run by the machine's nginx in front of a site's own processes: the bench's
restart scenario through the proxy (bench/web/restart.py) and tests/flows/processes/
test_table_routing.py both start it here."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.web.site import ROOT, free_port, wait_ready

NGINX = shutil.which("nginx") or next(
    (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None
)
CONF = ROOT / "deploy" / "nginx.conf"
UPSTREAM = re.compile(r"(\bserver\s+)127\.0\.0\.1:\d+")
LISTEN = re.compile(r"(\blisten\s+)127\.0\.0\.1:\d+")
HTTP_BLOCK = re.compile(r"(?m)^http\s*\{")


def configured(ports: list[int], port: int, logs: Path) -> str:
    """deploy/nginx.conf with these processes' ports behind it, `port` in front, and its access
    log in `logs` (nginx's own default is the system's /var/log/nginx/access.log)."""
    text = CONF.read_text()
    shipped = UPSTREAM.findall(text)
    if len(shipped) != len(ports):
        raise SystemExit(f"deploy/nginx.conf names {len(shipped)} processes; {len(ports)} run.")
    behind = iter(ports)
    text = UPSTREAM.sub(lambda m: f"{m.group(1)}127.0.0.1:{next(behind)}", text)
    text = HTTP_BLOCK.sub(lambda m: f"{m.group(0)}\n    access_log {logs / 'access.log'};", text, 1)
    return LISTEN.sub(lambda m: f"{m.group(1)}127.0.0.1:{port}", text, count=1)


@contextmanager
def in_front(ports: list[int], folder: Path) -> Iterator[str]:
    """nginx with deploy/nginx.conf in front of these ports for the block, its files and logs in
    `folder` (logs/error.log, logs/access.log); its URL once the processes answer through it."""
    if NGINX is None:
        raise SystemExit("nginx is not installed.")
    logs = folder / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    port = free_port()
    (folder / "nginx.conf").write_text(configured(ports, port, logs))
    own = f"daemon off; pid {folder / 'nginx.pid'};"
    with (logs / "error.log").open("ab") as log:
        server = subprocess.Popen(
            [NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", "stderr", "-g", own],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_ready(url, server)
        yield url
    finally:
        server.terminate()
        server.wait(10)
