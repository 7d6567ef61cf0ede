"""Logging out stops this browser's notifications: the page's script (static/js/logout.js)
tells the site to forget the browser's push subscription and unsubscribes it, then logs out.
The browser's push service is stood in for (a headless Chromium here has none): its one
registration's subscription records what is done to it in sessionStorage."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.e2e.pages import PATIENCE, sign_up

pytestmark = pytest.mark.e2e

ENDPOINT = "https://fcm.googleapis.com/fcm/send/e2e-leaver"
STAND_IN = """
(() => {
  if (!("serviceWorker" in navigator)) return;
  if (!("PushManager" in window)) window.PushManager = function () {};
  const subscription = {
    endpoint: ENDPOINT,
    toJSON() {
      return { endpoint: this.endpoint, keys: { p256dh: "key", auth: "secret" } };
    },
    async unsubscribe() {
      sessionStorage.setItem("unsubscribed", "yes");
      return true;
    },
  };
  const registration = { pushManager: { getSubscription: async () => subscription } };
  navigator.serviceWorker.getRegistrations = async () => [registration];
})();
""".replace("ENDPOINT", json.dumps(ENDPOINT))


def test_logging_out_unsubscribes_this_browser_and_tells_the_site(
    browser: Any, daphne_site: dict[str, str]
) -> None:
    base = daphne_site["url"]
    context = browser.new_context()
    context.add_init_script(STAND_IN)
    page = context.new_page()
    page.set_default_timeout(PATIENCE)
    sign_up(page, base, "push_leaver")
    told: list[str] = []
    page.on(
        "request",
        lambda request: (
            told.append(request.post_data or "")
            if request.method == "POST" and request.url.endswith("/games/inbox/push/unsubscribe/")
            else None
        ),
    )
    header = page.locator("header.site")
    page.click("header.site .account-menu summary")
    header.get_by_role("button", name="Log out").click()
    header.get_by_role("link", name="Log in").wait_for()
    assert page.evaluate("() => sessionStorage.getItem('unsubscribed')") == "yes"
    assert [json.loads(body)["endpoint"] for body in told] == [ENDPOINT]
    context.close()
