"""Leopard's end of a deal in chromium: the server holds the table at the deal's final squares
and its points until every person at the table goes on (a hold of the table, not a phase of the
rules: bots wait, moves are refused), and every page shows them and whom the table waits for; at
the end of the match every face-down card is shown with who laid it."""

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

import patience.bots
from patience.moves import Move
from patience.store import Store

HAND = "svg.mp-hand .card[data-card]"


class Player:
    """A seat played by the test over the table's websocket."""

    def __init__(self, socket: ClientConnection, seat: int, name: str, token: str = "") -> None:
        """Join ``seat`` as ``name``, or resume it with ``token`` (the page's)."""
        self.socket = socket
        self.state: dict[str, Any] = {}
        sit = {"type": "resume", "token": token} if token else {"type": "join", "seat": seat}
        self.socket.send(json.dumps({**sit, "name": name}))
        self.read(lambda message: message.get("type") == "joined")
        self.read(lambda message: message.get("type") == "state" and message["seat"] == seat)

    def send(self, message: dict[str, Any]) -> None:
        self.socket.send(json.dumps(message))

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

    def error(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send ``message``; the error it gets."""
        self.send(message)
        answer: dict[str, Any] = {}

        def got(reply: dict[str, Any]) -> bool:
            answer.update(reply)
            return reply.get("type") == "error"

        self.read(got)
        return answer


def top_layers(page: Any) -> list[list[str]]:
    """What the page shows on each position of each square: a card, "down by S", or ""."""
    result: list[list[str]] = page.evaluate(
        """() => [...document.querySelectorAll("svg.mp-square")].map((svg) =>
            [...svg.querySelectorAll("[data-position]")].map((g) =>
              g.dataset.card ?? (g.dataset.downBy !== undefined ? `down by ${g.dataset.downBy}`
                : "")))"""
    )
    return result


def deal_end_squares(db: Path, table: str, end: int) -> list[list[list[Any]]]:
    """The squares as the deal ended by stored move ``end`` ended: the true position before
    that move, the move laid on it (the engine stops at the deal's end when asked to)."""
    game = true_game(db, table, end - 1)
    with Store(db) as store:
        last = store.events(table)[end - 1]
    assert last.move is not None
    game.state.single_deal = True  # type: ignore[attr-defined]
    game.push(Move.parse(last.move))
    squares: list[list[list[Any]]] = game.position()["squares"]
    return squares


def expected_layers(squares: list[list[list[Any]]]) -> list[list[str]]:
    def top(cell: list[Any]) -> str:
        if not cell:
            return ""
        layer = cell[-1]
        return layer if isinstance(layer, str) else f"down by {layer['by']}"

    return [[top(cell) for cell in square] for square in squares]


def test_the_end_of_a_deal_is_held_until_everybody_goes_on(
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
        before the next, until ``deals`` deals are scored (both going on at the end of a deal
        before); the seq of the last."""
        while True:
            seq = max(player.state["seq"] for player in players)
            for player in players:
                player.catch_up(seq)
            state = players[0].state
            if len(state["view"]["history"]) >= deals or state["outcome"]["result"] != "ongoing":
                return int(seq)
            if state["hold"] is not None:
                for player in players:
                    player.send({"type": "go-on", "seq": seq})
                for player in players:
                    player.read(lambda m: m.get("type") == "state" and m["hold"] is None)
                continue
            mover = players[state["turn"]]
            legal = mover.state["view"]["legal_moves"]
            declare = [move for move in legal if move["action"] == "declare"]
            move = declare[0] if declare else rng.choice(legal)
            mover.send({"type": "move", "move": move, "seq": seq})
            mover.catch_up(seq + 1)
            shown = str(seq + 1)
            wait_until(lambda shown=shown: facts.get_attribute("data-seq") == shown)

    end = play_until_deal(1)
    pause = page.locator('[data-testid="deal-end"]')
    expect(pause).to_be_visible()
    # The squares as the deal ended, from the server's hold (the game has dealt deal 2).
    final = deal_end_squares(db, table, end)
    assert top_layers(page) == expected_layers(final)
    points = players[0].state["view"]["history"][0]
    expect(pause).to_contain_text(f"Deal 1 is over: Ann {points[0]} point")
    expect(pause).to_contain_text(f"Bob {points[1]} point")
    waiting = page.locator('[data-testid="hold-waiting"]')
    expect(waiting).to_contain_text("Waiting for Ann and Bob to go on.")
    expect(pause.get_by_role("button")).to_have_count(0)  # a spectator is not waited for
    # The table waits for both: a move is refused, and nothing changes.
    state = players[0].state
    mover = players[state["turn"]]
    refused = mover.error(
        {"type": "move", "move": mover.state["view"]["legal_moves"][0], "seq": end}
    )
    assert refused["status"] == 409
    assert refused["reason"]["kind"] == "hold"
    # Ann goes on: the page says the table now waits for Bob alone.
    players[0].send({"type": "go-on", "seq": end})
    expect(waiting).to_contain_text("Waiting for Bob to go on.")
    expect(pause).to_be_visible()
    assert top_layers(page) == expected_layers(final)
    assert facts.get_attribute("data-seq") == str(end)
    players[1].send({"type": "go-on", "seq": end})
    expect(pause).to_have_count(1)
    expect(pause).to_be_hidden()
    now = true_game(db, table).position()["squares"]
    assert top_layers(page) == expected_layers(now)
    expect(page.locator(".mp-info")).to_contain_text(re.compile(r"^Deal 2 of 2"))
    for player in players:
        player.read(lambda m: m.get("type") == "state" and m["hold"] is None)

    # The match's end: every face-down card shown, with who laid it, to the spectator too.
    play_until_deal(99)
    banner = page.locator('[data-testid="banner"]')
    expect(banner).to_be_visible()
    expect(pause).to_be_hidden()
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


def test_a_person_looks_at_the_end_of_a_deal_while_the_bot_waits(
    browser: Any, server_url: str, tmp_path: Path
) -> None:
    """Ann plays a bot in her browser: at the end of deal 1 her page stays on the scored
    squares, and the bot (the first to play deal 2) waits, until she clicks Go on."""
    db = tmp_path / "browser.sqlite3"
    page = browser.new_page(viewport={"width": 1200, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    made = page.request.post(
        f"{server_url}/api/shared",
        data={
            "game": "leopard",
            "options": {"deals": 2},
            "seats": ["open", "greedy"],
            "deal": 5,
            "seed": 1,
        },
    ).json()
    table = made["table"]
    page.goto(server_url + made["url"])
    page.fill("#mp-name", "Ann")
    page.click('button[data-join="0"]')
    page.wait_for_selector(HAND)
    token = page.evaluate(f"() => localStorage.getItem('patience-seat-{table}')")
    facts = page.locator('[data-testid="facts"]')
    # Her moves are made quickly, over a second connection to her seat (her token): the page
    # is told of each as any connection is.
    greedy = patience.bots.get("greedy", seed=3)
    with connect(server_url.replace("http", "ws") + f"/ws/shared/{table}") as socket:
        ann = Player(socket, 0, "Ann", token=token)
        for _ in range(500):
            state = ann.state
            if state["hold"] is not None:
                break
            seq = state["seq"]
            legal = state["view"]["legal_moves"]
            if state["turn"] == 0 and legal:
                declare = [move for move in legal if move["action"] == "declare"]
                move = declare[0] if declare else greedy.choose(state["view"]).to_json()
                ann.send({"type": "move", "move": move, "seq": seq})
            ann.read(lambda m, seq=seq: m.get("type") == "state" and m["seq"] > seq)
        held = ann.state
        end = held["seq"]
        assert held["hold"]["waiting"] == [0]
        assert held["turn"] == 1  # the bot plays first in deal 2: it is the one that waits
        pause = page.locator('[data-testid="deal-end"]')
        expect(pause).to_be_visible()
        expect(pause).to_contain_text("Deal 1 is over: Ann ")
        expect(page.locator('[data-testid="hold-waiting"]')).to_contain_text(
            "The table waits for you to go on."
        )
        final = deal_end_squares(db, table, end)
        assert top_layers(page) == expected_layers(final)
        # Her hand as the deal ended, and nothing to play.
        shown = sorted(card.get_attribute("data-card") for card in page.locator(HAND).all())
        assert shown == sorted(held["hold"]["view"]["hands"][0])
        expect(page.locator(f"{HAND}.movable")).to_have_count(0)
        # The bot waits: a while later the table and the page are where the deal ended.
        page.wait_for_timeout(1500)
        assert page.request.get(f"{server_url}/api/shared/{table}").json()["seq"] == end
        assert facts.get_attribute("data-seq") == str(end)
        assert top_layers(page) == expected_layers(final)
        expect(pause).to_be_visible()
        # She goes on: the hold ends, the bot plays the first card of deal 2, and the page
        # shows the table as it stands.
        page.get_by_role("button", name="Go on to deal 2").click()
        expect(pause).to_be_hidden()
        ann.read(lambda m: m.get("type") == "state" and m["seq"] > end)
        moved = ann.state
        assert moved["last"]["seat"] == 1
        wait_until(lambda: facts.get_attribute("data-seq") == str(moved["seq"]))
        now = true_game(db, table, moved["seq"]).position()["squares"]
        assert top_layers(page) == expected_layers(now)
        expect(page.locator(".mp-info")).to_contain_text(re.compile(r"^Deal 2 of 2"))
    assert errors == []
    page.close()
