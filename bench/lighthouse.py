"""make lighthouse: Lighthouse's mobile audits of eleven pages of the site in English, and of the
lobby, a live table and a tournament's page in English, French and German, and whether they pass.

The site runs as `make run` runs it (DEBUG=0, collected static files, SQLite, one Daphne process
on a free port; bench/web/site.py) with make run's demo data. One person is made and logged in
(a session, as bench-web makes them); that person starts a game against bots of each kind (the
lobby's quick game: a relaxed table the person sits at), a tutorial and a Swiss tournament. For
the pages in French and German the person picks the language first, as the menu's picker does
(saved on their account, which comes before any cookie or the browser's). Lighthouse 12.2.3
(tools/lighthouse/, installed by `make lighthouse` with npm) runs its mobile preset on each page
in Debian's Chromium, the person's session cookie in its jar.

Prints one line a page (performance, accessibility, best practices, SEO, cumulative layout
shift) and the audits that failed, and exits non-zero when accessibility, best practices or SEO
is under 100 on any page, or a live table's layout shift is 0.1 or more. Not part of `make test`:
each page takes Lighthouse 15-30 s here. LIGHTHOUSE_REPORTS=<folder> keeps the JSON reports.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import httpx
from websockets.sync.client import connect

from bench.web import site as sites

ROOT = Path(__file__).resolve().parents[1]
LIGHTHOUSE = ROOT / "tools" / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
CHROME = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
CHROME_FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-gpu",
]
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
MUST_BE_WHOLE = ["accessibility", "best-practices", "seo"]  # 100 on every page
TRIES = 3
LIVE_CLS_LIMIT = 0.1  # Lighthouse's own line between a good and a poor layout shift


@dataclass
class Page:
    """A page to audit: what it is, its path, and whether it is a live table."""

    label: str
    path: str
    live_table: bool = False
    language: str = "en"


@dataclass
class Scores:
    """What Lighthouse said of one page."""

    scores: dict[str, int]
    cls: float
    failed: list[str]


def post(client: httpx.Client, path: str, data: dict[str, str]) -> str:
    """Post a form as the page would (its CSRF token); the path the site sends the person to."""
    token = client.cookies.get("csrftoken") or ""
    answer = client.post(
        path, data={"csrfmiddlewaretoken": token, **data}, headers={"Referer": str(client.base_url)}
    )
    if answer.status_code != 302:
        raise SystemExit(f"POST {path} answered {answer.status_code}, not a redirect.")
    return str(answer.headers["location"])


def wait_for_my_move(client: httpx.Client, table: str) -> None:
    """Wait until the table waits on the person (bots seated before them have moved), so that
    no bot's move redraws the board while Lighthouse watches it arrive."""
    deadline = time.monotonic() + sites.READY_SECONDS
    while 'data-your-move="yes"' not in client.get(table + "board/").text:
        if time.monotonic() > deadline:
            raise SystemExit(f"The table at {table} never waited on the person.")
        time.sleep(0.2)


# A Swiss of one round at the relaxed pace, starting in a minute, as the tournaments page's form
# posts it (its other fields as the form offers them).
SWISS = {
    "name": "Evening Swiss",
    "kind": "midnight-bakery",
    "format": "swiss",
    "pace": "relaxed",
    "seats": "2",
    "rounds": "1",
    "starts_in": "1",
    "bye": "points",
    "streak_bonus": "2",
    "games_min": "0",
    "age_min_days": "0",
}
LANGUAGES = ("fr", "de")  # beside English: the lobby, a live table and a tournament in each


def person_pages(base: str, session: str) -> list[Page]:
    """The eleven pages, the person's tables made for them: a game against bots of each kind and
    a tutorial; then a tournament's page, and the lobby, a live table and the tournament in each
    other language."""
    with httpx.Client(base_url=base, timeout=30) as client:
        client.cookies.set("sessionid", session)
        lobby = client.get("/")
        lobby.raise_for_status()
        mb = post(client, "/games/quick/", {"kind": "midnight-bakery"})
        ck = post(client, "/games/quick/", {"kind": "cakehalla"})
        tutorial = post(client, "/games/learn/midnight-bakery/", {})
        tournament = post(client, "/tournaments/new/", SWISS)
        for table in (mb, ck):
            wait_for_my_move(client, table)
        history = client.get("/games/history/").text
    replay = re.search(r'href="(/games/\d+/replay/)"', history)
    if replay is None:
        raise SystemExit("History lists no finished game to replay: is the demo data there?")
    return [
        Page("lobby", "/"),
        Page("live table, Midnight Bakery", mb, live_table=True),
        Page("live table, Cakehalla", ck, live_table=True),
        Page("replay", replay.group(1)),
        Page("history", "/games/history/"),
        Page("leaderboard", "/leaderboards/midnight-bakery/"),
        Page("stats", "/stats/"),
        Page("rules", "/games/rules/midnight-bakery/"),
        Page("tutorial", tutorial),
        Page("profile", "/u/demo_brioche/"),
        Page("settings", "/accounts/settings/"),
        Page("tournament", tournament),
        *[
            page
            for language in LANGUAGES
            for page in (
                Page(f"lobby ({language})", "/", language=language),
                Page(f"live table, Midnight Bakery ({language})", mb, True, language),
                Page(f"tournament ({language})", tournament, language=language),
            )
        ],
    ]


@contextmanager
def chromium(session: str, base: str) -> Iterator[int]:
    """Debian's Chromium, headless, with the person's session cookie in its jar; its debugging
    port. A cookie, not --extra-headers: the first answer's Set-Cookie
    (csrftoken) would replace a Cookie header on every later request (the socket, fetches), and
    the page would lose its person. Lighthouse's storage reset leaves cookies alone."""
    profile = Path(tempfile.mkdtemp(prefix="lighthouse-chromium-"))
    port = sites.free_port()
    flags = [f"--remote-debugging-port={port}", f"--user-data-dir={profile}", *CHROME_FLAGS]
    process = subprocess.Popen(
        [CHROME, *flags, "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        set_cookie(port, "sessionid", session, urlsplit(base).hostname or "127.0.0.1")
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(profile, ignore_errors=True)


def set_cookie(port: int, name: str, value: str, host: str) -> None:
    """Put a cookie in the browser's jar over the DevTools protocol (once it answers)."""
    deadline = time.monotonic() + sites.READY_SECONDS
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/version") as answer:
                socket_url = json.loads(answer.read())["webSocketDebuggerUrl"]
            break
        except OSError:
            if time.monotonic() > deadline:
                raise SystemExit("Chromium did not open its debugging port.") from None
            time.sleep(0.2)
    cookie = {"name": name, "value": value, "domain": host, "path": "/", "httpOnly": True}
    with connect(socket_url, max_size=None) as cdp:
        cdp.send(
            json.dumps({"id": 1, "method": "Storage.setCookies", "params": {"cookies": [cookie]}})
        )
        answer = json.loads(cdp.recv())
    if "error" in answer:
        raise SystemExit(f"Chromium refused the session cookie: {answer['error']}")


def choose_language(base: str, session: str, language: str) -> None:
    """The person picks a language in the menu (set_language: saved on their account)."""
    with httpx.Client(base_url=base, timeout=30) as client:
        client.cookies.set("sessionid", session)
        client.get("/").raise_for_status()  # its CSRF cookie
        post(client, "/accounts/language/", {"language": language})
        if f'<html lang="{language}"' not in client.get("/").text:
            raise SystemExit(f"The site did not switch the person's pages to {language}.")


def audit(url: str, session: str, out: Path) -> Scores:
    """Run Lighthouse's mobile preset on one page as the person, each try in a fresh Chromium.
    A run that fails is tried again (Lighthouse itself asks that of a trace it could not read,
    NO_NAVSTART, which a loaded machine gives now and then)."""
    command = [
        str(LIGHTHOUSE),
        url,
        "--quiet",
        "--output=json",
        f"--output-path={out}",
        f"--only-categories={','.join(CATEGORIES)}",
    ]
    for _ in range(TRIES):
        out.unlink(missing_ok=True)
        with chromium(session, url) as port:
            done = subprocess.run(
                [*command, f"--port={port}"], capture_output=True, text=True, check=False
            )
        if done.returncode == 0 and out.exists():
            return read_report(json.loads(out.read_text()))
    raise SystemExit(f"Lighthouse failed on {url} {TRIES} times:\n{done.stderr[-3000:]}")


def read_report(report: dict) -> Scores:
    """The categories' scores (0-100), the layout shift, and each failed audit in a line."""
    categories = report["categories"]
    audits = report["audits"]
    scores = {c: round((categories[c]["score"] or 0) * 100) for c in CATEGORIES}
    failed = []
    for name in MUST_BE_WHOLE:
        for ref in categories[name]["auditRefs"]:
            found = audits[ref["id"]]
            if ref["weight"] and found["score"] is not None and found["score"] < 1:
                failed.append(f"{name}: {ref['id']}: {found['title']}{where(found)}")
    cls = float(audits["cumulative-layout-shift"]["numericValue"])
    return Scores(scores, cls, failed)


def where(found: dict) -> str:
    """The first few elements an audit names (their selectors), to find what to mend."""
    items = (found.get("details") or {}).get("items") or []
    spots = []
    for item in items[:4]:
        node = item.get("node") or {}
        spots.append(node.get("selector") or item.get("url") or item.get("description") or "")
    return f" ({'; '.join(s for s in spots if s)})" if spots else ""


def table(rows: list[tuple[Page, Scores]]) -> str:
    """The scores as a Markdown table, a row a page."""
    lines = [
        "| page | performance | accessibility | best practices | SEO | CLS |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for page, got in rows:
        s = got.scores
        lines.append(
            f"| {page.label} | {s['performance']} | {s['accessibility']} | "
            f"{s['best-practices']} | {s['seo']} | {got.cls:.3f} |"
        )
    return "\n".join(lines)


def shortfalls(rows: list[tuple[Page, Scores]]) -> list[str]:
    """What keeps the run from passing, a line each."""
    out = []
    for page, got in rows:
        for name in MUST_BE_WHOLE:
            if got.scores[name] < 100:
                out.append(f"{page.label}: {name} {got.scores[name]}")
        out += [f"{page.label}: {line}" for line in got.failed]
        if page.live_table and got.cls >= LIVE_CLS_LIMIT:
            out.append(f"{page.label}: cumulative layout shift {got.cls:.3f} (< 0.1 wanted)")
    return out


def main() -> int:
    """Start the site, make the pages, audit each; non-zero if any falls short."""
    if not LIGHTHOUSE.exists():
        raise SystemExit("Lighthouse is not installed: run `make lighthouse` (npm ci in tools/).")
    site = sites.sqlite_site()
    # The person opens their tables only when Lighthouse gets to them: no bot takes their seat.
    site.env["RELAXED_ABSENCE_SECONDS"] = "3600"
    keep = os.environ.get("LIGHTHOUSE_REPORTS", "")
    reports = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="lighthouse-"))
    reports.mkdir(parents=True, exist_ok=True)
    try:
        session = sites.prepare(site, 1)["bench-0"]
        print("Demo data (about a minute)...", flush=True)
        sites.manage(site, "manage.py", "demo", "--games", "4", "--seed", "7")
        with sites.running(site):
            base = site.urls[0]
            rows = []
            language = "en"
            for i, page in enumerate(person_pages(base, session)):
                if page.language != language:
                    choose_language(base, session, page.language)
                    language = page.language
                got = audit(base + page.path, session, reports / f"{i:02d}.json")
                print(f"   {page.label}: {got.scores} CLS {got.cls:.3f}", flush=True)
                rows.append((page, got))
        errors = sites.log_errors(site)
    finally:
        sites.drop(site)
        if not keep:
            shutil.rmtree(reports, ignore_errors=True)
    print()
    print(table(rows))
    short = shortfalls(rows)
    if errors:
        short.append(f"the site logged {errors} error(s)")
    print()
    print("\n".join(["Short of the mark:", *short]) if short else "Every page passes.")
    return 1 if short else 0


if __name__ == "__main__":
    sys.exit(main())
