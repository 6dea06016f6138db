"""The one table service (server/service.py): one-player and shared tables on the same code path,
blocking work off the event loop, one error shape, and the tasks it starts kept until they end."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import sqlite3
import threading
import time
import warnings
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import anyio
import pytest

from patience import record
from patience.server import create_app
from patience.server.errors import CommandError
from patience.server.pools import PoolLimits, WorkPool
from patience.server.service import POOLS, TableService
from patience.server.table import (
    NOT_READING,
    OUTBOX_LIMIT,
    Connection,
    Dialect,
    Seat,
    shared_request,
)
from patience.store import Store
from server_helpers import FOUND_DEAL, HoldingPicker

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.testclient import TestClient


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "service.sqlite3"


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_path)) as test_client:
        yield test_client


def solo(client: TestClient, deal: int = 7) -> str:
    response = client.post("/api/tables", json={"game": "klondike", "deal": deal})
    assert response.status_code == 201, response.text
    return str(response.json()["table"])


def shared(client: TestClient, **extra: Any) -> str:
    body = {"game": "leopard", "seats": ["open", "open"], "deal": 3, **extra}
    response = client.post("/api/shared", json=body)
    assert response.status_code == 201, response.text
    return str(response.json()["table"])


def test_a_one_player_command_is_stored_off_the_event_loop(client: TestClient) -> None:
    slow, other = solo(client, 7), solo(client, 8)
    store = client.app.state.store  # type: ignore[attr-defined]
    real = store.append_event
    writing, release = threading.Event(), threading.Event()

    def append_event(table_id: str, *args: Any, **kwargs: Any) -> Any:
        if table_id == slow:
            writing.set()
            # The store fsyncs: here it takes as long as the test says.
            release.wait(timeout=10)
        return real(table_id, *args, **kwargs)

    store.append_event = append_event
    answers: dict[str, Any] = {}

    def move_at_slow() -> None:
        answers["slow"] = client.post(
            f"/api/tables/{slow}", json={"command": "move", "move": "t7-f1"}
        )

    worker = threading.Thread(target=move_at_slow)
    worker.start()
    try:
        assert writing.wait(timeout=5)
        started = time.monotonic()
        # Another table is answered, and takes a move, while the first one's write goes on.
        moved = client.post(f"/api/tables/{other}", json={"command": "undo"})
        assert moved.status_code == 422  # answered: nothing to undo there
        assert client.post(f"/api/tables/{other}", json={"command": "resign"}).status_code == 200
        assert time.monotonic() - started < 5
        # Nobody is told of a change before it is stored: the slow table is still as stored.
        assert client.get(f"/api/tables/{slow}").json()["moves"] == 0
        assert not release.is_set()
    finally:
        release.set()
        worker.join(timeout=10)
    assert answers["slow"].status_code == 200
    assert answers["slow"].json()["moves"] == 1
    assert client.get(f"/api/tables/{slow}").json()["events"] == 1


def test_a_store_that_fails_leaves_the_table_as_stored(client: TestClient) -> None:
    table = solo(client)
    store = client.app.state.store  # type: ignore[attr-defined]
    real = store.append_event

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise sqlite3.OperationalError("disk I/O error")

    store.append_event = broken
    refused = client.post(f"/api/tables/{table}", json={"command": "move", "move": "t7-f1"})
    assert refused.status_code == 503
    body = refused.json()
    assert body["status"] == 503
    assert "disk I/O error" in body["error"]
    assert body["state"]["moves"] == 0
    store.append_event = real
    moved = client.post(f"/api/tables/{table}", json={"command": "move", "move": "t7-f1"})
    assert moved.json()["moves"] == 1


def test_one_error_shape_over_http_and_websockets_at_every_table(client: TestClient) -> None:
    one, two = solo(client), shared(client)
    # HTTP: {"error", "status"} with that status, whatever the address and the table.
    for url in (
        "/api/tables/nosuch",
        "/api/shared/nosuch",
        "/api/tables/nosuch/record",
        "/api/shared/nosuch/record",
    ):
        response = client.get(url)
        assert response.status_code == 404, url
        assert response.json() == {"error": "there is no table 'nosuch'", "status": 404}
    early = client.get(f"/api/tables/{two}/record")
    assert early.status_code == 409
    assert set(early.json()) == {"error", "status"}
    assert early.json() == client.get(f"/api/shared/{two}/record").json()
    refused = client.post(f"/api/tables/{one}", json={"command": "move", "move": "t5-f2"})
    assert refused.status_code == 422
    # A refused move also says what, which cards and why, as data (issue 21).
    assert set(refused.json()) == {"error", "status", "state", "reason"}
    reason = refused.json()["reason"]
    assert (reason["kind"], reason["move"], reason["from"], reason["to"]) == (
        "illegal_move",
        "t5-f2",
        "t5",
        "f2",
    )
    top = refused.json()["state"]["view"]["piles"]["t5"]["up"][-1]
    assert (reason["card"], reason["cards"]) == (top, [top])
    assert refused.json()["error"].endswith(reason["why"])
    # A websocket: the same object with "type": "error", on both addresses, at both tables.
    for url in (f"/ws/tables/{one}", f"/ws/shared/{one}", f"/ws/tables/{two}", f"/ws/shared/{two}"):
        with client.websocket_connect(url) as socket:
            socket.receive_json()
            socket.send_text("{oops")
            error = socket.receive_json()
            assert set(error) == {"type", "error", "status"}, url
            assert (error["type"], error["status"]) == ("error", 400)
    for url in ("/ws/tables/nosuch", "/ws/shared/nosuch"):
        with client.websocket_connect(url) as socket:
            assert socket.receive_json() == {
                "type": "error",
                "error": "there is no table 'nosuch'",
                "status": 404,
            }


def test_both_addresses_serve_both_kinds_of_table_on_one_loop(client: TestClient) -> None:
    one = solo(client)
    # A one-player table over the shared address, in that dialect: its state is the message,
    # its seats are objects, and a "type" message is a command like a "command" one.
    with client.websocket_connect(f"/ws/shared/{one}") as socket:
        state = socket.receive_json()
        assert state["type"] == "state"
        assert state["seat"] == 0
        assert state["seats"] == [
            {"seat": 0, "kind": "person", "name": "guest", "connected": True, "stand_in": False}
        ]
        socket.send_text(json.dumps({"type": "move", "move": "t7-f1", "seq": 0}))
        assert socket.receive_json()["moves"] == 1
    # A shared table over the one-player address: a spectator, who may join and play.
    two = shared(client, seats=["open", "random"])
    with client.websocket_connect(f"/ws/tables/{two}") as socket:
        first = socket.receive_json()
        assert first["type"] == "state"
        assert first["state"]["seat"] is None
        assert first["state"]["seats"] == [None, None]
        socket.send_text(json.dumps({"command": "join", "seat": 0, "name": "Ann"}))
        joined = socket.receive_json()
        assert joined["type"] == "joined"
        assert joined["seat"] == 0
        # Shared tables take moves only: no take-backs, whichever way they are asked.
        socket.send_text(json.dumps({"command": "undo"}))
        while (message := socket.receive_json())["type"] != "error":
            pass
        assert message["status"] == 422
        assert "takes no undo" in message["error"]


def test_a_private_table_refuses_spectators_on_both_addresses(client: TestClient) -> None:
    one = solo(client)
    # Another browser (another session), whatever name it goes by: as if there were no table.
    with TestClient(client.app) as other:
        other.post("/api/player", json={"name": "Bob"})
        for url in (f"/ws/tables/{one}", f"/ws/shared/{one}"):
            with other.websocket_connect(url) as socket:
                error = socket.receive_json()
                assert (error["status"], error["error"]) == (404, f"there is no table {one!r}")
        assert other.get(f"/api/shared/{one}").status_code == 404
        assert other.get(f"/api/shared/{one}/record").status_code == 404


class HangingSocket:
    """A websocket whose client never reads: its sends never end."""

    from starlette.websockets import WebSocketState

    application_state = WebSocketState.CONNECTED

    def __init__(self) -> None:
        self.sending = asyncio.Event()
        self.closed: tuple[int, str] | None = None

    async def send_json(self, message: Any) -> None:
        self.sending.set()
        await asyncio.get_running_loop().create_future()

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        # A close frame goes out even when the client reads nothing (the transport aborts).
        self.closed = (code, reason or "")


class ReadingSocket(HangingSocket):
    """A websocket whose client reads everything it is sent."""

    def __init__(self) -> None:
        super().__init__()
        self.received: list[dict[str, Any]] = []
        self.arrived = asyncio.Event()

    async def send_json(self, message: Any) -> None:
        self.received.append(message)
        self.arrived.set()


def test_each_connection_has_a_writer_task_kept_until_it_ends(db_path: Path) -> None:
    """A connection's messages go out through a task of its own: the event loop holds tasks
    only weakly, so the service must keep it, or a collection of garbage mid-run ends it
    silently. The state told when an absent person's time is up waits in the outbox of a
    connection whose client has not read the last one, in place of any older state."""

    async def scenario() -> None:
        with Store(db_path) as store:
            service = TableService(store, send_timeout=3600)
            table = await service.create(
                shared_request(
                    {"game": "leopard", "seats": ["open", "open"], "deal": 3, "absence": 0.05}
                )
            )
            table.seats[0] = Seat(0, player="Ann", token_hash="x", absent_since=time.time())
            table.seats[1] = Seat(1, player="Bob", token_hash="y")
            socket = HangingSocket()
            conn = Connection(socket, 1, Dialect.SHARED)  # type: ignore[arg-type]
            service.connect(table, conn)  # Ann's absence ends in 0.05 s: the wake tells Bob
            with anyio.fail_after(5):
                await socket.sending.wait()
                while not conn.outbox:
                    await asyncio.sleep(0.01)
            [waiting] = conn.outbox
            assert waiting["seats"][0]["stand_in"] is True
            gc.collect()
            writers = [
                task
                for task in asyncio.all_tasks()
                if task.get_coro().__qualname__ == "TableService._write"  # type: ignore[union-attr]
            ]
            assert len(writers) == 1, "the writer was collected while it ran"
            assert writers[0] in service.tasks
            service.close()
            with anyio.fail_after(5):
                while service.tasks:  # each task leaves the set when it ends
                    await asyncio.sleep(0.01)

    asyncio.run(scenario())


def test_a_client_that_does_not_read_is_dropped_and_the_bots_play_on(db_path: Path) -> None:
    """Broadcasts never await a client: a spectator whose sends never end is dropped (closed
    with a reason) while another spectator sees the bots go on playing."""

    async def scenario() -> None:
        with Store(db_path) as store:
            service = TableService(store, send_timeout=0.2)
            table = await service.create(
                shared_request({"game": "leopard", "seats": ["greedy", "greedy"], "deal": 3})
            )
            stuck, reader = HangingSocket(), ReadingSocket()
            stuck_conn = Connection(stuck, None, Dialect.SHARED)  # type: ignore[arg-type]
            service.connect(table, stuck_conn)
            reading = Connection(reader, None, Dialect.SHARED)  # type: ignore[arg-type]
            service.connect(table, reading)
            with anyio.fail_after(30):
                while not reader.received or reader.received[-1]["events"] < 10:
                    reader.arrived.clear()
                    await reader.arrived.wait()
                while stuck.closed is None:
                    await asyncio.sleep(0.01)
            assert stuck.sending.is_set()
            assert stuck.closed[0] == NOT_READING
            assert "not reading" in stuck.closed[1]
            assert stuck_conn.dropped is not None
            assert list(table.connections.values()) == [reading]
            # The reader was sent state after state as the bots moved.
            seen = [message["events"] for message in reader.received]
            assert seen == sorted(seen)
            assert seen[-1] >= 10
            service.close()

    asyncio.run(scenario())


def test_a_client_that_lets_its_outbox_fill_is_dropped_at_once(db_path: Path) -> None:
    """However long the send timeout, a client that lets more than OUTBOX_LIMIT messages pile
    up is dropped when the next one is posted; states replace each other and never fill it."""

    async def scenario() -> None:
        with Store(db_path) as store:
            service = TableService(store, send_timeout=3600)
            table = await service.create(
                shared_request({"game": "leopard", "seats": ["open", "open"], "deal": 3})
            )
            stuck = HangingSocket()
            conn = Connection(stuck, None, Dialect.SHARED)  # type: ignore[arg-type]
            service.connect(table, conn)
            with anyio.fail_after(5):
                await stuck.sending.wait()
            for _ in range(3 * OUTBOX_LIMIT):
                service.broadcast(table)
            assert [m["type"] for m in conn.outbox] == ["state"]
            for _ in range(OUTBOX_LIMIT - 1):
                service.post(table, conn, {"type": "error", "error": "x", "status": 400})
            assert conn.dropped is None
            service.post(table, conn, {"type": "error", "error": "x", "status": 400})
            assert conn.dropped is not None
            assert "not reading" in conn.dropped
            assert not table.connections
            with anyio.fail_after(5):
                while stuck.closed is None:
                    await asyncio.sleep(0.01)
            assert stuck.closed[0] == NOT_READING
            service.close()

    asyncio.run(scenario())


def test_every_address_of_today_still_answers(client: TestClient) -> None:
    one, two = solo(client), shared(client)
    for page in ("/", f"/play/{one}", "/stats", "/replay", "/tables", f"/table/{two}"):
        response = client.get(page, follow_redirects=False)
        assert response.status_code == 200, page
        assert response.headers["content-type"].startswith("text/html")
    # Either table link works for either table: the other kind's link redirects.
    moved = client.get(f"/table/{one}", follow_redirects=False)
    assert (moved.status_code, moved.headers["location"]) == (307, f"/play/{one}")
    moved = client.get(f"/play/{two}", follow_redirects=False)
    assert (moved.status_code, moved.headers["location"]) == (307, f"/table/{two}")
    # The page of a table that is not there (or is another's) is the page, which says so.
    assert client.get("/play/nosuch", follow_redirects=False).status_code == 404
    for url in (
        "/api/games",
        "/api/shared/games",
        "/api/player",
        "/api/tables",
        "/api/tables?ongoing=1",
        "/api/shared",
        "/api/stats",
        "/api/rules/klondike",
        f"/api/tables/{one}",
        f"/api/tables/{one}/record",
        f"/api/tables/{one}/record?format=json",
        f"/api/shared/{two}",
    ):
        assert client.get(url).status_code == 200, url
    assert client.get(f"/api/tables/{one}/hint").status_code == 501  # no hinter here
    assert client.get(f"/api/shared/{two}/record").status_code == 409  # not before the end
    assert client.post(f"/api/tables/{one}", json={"command": "resign"}).status_code == 200
    assert client.post(f"/api/tables/{one}/autofinish", json={}).status_code == 422
    assert client.post(f"/api/tables/{one}/new", json={}).status_code == 201
    assert client.post("/api/replay", content=b"").status_code == 400
    for url in (f"/ws/tables/{one}", f"/ws/shared/{two}"):
        with client.websocket_connect(url) as socket:
            assert socket.receive_json()["type"] == "state"
    assert client.post("/api/player", json={"name": "Ann"}).status_code == 200
    for url in ("/api/player/claim", "/api/player/login"):
        assert client.post(url, json={}).status_code == 400
    assert client.post("/api/player/logout").status_code == 409  # no name to come back to


def test_a_table_is_rebuilt_off_the_event_loop_once(db_path: Path) -> None:
    with TestClient(create_app(db_path)) as first:
        slow, other = solo(first, 7), solo(first, 8)
        first.post(f"/api/tables/{slow}", json={"command": "move", "move": "t7-f1"})
        cookies = first.cookies
    # A new server: neither table is in memory; rebuilding reads and replays the event log.
    with TestClient(create_app(db_path)) as client:
        client.cookies = cookies
        store = client.app.state.store  # type: ignore[attr-defined]
        real = store.events
        reading, release = threading.Event(), threading.Event()
        reads: list[str] = []

        def events(table_id: str, **kwargs: Any) -> Any:
            reads.append(table_id)
            if table_id == slow:
                reading.set()
                release.wait(timeout=10)
            return real(table_id, **kwargs)

        store.events = events
        answers: list[Any] = []
        workers = [
            threading.Thread(target=lambda: answers.append(client.get(f"/api/tables/{slow}")))
            for _ in range(3)
        ]
        for worker in workers:
            worker.start()
        try:
            assert reading.wait(timeout=5)
            started = time.monotonic()
            assert client.get(f"/api/tables/{other}").json()["moves"] == 0
            assert time.monotonic() - started < 5
            assert not release.is_set()
        finally:
            release.set()
            for worker in workers:
                worker.join(timeout=10)
        assert [answer.json()["moves"] for answer in answers] == [1, 1, 1]
        assert reads.count(slow) == 1  # one rebuild for the three requests


def test_blocked_winnable_searches_leave_moves_at_other_tables_answered(db_path: Path) -> None:
    """Twelve searches for a winnable deal (a deal picker that blocks until told) hold only
    the search pool: beyond its quotas they are refused at once (429 for one address beyond
    its quota, 503 beyond the pool's bound), and a move at another table is stored and
    answered meanwhile."""
    searching, release = threading.Semaphore(0), threading.Event()

    def blocking_picker(rules: Any, winnable: bool) -> int:
        if not winnable:
            return 5
        searching.release()
        release.wait(timeout=30)
        return 9

    search = POOLS["search"]
    assert search.per_client is not None
    assert search.held is not None
    # In threads: the stand-in is a closure waiting on the test's events (the process pool's
    # own test is test_a_search_that_holds_the_interpreter_does_not_hold_up_the_tables).
    app = create_app(db_path, deal_picker=blocking_picker, worker_processes=False)
    # Twelve clients at twelve addresses: each address has its own quota.
    clients = [TestClient(app, client=(f"10.0.0.{n}", 1000)) for n in range(12)]
    with clients[0] as first:
        table = solo(first)
        answers: list[Any] = []

        def winnable(client: TestClient) -> None:
            body = {"game": "klondike", "winnable": True}
            answers.append(client.post("/api/tables", json=body))

        workers = [threading.Thread(target=winnable, args=(client,)) for client in clients]
        workers.append(threading.Thread(target=winnable, args=(first,)))  # over its quota
        for worker in workers:
            worker.start()
        try:
            for _ in range(search.workers):
                assert searching.acquire(timeout=10)
            # Every request beyond what the pool holds is refused without waiting.
            deadline = time.monotonic() + 10
            while len(answers) < len(workers) - search.held and time.monotonic() < deadline:
                time.sleep(0.01)
            refused = sorted(answer.status_code for answer in answers)
            assert len(refused) == len(workers) - search.held
            assert set(refused) <= {429, 503}, [a.text for a in answers]
            assert 503 in refused
            assert any("winnable deal" in answer.json()["error"] for answer in answers)
            # A move at another table goes through while every search thread is blocked.
            moved = first.post(f"/api/tables/{table}", json={"command": "move", "move": "t7-f1"})
            assert moved.status_code == 200, moved.text
            assert moved.json()["moves"] == 1
            assert not release.is_set()
        finally:
            release.set()
            for worker in workers:
                worker.join(timeout=30)
    created = [answer for answer in answers if answer.status_code == 201]
    assert len(created) == search.held
    assert {answer.json()["deal"] for answer in created} == {9}


def test_a_client_beyond_its_quota_of_searches_is_refused(db_path: Path) -> None:
    async def scenario() -> None:
        pool = WorkPool("searches", PoolLimits(workers=1, held=3, per_client=1))
        release = threading.Event()
        running = asyncio.ensure_future(pool.run("a", release.wait, 10))
        with anyio.fail_after(5):
            while pool.held == 0:
                await asyncio.sleep(0.01)
        with pytest.raises(CommandError) as quota:
            await pool.run("a", release.wait, 10)
        assert quota.value.status == 429
        waiting = [asyncio.ensure_future(pool.run(who, release.wait, 10)) for who in "bc"]
        await asyncio.sleep(0)
        with pytest.raises(CommandError) as full:
            await pool.run("d", release.wait, 10)
        assert full.value.status == 503
        assert "3 searches under way" in full.value.message
        release.set()
        with anyio.fail_after(5):
            assert await running is True
            assert await asyncio.gather(*waiting) == [True, True]
        assert (pool.held, pool.held_for("a")) == (0, 0)
        pool.close()

    asyncio.run(scenario())


def test_a_table_log_has_a_size_limit_refused_before_any_work(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("patience.server.table.MAX_EVENTS", 3)
    monkeypatch.setattr("patience.server.service.MAX_EVENTS", 3)
    with TestClient(create_app(db_path)) as first:
        table = solo(first)
        for command in ({"command": "move", "move": "t7-f1"}, {"command": "undo"}):
            assert first.post(f"/api/tables/{table}", json=command).status_code == 200
        store = first.app.state.store  # type: ignore[attr-defined]
        real = store.append_event
        writes: list[str] = []

        def append_event(table_id: str, *args: Any, **kwargs: Any) -> Any:
            writes.append(table_id)
            return real(table_id, *args, **kwargs)

        store.append_event = append_event
        assert first.post(f"/api/tables/{table}", json={"command": "redo"}).status_code == 200
        refused = first.post(f"/api/tables/{table}", json={"command": "undo"})
        assert refused.status_code == 413
        assert "3 events, the most a table may have" in refused.json()["error"]
        assert refused.json()["state"]["events"] == 3
        assert writes == [table]  # the refused command never reached the store
        cookies = first.cookies
    # A table stored with more events than the limit is refused before its log is read.
    monkeypatch.setattr("patience.server.service.MAX_EVENTS", 2)
    with TestClient(create_app(db_path)) as client:
        client.cookies = cookies
        store = client.app.state.store  # type: ignore[attr-defined]
        reads: list[str] = []
        store.events = lambda table_id, **kwargs: reads.append(table_id) or []
        refused = client.get(f"/api/tables/{table}")
        assert refused.status_code == 413
        assert "3 stored events" in refused.json()["error"]
        assert reads == []


def play_log(client: TestClient, table: str) -> list[dict[str, Any]]:
    """Eleven events at Klondike deal 7: moves, undos across them and a redo."""
    answers = []
    for command in (
        {"command": "move", "move": "t7-f1"},
        {"command": "move", "move": "stock"},
        {"command": "move", "move": "stock"},
        {"command": "undo"},
        {"command": "undo"},
        {"command": "redo"},
        {"command": "move", "move": "stock"},
        {"command": "move", "move": "stock"},
        {"command": "undo"},
        {"command": "move", "move": "stock"},
        {"command": "move", "move": "stock"},
    ):
        answer = client.post(f"/api/tables/{table}", json=command)
        assert answer.status_code == 200, answer.text
        answers.append(answer.json())
    return answers


def test_a_rebuild_replays_only_the_events_after_the_latest_snapshot(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("patience.server.snapshots.SNAPSHOT_EVERY", 4)
    with TestClient(create_app(db_path)) as first:
        table = solo(first)
        played = play_log(first, table)[-1]
        cookies = first.cookies
    with Store(db_path) as store:
        snapshot = store.snapshot(table)
        assert snapshot is not None
        assert snapshot.events == 8
    with TestClient(create_app(db_path)) as client:
        client.cookies = cookies
        store = client.app.state.store  # type: ignore[attr-defined]
        real = store.events
        starts: list[int] = []

        def events(table_id: str, *, start: int = 0) -> Any:
            starts.append(start)
            return real(table_id, start=start)

        store.events = events
        rebuilt = client.get(f"/api/tables/{table}").json()
        assert starts == [8]  # the three events after the snapshot, not eleven
        for key in ("view", "last", "moves", "can_undo", "can_redo", "outcome"):
            assert rebuilt[key] == played[key], key
        assert rebuilt["events"] == 11
        # The undo stack came back whole: every move may be taken back across the snapshot.
        for _ in range(played["moves"]):
            undone = client.post(f"/api/tables/{table}", json={"command": "undo"})
            assert undone.status_code == 200, undone.text
        assert undone.json()["moves"] == 0


@pytest.mark.parametrize("damage", ["fingerprint", "data"])
def test_a_snapshot_this_program_cannot_use_is_ignored_and_the_whole_log_replayed(
    db_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    monkeypatch.setattr("patience.server.snapshots.SNAPSHOT_EVERY", 4)
    with TestClient(create_app(db_path)) as first:
        table = solo(first)
        played = play_log(first, table)[-1]
        cookies = first.cookies
    column, value = ("fingerprint", "another") if damage == "fingerprint" else ("data", b"x")
    with sqlite3.connect(db_path) as db:
        db.execute(f"UPDATE snapshots SET {column} = ?", (value,))
    with TestClient(create_app(db_path)) as client:
        client.cookies = cookies
        rebuilt = client.get(f"/api/tables/{table}").json()
        for key in ("view", "last", "moves", "can_undo", "can_redo", "outcome"):
            assert rebuilt[key] == played[key], key


def test_a_record_beyond_the_move_limit_is_refused_before_it_is_replayed(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # In threads: the replay is watched here (a worker process would not see the patches).
    with TestClient(create_app(db_path, worker_processes=False)) as client:
        refused_before_replaying(client, monkeypatch)


def refused_before_replaying(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    table = solo(client)
    for command in ({"command": "move", "move": "t7-f1"}, {"command": "undo"}, {"command": "redo"}):
        assert client.post(f"/api/tables/{table}", json=command).status_code == 200
    text = client.get(f"/api/tables/{table}/record").text
    replays: list[Any] = []
    real = record.Record.replay

    def replay(self: record.Record) -> Any:
        replays.append(self)
        return real(self)

    monkeypatch.setattr(record.Record, "replay", replay)
    assert client.post("/api/replay", content=text.encode()).status_code == 200
    assert len(replays) == 1
    monkeypatch.setattr("patience.server.app.MAX_REPLAY_MOVES", 0)
    refused = client.post("/api/replay", content=text.encode())
    assert refused.status_code == 422
    assert refused.json()["error"] == "this record has 1 moves; a replay has at most 0"
    assert len(replays) == 1  # refused before replaying


class SilentClient(HangingSocket):
    """A client that connects, then neither reads nor sends anything."""

    async def accept(self) -> None:
        return None

    async def receive(self) -> dict[str, Any]:
        await asyncio.get_running_loop().create_future()
        raise AssertionError("unreachable")


def test_the_loop_of_a_client_that_neither_reads_nor_sends_ends(db_path: Path) -> None:
    """The websocket loop waits for the client's next message and for the connection to be
    dropped, whichever comes first: a client that sends nothing cannot keep its loop (and its
    place at the table) once it is dropped; nor can it hold a refusal meant for it."""

    async def scenario() -> None:
        with Store(db_path) as store:
            service = TableService(store, send_timeout=0.05)
            table = await service.create(
                shared_request({"game": "leopard", "seats": ["open", "open"], "deal": 3})
            )
            silent = SilentClient()
            with anyio.fail_after(5):
                await service.serve(silent, table.id, Dialect.SHARED, "guest")  # type: ignore[arg-type]
            assert silent.sending.is_set()
            assert silent.closed is not None
            assert silent.closed[0] == NOT_READING
            assert not table.connections
            refused = SilentClient()
            with anyio.fail_after(5):
                await service.serve(refused, "nosuch", Dialect.SHARED, "guest")  # type: ignore[arg-type]
            assert refused.sending.is_set()
            service.close()

    asyncio.run(scenario())


def test_python_bound_work_runs_in_processes_of_its_own(client: TestClient) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    here = os.getpid()
    pids = {
        kind: client.portal.call(service.run, kind, None, os.getpid)  # type: ignore[union-attr]
        for kind in POOLS
    }
    assert pids["bots"] != here
    assert pids["replay"] != here
    assert pids["search"] != here
    assert pids["store"] == pids["rebuild"] == here  # the store's connection stays here
    assert client.portal.call(service.hint_gate.pool.run, None, os.getpid) != here  # type: ignore[union-attr]


def test_a_bot_that_holds_the_interpreter_does_not_hold_up_the_tables(client: TestClient) -> None:
    """A deliberately blocking stand-in for a bot's thinking: one C call that never lets the
    interpreter lock go until it ends. In a thread it would stop every table until then; in the
    bots' process the move at another table is answered while it still runs."""
    service = client.app.state.service  # type: ignore[attr-defined]
    table = solo(client)
    portal = client.portal  # type: ignore[attr-defined]
    holding = portal.start_task_soon(service.run, "bots", None, sum, range(3 * 10**7))
    # The pool has the stand-in once its process is busy with it.
    while service.pools["bots"].held == 0:
        time.sleep(0.01)
    answer = client.post(f"/api/tables/{table}", json={"command": "move", "move": "t7-f1"})
    assert answer.status_code == 200
    assert not holding.done()  # the move came back while the stand-in still held its process
    assert holding.result(timeout=120) == sum(range(3 * 10**7))


def test_a_search_that_holds_the_interpreter_does_not_hold_up_the_tables(
    db_path: Path, tmp_path: Path
) -> None:
    """A deliberately blocking stand-in for a search for a winnable deal: one C call that never
    lets the interpreter lock go until it ends (:class:`HoldingPicker`). In the search pool's
    process the move at another table is answered while it still runs; in a thread (the pool
    as it was, ``pools={"search": PoolLimits(..., processes=False)}``) the move waits for the
    search's end and this test fails."""
    picker = HoldingPicker(tmp_path)
    with TestClient(create_app(db_path, deal_picker=picker)) as client:
        table = solo(client)
        answers: list[Any] = []
        search = threading.Thread(
            target=lambda: answers.append(
                client.post("/api/tables", json={"game": "klondike", "winnable": True})
            )
        )
        search.start()
        try:
            deadline = time.monotonic() + 60  # the first search starts the pool's processes
            while not (tmp_path / "searching").exists() and time.monotonic() < deadline:
                time.sleep(0.01)
            assert (tmp_path / "searching").exists()
            assert int((tmp_path / "searching").read_text()) != os.getpid()
            moved = client.post(f"/api/tables/{table}", json={"command": "move", "move": "t7-f1"})
            assert moved.status_code == 200, moved.text
            # Answered while the search still held its process's interpreter.
            assert not (tmp_path / "searched").exists()
        finally:
            search.join(timeout=120)
        assert answers[0].status_code == 201, answers[0].text
        assert answers[0].json()["deal"] == FOUND_DEAL
        assert (tmp_path / "searched").read_text() == str(sum(range(picker.size)))


def test_a_search_whose_worker_dies_fails_with_503_and_the_next_one_is_served(
    db_path: Path, tmp_path: Path
) -> None:
    picker = HoldingPicker(tmp_path, size=10)
    with TestClient(create_app(db_path, deal_picker=picker)) as client:
        body = {"game": "klondike", "winnable": True}
        picker.die = True  # the worker gets the picker pickled anew for every search
        died = client.post("/api/tables", json=body)
        assert died.status_code == 503, died.text
        assert "a worker of the searches for a winnable deal stopped" in died.json()["error"]
        assert client.get("/api/tables").json() == []
        service = client.app.state.service  # type: ignore[attr-defined]
        assert service.pools["search"].held == 0  # its place given back
        picker.die = False
        served = client.post("/api/tables", json=body)
        assert served.status_code == 201, served.text
        assert served.json()["deal"] == FOUND_DEAL


def test_a_deal_picker_that_cannot_be_pickled_is_refused_with_what_to_do(db_path: Path) -> None:
    lock = threading.Lock()

    def picker(rules: Any, winnable: bool) -> int:
        with lock:
            return 5

    with pytest.raises(ValueError, match="cannot be pickled") as refused:
        create_app(db_path, deal_picker=picker)
    assert "worker_processes=False" in str(refused.value)
    # In threads it is taken, and so it is when only the search pool is of threads.
    with TestClient(create_app(db_path, deal_picker=picker, worker_processes=False)) as client:
        made = client.post("/api/tables", json={"game": "klondike", "winnable": True})
        assert made.json()["deal"] == 5
    threads = {"search": replace(POOLS["search"], processes=False)}
    with Store(db_path) as store:
        service = TableService(store, deal_picker=picker, pools=threads)
        service.close()


def test_the_automatic_finish_is_worked_out_off_the_event_loop(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The solver's search for an automatic finish (a deliberately blocking stand-in here)
    holds up only the command that asked for it: another table's move is answered meanwhile."""
    import patience.server.service as service_module

    real = service_module.autofinish_moves
    searching, release, searched = threading.Event(), threading.Event(), threading.Event()

    def autofinish_moves(game: Any) -> Any:
        searching.set()
        release.wait(timeout=10)
        searched.set()
        return real(game)

    monkeypatch.setattr(service_module, "autofinish_moves", autofinish_moves)
    # As if nothing were hidden at deal 7 once a move is made: its finish is searched for.
    real_possible = service_module.finish_possible
    monkeypatch.setattr(
        service_module,
        "finish_possible",
        lambda game: (game.deal == 7 and bool(game.move_stack)) or real_possible(game),
    )
    with TestClient(create_app(db_path, worker_processes=False)) as client:
        slow, other = solo(client, 7), solo(client, 8)
        answers: list[Any] = []
        worker = threading.Thread(
            target=lambda: answers.append(
                client.post(f"/api/tables/{slow}", json={"command": "move", "move": "t7-f1"})
            )
        )
        worker.start()
        try:
            assert searching.wait(timeout=10)
            moved = client.post(f"/api/tables/{other}", json={"command": "move", "move": "stock"})
            assert moved.status_code == 200
            assert not searched.is_set()  # answered while the other table's search still ran
        finally:
            release.set()
            worker.join(timeout=10)
        assert answers[0].status_code == 200
