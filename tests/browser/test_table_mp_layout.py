"""Shared tables on a phone (390x844) in chromium: readable headings, and no page (a Leopard
table of four, a Double Solitaire table, the create form) scrolls sideways."""

from __future__ import annotations

from typing import Any

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

#: The smallest text on the board's drawings in CSS pixels: the titles, the empty piles'
#: labels, the counts and the corner indices (not a face card's middle letter, a picture).
SMALLEST_TEXT = """() => Math.min(
  ...[...document.querySelectorAll('[data-testid="board"] svg text')]
  .filter((node) => !node.parentElement.matches("g.card") && node.textContent.trim())
  .map((node) => {
    const matrix = node.getScreenCTM();
    return parseFloat(getComputedStyle(node).fontSize) * Math.hypot(matrix.a, matrix.b);
  }))"""


def no_sideways_scroll(page: Any) -> None:
    width, client = page.evaluate(
        "() => [document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]"
    )
    assert width <= client, (width, client)


def open_table(
    browser: Any,
    server_url: str,
    body: dict[str, Any],
    viewport: dict[str, int] = PHONE,
    name: str = "Ann",
) -> Any:
    """A page (a phone's by default) of a new table, seat 0 joined as ``name`` (so the hand and
    the board show)."""
    page = browser.new_page(viewport=viewport)
    made = page.request.post(f"{server_url}/api/shared", data=body).json()
    page.goto(server_url + made["url"])
    page.fill("#mp-name", name)
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


def test_double_solitaire_fits_the_screen(browser: Any, server_url: str) -> None:
    body = {"game": "double-solitaire", "seats": ["open", "random"], "deal": 5}
    # A desktop: the whole board, the player's own row (at the bottom) included, is in view
    # without scrolling, and its texts are at least as large as on a one-player table.
    page = open_table(browser, server_url, body, viewport=DESKTOP)
    bottom = page.evaluate(
        """() => Math.max(...[...document.querySelectorAll('[data-pile^="a"]')]
          .map((node) => node.getBoundingClientRect().bottom))"""
    )
    assert bottom <= DESKTOP["height"], bottom
    assert page.locator('text.mp-row-title[data-seat="0"]').bounding_box()["y"] > 0
    assert page.evaluate(SMALLEST_TEXT) >= 12
    page.close()
    # A phone: eight columns, every label, count and corner index readable, nothing sideways.
    page = open_table(browser, server_url, body)
    assert page.evaluate(SMALLEST_TEXT) >= 12
    no_sideways_scroll(page)
    page.close()


def seated(browser: Any, server_url: str, body: dict[str, Any], names: list[str]) -> list[Any]:
    """Phones' pages of a new table whose seats are all taken by people of ``names`` (each in a
    browser context of its own, as each keeps its seat token); the first page is seat 0's."""
    pages = [browser.new_context(viewport=PHONE).new_page() for _ in names]
    made = pages[0].request.post(f"{server_url}/api/shared", data=body).json()
    for seat, (page, name) in enumerate(zip(pages, names, strict=True)):
        page.goto(server_url + made["url"])
        page.fill("#mp-name", name)
        page.click(f'button[data-join="{seat}"]')
        page.wait_for_selector("[data-join]", state="detached")
    pages[0].wait_for_selector('[data-testid="board"] svg')
    pages[0].wait_for_selector('[data-testid="scores"], svg.mp-ds')
    return pages


def test_long_names_fit_a_phone(browser: Any, server_url: str) -> None:
    # Names of 40 letters without a space (the longest allowed) wrap: the seat chips, the facts,
    # the squares' captions and the scores table keep to the phone's width.
    names = [letter * 40 for letter in "ABCD"]
    body = {"game": "leopard", "options": {"players": 4}, "seats": ["open"] * 4, "deal": 5}
    pages = seated(browser, server_url, body, names)
    page = pages[0]
    assert names[3] in (page.text_content('[data-testid="scores"]') or "")
    no_sideways_scroll(page)
    for other in pages:
        other.context.close()
    body = {"game": "double-solitaire", "seats": ["open", "open"], "deal": 5}
    pages = seated(browser, server_url, body, names[:2])
    page = pages[0]
    no_sideways_scroll(page)
    # The rows' titles wrap inside the board.
    board = page.locator('[data-testid="board"] svg').bounding_box()
    for title in page.locator("text.mp-row-title").all():
        box = title.bounding_box()
        assert box["x"] >= board["x"]
        assert box["x"] + box["width"] <= board["x"] + board["width"]
    assert page.evaluate(SMALLEST_TEXT) >= 12
    for other in pages:
        other.context.close()


def test_leopard_fits_a_desktop(browser: Any, server_url: str) -> None:
    # Four players at 1280x800: the hand and both squares in view without scrolling, the cards
    # still readable (a corner index of at least 14 px).
    body = {
        "game": "leopard",
        "options": {"players": 4},
        "seats": ["open", "greedy", "greedy", "greedy"],
        "deal": 5,
    }
    page = open_table(browser, server_url, body, viewport=DESKTOP)
    bottom = page.evaluate(
        """() => Math.max(...[...document.querySelectorAll("svg.mp-hand, svg.mp-square")]
          .map((node) => node.getBoundingClientRect().bottom))"""
    )
    assert bottom <= DESKTOP["height"], bottom
    assert page.evaluate(SMALLEST_TEXT) >= 14
    no_sideways_scroll(page)
    page.close()
