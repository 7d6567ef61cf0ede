"""Steps every browser test takes on the site's pages."""

from __future__ import annotations

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
