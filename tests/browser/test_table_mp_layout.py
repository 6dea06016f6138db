"""Shared tables on a phone (390x844) in chromium: readable headings, and no page (a Leopard
table of four, a Double Solitaire table, the create form) scrolls sideways."""

from __future__ import annotations

from typing import Any

PHONE = {"width": 390, "height": 844}


def no_sideways_scroll(page: Any) -> None:
    width, client = page.evaluate(
        "() => [document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]"
    )
    assert width <= client, (width, client)


def open_table(browser: Any, server_url: str, body: dict[str, Any]) -> Any:
    """A phone's page of a new table, seat 0 joined (so the hand and the board show)."""
    page = browser.new_page(viewport=PHONE)
    made = page.request.post(f"{server_url}/api/shared", data=body).json()
    page.goto(server_url + made["url"])
    page.fill("#mp-name", "Ann")
    page.click('button[data-join="0"]')
    page.wait_for_selector("[data-join]", state="detached")
    page.wait_for_selector('[data-testid="board"] svg')
    return page


def test_tables_fit_a_phone(browser: Any, server_url: str) -> None:
    page = open_table(
        browser,
        server_url,
        {
            "game": "leopard",
            "options": {"players": 4},
            "seats": ["open", "greedy", "greedy", "greedy"],
            "deal": 5,
        },
    )
    assert page.text_content("h1") == "Leopard · 4 players · 8 deals a match"
    assert page.title() == "Patience: Leopard · 4 players · 8 deals a match"
    no_sideways_scroll(page)
    page.close()

    page = open_table(
        browser, server_url, {"game": "double-solitaire", "seats": ["open", "random"], "deal": 5}
    )
    assert page.text_content("h1") == "Double Solitaire · 1 pass through the stock · automatic stop"
    no_sideways_scroll(page)
    page.close()

    # The form names its options in words, with the key the API takes beside.
    page = browser.new_page(viewport=PHONE)
    page.goto(server_url + "/tables")
    page.select_option("#mp-game", "double-solitaire")
    label = page.text_content('label[for="mp-double-solitaire-auto_stop"]') or ""
    assert label.startswith("Call stop automatically")
    assert "auto_stop" in label
    no_sideways_scroll(page)
    page.select_option("#mp-game", "leopard")
    assert (page.text_content('label[for="mp-leopard-deals"]') or "").startswith("Deals in a match")
    no_sideways_scroll(page)
    page.close()
