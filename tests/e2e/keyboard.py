"""Playing with the keyboard alone (Tab, Enter, Space) and hearing what a screen reader hears: the
table page's live regions (#news, polite; #news-urgent, assertive), as each line is added."""

from __future__ import annotations

from typing import Any

# Every line added to a live region, in order, kept on the page from its first script on (the
# page says the board's news as its scripts start, before a test could look).
HEARING = """
window.heardNews = [];
new MutationObserver(records => {
  for (const record of records) {
    const region = record.target;
    if (!region.id || !region.id.startsWith('news')) continue;
    for (const node of record.addedNodes) {
      window.heardNews.push({urgent: region.id === 'news-urgent', text: node.textContent});
    }
  }
}).observe(document, {childList: true, subtree: true});
"""

TABS_AT_MOST = 400


def heard(page: Any, urgent: bool = False) -> list[str]:
    """What the page's polite (or assertive) live region said so far, line by line."""
    return [
        str(line["text"])
        for line in page.evaluate("() => window.heardNews || []")
        if line["urgent"] == urgent
    ]


def focused_matches(page: Any, selector: str) -> bool:
    return bool(
        page.evaluate(
            "s => !!document.activeElement && document.activeElement.matches(s)", selector
        )
    )


def tab_to(page: Any, selector: str) -> None:
    """Press Tab until the focused element matches the selector (as a person walks the page)."""
    for _ in range(TABS_AT_MOST):
        if focused_matches(page, selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def focus_is_kept(page: Any) -> bool:
    """Whether something on the page has focus (not the page itself, after a board swap)."""
    return bool(
        page.evaluate("() => !!document.activeElement && document.activeElement !== document.body")
    )
