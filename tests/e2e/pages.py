"""Steps every browser test takes on the site's pages."""

from __future__ import annotations

import re
from typing import Any

PASSWORD = "midnight-oven-2024"


def sign_up(page: Any, base: str, name: str) -> None:
    """Create an account through the sign-up form; the site logs it in and shows the lobby."""
    page.goto(base + "/accounts/signup/")
    page.fill("#id_username", name)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(base + "/")


def version(page: Any) -> str:
    """The table version the page shows."""
    return str(page.locator("#board-version").input_value())


def open_table(page: Any, base: str, kind: str, seats: int) -> str:
    """Open a new table of that game through the new-table form; its URL."""
    page.goto(base + "/games/new/")
    page.select_option("#id_kind", kind)
    page.fill("#id_capacity", str(seats))
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    return str(page.url)


def take_a_seat(page: Any, table_url: str) -> None:
    """Sit down at an open table through its page."""
    page.goto(table_url)
    page.get_by_role("button", name="Take a seat").click()
    page.get_by_role("button", name="Leave the table").wait_for()


def errors_seen(page: Any) -> list[str]:
    """Collect every failed answer (4xx, 5xx) the page gets from here on; the list fills live."""
    failed: list[str] = []
    page.on(
        "response",
        lambda r: (
            failed.append(f"{r.status} {r.request.method} {r.url}") if r.status >= 400 else None
        ),
    )
    return failed
