"""The hold at the end of a deal (server/service.py, :class:`~patience.server.table.Hold`): a
shared table whose move ended a deal of a match that goes on waits, bots and people alike, until
every person connected to his seat has sent ``go-on``, or until the longest hold is over; what
it shows each seat is the deal's last position as that seat saw it (the scanner of
test_tables_mp.py checks every message for cards the seat may not see, the hold's too)."""

from __future__ import annotations

import contextlib
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import patience
import patience.bots
from patience.engine import SPECTATOR
from patience.server import create_app
from patience.server.service import TableService
from patience.store import Store
from test_tables_mp import Conn, Scanner, create, is_state

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")

#: A deal and bots' seed whose first deal ends after a few dozen moves.
DEAL, SEED = 5, 1


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "hold.sqlite3"


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_path)) as test_client:
        yield test_client


def chooser() -> Any:
    """A person's choice: declare as soon as he may (so a deal ends soon), else greedy's."""
    greedy = patience.bots.get("greedy", seed=3)

    def choose(view: dict[str, Any]) -> Any:
        if {"action": "declare"} in view["legal_moves"]:
            return {"action": "declare"}
        return greedy.choose(view).to_json()

    return choose


def catch_up(client: TestClient, table: str, conns: list[Conn]) -> dict[str, Any]:
    """The table's state, once every connection has been told of it."""
    state: dict[str, Any] = client.get(f"/api/shared/{table}").json()
    for conn in conns:
        while conn.state["seq"] < state["seq"] or bool(conn.state["hold"]) != bool(state["hold"]):
            conn.until(is_state)
    return state


def play_to_hold(
    client: TestClient, table: str, people: dict[int, Conn], watchers: list[Conn] = ()
) -> dict[str, Any]:
    """Play the people's seats (bots play theirs) until the table is held at a deal's end."""
    choose = chooser()
    conns = [*people.values(), *watchers]
    for _ in range(1000):
        state = catch_up(client, table, conns)
        if state["hold"] is not None:
            return state
        assert state["outcome"]["result"] == "ongoing", "the match ended without a hold"
        mover = people.get(state["turn"])
        if mover is None:
            next(iter(people.values())).until(is_state)  # a bot is to move
            continue
        mover.send({"type": "move", "move": choose(mover.state["view"]), "seq": state["seq"]})
        reply = mover.until(lambda m: m["type"] in ("state", "error"))
        assert reply["type"] == "state", reply
    raise AssertionError("no deal ended")


def quiet(conn: Conn, seconds: float) -> None:
    """Nothing reaches ``conn`` for ``seconds``."""
    with pytest.raises(TimeoutError):
        conn.receive(timeout=seconds)


def test_a_bot_waits_at_the_end_of_a_deal_until_the_person_goes_on(
    client: TestClient, db_path: Path
) -> None:
    table = create(
        client, "leopard", ["open", "greedy"], options={"deals": 2}, deal=DEAL, seed=SEED
    )
    scanner = Scanner(db_path, table)
    url = f"/ws/shared/{table}"
    with client.websocket_connect(url) as raw_ann, client.websocket_connect(url) as raw_watch:
        ann, watch = Conn(raw_ann, scanner), Conn(raw_watch, scanner)
        ann.receive()
        watch.receive()
        ann.join(0, "Ann")
        held = play_to_hold(client, table, {0: ann}, [watch])
        seq = held["seq"]
        hold = held["hold"]
        assert hold["waiting"] == [0]  # the bot and the spectator are not waited for
        assert hold["gone_on"] == []
        assert 0 < hold["seconds"] <= 60
        assert hold["until"] == pytest.approx(time.time() + hold["seconds"], abs=2)
        # The hold shows the deal's last position, as scored: deal 1 of the history, not yet
        # the next deal's empty squares (which the view, the game as it stands, shows).
        assert len(hold["view"]["history"]) == 1
        assert hold["view"]["deal_index"] == 0
        assert any(cell for square in hold["view"]["squares"] for cell in square)
        assert held["view"]["deal_index"] == 1
        assert watch.state["hold"]["waiting"] == [0]
        assert watch.state["hold"]["view"]["hands"] == [None, None]
        # The bot waits, however long: nothing moves.
        quiet(ann, 0.6)
        assert client.get(f"/api/shared/{table}").json()["seq"] == seq
        # A move meanwhile is refused, with the state as it stands, and changes nothing.
        if held["turn"] == 0:
            move = ann.state["view"]["legal_moves"][0]
            refused = ann.error({"type": "move", "move": move, "seq": seq})
            assert refused["status"] == 409
            assert "waits for everyone to go on" in refused["error"]
            assert refused["reason"] == {"kind": "hold", "waiting": [0]}
            assert refused["state"]["hold"]["waiting"] == [0]
        # A spectator does not go on for anybody; a go-on of another state is stale.
        assert watch.error({"type": "go-on", "seq": seq})["status"] == 403
        stale = ann.error({"type": "go-on", "seq": seq - 1})
        assert stale["status"] == 409
        assert stale["reason"] == {"kind": "not_held"}
        assert ann.error({"type": "go-on", "seq": "7"})["status"] == 400
        assert client.get(f"/api/shared/{table}").json()["hold"]["waiting"] == [0]
        # Ann goes on: the hold ends for everybody, and the bot plays on.
        ann.send({"type": "go-on", "seq": seq})
        released = watch.until(is_state)
        assert released["hold"] is None
        assert released["seq"] == seq
        if released["turn"] == 1:
            assert watch.until(is_state)["seq"] == seq + 1
        # Once it is over, a go-on is stale: a clear error, nothing changed.
        late = ann.error({"type": "go-on", "seq": seq})
        assert late["status"] == 409
        assert late["state"]["hold"] is None
    assert scanner.holds >= 3


def test_every_connected_person_goes_on_and_a_reload_sees_the_hold(
    client: TestClient, db_path: Path
) -> None:
    table = create(
        client,
        "leopard",
        ["open", "open", "greedy"],
        options={"players": 3, "deals": 2},
        deal=DEAL,
        seed=SEED,
    )
    scanner = Scanner(db_path, table)
    url = f"/ws/shared/{table}"
    with contextlib.ExitStack() as stack:
        ann, bob = (Conn(stack.enter_context(client.websocket_connect(url)), scanner) for _ in "ab")
        ann.receive()
        bob.receive()
        ann.join(0, "Ann")
        bob_token = bob.join(1, "Bob")
        ann.until(is_state)
        held = play_to_hold(client, table, {0: ann, 1: bob})
        seq = held["seq"]
        assert held["hold"]["waiting"] == [0, 1]
        # Bob's page reloads during the hold: while he is gone the hold waits for Ann alone,
        # and his new connection is told of the hold at once, and waited for again.
        bob.socket.close()
        assert ann.until(is_state)["hold"]["waiting"] == [0]
        again = Conn(stack.enter_context(client.websocket_connect(url)), scanner)
        assert again.receive()["hold"]["waiting"] == [0]
        again.send({"type": "resume", "token": bob_token})
        assert again.until(lambda m: m["type"] == "joined")["seat"] == 1
        back = again.until(lambda m: is_state(m) and m["seat"] == 1)
        assert back["hold"]["waiting"] == [0, 1]
        assert back["hold"]["view"]["hands"][1]  # his own hand as the deal ended
        assert back["hold"]["view"]["hands"][0] is None
        assert ann.until(is_state)["hold"]["waiting"] == [0, 1]
        # Ann goes on: everybody is told that Bob is still waited for; the table waits.
        ann.send({"type": "go-on", "seq": seq})
        told = again.until(is_state)
        assert told["hold"]["waiting"] == [1]
        assert told["hold"]["gone_on"] == [0]
        assert ann.until(is_state)["hold"]["waiting"] == [1]
        # Her second go-on (a second click) is harmless: no answer, nothing changed.
        ann.send({"type": "go-on", "seq": seq})
        quiet(ann, 0.4)
        assert client.get(f"/api/shared/{table}").json()["hold"]["waiting"] == [1]
        # Bob goes on: the table goes on.
        again.send({"type": "go-on"})  # the seq may be left out
        released = ann.until(is_state)
        assert released["hold"] is None
        assert released["seq"] == seq
    assert scanner.holds >= 5


def test_the_absent_do_not_hold(client: TestClient, db_path: Path) -> None:
    table = create(
        client,
        "leopard",
        ["open", "open", "greedy"],
        options={"players": 3, "deals": 2},
        deal=DEAL,
        seed=SEED,
        absence=0.2,
    )
    scanner = Scanner(db_path, table)
    url = f"/ws/shared/{table}"
    with client.websocket_connect(url) as raw_ann, client.websocket_connect(url) as raw_watch:
        ann, watch = Conn(raw_ann, scanner), Conn(raw_watch, scanner)
        ann.receive()
        watch.receive()
        ann.join(0, "Ann")
        with client.websocket_connect(url) as raw_bob:
            bob = Conn(raw_bob, scanner)
            bob.receive()
            bob.join(1, "Bob")
        # Bob has gone: after the absence his stand-in plays his seat, and the hold at the
        # deal's end waits for Ann alone.
        held = play_to_hold(client, table, {0: ann}, [watch])
        assert held["seats"][1]["stand_in"]
        assert held["hold"]["waiting"] == [0]
        # Ann leaves without going on: nobody is left to wait for, and the table goes on
        # (for the spectator still watching).
    released = None
    with client.websocket_connect(url) as raw_more:
        more = Conn(raw_more, scanner)
        released = more.receive()
    assert released["hold"] is None
    assert released["seq"] >= held["seq"]
    assert scanner.holds >= 2


def test_the_longest_hold_ends_by_itself(db_path: Path) -> None:
    with TestClient(create_app(db_path, hold_limit=0.5)) as client:
        table = create(
            client, "leopard", ["open", "greedy"], options={"deals": 2}, deal=DEAL, seed=SEED
        )
        scanner = Scanner(db_path, table)
        with client.websocket_connect(f"/ws/shared/{table}") as raw:
            ann = Conn(raw, scanner)
            ann.receive()
            ann.join(0, "Ann")
            held = play_to_hold(client, table, {0: ann})
            began = time.monotonic()
            assert held["hold"]["seconds"] <= 0.5
            # Ann never goes on: the table goes on by itself when the hold's time is up.
            released = ann.until(lambda m: is_state(m) and m["hold"] is None)
            assert 0.2 <= time.monotonic() - began < 5
            assert released["seq"] == held["seq"]
            if released["turn"] == 1:
                assert ann.until(is_state)["seq"] == held["seq"] + 1
    with pytest.raises(ValueError, match="hold_limit"):
        TableService(Store(":memory:"), hold_limit=0)


def test_nobody_connected_to_a_seat_means_no_hold(client: TestClient, db_path: Path) -> None:
    """Bots alone (a spectator watching) play through the end of a deal without a hold."""
    table = create(
        client, "leopard", ["greedy", "greedy"], options={"deals": 2}, deal=DEAL, seed=SEED
    )
    scanner = Scanner(db_path, table)
    with client.websocket_connect(f"/ws/shared/{table}") as raw:
        watch = Conn(raw, scanner)
        watch.receive()
        history = 0
        while history < 2 and watch.state["outcome"]["result"] == "ongoing":
            state = watch.until(is_state, timeout=30)
            assert state["hold"] is None
            history = len(state["view"]["history"])
    assert history >= 1
    assert scanner.holds == 0


def test_deal_end_of_the_rules() -> None:
    """Rules.deal_end: None for a one-deal game and for moves inside a deal; at Leopard's end of
    a deal in a match that goes on, the deal's last position (scored, not the next deal), whose
    views keep others' face-down cards hidden; at the match's end, None."""
    klondike = patience.new("klondike", deal=1)
    before = klondike.state
    move = klondike.legal_moves()[0]
    klondike.push(move)
    assert klondike.rules.deal_end(before, move, klondike.state) is None
    game = patience.new("leopard", deal=DEAL, deals=2)
    ends = []
    while not game.is_over():
        before = game.state
        moves = game.legal_moves()
        move = next((m for m in moves if m.action == "declare"), moves[0])
        game.push(move)
        ended = game.rules.deal_end(before, move, game.state)
        if ended is not None:
            ends.append((ended, game.state))
        elif len(game.state.history) > len(before.history):  # type: ignore[attr-defined]
            assert game.is_over()  # the match's end: no hold
    assert len(ends) == 1
    ended, after = ends[0]
    assert ended.history == after.history  # type: ignore[attr-defined]
    assert ended.deal_index == 0  # type: ignore[attr-defined]
    assert after.deal_index == 1  # type: ignore[attr-defined]
    for observer in (0, 1, SPECTATOR):
        view = game.rules.view_json(ended, observer)
        for square in view["squares"]:
            for cell in square:
                for layer in cell:
                    if isinstance(layer, dict):
                        assert (layer["down"] is None) == (layer["by"] != observer)
