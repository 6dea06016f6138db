"""End to end in chromium: how the table looks. A covered face-up card keeps its rank and suit in
view, a Spider table mid-game fits a desktop window, and on a phone the games of many columns
wrap so that their corner indices and counts stay readable."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

import patience

CARD = "svg.board .card"

# For every face-up card covered by the next card of its pile (below it, or to its right in a
# waste fanned right): where its top corner's suit pip and rank baseline reach, and where the
# covering card starts (CSS pixels).
COVERED = """() => {
  const svg = document.querySelector("svg.board");
  const scale = svg.getScreenCTM().a;
  const out = [];
  for (const pile of svg.querySelectorAll("g.pile")) {
    const cards = [...pile.querySelectorAll(".card")];
    for (let i = 0; i + 1 < cards.length; i += 1) {
      const card = cards[i];
      if (!card.dataset.card) continue;
      const here = card.getBoundingClientRect();
      const next = cards[i + 1].getBoundingClientRect();
      const down = next.top > here.top + 0.5;
      const suit = card.querySelector(".index:not(.index-bottom) .index-suit");
      const rank = card.querySelector(".index:not(.index-bottom) .index-rank");
      const box = suit.getBoundingClientRect();
      const rankBox = rank.getBoundingClientRect();
      out.push({card: card.dataset.card, down, top: here.top, left: here.left,
        nextTop: next.top, nextLeft: next.left, suitTop: box.top, suitBottom: box.bottom,
        suitLeft: box.left, suitRight: box.right, suitWidth: box.width,
        rankRight: rankBox.right,
        rankBaseline: here.top + parseFloat(rank.getAttribute("y")) * scale});
    }
  }
  return out;
}"""


def check_covered(covered: list[dict[str, Any]]) -> None:
    """The whole pip, and the rank (down to its baseline, or up to its right edge), lie outside
    the covering card."""
    for card in covered:
        assert card["suitWidth"] > 8, card
        if card["down"]:
            assert card["top"] < card["suitTop"] < card["suitBottom"] <= card["nextTop"] + 0.5
            assert card["rankBaseline"] <= card["nextTop"] + 0.5, card
        else:
            assert card["left"] < card["suitLeft"] < card["suitRight"] <= card["nextLeft"] + 0.5
            assert card["rankRight"] <= card["nextLeft"] + 0.5, card


# The rank's and the count's font sizes on screen (CSS pixels), and the page's scroll width.
SIZES = """() => {
  const svg = document.querySelector("svg.board");
  const scale = svg.getScreenCTM().a;
  const px = (node) => parseFloat(getComputedStyle(node).fontSize) * scale;
  const ranks = [...svg.querySelectorAll(".index-rank")].map(px);
  const counts = [...svg.querySelectorAll(".count")].map(px);
  return {rank: Math.min(...ranks), count: counts.length ? Math.min(...counts) : null,
    scrollWidth: document.documentElement.scrollWidth,
    right: svg.getBoundingClientRect().right};
}"""


@pytest.fixture
def page_errors() -> Iterator[list[str]]:
    errors: list[str] = []
    yield errors
    assert errors == []


def open_table(
    browser: Any,
    server_url: str,
    errors: list[str],
    game: str,
    options: dict[str, Any],
    deal: int,
    moves: int,
    size: tuple[int, int],
) -> tuple[Any, patience.Game]:
    """A table of ``game`` after ``moves`` card moves (chosen by a fixed rule), shown in a page of
    ``size``."""
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    page.on("pageerror", lambda error: errors.append(str(error)))
    response = page.request.post(
        f"{server_url}/api/tables", data={"game": game, "options": options, "deal": deal}
    )
    assert response.status == 201, response.text()
    table_id = response.json()["table"]
    played = patience.new(game, deal=deal, **options)
    for i in range(moves):
        legal = [move for move in played.legal_moves() if not move.is_action]
        legal = legal or played.legal_moves()
        move = legal[i * 7 % len(legal)]
        played.push(move)
        answer = page.request.post(
            f"{server_url}/api/tables/{table_id}", data={"command": "move", "move": move.text()}
        )
        assert answer.ok, answer.text()
    page.goto(f"{server_url}/play/{table_id}")
    page.wait_for_selector(CARD)
    return page, played


def test_covered_cards_show_rank_and_suit_and_spider_fits_a_desktop(
    browser: Any, server_url: str, page_errors: list[str]
) -> None:
    page, _ = open_table(
        browser, server_url, page_errors, "spider", {"suits": 4}, 3, 60, (1280, 800)
    )
    covered = page.evaluate(COVERED)
    assert len(covered) >= 15  # runs and face-up cards under others, in several piles
    check_covered(covered)
    sizes = page.evaluate(SIZES)
    assert sizes["rank"] >= 16
    # The table fits the window: no scrolling down to reach a pile's top card.
    assert (
        page.locator("svg.board").bounding_box()["y"]
        + page.locator("svg.board").bounding_box()["height"]
        <= 800
    )
    page.close()


def test_the_board_still_fits_once_the_end_banner_shows(
    browser: Any, server_url: str, page_errors: list[str]
) -> None:
    page, _ = open_table(
        browser, server_url, page_errors, "spider", {"suits": 4}, 3, 60, (1280, 800)
    )
    table_id = page.url.rsplit("/", 1)[-1]
    answer = page.request.post(f"{server_url}/api/tables/{table_id}", data={"command": "resign"})
    assert answer.ok, answer.text()
    page.reload()
    expect(page.locator(".banner")).to_be_visible()
    board = page.locator("svg.board").bounding_box()
    assert board["y"] + board["height"] <= 800
    # The options in words, the notation of -o as the tooltip.
    facts = page.locator(".facts")
    expect(facts).to_contain_text("default options")
    page.close()


def test_a_waste_fanned_right_shows_rank_and_suit(
    browser: Any, server_url: str, page_errors: list[str]
) -> None:
    page, played = open_table(browser, server_url, page_errors, "klondike", {}, 3, 40, (1280, 800))
    assert len(played.view(0)["piles"]["waste"]["up"]) >= 3
    covered = [card for card in page.evaluate(COVERED) if not card["down"]]
    assert len(covered) == 2
    check_covered(covered)
    page.close()


@pytest.mark.parametrize(
    ("game", "options"),
    [("accordion", {"dealing": "all"}), ("leonis-own", {}), ("spider", {"suits": 4})],
)
def test_a_phone_shows_readable_indices_and_counts(
    browser: Any, server_url: str, page_errors: list[str], game: str, options: dict[str, Any]
) -> None:
    page, _ = open_table(browser, server_url, page_errors, game, options, 3, 0, (390, 844))
    sizes = page.evaluate(SIZES)
    assert sizes["scrollWidth"] <= 390
    assert sizes["right"] <= 390
    assert sizes["rank"] >= 12, sizes
    assert sizes["count"] is None or sizes["count"] >= 12, sizes
    slots = page.eval_on_selector_all(
        "svg.board g.pile",
        "gs => Object.fromEntries(gs.map(g => { const b = g.getBBox();"
        " return [g.dataset.pile, {x: b.x, y: b.y}]; }))",
    )
    if game == "accordion":
        # All 52 cards dealt: seven to a row, and no empty stock row above them.
        assert slots["t8"]["x"] == slots["t1"]["x"]
        assert slots["t8"]["y"] > slots["t1"]["y"]
        assert "stock" not in slots
        assert min(slot["y"] for slot in slots.values()) == slots["t1"]["y"]
    if game == "leonis-own":
        # Piles 1-12 in two rows; pile 13 still spread (each of its cards seen).
        assert slots["t7"]["x"] == slots["t1"]["x"]
        assert slots["t7"]["y"] > slots["t1"]["y"]
        ys = page.eval_on_selector_all(
            f'{CARD}[data-pile="t13"]', "ns => ns.map(n => n.getBoundingClientRect().top)"
        )
        assert len(ys) == 6
        assert len(set(ys)) == 6
        assert {"exiles", "hand"} <= set(slots)
    page.close()
