"""Shared tables (server/service.py) through Starlette's test client: creating, joining, playing,
reconnecting, refusals, bots standing in for absent people, and a scanner that fails when any
message to a seat carries a card that seat may not see."""

from __future__ import annotations

import contextlib
import json
import random
import re
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

import patience
import patience.bots
from patience.engine import SPECTATOR
from patience.games import get_rules
from patience.moves import Move
from patience.server import MAX_BODY, create_app, service
from patience.server.catalogue import shared_games
from patience.server.service import TableService
from patience.server.table import Dialect, Table, shared_request
from patience.store import Store

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient, WebSocketTestSession

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")

CARD = re.compile(r"^[2-9TJQKA][cdhs]$")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "shared.sqlite3"


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_path)) as test_client:
        yield test_client


def create(client: TestClient, game: str, seats: list[str], **extra: Any) -> str:
    response = client.post("/api/shared", json={"game": game, "seats": seats, **extra})
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["url"] == f"/table/{body['table']}"
    return str(body["table"])


# -- the scanner: what each seat may see, from the true state ------------------------------------


class Scanner:
    """Replays a table's stored moves to the ``seq`` a message names and checks that every card
    in the message is one its seat may see in that true position."""

    def __init__(self, db_path: Path, table: str) -> None:
        self.db_path, self.table = db_path, table
        self.checked = 0
        #: States seen with a hold at the end of a deal, checked.
        self.holds = 0
        self._game: patience.Game | None = None
        self._visible: dict[tuple[int, int | None], tuple[set[str], bool]] = {}

    def game_at(self, seq: int) -> patience.Game:
        """The true game after the first ``seq`` stored moves (replayed forward, kept)."""
        with Store(self.db_path) as store:
            row = store.table(self.table)
            events = store.events(self.table)
        assert row is not None
        assert len(events) >= seq
        game = self._game
        if game is None or len(game.move_stack) > seq:
            game = patience.Game.create(get_rules(row.game, row.options), deal=row.deal)
        for event in events[len(game.move_stack) : seq]:
            assert event.move is not None
            game.push(Move.parse(event.move))
        self._game = game
        return game

    @staticmethod
    def visible(
        game: patience.Game, seat: int | None, *, match_over: bool | None = None
    ) -> set[str]:
        """Every card text ``seat`` (None: a spectator) may see, by the rules of the game
        (``match_over``: whether Leopard's face-down cards are shown to all; by default, once
        the game is over)."""
        if match_over is None:
            match_over = game.is_over()
        position = game.position()
        seen: set[str] = set()
        if game.name == "leopard":
            seen.update(position["piles"]["discards"]["up"])
            if seat is not None:
                seen.update(position["hands"][seat])
            for square in position["squares"]:
                for cell in square:
                    for layer in cell:
                        if isinstance(layer, str):
                            seen.add(layer)
                        elif layer["by"] == seat or match_over:
                            # Every face-down card is shown once the match is over
                            # (docs/rules/leopard.md, ruling 7).
                            seen.add(layer["down"])
        else:
            for pile in position["piles"].values():
                seen.update(pile["up"])
        return seen

    def check(self, message: dict[str, Any], seat: int | None) -> None:
        state = message.get("state", message) if message.get("type") != "joined" else None
        if not state or state.get("type") != "state":
            return
        key = (state["seq"], seat)
        if key not in self._visible:
            game = self.game_at(state["seq"])
            self._visible[key] = (self.visible(game, seat), game.is_over())
        allowed, over = self._visible[key]
        # The last move is checked apart: everybody sees a discard or a card played face up,
        # even when it ends a deal (and the next deal's view no longer shows it).
        # So is a hold's view: the end of the deal before, not the position now.
        rest = {name: value for name, value in state.items() if name not in ("last", "hold")}
        cards = [text for text in strings(rest) if CARD.match(text)]
        leaked = set(cards) - allowed
        assert not leaked, f"seat {seat} was sent {sorted(leaked)} at seq {state['seq']}: {state}"
        if state["last"] is not None:
            self.check_last(state["last"], state["seq"], seat)
        if state.get("hold") is not None:
            self.check_hold(state["hold"], state["seq"], seat)
        if not over:
            assert state["deal"] is None  # the deal number gives every card away
        if state["game"] == "leopard":
            hands = state["view"]["hands"]
            assert all(hand is None for index, hand in enumerate(hands) if index != seat)
        self.checked += 1

    def deal_end(self, seq: int) -> patience.Game:
        """The true game as the deal ended by stored move ``seq`` ended: the position before
        it, the move made with the play stopped at the deal's end (Leopard's ``single_deal``),
        worked out here apart from the server's ``Rules.deal_end``."""
        with Store(self.db_path) as store:
            event = store.events(self.table)[seq - 1]
        assert event.move is not None
        before = self.game_at(seq - 1)
        state = before.state.copy()
        state.single_deal = True  # type: ignore[attr-defined]
        ended = patience.Game.create(before.rules, state=state)
        ended.push(Move.parse(event.move))
        return ended

    def check_hold(self, hold: dict[str, Any], seq: int, seat: int | None) -> None:
        """A hold at the end of a deal shows that deal's last position as the seat saw it: no
        card beyond what it could see then, the face-down cards of others still hidden (the
        match goes on), no other hand, and no move to make."""
        ended = self.deal_end(seq)
        allowed = self.visible(ended, seat, match_over=False)
        leaked = {text for text in strings(hold) if CARD.match(text)} - allowed
        assert not leaked, f"seat {seat} was sent {sorted(leaked)} in the hold at seq {seq}"
        view = hold["view"]
        assert "legal_moves" not in view
        assert view["squares"] == ended.view(SPECTATOR if seat is None else seat)["squares"]
        assert all(hand is None for index, hand in enumerate(view["hands"]) if index != seat)
        self.holds += 1

    def check_last(self, last: dict[str, Any], seq: int, seat: int | None) -> None:
        """The last move is the stored one; a Leopard jack or queen (laid face down) is named
        only to the seat that laid it."""
        with Store(self.db_path) as store:
            event = store.events(self.table)[seq - 1]
        assert event.move is not None
        true = Move.parse(event.move).to_json()
        assert last["seat"] == event.seat
        hidden = str(true.get("card", ""))[:1] in ("J", "Q") and true.get("action") == "play"
        if hidden and seat != event.seat:
            assert last["move"] == {**true, "card": None}, last
        else:
            assert last["move"] == true


def strings(data: object) -> Iterator[str]:
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield key
            yield from strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from strings(value)


class Conn:
    """A websocket with a receive that times out, every message passed through the scanner."""

    def __init__(self, socket: WebSocketTestSession, scanner: Scanner) -> None:
        self.socket, self.scanner = socket, scanner
        self.seat: int | None = None
        self.state: dict[str, Any] = {}

    def send(self, data: object) -> None:
        self.socket.send_text(data if isinstance(data, str) else json.dumps(data))

    def receive(self, timeout: float = 10.0) -> dict[str, Any]:
        async def get() -> Any:
            with anyio.fail_after(timeout):
                return await self.socket._send_rx.receive()

        message = self.socket.portal.call(get)
        assert message["type"] == "websocket.send", message
        data: dict[str, Any] = json.loads(message["text"])
        self.scanner.check(data, self.seat)
        if data["type"] == "state":
            self.state = data
        elif data["type"] == "joined":
            self.seat = data["seat"]
        return data

    def until(self, test: Any, timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            message = self.receive(max(0.05, deadline - time.monotonic()))
            if test(message):
                return message

    def join(self, seat: int, name: str) -> str:
        self.send({"type": "join", "seat": seat, "name": name})
        joined = self.until(lambda m: m["type"] in ("joined", "error"))
        assert joined["type"] == "joined", joined
        self.until(lambda m: m["type"] == "state")
        return str(joined["token"])

    def error(self, data: object) -> dict[str, Any]:
        self.send(data)
        return self.until(lambda m: m["type"] == "error")


def is_state(message: dict[str, Any]) -> bool:
    return bool(message["type"] == "state")


# -- creating -----------------------------------------------------------------------------------


def test_the_catalogue_and_bad_tables(client: TestClient) -> None:
    catalogue = client.get("/api/shared/games").json()
    assert [game["name"] for game in catalogue["games"]] == shared_games()
    assert {"leopard", "double-solitaire"} <= set(shared_games())
    assert {"random", "greedy", "ismcts"} <= {bot["name"] for bot in catalogue["bots"]}
    bad = [
        {"game": "klondike", "seats": ["open"]},
        {"game": "nosuch"},
        {"game": "leopard", "seats": ["open"]},
        {"game": "leopard", "seats": ["open", "genius"]},
        {"game": "leopard", "seats": ["open", "greedy"], "absence": -1},
        {"game": "leopard", "seats": ["open", "greedy"], "absence": 0},
        {"game": "leopard", "seats": ["open", "greedy"], "absence": "abc"},
        {"game": "leopard", "seats": ["open", "greedy"], "absence": service.MAX_ABSENCE + 1},
        {"game": "leopard", "seats": ["open", "greedy"], "stand_in": "genius"},
        {"game": "leopard", "options": {"players": 5}},
        [1, 2],
    ]
    for body in bad:
        response = client.post("/api/shared", json=body)
        assert response.status_code == 400, body
        assert response.json()["error"]
    assert client.post("/api/shared", content=b"{" * (MAX_BODY + 1)).status_code == 413
    assert client.get("/api/shared/nosuch").status_code == 404
    table = create(client, "leopard", ["open", "open", "greedy"], options={"players": 3})
    state = client.get(f"/api/shared/{table}").json()
    assert [seat["kind"] for seat in state["seats"]] == ["open", "open", "bot"]
    assert state["waiting"]
    assert state["deal"] is None
    assert state["view"]["hands"] == [None] * 3
    assert client.get("/tables").status_code == 200
    assert client.get(f"/table/{table}").status_code == 200


# -- two people play Leopard to the end -------------------------------------------------------


def play(
    client: TestClient, table: str, seats: dict[int, Conn], watch: Conn, rng: random.Random, n: int
) -> None:
    """Make up to ``n`` random moves (declaring once the deal is well on), each through the
    seat to move; every connection must hear of each move."""
    for _ in range(n):
        state = seats[0].state
        if state["outcome"]["result"] != "ongoing":
            return
        mover = seats[state["turn"]]
        seq = mover.state["seq"]
        moves = mover.state["view"]["legal_moves"]
        assert moves
        assert not any(c.state["view"]["legal_moves"] for c in seats.values() if c is not mover)
        declare = {"action": "declare"}
        move = declare if declare in moves and seq > 30 else rng.choice(moves)
        mover.send({"type": "move", "move": move, "seq": seq})
        for conn in (*seats.values(), watch):
            assert conn.until(is_state)["seq"] == seq + 1


def test_two_people_play_leopard_with_every_refusal(client: TestClient, db_path: Path) -> None:
    # A chosen deal: a random one may end before the scanner has seen a hundred messages.
    table = create(client, "leopard", ["open", "open"], options={"deals": 1}, deal=5)
    scanner = Scanner(db_path, table)
    url = f"/ws/shared/{table}"
    with contextlib.ExitStack() as stack:
        a, b, watch = (
            Conn(stack.enter_context(client.websocket_connect(url)), scanner) for _ in range(3)
        )
        for conn in (a, b, watch):
            assert conn.receive()["seat"] is None  # everybody starts as a spectator
        token_a = a.join(0, "Ann")
        b.receive()
        watch.receive()
        # Play does not start before every seat is taken.
        assert a.error({"type": "move", "move": "draw", "seq": 0})["status"] == 409
        token_b = b.join(1, "Bob")
        a.until(is_state)
        watch.until(is_state)
        assert b.error({"type": "join", "seat": 0, "name": "Eve"})["status"] == 409
        assert watch.error({"type": "join", "seat": 0, "name": "Eve"})["status"] == 409
        assert watch.error({"type": "resume", "token": "wrong"})["status"] == 403
        assert watch.error({"type": "move", "move": "draw", "seq": 0})["status"] == 403
        assert a.state["view"]["hands"][0]
        assert a.state["view"]["hands"][1] is None
        assert b.state["view"]["hands"][1]
        assert b.state["view"]["hands"][0] is None
        # The scanner fails on a leak: Bob's card (one Ann cannot see) put into Ann's state.
        hidden = set(b.state["view"]["hands"][1]) - Scanner.visible(scanner.game_at(0), 0)
        leak = json.loads(json.dumps(a.state))
        leak["view"]["piles"]["discards"]["up"].append(sorted(hidden)[0])
        with pytest.raises(AssertionError, match="was sent"):
            scanner.check(leak, 0)

        # Refused messages: each gets an error and changes nothing.
        mover, other = (a, b) if a.state["turn"] == 0 else (b, a)
        move = mover.state["view"]["legal_moves"][0]
        assert other.error({"type": "move", "move": move, "seq": 0})["status"] == 422
        stale = mover.error({"type": "move", "move": move, "seq": 7})
        assert stale["status"] == 409
        assert stale["state"]["seq"] == 0
        assert mover.error("{oops")["status"] == 400
        assert mover.error("[1]")["status"] == 400
        assert mover.error("x" * (MAX_BODY + 1))["status"] == 413
        assert mover.error({"type": "move", "seq": 0})["status"] == 400
        assert mover.error({"type": "move", "move": move})["status"] == 400
        assert mover.error({"type": "teleport"})["status"] == 400
        bad = {"action": "play", "card": "Kh", "square": 1, "position": 1}
        assert mover.error({"type": "move", "move": bad, "seq": 0})["status"] == 422
        raw_a = a.socket
        raw_a.send_bytes(b"{}")
        assert a.until(lambda m: m["type"] == "error")["status"] == 400
        assert client.get(f"/api/shared/{table}").json()["seq"] == 0

        rng = random.Random(5)
        seats = {0: a, 1: b}
        play(client, table, seats, watch, rng, 12)
        # Bob reloads his page: a new connection and his token give him his seat back.
        hand = b.state["view"]["hands"][1]
        b.socket.close()
        a.until(lambda m: is_state(m) and not m["seats"][1]["connected"])
        watch.until(is_state)
        again = Conn(stack.enter_context(client.websocket_connect(url)), scanner)
        again.receive()
        assert again.error({"type": "resume", "token": token_a + "x"})["status"] == 403
        again.send({"type": "resume", "token": token_b})
        assert again.until(lambda m: m["type"] == "joined")["seat"] == 1
        assert again.until(is_state)["view"]["hands"][1] == hand
        assert a.until(is_state)["seats"][1]["connected"]
        watch.until(is_state)
        seats[1] = again
        play(client, table, seats, watch, rng, 1000)
        final = a.state
    assert final["outcome"]["result"] in ("won", "draw")
    assert final["deal"] is not None  # told at the end
    assert token_a != token_b
    assert scanner.checked > 100
    text = client.get(f"/api/shared/{table}/record").text
    assert "[Players " in text
    assert "Ann" in text
    assert "Bob" in text


def test_the_record_waits_for_the_end(client: TestClient) -> None:
    table = create(client, "double-solitaire", ["open", "random"])
    response = client.get(f"/api/shared/{table}/record")
    assert response.status_code == 409
    assert "every card" in response.json()["error"]


# -- bots stand in for the absent, and give the seat back ---------------------------------------


def test_a_bot_stands_in_for_an_absent_player_and_gives_the_seat_back(
    client: TestClient, db_path: Path
) -> None:
    table = create(client, "leopard", ["open", "greedy"], absence=0.3)
    scanner = Scanner(db_path, table)
    url = f"/ws/shared/{table}"
    with client.websocket_connect(url) as raw_watch:
        watch = Conn(raw_watch, scanner)
        watch.receive()
        with client.websocket_connect(url) as raw_ann:
            ann = Conn(raw_ann, scanner)
            ann.receive()
            token = ann.join(0, "Ann")
            assert ann.state["turn"] == 0
            ann.send({"type": "move", "move": ann.state["view"]["legal_moves"][0], "seq": 0})
            # The greedy bot answers at once, off the event loop.
            ann.until(lambda m: is_state(m) and m["turn"] == 0 and m["seq"] >= 2)
            # Ann is still here: however long we wait, nobody plays for her.
            time.sleep(0.5)
            left_at = ann.state["seq"]
            assert client.get(f"/api/shared/{table}").json()["seq"] == left_at
        gone = time.monotonic()
        # She leaves; after the absence, the stand-in plays her seat.
        stood = watch.until(lambda m: is_state(m) and m["seq"] > left_at)
        assert stood["last"]["seat"] == 0
        assert time.monotonic() - gone >= 0.25
        assert stood["seats"][0]["stand_in"]
        assert not stood["seats"][0]["connected"]
        with client.websocket_connect(url) as raw_back:
            back = Conn(raw_back, scanner)
            back.receive()
            back.send({"type": "resume", "token": token})
            assert back.until(lambda m: m["type"] == "joined")["seat"] == 0
            # The seat is hers again: once it is her turn, it waits for her.
            mine = back.until(lambda m: is_state(m) and m["turn"] == 0 and not m["waiting"])
            assert not mine["seats"][0]["stand_in"]
            time.sleep(0.6)
            seq = client.get(f"/api/shared/{table}").json()["seq"]
            while back.state["seq"] != seq:
                back.until(is_state)
            assert back.state["turn"] == 0
            back.send({"type": "move", "move": back.state["view"]["legal_moves"][0], "seq": seq})
            back.until(lambda m: is_state(m) and m["seq"] > seq)
    assert scanner.checked > 5


# -- Double Solitaire against a bot; a table survives a restart of the server -------------------


def test_double_solitaire_against_a_bot_then_a_restart(db_path: Path) -> None:
    with TestClient(create_app(db_path)) as client:
        table = create(client, "double-solitaire", ["open", "random"], deal=3)
        scanner = Scanner(db_path, table)
        with client.websocket_connect(f"/ws/shared/{table}") as raw:
            me = Conn(raw, scanner)
            me.receive()
            token = me.join(0, "Ann")
            rng = random.Random(1)
            played = 0
            while played < 40 and me.state["outcome"]["result"] == "ongoing":
                state = client.get(f"/api/shared/{table}").json()
                while me.state["seq"] != state["seq"]:
                    me.until(is_state)
                if state["turn"] != 0 or state["outcome"]["result"] != "ongoing":
                    me.until(is_state)  # the bot is thinking
                    continue
                moves = me.state["view"]["legal_moves"]
                me.send({"type": "move", "move": rng.choice(moves), "seq": me.state["seq"]})
                answer = me.until(lambda m: m["type"] in ("state", "error"))
                assert answer["type"] == "state", answer
                played += 1
        seq = client.get(f"/api/shared/{table}").json()["seq"]
        assert played >= 10
        assert scanner.checked > played
    # A new server on the same store: the table, its seats and the token come back.
    with TestClient(create_app(db_path)) as client:
        state = client.get(f"/api/shared/{table}").json()
        assert state["seq"] >= seq
        assert state["seats"][0]["name"] == "Ann"
        with client.websocket_connect(f"/ws/shared/{table}") as raw:
            me = Conn(raw, scanner)
            me.receive()
            me.send({"type": "resume", "token": token})
            assert me.until(lambda m: m["type"] == "joined")["seat"] == 0
            assert me.until(is_state)["view"]["seat"] == 0


def test_an_unknown_table_closes_the_socket(client: TestClient) -> None:
    with client.websocket_connect("/ws/shared/nosuch") as socket:
        assert socket.receive_json()["status"] == 404


# -- four players: partners ask "may I end?" and answer -----------------------------------------


def drive(
    client: TestClient, table: str, conns: dict[int, Conn], choose: Any, limit: int = 2000
) -> dict[str, Any]:
    """Play the people's seats with ``choose(view)`` while bots play the rest, to the end."""
    for _ in range(limit):
        state: dict[str, Any] = client.get(f"/api/shared/{table}").json()
        for conn in conns.values():
            while conn.state["seq"] < state["seq"]:
                conn.until(is_state)
        if state["outcome"]["result"] != "ongoing":
            return state
        hold = state["hold"]
        if hold is not None:  # the end of a deal: each person goes on
            for seat in hold["waiting"]:
                conn = conns[seat]
                conn.send({"type": "go-on", "seq": state["seq"]})
                conn.until(
                    lambda m, seat=seat: (
                        is_state(m) and seat not in (m["hold"] or {"waiting": []})["waiting"]
                    )
                )
            continue
        mover = conns.get(state["turn"])
        if mover is not None and mover.state["seq"] == state["seq"]:
            move = choose(mover.state["view"])
            mover.send({"type": "move", "move": move, "seq": state["seq"]})
            reply = mover.until(lambda m: m["type"] in ("state", "error"))
            assert reply["type"] == "state", reply
        else:
            next(iter(conns.values())).until(is_state)  # a bot is to move
    raise AssertionError("the game did not end")


DEAL, SEED = 4, 1


def test_four_players_ask_and_answer(client: TestClient, db_path: Path) -> None:
    table = create(
        client,
        "leopard",
        ["open", "greedy", "open", "greedy"],
        options={"players": 4, "deals": 2},
        deal=DEAL,
        seed=SEED,
    )
    scanner = Scanner(db_path, table)
    greedy = patience.bots.get("greedy", seed=3)
    asked: list[dict[str, Any]] = []

    def choose(view: dict[str, Any]) -> Any:
        moves = view["legal_moves"]
        if {"action": "ask"} in moves:
            return {"action": "ask"}
        if view["phase"] == "answer":
            asked.append(view)
            assert sorted(m["yes"] for m in moves) == [False, True]
            return moves[len(asked) % 2]
        return greedy.choose(view).to_json()

    url = f"/ws/shared/{table}"
    with client.websocket_connect(url) as raw_a, client.websocket_connect(url) as raw_c:
        a, c = Conn(raw_a, scanner), Conn(raw_c, scanner)
        a.receive()
        c.receive()
        a.join(0, "Ann")
        c.join(2, "Cy")
        final = drive(client, table, {0: a, 2: c}, choose)
    assert final["outcome"]["result"] in ("won", "draw")
    assert asked, "nobody asked his partner"
    assert all(view["asker"] == (view["seat"] + 2) % 4 for view in asked)
    assert scanner.checked > 50
    assert scanner.holds > 0  # the end of deal 1 was held, and looked at


# -- memory holds only the tables in use -----------------------------------------------------------


def test_idle_tables_leave_memory_and_come_back_from_the_store(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service, "TABLES_IN_MEMORY", 3)

    def seen(tables: TableService, table: Table) -> dict[str, Any]:
        state = tables.state(table, None, Dialect.SHARED)
        return {name: value for name, value in state.items() if name != "elapsed"}

    async def scenario() -> None:
        with Store(db_path) as store:
            tables = TableService(store)
            created = [
                await tables.create(
                    shared_request(
                        {"game": "double-solitaire", "seats": ["open", "random"], "deal": n}
                    )
                )
                for n in range(1, 8)
            ]
            # Nobody joined any of them: memory never held more than the limit.
            assert tables.in_memory <= 3
            for table in created:
                again = await tables.get(table.id)
                assert again.game.deal == table.game.deal
                assert seen(tables, again) == seen(tables, table)
            assert tables.in_memory <= 3

    anyio.run(scenario)


# -- bots play only while somebody is at the table ------------------------------------------------


def seq_of(client: TestClient, table: str) -> int:
    return int(client.get(f"/api/shared/{table}").json()["seq"])


def test_bots_wait_while_nobody_is_connected(client: TestClient, db_path: Path) -> None:
    table = create(client, "double-solitaire", ["random", "random"], deal=2, seed=1)
    scanner = Scanner(db_path, table)
    time.sleep(0.3)
    assert seq_of(client, table) == 0  # nobody there: the bots wait
    url = f"/ws/shared/{table}"
    with client.websocket_connect(url) as raw:
        watch = Conn(raw, scanner)
        watch.receive()
        # A spectator came: the bots play on.
        watch.until(lambda m: is_state(m) and m["seq"] >= 3)
    time.sleep(0.2)  # a move a bot was thinking about when he left
    seq = seq_of(client, table)
    time.sleep(0.3)
    assert seq_of(client, table) == seq
    assert client.get(f"/api/shared/{table}").json()["outcome"]["result"] == "ongoing"

    # A person who left alone: nobody plays for her while nobody is there; once somebody
    # comes, the absence rule holds again and her stand-in plays.
    table = create(client, "leopard", ["open", "greedy"], absence=0.1, deal=3, seed=2)
    url = f"/ws/shared/{table}"
    scanner = Scanner(db_path, table)
    with client.websocket_connect(url) as raw:
        ann = Conn(raw, scanner)
        ann.receive()
        ann.join(0, "Ann")
        if ann.state["turn"] != 0:
            ann.until(lambda m: is_state(m) and m["turn"] == 0)
        left_at = ann.state["seq"]
    time.sleep(0.5)
    assert seq_of(client, table) == left_at
    with client.websocket_connect(url) as raw:
        watch = Conn(raw, scanner)
        watch.receive()
        stood = watch.until(lambda m: is_state(m) and m["seq"] > left_at)
        assert stood["last"]["seat"] == 0
        assert stood["seats"][0]["stand_in"]


def test_tables_of_bots_alone_leave_memory(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service, "TABLES_IN_MEMORY", 3)

    async def scenario() -> None:
        with Store(db_path) as store:
            tables = TableService(store)
            created = [
                await tables.create(
                    shared_request({"game": "leopard", "seats": ["random", "random"], "deal": n})
                )
                for n in range(1, 8)
            ]
            await anyio.sleep(0.05)
            assert all(table.bot_task is None for table in created)
            assert all(table.events == 0 for table in created)
            assert tables.in_memory <= 3

    anyio.run(scenario)


def test_the_catalogue_labels_and_the_heading(client: TestClient) -> None:
    catalogue = client.get("/api/shared/games").json()
    leopard = next(game for game in catalogue["games"] if game["name"] == "leopard")
    assert {o["name"]: o["label"] for o in leopard["options"]}["deals"] == "Deals in a match"
    # RULES.md: a match of six deals with three players, eight with two or four.
    assert {n: d["deals"] for n, d in leopard["defaults_by_players"].items()} == {
        "2": 8,
        "3": 6,
        "4": 8,
    }
    assert catalogue["max_absence"] == service.MAX_ABSENCE
    table = create(client, "leopard", ["open", "greedy", "greedy"], options={"players": 3})
    state = client.get(f"/api/shared/{table}").json()
    assert state["heading"] == "Leopard · 3 players · 6 deals a match"
    table = create(client, "double-solitaire", ["open", "greedy"], options={"auto_stop": "off"})
    state = client.get(f"/api/shared/{table}").json()
    assert state["heading"] == (
        "Double Solitaire · 1 pass through the stock · stop called by the players"
    )


def test_everybody_is_told_at_once_when_a_bot_takes_a_seat_over(
    client: TestClient, db_path: Path
) -> None:
    table = create(client, "leopard", ["open", "open"], absence=0.3, deal=3, seed=2)
    scanner = Scanner(db_path, table)
    url = f"/ws/shared/{table}"
    with client.websocket_connect(url) as raw_ann:
        ann = Conn(raw_ann, scanner)
        ann.receive()
        ann.join(0, "Ann")
        with client.websocket_connect(url) as raw_bob:
            bob = Conn(raw_bob, scanner)
            bob.receive()
            bob.join(1, "Bob")
            ann.until(lambda m: is_state(m) and not m["waiting"])
            # Bob plays until it is Ann's turn; then he leaves.
            while bob.state["turn"] == 1:
                move = bob.state["view"]["legal_moves"][0]
                bob.send({"type": "move", "move": move, "seq": bob.state["seq"]})
                bob.until(is_state)
            while ann.state["seq"] < bob.state["seq"]:
                ann.until(is_state)
        assert ann.state["turn"] == 0
        gone = time.monotonic()
        away = ann.until(lambda m: is_state(m) and not m["seats"][1]["connected"])
        assert not away["seats"][1]["stand_in"]
        # Not his turn, and nobody moves: still, once his absence is over, Ann hears that a
        # bot plays for him now.
        stood = ann.until(lambda m: is_state(m) and m["seats"][1]["stand_in"], timeout=3)
        assert time.monotonic() - gone >= 0.25
        assert stood["seq"] == away["seq"]
        assert stood["turn"] == 0


def test_the_lobby_lists_the_tables_their_creators_listed(
    client: TestClient, db_path: Path
) -> None:
    assert client.get("/api/lobby").json() == {"tables": []}
    unlisted = create(client, "leopard", ["open", "greedy"])
    listed = create(
        client, "leopard", ["open", "open", "greedy"], options={"players": 3}, listed=True
    )
    bots = create(client, "double-solitaire", ["greedy", "random"], listed=True)
    tables = client.get("/api/lobby").json()["tables"]
    by_id = {entry["table"]: entry for entry in tables}
    assert unlisted not in by_id
    assert [entry["table"] for entry in tables] == [bots, listed]  # the newest first
    entry = by_id[listed]
    assert entry["url"] == f"/table/{listed}"
    assert entry["heading"] == "Leopard · 3 players · 6 deals a match"
    assert (entry["open"], entry["bots"]) == (2, 1)
    assert [seat["kind"] for seat in entry["seats"]] == ["open", "open", "bot"]
    assert by_id[bots]["open"] == 0
    # A person who joins fills a seat.
    with client.websocket_connect(f"/ws/shared/{listed}") as socket:
        Conn(socket, Scanner(db_path, listed)).join(0, "Ann")
    entry = next(e for e in client.get("/api/lobby").json()["tables"] if e["table"] == listed)
    assert entry["open"] == 1
    assert entry["seats"][0] == {"seat": 0, "kind": "person", "name": "Ann"}
    # 'listed' is true or false.
    refused = client.post("/api/shared", json={"game": "leopard", "listed": "yes"})
    assert refused.status_code == 400
    assert "'listed'" in refused.json()["error"]


def test_the_results_of_shared_tables_are_in_their_peoples_statistics(
    client: TestClient, db_path: Path
) -> None:
    # Only a claimed name's shared tables count: nobody else can sit under it.
    claimed = client.post(
        "/api/player/claim", json={"name": "Stat Ann", "password": "a long enough passphrase"}
    )
    assert claimed.status_code == 200, claimed.text
    rng = random.Random(3)
    ends = []
    for deal in (3, 4):
        table = create(
            client, "leopard", ["open", "greedy"], options={"deals": 1}, deal=deal, seed=1
        )
        with client.websocket_connect(f"/ws/shared/{table}") as socket:
            conn = Conn(socket, Scanner(db_path, table))
            conn.join(0, "Stat Ann")
            ends.append(
                drive(client, table, {0: conn}, lambda view: rng.choice(view["legal_moves"]))
            )
    # An ongoing table counts for nobody yet.
    create(client, "leopard", ["open", "greedy"], options={"deals": 1})
    # Seat 0 is the person: the winner (a seat, with two players), or a draw.
    results = [
        "won"
        if end["outcome"].get("winner") == 0
        else "draw"
        if end["outcome"]["result"] == "draw"
        else "lost"
        for end in ends
    ]
    stats = client.get("/api/stats").json()["games"]
    [leopard] = [entry for entry in stats if entry["game"] == "leopard"]
    assert leopard["title"] == "Leopard, 1 deal a match"
    assert leopard["played"] == 2
    assert leopard["won"] == results.count("won")
    assert leopard["best_moves"] is None  # a shared table's moves are everybody's
    streak = 0
    for result in results:
        streak = streak + 1 if result == "won" else 0
    assert leopard["current_streak"] == streak


def test_seat_results_follow_the_winner_or_his_side() -> None:
    from patience.engine import Outcome, Result
    from patience.server.table import seat_results

    assert seat_results(Outcome(Result.ONGOING), 2) is None
    assert seat_results(Outcome(Result.WON, winner=1, scores=(3, 9)), 2) == ["lost", "won"]
    # Four players in two sides: the winner is a side, seats 0 and 2 or 1 and 3.
    four = seat_results(Outcome(Result.WON, winner=1, scores=(3, 9)), 4)
    assert four == ["lost", "won", "lost", "won"]
    assert seat_results(Outcome(Result.DRAW, scores=(5, 5, 5)), 3) == ["draw"] * 3
