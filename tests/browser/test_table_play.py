"""End to end in chromium: the one-player table as players expect it (issue 21, points 1-3).

Motion (cards slide, are dealt and turn over, a won game is celebrated; all of it checked by
its end state, and switched off by reduced motion), a stable table (the card size does not
change as piles grow; face-down cards too thin to count become a stack with their number), and
forgiving play (automatic safe moves that Undo takes back, Give up, the hint cleared when the
table changes, refusals in words with card symbols, the right words at an empty stock)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

import patience
from conftest import LiveServer
from patience import record

CARD = "svg.board .card"
GOLDEN = Path(__file__).resolve().parent.parent / "golden"

# Every animation of the page, and the copies of moving cards still on the board.
RUNNING = "() => document.getAnimations().length"
COPIES = "() => document.querySelectorAll('svg.board .ghost').length"
# Counts the copies of moving cards put on the board from now on (window.copiesMade), however
# short their flight on a busy machine.
WATCH_COPIES = """() => {
  window.copiesMade = 0;
  new MutationObserver((changes) => {
    for (const change of changes) {
      for (const node of change.addedNodes) {
        if (node.classList?.contains("ghost")) window.copiesMade += 1;
      }
    }
  }).observe(document, { childList: true, subtree: true });
}"""


def first_move_hinter(game: patience.Game) -> dict[str, Any]:
    """A stand-in for the solver: the first legal move, with a made-up chance."""
    moves = game.legal_moves()
    move = moves[0] if moves else None
    return {
        "move": move.text() if move else None,
        "move_json": move.to_json() if move else None,
        "chance": 0.5,
        "samples": 10,
        "exact": False,
    }


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(
        tmp_path_factory.mktemp("play") / "store.sqlite3",
        hinter=first_move_hinter,
        worker_processes=False,  # the stand-in hinter is not pickled to a worker
    ).start()
    yield live
    live.stop()


@pytest.fixture
def errors() -> Iterator[list[str]]:
    found: list[str] = []
    yield found
    assert found == []


def new_page(
    browser: Any,
    errors: list[str],
    size: tuple[int, int] = (1280, 800),
    autoplay: bool = True,
    reduced: bool = False,
) -> Any:
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    page.on("pageerror", lambda error: errors.append(str(error)))
    if not autoplay:
        page.add_init_script("localStorage.setItem('patience.autoplay', '0')")
    if reduced:
        page.emulate_media(reduced_motion="reduce")
    return page


def open_table(
    page: Any, server: LiveServer, game: str, deal: int, options: dict[str, Any] | None = None
) -> str:
    response = page.request.post(
        f"{server.url}/api/tables", data={"game": game, "options": options or {}, "deal": deal}
    )
    assert response.status == 201, response.text()
    table_id: str = response.json()["table"]
    page.goto(f"{server.url}/play/{table_id}")
    page.wait_for_selector('[data-testid="connection"][data-status="live"]')
    return table_id


def card(page: Any, pile: str, name: str) -> Any:
    return page.locator(f'{CARD}[data-pile="{pile}"][data-card="{name}"]')


def wait_until(page: Any, script: str, timeout: float = 10.0) -> None:
    """Polls ``script`` until it is true (page.wait_for_function evaluates a string, which the
    pages' Content-Security-Policy refuses)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(script):
        assert time.monotonic() < deadline, f"still false after {timeout} s: {script}"
        page.wait_for_timeout(50)


def settled(page: Any) -> None:
    """Waits until no animation runs and no moving copy is left on the board.

    A copy is removed by its animation's finish event, which the browser fires a moment after
    the animation has left ``document.getAnimations()``: both are waited for, so a copy that is
    never removed still fails the wait."""
    wait_until(page, f"({RUNNING})() === 0 && ({COPIES})() === 0")


def moves_shown(page: Any, count: int) -> None:
    # The page animates every state it receives in turn; after a burst of moves posted
    # through the API a loaded machine may take longer than the default 5 s to catch up.
    expect(page.locator('[data-testid="moves"]')).to_have_text(str(count), timeout=20_000)


# -- 1. motion -------------------------------------------------------------------------------


def test_cards_are_dealt_slide_and_end_where_they_go(
    browser: Any, server: LiveServer, errors: list[str]
) -> None:
    page = new_page(browser, errors, autoplay=False)
    # The deal: every card comes from the stock, and the board ends as dealt.
    page.add_init_script(f"({WATCH_COPIES})();")
    open_table(page, server, "klondike", 7)
    settled(page)
    assert page.evaluate("window.copiesMade") == 28  # every tableau card, from the stock
    assert page.locator(CARD).count() == 7 * 8 // 2 + 1  # 28 tableau cards and the stock's top
    # A move: the card's copy slides while the card waits, unseen, where it goes.
    page.evaluate(WATCH_COPIES)
    card(page, "t7", "Ac").dblclick()
    card(page, "f1", "Ac").wait_for()
    settled(page)
    # The ace slid, and the card it uncovered turned over: two copies at least.
    assert page.evaluate("window.copiesMade") >= 2
    opacity = card(page, "f1", "Ac").evaluate("n => getComputedStyle(n).opacity")
    assert opacity == "1"
    # The card uncovered on pile 7 turned over (an animation), and is there face up.
    expect(card(page, "t7", "6s")).to_have_count(1)
    # Input stays live: a move right after another is taken at once, mid-animation.
    page.locator('svg.board g.pile[data-pile="stock"]').click()
    page.get_by_role("button", name="Undo").click()
    moves_shown(page, 1)
    settled(page)
    page.close()


def test_reduced_motion_switches_every_animation_off(
    browser: Any, server: LiveServer, errors: list[str]
) -> None:
    page = new_page(browser, errors, autoplay=False, reduced=True)
    open_table(page, server, "klondike", 7)
    assert page.evaluate(RUNNING) == 0
    page.evaluate(WATCH_COPIES)
    card(page, "t7", "Ac").dblclick()
    card(page, "f1", "Ac").wait_for()
    assert page.evaluate(RUNNING) == 0
    assert page.evaluate(COPIES) == 0
    page.locator('svg.board g.pile[data-pile="stock"]').click()
    moves_shown(page, 2)
    assert page.evaluate(RUNNING) == 0
    page.get_by_role("button", name="Undo").click()
    moves_shown(page, 1)
    assert page.evaluate(RUNNING) == 0
    assert page.evaluate("window.copiesMade") == 0
    page.close()


def test_a_won_game_is_celebrated_and_ends_as_won(
    browser: Any, server: LiveServer, errors: list[str]
) -> None:
    won = record.read_record((GOLDEN / "klondike-won-draw1.rec").read_text())
    page = new_page(browser, errors, autoplay=False)
    table_id = open_table(page, server, "klondike", won.deal, won.options)
    for move in won.moves[:-1]:
        answer = page.request.post(
            f"{server.url}/api/tables/{table_id}", data={"command": "move", "move": move.text()}
        )
        assert answer.ok, answer.text()
    moves_shown(page, len(won.moves) - 1)
    settled(page)
    page.fill('input[name="move"]', won.moves[-1].text())
    page.get_by_role("button", name="Play", exact=True).click()
    expect(page.locator(".banner.won")).to_contain_text(f"You won, in {len(won.moves)} moves")
    # The cascade: copies of cards leap from the foundations, then go, leaving the board as won.
    wait_until(page, "document.querySelectorAll('svg.board .celebration').length > 0")
    settled(page)
    assert page.locator(f'{CARD}[data-pile^="t"]').count() == 0
    page.close()


def test_the_automatic_finish_goes_up_as_a_cascade(
    browser: Any, server: LiveServer, errors: list[str]
) -> None:
    won = record.read_record((GOLDEN / "klondike-won-draw1.rec").read_text())
    page = new_page(browser, errors, autoplay=False)
    table_id = open_table(page, server, "klondike", won.deal, won.options)
    # From the golden game's 97th move on nothing is hidden and the solver proves the win.
    for move in won.moves[:97]:
        answer = page.request.post(
            f"{server.url}/api/tables/{table_id}", data={"command": "move", "move": move.text()}
        )
        assert answer.ok, answer.text()
    moves_shown(page, 97)
    settled(page)
    page.evaluate(WATCH_COPIES)
    page.get_by_role("button", name="Auto finish").click()
    expect(page.locator(".banner.won")).to_be_visible()
    settled(page)
    # Every card that went up flew there (those under a foundation's top as copies of their
    # own), and the celebration's copies came and went.
    total = int(page.text_content('[data-testid="moves"]') or "0")
    assert page.evaluate("window.copiesMade") > total - 97
    assert page.locator(f'{CARD}[data-pile^="f"]').count() == 4
    page.close()


# -- 2. a stable table -----------------------------------------------------------------------


def card_width(page: Any) -> float:
    box = page.locator(f'{CARD}[data-pile^="t"]').first.bounding_box()
    assert box is not None
    return float(box["width"])


@pytest.mark.parametrize(("game", "options", "deal"), [("spider", {"suits": 4}, 3)])
def test_the_card_size_stays_as_piles_grow(
    browser: Any,
    server: LiveServer,
    errors: list[str],
    game: str,
    options: dict[str, Any],
    deal: int,
) -> None:
    page = new_page(browser, errors, autoplay=False)
    table_id = open_table(page, server, game, deal, options)
    width = card_width(page)
    board = page.locator("svg.board").bounding_box()["width"]
    played = patience.new(game, deal=deal, **options)
    for i in range(60):
        legal = [move for move in played.legal_moves() if not move.is_action]
        move = (legal or played.legal_moves())[i * 7 % len(legal or played.legal_moves())]
        played.push(move)
        answer = page.request.post(
            f"{server.url}/api/tables/{table_id}", data={"command": "move", "move": move.text()}
        )
        assert answer.ok, answer.text()
    moves_shown(page, 60)
    longest = max(
        len(pile["down"]) + len(pile["up"])
        for name, pile in played.view(0)["piles"].items()
        if name.startswith("t")
    )
    assert longest >= 10  # the piles did grow
    assert card_width(page) == pytest.approx(width, abs=0.01)
    assert page.locator("svg.board").bounding_box()["width"] == pytest.approx(board, abs=0.01)
    # Lines shown above the board (the end's banner) leave the cards as they are too.
    page.get_by_test_id("give-up").click()
    page.get_by_test_id("confirm-give-up").click()
    expect(page.locator(".banner.lost")).to_be_visible()
    assert card_width(page) == pytest.approx(width, abs=0.01)
    page.close()


# For every fanned pile: the on-screen step between consecutive face-down cards drawn, and the
# number written on a stack of them.
FACE_DOWN = """() => {
  const out = [];
  for (const pile of document.querySelectorAll("svg.board g.pile")) {
    const backs = [...pile.querySelectorAll(".card.back")];
    const tops = backs.map((n) => n.getBoundingClientRect().top);
    const steps = tops.slice(1).map((top, i) => top - tops[i]);
    const stack = pile.querySelector(".stack-count")?.textContent ?? null;
    out.push({pile: pile.dataset.pile, steps, stack, label: pile.getAttribute("aria-label")});
  }
  return out;
}"""


def test_face_down_cards_are_never_slivers(
    browser: Any, server: LiveServer, errors: list[str]
) -> None:
    # A window too short for Spider's face-down fans: they become stacks with their number.
    page = new_page(browser, errors, size=(1280, 330), autoplay=False)
    open_table(page, server, "spider", 3, {"suits": 4})
    piles = [p for p in page.evaluate(FACE_DOWN) if p["pile"].startswith("t")]
    assert piles
    for pile in piles:
        assert all(step >= 5.9 for step in pile["steps"]), pile
    stacks = [pile for pile in piles if pile["stack"] is not None]
    assert stacks, piles
    for pile in stacks:
        # The number is the pile's face-down count, as its label says it.
        assert f"{pile['stack']} face down" in pile["label"]
    page.close()


# -- 3. forgiving play -----------------------------------------------------------------------


def test_safe_cards_go_up_by_themselves_and_undo_takes_them_back(
    browser: Any, server: LiveServer, errors: list[str]
) -> None:
    page = new_page(browser, errors)
    open_table(page, server, "klondike", 7)
    assert page.get_by_test_id("autoplay").is_checked()
    # Deal 7 has the ace of clubs face up on pile 7: a table nobody played stays as dealt...
    expect(card(page, "t7", "Ac")).to_have_count(1)
    moves_shown(page, 0)
    # ...and the player's first move takes it up with it, as a move of its own.
    page.locator('svg.board g.pile[data-pile="stock"]').click()
    card(page, "f1", "Ac").wait_for()
    moves_shown(page, 2)
    page.get_by_role("button", name="Undo").click()
    card(page, "t7", "Ac").wait_for()
    moves_shown(page, 1)
    # It stays down: the automatic moves follow the player's moves, not Undo.
    page.wait_for_timeout(300)
    expect(card(page, "t7", "Ac")).to_have_count(1)
    # The setting is this browser's, kept for the next table; switched on, it plays at once.
    page.get_by_test_id("autoplay").uncheck()
    assert page.evaluate("localStorage.getItem('patience.autoplay')") == "0"
    page.locator('svg.board g.pile[data-pile="stock"]').click()
    moves_shown(page, 2)
    expect(card(page, "t7", "Ac")).to_have_count(1)
    page.get_by_test_id("autoplay").check()
    card(page, "f1", "Ac").wait_for()
    moves_shown(page, 3)
    page.close()


def test_give_up_asks_then_ends_the_game_as_lost(
    browser: Any, server: LiveServer, errors: list[str]
) -> None:
    page = new_page(browser, errors, autoplay=False)
    player = page.request.post(f"{server.url}/api/player", data={"name": "Quitter"})
    assert player.ok
    open_table(page, server, "klondike", 7)
    page.get_by_test_id("give-up").click()
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text("Give up this game?")
    dialog.get_by_role("button", name="Keep playing").click()
    expect(page.locator(".banner")).to_be_hidden()
    page.get_by_test_id("give-up").click()
    page.get_by_test_id("confirm-give-up").click()
    expect(page.locator(".banner.lost")).to_contain_text("resigned")
    expect(page.get_by_test_id("give-up")).to_be_hidden()
    stats = page.request.get(f"{server.url}/api/stats").json()
    row = next(entry for entry in stats["games"] if entry["game"] == "klondike")
    assert (row["played"], row["won"]) == (1, 0)
    # "resign" typed in the Move box is taken too.
    open_table(page, server, "klondike", 8)
    page.fill('input[name="move"]', "resign")
    page.get_by_role("button", name="Play", exact=True).click()
    expect(page.locator(".banner.lost")).to_contain_text("resigned")
    page.close()


def test_the_hint_goes_when_the_table_changes(
    browser: Any, server: LiveServer, errors: list[str]
) -> None:
    page = new_page(browser, errors, autoplay=False)
    open_table(page, server, "klondike", 7)
    hint = page.get_by_test_id("hint")
    page.get_by_role("button", name="Hint").click()
    expect(hint).to_contain_text("Hint: t7-f1")
    page.locator('svg.board g.pile[data-pile="stock"]').click()
    moves_shown(page, 1)
    expect(hint).to_be_hidden()
    # Asked again, and the table changes by Undo: gone again.
    page.get_by_role("button", name="Hint").click()
    expect(hint).to_be_visible()
    page.get_by_role("button", name="Undo").click()
    moves_shown(page, 0)
    expect(hint).to_be_hidden()
    page.close()


def test_a_refusal_is_written_in_words_with_card_symbols(
    browser: Any, server: LiveServer, errors: list[str]
) -> None:
    page = new_page(browser, errors, autoplay=False)
    open_table(page, server, "klondike", 7)
    # Pile 1 holds the 4 of diamonds, pile 3 the jack of spades.
    page.fill('input[name="move"]', "t1-t3")
    page.get_by_role("button", name="Play", exact=True).click()
    message = page.locator(".message.error")
    expect(message).to_have_text(
        "4♦ cannot go on J♠: the tableau builds down in alternating colours"
    )
    # A refusal that names no card says which move, in words.
    page.fill('input[name="move"]', "t2-t4:2")
    page.get_by_role("button", name="Play", exact=True).click()
    expect(message).to_have_text("Pile 2 to pile 4: not allowed, pile 2 has only 1 face-up card.")
    page.close()


def test_an_empty_stock_says_why_it_cannot_be_turned_over(
    browser: Any, server: LiveServer, errors: list[str]
) -> None:
    page = new_page(browser, errors, autoplay=False)
    table_id = open_table(page, server, "klondike", 7, {"draw": 1, "passes": 1})
    for _ in range(24):
        answer = page.request.post(
            f"{server.url}/api/tables/{table_id}", data={"command": "move", "move": "stock"}
        )
        assert answer.ok, answer.text()
    moves_shown(page, 24)
    page.locator('svg.board g.pile[data-pile="stock"]').click()
    message = page.locator(".message.error")
    expect(message).to_contain_text("Turn the waste over: not allowed")
    expect(message).to_contain_text("no pass through the stock is left")
    assert "recycle" not in (message.text_content() or "")
    # Passes without limit, but the repetition rule: turning the waste over after a pass that
    # changed nothing would bring back the deal's position.
    table_id = open_table(page, server, "klondike", 7, {"draw": 1})
    for _ in range(24):
        answer = page.request.post(
            f"{server.url}/api/tables/{table_id}", data={"command": "move", "move": "stock"}
        )
        assert answer.ok, answer.text()
    moves_shown(page, 24)
    page.locator('svg.board g.pile[data-pile="stock"]').click()
    expect(message).to_have_text(
        "Turn the waste over: not allowed, it would recreate a position already reached in "
        "this game."
    )
    page.close()
