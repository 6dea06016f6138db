"""End to end in chromium: a person plays Double Solitaire against a bot at a shared table, by
clicks (a card, then the pile it goes to; the action buttons), and the page never holds a card
the person may not see."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from shared_tables import card_strings, received_states, true_game, wait_until

import patience

FACTS = '[data-testid="facts"]'


def visible_to(game: patience.Game) -> set[str]:
    """The face-up cards of the true position (both players see every face-up card)."""
    return {card for pile in game.position()["piles"].values() for card in pile["up"]}


def play_one(page: Any, game: patience.Game) -> None:
    """One move of seat 0 through the page: a one-card move by clicking the card and then its
    target pile, else the first action button."""
    moves = [move for move in game.legal_moves() if move.source and move.count == 1]
    if moves:
        move = moves[0]
        page.locator(f'.card.movable[data-pile="{move.source}"]').last.click()
        page.locator(f'[data-pile="{move.target}"]').last.click()
        return
    page.locator("button[data-action]").first.click()


def test_a_person_plays_double_solitaire_against_a_bot(
    browser: Any, server_url: str, tmp_path: Path
) -> None:
    db = tmp_path / "browser.sqlite3"
    page = browser.new_page(viewport={"width": 1200, "height": 1000})
    errors: list[str] = []
    frames: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "websocket",
        lambda socket: socket.on("framereceived", lambda payload: frames.append(str(payload))),
    )
    page.goto(server_url + "/tables")
    page.select_option("#mp-game", "double-solitaire")
    page.select_option("#mp-seat-1", "random")
    page.click("form.mp-create button[type=submit]")
    page.wait_for_url(re.compile(r"/table/"))
    table = page.url.rsplit("/", 1)[1]
    page.fill("#mp-name", "Ann")
    page.click('button[data-join="0"]')
    page.wait_for_selector("[data-join]", state="detached")

    def facts() -> str:
        return page.text_content(FACTS) or ""

    def shown_seq() -> int:
        return int(page.get_attribute(FACTS, "data-seq") or 0)

    mine = 0
    # Twelve moves of ours, and more if the bot has not had a turn yet (on a random deal the
    # turn may stay with us for a while).
    while mine < 12 or (len(true_game(db, table).move_stack) == mine and mine < 80):
        # Our turn, or nobody's (the game is over); not while the bot is to play.
        wait_until(lambda: "Your turn." in facts() or "to play." not in facts())
        if "Your turn." not in facts():
            break  # the game is over
        seq = shown_seq()
        game = true_game(db, table, seq)
        assert game.current_player() == 0
        play_one(page, game)

        def moved(before: int = seq) -> bool:
            return shown_seq() > before

        wait_until(moved)
        mine += 1
        # The page shows only cards face up in the true position of the state it shows (read
        # together in one go: the bot may move meanwhile, and a recycled waste goes face down).
        seen_seq, shown = page.evaluate(
            "() => [Number(document.querySelector('[data-testid=\"facts\"]').dataset.seq),"
            " [...document.querySelectorAll('.card[data-card]')].map((c) => c.dataset.card)]"
        )
        assert set(shown) <= visible_to(true_game(db, table, seen_seq))
    assert mine >= 5
    assert len(true_game(db, table).move_stack) > mine  # the bot played too
    checked = 0
    for state, game in received_states(frames, db, table):
        assert set(card_strings(state)) <= visible_to(game), state["seq"]
        checked += 1
    assert checked > mine
    assert not errors
    page.close()


def drag(page: Any, source: Any, target: Any) -> None:
    """Drags ``source`` (a locator) onto ``target`` with the mouse, in steps."""
    start = source.bounding_box()
    end = target.bounding_box()
    assert start is not None
    assert end is not None
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + 10)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
    page.mouse.up()


def test_cards_are_dragged_to_where_they_go(browser: Any, server_url: str, tmp_path: Path) -> None:
    db = tmp_path / "browser.sqlite3"
    page = browser.new_page(viewport={"width": 1200, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    made = page.request.post(
        f"{server_url}/api/shared",
        data={"game": "double-solitaire", "seats": ["open", "random"], "deal": 4, "seed": 1},
    ).json()
    table = made["table"]
    page.goto(server_url + made["url"])
    page.fill("#mp-name", "Ann")
    page.click('button[data-join="0"]')
    page.wait_for_selector("[data-join]", state="detached")

    def facts() -> str:
        return page.text_content(FACTS) or ""

    def shown_seq() -> int:
        return int(page.get_attribute(FACTS, "data-seq") or 0)

    dragged = 0
    for _ in range(40):
        wait_until(lambda: "Your turn." in facts() or "to play." not in facts())
        if "Your turn." not in facts():
            break
        seq = shown_seq()
        game = true_game(db, table, seq)
        moves = [m for m in game.legal_moves() if m.source and m.target and m.count == 1]
        if not moves:
            page.locator("button[data-action]").first.click()
        else:
            move = moves[0]
            card = page.locator(f'.card.movable[data-pile="{move.source}"]').last
            if dragged == 0:
                # Let go where it may not go: the card goes back, nothing is sent.
                before = card.bounding_box()
                drag(page, card, page.locator('[data-pile="bstock"]').last)
                message = page.locator('[data-testid="message"]')
                wait_until(lambda m=message: "is not a legal move now" in (m.text_content() or ""))
                assert shown_seq() == seq
                back = page.locator(f'.card.movable[data-pile="{move.source}"]').last
                assert back.bounding_box() == before
            drag(page, card, page.locator(f'[data-pile="{move.target}"]').last)
            dragged += 1

        def moved(before: int = seq) -> bool:
            return shown_seq() > before

        wait_until(moved)
        if moves:
            assert true_game(db, table, seq + 1).move_stack[-1] == moves[0]
        if dragged >= 3:
            break
    assert dragged >= 3
    assert not errors
    page.close()
