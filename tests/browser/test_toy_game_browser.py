"""End to end in chromium: games the package knows nothing of, registered from the tests
(tests/toy_game.py) in the live server's process (uvicorn runs in a thread of the test), drawn by
the pages' generic drawings: two people play Toy Duel at a shared table to the end, each page
holding its own hand and no card of the other's; a person plays Toy Relay against a bot by
clicking a card and then its pile; Toy Solo is dealt from the start page and won by clicks on the
one-player table."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from shared_tables import card_strings, received_states, true_game, wait_until

import patience
from patience import games
from toy_game import ToyDuel, ToyRelay, ToySolo

FACTS = '[data-testid="facts"]'
HAND = '[data-hand="{seat}"] .card'
RANK_NAMES = dict(zip("A23456", ["ace", "2", "3", "4", "5", "6"], strict=True))
SUIT_NAMES = {"c": "clubs", "h": "hearts"}


@pytest.fixture
def toys() -> Iterator[None]:
    """The toy games, registered in this process, which the live server's thread shares."""
    with games.registered(ToyDuel), games.registered(ToySolo), games.registered(ToyRelay):
        yield


def seen_by(game: patience.Game, seat: int | None) -> set[str]:
    """The cards ``seat`` (None: a spectator) may see in the true position: the rows (face up)
    and his own hand."""
    position = game.position()
    seen = {card for pile in position["piles"].values() for card in pile["up"]}
    if seat is not None:
        seen |= set(position["hands"][seat])
    return seen


def check_pages(pages: list[Any], db: Path, table: str) -> None:
    """Each page shows its seat's hand as it truly is, the other's as backs, and names no card
    its seat may not see (neither as data nor for a screen reader)."""
    game = true_game(db, table)
    hands = game.position()["hands"]
    for seat, page in enumerate(pages):
        mine = page.locator(HAND.format(seat=seat))
        assert [card.get_attribute("data-card") for card in mine.all()] == hands[seat]
        theirs = page.locator(HAND.format(seat=1 - seat))
        assert theirs.count() == len(hands[1 - seat])
        assert page.locator(HAND.format(seat=1 - seat) + "[data-card]").count() == 0
        html = page.content()
        for card in {c for hand in hands for c in hand} - seen_by(game, seat):
            assert f'data-card="{card}"' not in html
            assert f"{RANK_NAMES[card[0]]} of {SUIT_NAMES[card[1]]}" not in html


def test_two_browsers_play_a_registered_game_to_the_end(
    toys: None, browser: Any, server_url: str, tmp_path: Path
) -> None:
    db = tmp_path / "browser.sqlite3"
    contexts = [browser.new_context(viewport={"width": 1200, "height": 900}) for _ in range(2)]
    pages = [context.new_page() for context in contexts]
    errors: list[str] = []
    frames: list[str] = []
    for page in pages:
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on(
            "websocket",
            lambda socket: socket.on("framereceived", lambda payload: frames.append(str(payload))),
        )
    # The create form lists the registered game with its option.
    pages[0].goto(server_url + "/tables")
    pages[0].select_option("#mp-game", "toy-duel")
    assert pages[0].locator("#mp-toy-duel-hand").input_value() == "3"
    pages[0].select_option("#mp-seat-1", "open")
    pages[0].click("form.mp-create button[type=submit]")
    pages[0].wait_for_url(re.compile(r"/table/"))
    table = pages[0].url.rsplit("/", 1)[1]
    for seat, (page, name) in enumerate(zip(pages, ["Ann", "Bob"], strict=True)):
        if seat:
            page.goto(pages[0].url)
        page.fill("#mp-name", name)
        page.click(f'button[data-join="{seat}"]')
        page.wait_for_selector(HAND.format(seat=seat) + "[data-card]")
    pages[0].wait_for_selector("[data-join]", state="detached")
    assert pages[0].text_content("h1") == "Toy Duel · hand 3"
    # Every pile of the view is drawn: the stock's six cards as backs, the two empty rows.
    for pile in ("stock", "row0", "row1"):
        assert pages[0].locator(f'svg.mp-generic .pile[data-pile="{pile}"]').count() == 1
    assert "stock: 6 cards, face down" in (
        pages[0].get_attribute('svg.mp-generic .pile[data-pile="stock"]', "aria-label") or ""
    )
    check_pages(pages, db, table)

    for seq in range(12):
        for page in pages:
            page.wait_for_selector(f'{FACTS}[data-seq="{seq}"]')
        mover = next(page for page in pages if "Your turn." in (page.text_content(FACTS) or ""))
        seat = pages.index(mover)
        assert "Your turn" in (mover.text_content('[data-testid="turn-help"]') or "")
        if seq % 4 < 2:
            # A card of the hand, clicked: the one legal move that names it.
            mover.locator(HAND.format(seat=seat) + ".movable").first.click()
        else:
            # A legal move's button (the waiting seat has none).
            assert pages[1 - seat].locator("button[data-move]").count() == 0
            mover.locator("button[data-move]").last.click()
        for page in pages:
            page.wait_for_selector(f'{FACTS}[data-seq="{seq + 1}"]')
        game = true_game(db, table)
        played = game.move_stack[-1].arg("card")
        for page in pages:
            # Everybody sees the card laid face up on the mover's row, and is told the move.
            row = page.locator(f'svg.mp-generic .card[data-pile="row{seat}"][data-card]')
            assert row.last.get_attribute("data-card") == played
            assert f"play(card={played})" in (page.text_content('[data-testid="last-move"]') or "")
        check_pages(pages, db, table)

    game = true_game(db, table)
    outcome = game.outcome()
    assert outcome.is_over
    for page in pages:
        banner = page.locator('[data-testid="banner"]')
        banner.wait_for()
        text = banner.text_content() or ""
        if outcome.winner is not None:
            assert text.startswith(f"Game over: {['Ann', 'Bob'][outcome.winner]} won: ")
        else:
            assert text.startswith("Game over: A draw: ")
        assert f"(scores {outcome.scores[0]}-{outcome.scores[1]})" in text
        assert page.locator("button[data-move]").count() == 0
    checked = 0
    for state, true in received_states(frames, db, table):
        assert set(card_strings(state)) <= seen_by(true, state["seat"]), state["seq"]
        checked += 1
    assert checked > 24
    assert not errors
    for context in contexts:
        context.close()


def test_a_registered_one_player_game_is_dealt_and_won_by_clicks(
    toys: None, browser: Any, server_url: str
) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server_url + "/")
    # Deal 10: t1 holds Ac over 3c, t2 2c over 4c, t3 5c over 6c (face down under each).
    page.click('form[data-game="toy-solo"] .settings-button')  # the deal is a setting
    page.fill("#toy-solo-deal", "10")
    page.click('form[data-game="toy-solo"] button[type=submit]')
    page.wait_for_url(re.compile(r"/play/"))
    page.wait_for_selector("svg.board .card")
    assert page.locator("svg.board .card[data-card]").count() == 3
    assert page.locator("svg.board .card.back").count() == 3
    for pile, card in [("t1", "Ac"), ("t2", "2c"), ("t1", "3c"), ("t2", "4c"), ("t3", "5c")]:
        page.locator(f'svg.board .card[data-pile="{pile}"][data-card="{card}"]').click()
        page.locator('svg.board .pile[data-pile="f1"]').click()
        page.locator(f'svg.board .card[data-pile="f1"][data-card="{card}"]').wait_for()
    page.locator('svg.board .card[data-pile="t3"][data-card="6c"]').click()
    page.locator('svg.board .pile[data-pile="f1"]').click()
    banner = page.locator(".banner.won")
    banner.wait_for()
    assert not errors
    page.close()


def test_a_person_moves_cards_by_clicks_at_a_registered_game(
    toys: None, browser: Any, server_url: str
) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # Deal 10: t1 holds Ac over 3c, t2 2c over 4c, t3 5c over 6c; seat 1 is a bot.
    made = page.request.post(
        server_url + "/api/shared",
        data={"game": "toy-relay", "seats": ["open", "random"], "deal": 10},
    )
    assert made.status == 201, made.text()
    page.goto(server_url + made.json()["url"])
    page.fill("#mp-name", "Ann")
    page.click('button[data-join="0"]')
    page.wait_for_selector("[data-join]", state="detached")

    def card(pile: str, name: str) -> Any:
        return page.locator(f'svg.mp-generic .card[data-pile="{pile}"][data-card="{name}"]')

    # A card, then a pile it may not go to: the page says so and nothing is sent.
    card("t1", "Ac").click()
    assert "selected" in (card("t1", "Ac").get_attribute("class") or "")
    page.locator('svg.mp-generic .pile[data-pile="t3"]').click()
    assert page.text_content('[data-testid="message"]') == "t1 to t3 is not a legal move now."
    assert page.get_attribute(FACTS, "data-seq") == "0"
    for seq, (pile, name) in enumerate([("t1", "Ac"), ("t1", "3c"), ("t3", "5c")]):
        page.wait_for_selector(f'{FACTS}[data-seq="{2 * seq}"]')
        card(pile, name).click()
        page.locator('svg.mp-generic .pile[data-pile="f1"]').click()
        # The bot's move may already cover the card (f1 shows its top card only).
        wait_until(lambda done=2 * seq: int(page.get_attribute(FACTS, "data-seq") or 0) > done)
    banner = page.locator('[data-testid="banner"]')
    banner.wait_for()
    assert banner.text_content() == "Game over: random bot won: random bot put the six up."
    assert page.locator("svg.mp-generic .pile[data-pile='f1'] .card[data-card='6c']").count() == 1
    assert not errors
    page.close()
