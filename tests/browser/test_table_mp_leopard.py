"""End to end in chromium: two people, each in his own browser context, play Leopard at a shared
table; each page shows its own hand and never a card of the other's."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

from shared_tables import card_strings, received_states, true_game

import patience

HAND = "svg.mp-hand .card[data-card]"
RANK_NAMES = dict(
    zip("A23456789TJQK", ["ace", *map(str, range(2, 11)), "jack", "queen", "king"], strict=True)
)
SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


def seen_by(game: patience.Game, seat: int | None) -> set[str]:
    """Every card ``seat`` (None: a spectator) may see: its hand, face-up cards, the discards,
    its face-down cards."""
    position = game.position()
    seen = set(position["piles"]["discards"]["up"])
    if seat is not None:
        seen |= set(position["hands"][seat])
    for square in position["squares"]:
        for cell in square:
            for layer in cell:
                if isinstance(layer, str):
                    seen.add(layer)
                elif layer["by"] == seat:
                    seen.add(layer["down"])
    return seen


def check_frames(frames: list[str], db: Path, table: str) -> int:
    """Every state a page received over its websocket holds only cards its seat may see in the
    true position of that state's ``seq`` (the last move apart: a discard or a face-up card is
    seen by all; a face-down jack or queen only by the seat that laid it)."""
    checked = 0
    for state, game in received_states(frames, db, table):
        seat = state["seat"]
        allowed = seen_by(game, seat)
        rest = {key: value for key, value in state.items() if key != "last"}
        assert set(card_strings(rest)) <= allowed, (seat, state["seq"])
        last = state["last"]
        if last and last["move"].get("action") == "play" and last["seat"] != seat:
            assert str(last["move"]["card"])[:1] not in ("J", "Q")
        checked += 1
    return checked


def your_turn(page: Any) -> bool:
    return "Your turn." in (page.text_content('[data-testid="facts"]') or "")


def play_one(page: Any) -> None:
    """Make one move through the page: draw if asked to choose, else a card to a highlighted
    position (or a discard)."""
    draw = page.locator('button[data-action="draw"]')
    if draw.count():
        draw.click()
        return
    page.locator(f"{HAND}.movable").first.click()
    target = page.locator("svg.mp-square .target")
    if target.count():
        target.first.click()
    else:
        page.locator('button[data-action="discard"]').click()


def check_hands(pages: list[Any], db: Path, table: str) -> None:
    game = true_game(db, table)
    hands = game.position()["hands"]
    for seat, page in enumerate(pages):
        shown = [card.get_attribute("data-card") for card in page.locator(HAND).all()]
        assert Counter(shown) == Counter(hands[seat])
        html = page.content()
        for card in set(hands[1 - seat]) - seen_by(game, seat):
            assert f'data-card="{card}"' not in html
            label = f"{RANK_NAMES[card[0]]} of {SUIT_NAMES[card[1]]}"
            assert f'aria-label="{label}"' not in html


def test_two_browsers_play_leopard(browser: Any, server_url: str, tmp_path: Path) -> None:
    db = tmp_path / "browser.sqlite3"
    contexts = [browser.new_context(viewport={"width": 1200, "height": 1000}) for _ in range(2)]
    pages = [context.new_page() for context in contexts]
    errors: list[str] = []
    frames: list[str] = []
    for page in pages:
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on(
            "websocket",
            lambda socket: socket.on("framereceived", lambda payload: frames.append(str(payload))),
        )
    pages[0].goto(server_url + "/tables")
    pages[0].select_option("#mp-game", "leopard")
    pages[0].select_option("#mp-seat-1", "open")
    pages[0].click("form.mp-create button[type=submit]")
    pages[0].wait_for_url(re.compile(r"/table/"))
    table = pages[0].url.rsplit("/", 1)[1]
    for seat, (page, name) in enumerate(zip(pages, ["Ann", "Bob"], strict=True)):
        if seat:
            page.goto(pages[0].url)
        page.fill("#mp-name", name)
        page.click(f'button[data-join="{seat}"]')
        page.wait_for_selector(HAND)
    pages[0].wait_for_selector("[data-join]", state="detached")
    check_hands(pages, db, table)

    facts = '[data-testid="facts"]'
    for _ in range(8):
        seq = int(pages[0].get_attribute(facts, "data-seq") or 0)
        for page in pages:
            page.wait_for_selector(f'{facts}[data-seq="{seq}"]')
        page = next(page for page in pages if your_turn(page))
        play_one(page)
        for page in pages:
            page.wait_for_selector(f'{facts}[data-seq="{seq + 1}"]')
        check_hands(pages, db, table)

    # A reload keeps the seat: the token is in this browser's storage.
    pages[1].reload()
    pages[1].wait_for_selector(HAND)
    assert "You play as Bob." in (pages[1].text_content('[data-testid="facts"]') or "")
    check_hands(pages, db, table)
    assert not errors
    assert check_frames(frames, db, table) > 20
    for context in contexts:
        context.close()
