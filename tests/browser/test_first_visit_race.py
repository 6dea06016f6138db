"""A new browser changes a setting and presses Play at once: the setting's request and the
table's creation each make the browser's first stored session, and the table must be the
player's whichever answer comes back last (the start page sends them one after the other)."""

from __future__ import annotations

import re
import time
from typing import Any


def test_a_setting_changed_just_before_play_does_not_lose_the_table(
    browser: Any, server_url: str
) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    def slow_settings(route: Any) -> None:
        # The remembered setting's answer (and its cookie) arrives late, after the table's.
        if route.request.method == "POST":
            answer = route.fetch()
            time.sleep(1.0)
            route.fulfill(response=answer)
        else:
            route.continue_()

    page.route("**/api/player", slow_settings)
    page.goto(server_url + "/")
    page.evaluate("localStorage.setItem('patience.autoplay', '0')")
    page.click('form[data-game="klondike"] .settings-button')
    page.fill("#klondike-deal", "7")
    page.click('form[data-game="klondike"] button[type=submit]')  # the change, then Play
    page.wait_for_url(re.compile(r"/play/"))
    page.wait_for_selector("svg.board .card", timeout=15_000)
    assert not errors
    page.close()
