"""End to end in chromium for every one-player game: moves by click and by drag, undo, nothing
face down in the page or on the wire, moves over the websocket (and its reconnection), keyboard
play, hints, winnable deals, record replays and the phone-size layout."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

import patience
from conftest import LiveServer
from patience.moves import Move

GOLDEN = Path(__file__).parents[1] / "golden"
CARD = "svg.board .card"
WINNABLE_DEAL = 4242
RANK_NAMES = dict(
    zip("A23456789TJQK", ["ace", *map(str, range(2, 11)), "jack", "queen", "king"], strict=True)
)
SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


def first_move_hinter(game: patience.Game) -> dict[str, Any]:
    """A stand-in for the solver: the first legal move, with a made-up chance."""
    moves = game.legal_moves()
    move = moves[0] if moves else None
    return {
        "move": move.text() if move else None,
        "move_json": move.to_json() if move else None,
        "chance": 0.63,
        "samples": 40,
        "exact": False,
    }


def picker(rules: Any, winnable: bool) -> int:
    """A stand-in for the proved-deals list: one "winnable" deal, else deal 11."""
    return WINNABLE_DEAL if winnable else 11


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for the module, with a hinter and a deal picker plugged in."""
    live = LiveServer(
        tmp_path_factory.mktemp("web") / "store.sqlite3",
        hinter=first_move_hinter,
        worker_processes=False,  # the stand-in hinter is not pickled to a worker
        deal_picker=picker,
    ).start()
    yield live
    live.stop()


class Watched:
    """A page with every JSON answer and websocket message it received kept."""

    def __init__(self, browser: Any, width: int = 1200, height: int = 900) -> None:
        self.page = browser.new_page(viewport={"width": width, "height": height})
        # Automatic moves off (issue 21's setting, on by default): these tests move the cards.
        self.page.add_init_script("localStorage.setItem('patience.autoplay', '0')")
        self.errors: list[str] = []
        self.messages: list[Any] = []
        self.posts: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("websocket", self._socket)
        self.page.on("response", self._response)
        self.page.on("request", self._request)

    def _socket(self, socket: Any) -> None:
        socket.on("framereceived", lambda payload: self.messages.append(json.loads(payload)))

    def _response(self, response: Any) -> None:
        if "/api/" in response.url and "json" in response.headers.get("content-type", ""):
            # A body already gone (the page navigated away) has nothing to check.
            with contextlib.suppress(Exception):
                self.messages.append(response.json())

    def _request(self, request: Any) -> None:
        if request.method == "POST":
            self.posts.append(request.url)

    def close(self) -> None:
        self.page.close()


@pytest.fixture
def watched(browser: Any) -> Iterator[Watched]:
    page = Watched(browser)
    yield page
    page.close()
    assert page.errors == []


def face_down_leaks(data: Any) -> list[Any]:
    """Every card named in a ``down`` list anywhere in ``data`` (a view sends only nulls)."""
    found: list[Any] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "down" and isinstance(value, list):
                found += [card for card in value if card is not None]
            else:
                found += face_down_leaks(value)
    elif isinstance(data, list):
        for item in data:
            found += face_down_leaks(item)
    return found


def card_label(text: str) -> str:
    return f"{RANK_NAMES[text[0]]} of {SUIT_NAMES[text[1]]}"


def check_nothing_face_down_shown(watched: Watched, game: patience.Game) -> None:
    """No face-down card is in the page or in anything the server sent it."""
    piles = game.position()["piles"]
    up = {card for pile in piles.values() for card in pile["up"]}
    only_down = {card for pile in piles.values() for card in pile["down"]} - up
    page = watched.page
    shown = set(page.eval_on_selector_all(f"{CARD}[data-card]", "n => n.map(c => c.dataset.card)"))
    assert shown <= up
    assert page.locator(f"{CARD}.back[data-card]").count() == 0
    html = page.content()
    for card in only_down:
        assert f'data-card="{card}"' not in html
        assert card_label(card) not in html
    assert watched.messages
    assert face_down_leaks(watched.messages) == []


def open_table(watched: Watched, server: LiveServer, game: str, deal: int) -> str:
    response = watched.page.request.post(
        f"{server.url}/api/tables", data={"game": game, "options": {}, "deal": deal}
    )
    assert response.status == 201, response.text()
    table_id: str = response.json()["table"]
    watched.page.goto(f"{server.url}/play/{table_id}")
    watched.page.wait_for_selector('[data-testid="connection"][data-status="live"]')
    return table_id


def moves_shown(page: Any) -> int:
    return int(page.text_content('[data-testid="moves"]'))


def wait_moves(page: Any, count: int) -> None:
    expect(page.locator('[data-testid="moves"]')).to_have_text(str(count))


def top_node(page: Any, pile: str) -> Any:
    """The top card drawn on a pile, or the pile's empty place."""
    cards = page.locator(f'{CARD}[data-pile="{pile}"]')
    if cards.count():
        return cards.last
    return page.locator(f'svg.board .slot[data-pile="{pile}"]')


def card_move(game: patience.Game) -> Move | None:
    """The first legal move of cards (not an action such as dealing)."""
    return next((move for move in game.legal_moves() if not move.is_action), None)


def source_node(page: Any, game: patience.Game, move: Move) -> Any:
    """The card to take hold of for ``move``: the first card moved, or the top card of a squared
    pile (which the page draws alone, and which moves the whole pile in Accordion)."""
    pile = game.view(0)["piles"][move.source]
    index = len(pile["down"]) + len(pile["up"]) - move.count
    node = page.locator(f'{CARD}[data-pile="{move.source}"][data-index="{index}"]')
    return node if node.count() else page.locator(f'{CARD}[data-pile="{move.source}"]').last


def drag(page: Any, source: Any, target: Any) -> None:
    start = source.bounding_box()
    end = target.bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + 12)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
    page.mouse.up()


@pytest.mark.parametrize(
    ("name", "deal"),
    [("spider", 1), ("canfield", 5), ("accordion", 1), ("napoleon", 1), ("leonis-own", 1)],
)
def test_play_by_click_and_drag_then_undo(
    watched: Watched, server: LiveServer, name: str, deal: int
) -> None:
    page = watched.page
    open_table(watched, server, name, deal)
    game = patience.new(name, deal=deal)
    # Accordion starts with dealing (and Canfield may need the stock): click the stock until
    # a card can move.
    while card_move(game) is None:
        page.locator('svg.board g.pile[data-pile="stock"]').click()
        game.push(next(move for move in game.legal_moves() if move.is_action))
        wait_moves(page, len(game.move_stack))
    before = len(game.move_stack)

    move = card_move(game)
    assert move is not None
    source_node(page, game, move).click()
    page.wait_for_selector(f"{CARD}.selected")
    top_node(page, move.target).click()
    game.push(move)
    wait_moves(page, before + 1)

    # A second move by drag (another pile's cards when the first move made none new).
    second = card_move(game)
    assert second is not None, f"no second card move in {name} deal {deal}"
    drag(page, source_node(page, game, second), top_node(page, second.target))
    game.push(second)
    wait_moves(page, before + 2)
    assert page.text_content(".message") == ""
    check_nothing_face_down_shown(watched, game)
    # The moves went over the websocket, not HTTP.
    assert not [url for url in watched.posts if "/api/tables/" in url]

    page.get_by_role("button", name="Undo").click()
    game.pop()
    wait_moves(page, before + 1)
    check_nothing_face_down_shown(watched, game)


def test_two_pages_of_a_table_stay_in_step_and_a_page_reconnects_after_a_restart(
    browser: Any, tmp_path: Path
) -> None:
    live = LiveServer(tmp_path / "restart.sqlite3").start()
    first, second = Watched(browser), Watched(browser)
    try:
        response = first.page.request.post(
            f"{live.url}/api/tables", data={"game": "klondike", "deal": 7}
        )
        table_id = response.json()["table"]
        # Two tabs of one browser: the second has the first's session (a one-player table is
        # its session's only).
        second.page.context.add_cookies(first.page.context.cookies())
        for watched in (first, second):
            watched.page.goto(f"{live.url}/play/{table_id}")
            watched.page.wait_for_selector('[data-testid="connection"][data-status="live"]')
        first.page.locator(f'{CARD}[data-card="Ac"]').click()
        top_node(first.page, "f1").click()
        wait_moves(second.page, 1)  # told over its websocket
        second.page.locator(f'{CARD}[data-pile="f1"][data-card="Ac"]').wait_for()

        live.stop()
        first.page.wait_for_selector('[data-testid="connection"][data-status="offline"]')
        live.start()  # the same store, on the same port
        first.page.wait_for_selector(
            '[data-testid="connection"][data-status="live"]', timeout=15000
        )
        first.page.keyboard.press("u")
        wait_moves(first.page, 0)
        wait_moves(second.page, 0)
        assert first.errors == second.errors == []
    finally:
        first.close()
        second.close()
        live.stop()


def test_keyboard_play(watched: Watched, server: LiveServer) -> None:
    page = watched.page
    open_table(watched, server, "klondike", 7)
    focused = "document.activeElement.getAttribute('aria-label')"
    page.keyboard.press("ArrowRight")  # from the page into the table: the first pile
    assert page.evaluate(focused) == "stock: 24 cards, face down"
    page.keyboard.press("ArrowDown")
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    assert page.evaluate(focused) == "pile 7: 7 cards, 6 face down, face up: ace of clubs"
    page.keyboard.press("Shift+Enter")  # to a foundation
    wait_moves(page, 1)
    page.locator(f'{CARD}[data-pile="f1"][data-card="Ac"]').wait_for()
    page.keyboard.press("u")
    wait_moves(page, 0)
    assert page.evaluate(focused).startswith("pile 7: 7 cards")  # the focus stays
    page.keyboard.press("Enter")
    assert page.evaluate(focused).endswith("1 card picked up")
    page.keyboard.press("ArrowUp")  # the foundation above pile 7
    assert page.evaluate(focused) == "foundation 4: empty"
    page.keyboard.press("Enter")
    wait_moves(page, 1)
    assert page.evaluate(focused) == "foundation 4: 1 card, top: ace of clubs"

    # Tab walks the piles too; Space picks up and puts down like Enter.
    for _ in range(4):
        page.keyboard.press("Shift+Tab")
    assert page.evaluate(focused).startswith("waste")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Space")  # the 6 of diamonds on pile 2 ...
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")  # ... onto the 7 of spades on pile 4
    wait_moves(page, 2)
    assert "6 of diamonds" in page.evaluate(focused)
    # + and - change how many cards are picked up: pile 4 now shows two.
    page.keyboard.press("Enter")
    assert page.evaluate(focused).endswith("2 cards picked up")
    page.keyboard.press("-")
    assert page.evaluate(focused).endswith("1 card picked up")
    page.keyboard.press("+")
    assert page.locator(f"{CARD}.selected").count() == 2
    page.keyboard.press("Escape")
    assert page.locator(f"{CARD}.selected").count() == 0

    page.keyboard.press("u")
    wait_moves(page, 1)
    page.keyboard.press("Control+z")
    wait_moves(page, 0)
    page.keyboard.press("r")
    wait_moves(page, 1)
    page.keyboard.press("Control+y")
    wait_moves(page, 2)
    page.keyboard.press("s")
    wait_moves(page, 3)
    page.keyboard.press("h")
    page.wait_for_selector('[data-testid="hint"]:has-text("about 63% to win from here")')
    assert page.locator("svg.board g.pile.hint").count() >= 1
    page.keyboard.press("n")  # a game in progress: the page asks first
    page.get_by_role("button", name="Abandon it and deal").click()
    wait_moves(page, 0)
    assert page.text_content('[data-testid="deal"]') == "11"  # the picker's random deal
    # The help lists the keys.
    page.get_by_text("How to play with the mouse").click()
    assert page.get_by_text("pick up one card more or fewer").is_visible()


def test_the_hint_highlights_the_move_and_says_the_chance(
    watched: Watched, server: LiveServer
) -> None:
    page = watched.page
    open_table(watched, server, "spider", 1)
    page.get_by_role("button", name="Hint").click()
    hint = page.locator('[data-testid="hint"]')
    hint.filter(has_text="Hint: t6-t5 (pile 6 to pile 5), about 63% to win from here").wait_for()
    marked = page.eval_on_selector_all("svg.board g.pile.hint", "n => n.map(g => g.dataset.pile)")
    assert sorted(marked) == ["t5", "t6"]
    source_node(page, patience.new("spider", deal=1), Move.parse("t6-t5")).click()
    top_node(page, "t5").click()
    wait_moves(page, 1)
    assert page.locator("svg.board g.pile.hint").count() == 0  # the hint was for before


def test_without_a_solver_the_hint_says_so(browser: Any, server_url: str) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    table = page.request.post(f"{server_url}/api/tables", data={"game": "klondike", "deal": 7})
    page.goto(f"{server_url}/play/{table.json()['table']}")
    page.wait_for_selector(CARD)
    button = page.get_by_role("button", name="Hint")
    button.click()
    page.wait_for_selector('[data-testid="hint"]:has-text("this server has no solver")')
    assert button.is_disabled()
    assert errors == []
    # Winnable deals only: refused clearly without a deal picker.
    page.goto(f"{server_url}/")
    page.click('form[data-game="klondike"] .settings-button')
    page.check('form[data-game="klondike"] input[name="winnable"]')
    page.click('form[data-game="klondike"] button[type=submit]')
    page.wait_for_selector('form[data-game="klondike"] .error:has-text("need the solver")')
    page.close()


def test_winnable_deals_only_on_the_start_page(watched: Watched, server: LiveServer) -> None:
    page = watched.page
    page.goto(f"{server.url}/")
    # The start page builds its tiles once /api/games answers; the option is a setting.
    page.click('form[data-game="spider"] .settings-button')
    box = page.locator('form[data-game="spider"] input[name="winnable"]')
    expect(box).to_be_visible()
    assert page.get_by_label(re.compile("Winnable deals only")).count() >= 6
    box.check()
    page.click('form[data-game="spider"] button[type=submit]')
    page.wait_for_url(re.compile(r"/play/"))
    page.wait_for_selector(CARD)
    deal = page.locator('[data-testid="deal"]')
    expect(deal).to_have_text(str(WINNABLE_DEAL))
    # New deal keeps to winnable deals.
    first_table = page.evaluate("location.pathname")
    page.get_by_role("button", name="New deal").click()
    page.wait_for_url(lambda url: not url.endswith(first_table))
    expect(deal).to_have_text(str(WINNABLE_DEAL))


def test_replay_an_uploaded_record_step_by_step(watched: Watched, server: LiveServer) -> None:
    page = watched.page
    page.goto(f"{server.url}/replay")
    upload = page.locator("form.replay-upload button[type=submit]")
    # A malformed record: the server's reason is shown.
    page.set_input_files(
        "#record-file",
        files=[{"name": "bad.rec", "mimeType": "text/plain", "buffer": b'[Game "klondike"\n'}],
    )
    upload.click()
    page.wait_for_selector('[data-testid="replay-error"]:has-text("cannot be replayed")')

    path = GOLDEN / "klondike-won-draw1.rec"
    rec = patience.record.read_record(path.read_text())
    last = len(rec.moves)
    page.set_input_files("#record-file", str(path))
    upload.click()
    step = page.locator('[data-testid="step"]')
    step.filter(has_text=f"The deal (step 0 of {last})").wait_for()
    assert page.get_by_role("button", name="First").is_disabled()
    game = patience.new("klondike", deal=rec.deal, **rec.options)
    check_nothing_face_down_shown(watched, game)
    page.get_by_role("button", name="Next").click()
    assert step.text_content() == f"Move 1 of {last}: {rec.moves[0].text()}"
    page.keyboard.press("End")
    assert step.text_content().startswith(f"Move {last} of {last}")
    assert "won" in step.text_content()
    assert page.locator(f"{CARD}.back").count() == 0
    page.keyboard.press("ArrowLeft")
    assert step.text_content().startswith(f"Move {last - 1} of {last}")
    page.locator("ol.move-list button").nth(4).click()
    assert step.text_content() == f"Move 5 of {last}: {rec.moves[4].text()}"
    page.locator('input[type="range"]').fill("10")
    assert step.text_content().startswith(f"Move 10 of {last}")
    for move in rec.moves[:10]:
        game.push(move)
    shown = page.eval_on_selector_all(f"{CARD}[data-card]", "n => n.map(c => c.dataset.card)")
    assert page.locator(f"{CARD}.back").count() > 0
    up = {card for pile in game.view(0)["piles"].values() for card in pile["up"]}
    assert set(shown) <= up
    page.get_by_role("button", name="First").click()
    assert step.text_content().startswith("The deal")


@pytest.mark.parametrize("name", ["spider", "klondike"])
def test_the_table_fits_a_phone_without_scrolling_sideways(
    browser: Any, server: LiveServer, name: str
) -> None:
    watched = Watched(browser, width=390, height=844)
    try:
        open_table(watched, server, name, 3)
        page = watched.page
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390
        board = page.locator("svg.board").bounding_box()
        assert board["x"] >= 0
        assert board["x"] + board["width"] <= 390
        # A card is still a usable target on a phone (at least 30 pixels wide).
        assert page.locator(CARD).first.bounding_box()["width"] >= 30
        assert watched.errors == []
    finally:
        watched.close()
