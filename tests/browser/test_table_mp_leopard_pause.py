"""Leopard's end of a deal in chromium: the page keeps the deal's final squares and its points
on screen until the person goes on, while the table plays on (a pause of the page, not of the
rules); at the end of the match every face-down card is shown with who laid it."""

from __future__ import annotations

import contextlib
import json
import random
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect
from shared_tables import true_game, wait_until
from websockets.sync.client import ClientConnection, connect

from patience.moves import Move
from patience.store import Store


class Player:
    """A seat played by the test over the table's websocket."""

    def __init__(self, socket: ClientConnection, seat: int, name: str) -> None:
        self.socket = socket
        self.state: dict[str, Any] = {}
        self.socket.send(json.dumps({"type": "join", "seat": seat, "name": name}))
        self.read(lambda message: message.get("type") == "joined")

    def read(self, until: Any) -> None:
        while True:
            message = json.loads(self.socket.recv(timeout=10))
            if message.get("type") == "state" and message["seq"] >= self.state.get("seq", -1):
                self.state = message
            if until(message):
                return

    def catch_up(self, seq: int) -> None:
        if self.state.get("seq", -1) < seq or self.state.get("waiting"):
            self.read(
                lambda message: (
                    message.get("type") == "state"
                    and message["seq"] >= seq
                    and not message["waiting"]
                )
            )


def top_layers(page: Any) -> list[list[str]]:
    """What the page shows on each position of each square: a card, "down by S", or ""."""
    result: list[list[str]] = page.evaluate(
        """() => [...document.querySelectorAll("svg.mp-square")].map((svg) =>
            [...svg.querySelectorAll("[data-position]")].map((g) =>
              g.dataset.card ?? (g.dataset.downBy !== undefined ? `down by ${g.dataset.downBy}`
                : "")))"""
    )
    return result


def expected_layers(squares: list[list[list[Any]]]) -> list[list[str]]:
    def top(cell: list[Any]) -> str:
        if not cell:
            return ""
        layer = cell[-1]
        return layer if isinstance(layer, str) else f"down by {layer['by']}"

    return [[top(cell) for cell in square] for square in squares]


def test_the_end_of_a_deal_stays_until_the_person_goes_on(
    browser: Any, server_url: str, tmp_path: Path
) -> None:
    db = tmp_path / "browser.sqlite3"
    page = browser.new_page(viewport={"width": 1200, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    made = page.request.post(
        f"{server_url}/api/shared",
        data={"game": "leopard", "options": {"deals": 2}, "seats": ["open", "open"], "deal": 5},
    ).json()
    table = made["table"]
    ws = server_url.replace("http", "ws") + f"/ws/shared/{table}"
    sockets = contextlib.ExitStack()
    players = [
        Player(sockets.enter_context(connect(ws)), seat, name)
        for seat, name in enumerate(["Ann", "Bob"])
    ]
    page.goto(server_url + made["url"])  # a spectator: at the table too, and told the same
    facts = page.locator('[data-testid="facts"]')
    rng = random.Random(5)

    def play_until_deal(deals: int) -> int:
        """Moves (a declaration as soon as one may, else at random), each shown on the page
        before the next, until ``deals`` deals are scored; the seq of the last."""
        while True:
            seq = max(player.state["seq"] for player in players)
            for player in players:
                player.catch_up(seq)
            state = players[0].state
            if len(state["view"]["history"]) >= deals or state["outcome"]["result"] != "ongoing":
                return int(seq)
            mover = players[state["turn"]]
            legal = mover.state["view"]["legal_moves"]
            declare = [move for move in legal if move["action"] == "declare"]
            move = declare[0] if declare else rng.choice(legal)
            mover.socket.send(json.dumps({"type": "move", "move": move, "seq": seq}))
            mover.catch_up(seq + 1)
            shown = str(seq + 1)
            wait_until(lambda shown=shown: facts.get_attribute("data-seq") == shown)

    end = play_until_deal(1)
    pause = page.locator('[data-testid="deal-end"]')
    expect(pause).to_be_visible()
    # The squares as the deal ended: the true position before the last move, the move laid
    # on it (the engine stops at the deal's end when asked to).
    game = true_game(db, table, end - 1)
    with Store(db) as store:
        last = store.events(table)[end - 1]
    assert last.move is not None
    game.state.single_deal = True
    game.push(Move.parse(last.move))
    final = game.position()["squares"]
    assert top_layers(page) == expected_layers(final)
    points = players[0].state["view"]["history"][0]
    expect(pause).to_contain_text(f"Deal 1 is over: Ann {points[0]} point")
    expect(pause).to_contain_text(f"Bob {points[1]} point")
    # The table plays on meanwhile: the page keeps the end of deal 1 on screen.
    seq = end
    for _ in range(3):
        state = players[0].state
        mover = players[state["turn"]]
        mover.catch_up(seq)
        legal = mover.state["view"]["legal_moves"]
        mover.socket.send(json.dumps({"type": "move", "move": legal[0], "seq": seq}))
        mover.catch_up(seq + 1)
        for player in players:
            player.catch_up(seq + 1)
        seq += 1
    wait_until(lambda: facts.get_attribute("data-seq") == str(seq))
    expect(pause).to_be_visible()
    assert top_layers(page) == expected_layers(final)
    page.get_by_role("button", name="Go on to deal 2").click()
    expect(pause).to_have_count(0)
    now = true_game(db, table).position()["squares"]
    assert top_layers(page) == expected_layers(now)
    expect(page.locator(".mp-info")).to_contain_text(re.compile(r"^Deal 2 of 2"))

    # The match's end: every face-down card shown, with who laid it, to the spectator too.
    play_until_deal(2)
    banner = page.locator('[data-testid="banner"]')
    expect(banner).to_be_visible()
    expect(pause).to_have_count(0)
    squares = true_game(db, table).position()["squares"]
    for side, square in enumerate(squares):
        for index, cell in enumerate(square):
            if cell and isinstance(cell[-1], dict):
                shown = page.locator(
                    f'svg.mp-square g[data-square="{side}"][data-position="{index + 1}"]'
                )
                expect(shown).to_have_attribute("data-down-card", cell[-1]["down"])
    sockets.close()
    assert errors == []
    page.close()
