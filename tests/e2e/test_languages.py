"""A German person on a phone: the chrome's pages in German (the longest words) fit 360 and 390 px
with nothing scrolling sideways, the language menu included; and the menu's picker switches the
language with one tap."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.pages import PATIENCE, person, sign_up, version
from tests.e2e.test_phone_pages import PHONES, too_wide, widest

pytestmark = pytest.mark.e2e

SIGNED_OUT = [
    "/",
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password/reset/",
    "/accounts/password/reset/sent/",
    "/games/history/",
    "/leaderboards/",
    "/stats/",
    "/games/987654/",  # the site's own not-found page
]
SIGNED_IN = [
    "/",
    "/accounts/settings/",
    "/accounts/password/",
    "/accounts/settings/delete/",
    "/games/inbox/",
    "/games/friends/",
    "/games/history/",
    "/leaderboards/",
    "/leaderboards/midnight-bakery/",
    "/leaderboards/cakehalla/",
]


@pytest.mark.parametrize("phone", PHONES, ids=["360", "390"])
def test_a_german_persons_pages_fit_a_phone(
    browser: Any, daphne_site: dict[str, str], artifacts: Any, phone: dict[str, int]
) -> None:
    base = daphne_site["url"]
    context = browser.new_context(viewport=phone, is_mobile=True, has_touch=True, locale="de-DE")
    page = context.new_page()
    page.set_default_timeout(PATIENCE)
    wide = {}
    for path in SIGNED_OUT:
        page.goto(base + path)
        assert page.locator("html").get_attribute("lang") == "de", path
        if too_wide(page):
            wide[f"{path} (signed out)"] = widest(page)
    name = f"hildegard{phone['width']}"
    sign_up(page, base, name)
    for path in [*SIGNED_IN, f"/u/{name}/"]:
        page.goto(base + path)
        page.wait_for_load_state("load")
        assert page.locator("html").get_attribute("lang") == "de", path
        if too_wide(page):
            wide[path] = widest(page)
    page.goto(base + "/accounts/settings/")
    page.locator("details.language-menu > summary").click()
    page.locator("details.language-menu button[value=de]").wait_for(state="visible")
    if too_wide(page):
        wide["the language menu, open"] = widest(page)
    page.screenshot(path=str(artifacts / f"settings-de-{phone['width']}.png"), full_page=True)
    assert wide == {}, f"German pages wider than a {phone['width']} px phone: {wide}"
    context.close()


def test_the_picker_switches_language_with_one_tap_and_stays(
    browser: Any, daphne_site: dict[str, str]
) -> None:
    base = daphne_site["url"]
    context = browser.new_context(viewport=PHONES[0], is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(PATIENCE)
    page.goto(base + "/leaderboards/")
    assert page.locator("h1").inner_text() == "Leaderboards"
    page.locator("details.language-menu > summary").click()
    page.locator("details.language-menu button[value=fr]").click()
    page.wait_for_function("() => document.documentElement.lang === 'fr'")
    assert page.url == base + "/leaderboards/"  # back on the same page
    assert page.locator("h1").inner_text() == "Palmarès"
    page.goto(base + "/games/history/")
    assert page.locator("h1").inner_text() == "Parties terminées"
    context.close()


def test_a_german_and_a_french_baker_at_one_table_each_read_their_own_words(
    browser: Any, daphne_site: dict[str, str]
) -> None:
    """One table, two languages: each board (the first paint and every push after it, on the
    socket) in its person's own language, from the browser's."""
    base = daphne_site["url"]
    pages = [
        person(browser, base, name, viewport={"width": 1280, "height": 900}, locale=locale)
        for name, locale in (("hanna", "de-DE"), ("amelie", "fr-FR"))
    ]
    german, french = pages
    german.goto(base + "/games/new/")
    german.select_option("#id_kind", "midnight-bakery")
    german.fill("#id_capacity", "2")
    german.click("main button[type=submit]")
    german.wait_for_url(re.compile(r".*/games/\d+/$"))
    table = german.url
    french.goto(table)
    french.get_by_role("button", name="S\u2019asseoir").click()
    french.get_by_role("button", name="Quitter la table").wait_for()
    german.get_by_role("button", name="Die Nacht beginnen").click()  # pushed to her on the socket
    for page in pages:
        page.wait_for_function("() => window.bakehouseLive === true")
    german.get_by_role("heading", name="Dein Blech").wait_for()
    french.get_by_role("heading", name="Votre plaque").wait_for()  # a push: the start
    assert french.get_by_text("Dein Blech").count() == 0
    assert german.get_by_text("Votre plaque").count() == 0
    before = version(german)
    french.locator("#batch-form button.card").first.click()
    german.wait_for_function(
        "v => Number(document.getElementById('board-version').value) > Number(v)", arg=before
    )
    assert "Warten auf dich" in german.locator("#region-status").inner_text()
    french.get_by_text("Verrouillé. En attente des autres.").wait_for()
    for page in pages:
        page.context.close()
