"""Size and shape limits of messages as the server is really served (uvicorn, as `patience
serve` runs it), not only through Starlette's test client, which skips uvicorn's own limits."""

from __future__ import annotations

import asyncio
import json
import select
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import LiveServer
from patience.server import MAX_BODY

websockets = pytest.importorskip("websockets")


def post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def new_table(url: str) -> tuple[str, dict[str, str]]:
    """A new one-player table, and the headers of its browser's session (its cookie): a
    one-player table is its session's alone."""
    request = urllib.request.Request(
        f"{url}/api/tables",
        data=json.dumps({"game": "klondike", "deal": 7}).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        table = json.loads(response.read())["table"]
        cookie = response.headers["set-cookie"].split(";")[0]
    return table, {"Cookie": cookie}


async def replies(
    socket_url: str, messages: list[str | bytes], headers: dict[str, str]
) -> list[dict[str, Any]]:
    """Send each message on one connection; the reply to each (after the first state)."""
    answers = []
    async with websockets.connect(
        socket_url, additional_headers=headers, open_timeout=10
    ) as socket:
        first = json.loads(await asyncio.wait_for(socket.recv(), 10))
        assert first["type"] == "state"
        for message in messages:
            await socket.send(message)
            answers.append(json.loads(await asyncio.wait_for(socket.recv(), 10)))
    return answers


BAD_MESSAGES: list[str | bytes] = [
    json.dumps({"type": "move", "pad": "x" * (MAX_BODY + 1)}),  # 16 KiB and more
    "[" * 3000 + "]" * 3000,  # small, but nested deeper than the JSON reader goes
    "{oops",
    '{"events": ' + "9" * 5000 + "}",  # more digits than Python converts
    b'{"command": "undo"}',  # binary
]


def test_a_served_one_player_table_answers_bad_messages_and_stays_open(server_url: str) -> None:
    table, session = new_table(server_url)
    socket_url = server_url.replace("http", "ws") + f"/ws/tables/{table}"
    answers = asyncio.run(
        replies(socket_url, [*BAD_MESSAGES, json.dumps({"command": "undo"})], session)
    )
    assert [answer.get("status") for answer in answers[:5]] == [413, 400, 400, 400, 400]
    assert "nested too deeply" in answers[1]["error"]
    assert "too many digits" in answers[3]["error"]
    assert "not binary" in answers[4]["error"]
    # The connection is still open: the last command gets its answer (nothing to undo: 422).
    assert answers[5]["type"] == "error"
    assert answers[5]["status"] == 422


def test_a_served_shared_table_answers_bad_messages_and_stays_open(server_url: str) -> None:
    created = post(f"{server_url}/api/shared", {"game": "leopard", "seats": ["open", "random"]})
    socket_url = server_url.replace("http", "ws") + f"/ws/shared/{created['table']}"
    # A shared table is anybody's who has its link: no session needed.
    bad = [*BAD_MESSAGES, json.dumps({"type": "teleport"})]
    answers = asyncio.run(replies(socket_url, bad, {}))
    assert [answer.get("status") for answer in answers] == [413, 400, 400, 400, 400, 400]
    assert "nested too deeply" in answers[1]["error"]
    assert "too many digits" in answers[3]["error"]
    assert "unknown message type" in answers[5]["error"]


# -- the limits of connections, as served (server/serving.py)


@pytest.fixture
def live(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[LiveServer]:
    """A live server with the test's options: ``@pytest.mark.serving(**serve_config options)``
    and ``@pytest.mark.hooks(**create_app options)``."""
    serving = request.node.get_closest_marker("serving")
    hooks = request.node.get_closest_marker("hooks")
    server = LiveServer(
        tmp_path / "limits.sqlite3",
        serving=serving.kwargs if serving else None,
        **(hooks.kwargs if hooks else {}),
    ).start()
    yield server
    server.stop()


def connect(server: LiveServer) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=10)


def closed_within(sock: socket.socket, seconds: float) -> bytes | None:
    """What the server sent before closing the connection within ``seconds``; None if it was
    still open then."""
    sock.settimeout(seconds)
    received = b""
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            chunk = sock.recv(65536)
            if not chunk:
                return received
            received += chunk
    except TimeoutError:
        return None
    except ConnectionResetError:
        return received
    return None


def test_a_never_ending_header_is_cut_off_with_bounded_memory(live: LiveServer) -> None:
    with connect(live) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Endless: ")
        sent = 0
        answer = b""
        try:
            while sent < 4 * 1024 * 1024:
                sock.sendall(b"a" * 4096)
                sent += 4096
                readable, _, _ = select.select([sock], [], [], 0.02)
                if readable:
                    answer = closed_within(sock, 5) or b""
                    break
        except (BrokenPipeError, ConnectionResetError):
            pass
    # The server stopped reading soon after its bound (16 KiB), never near the 4 MiB sent.
    assert sent <= 256 * 1024
    assert answer == b"" or answer.startswith(b"HTTP/1.1 400")


@pytest.mark.serving(request_timeout=0.5)
@pytest.mark.parametrize(
    "partial",
    [
        b"",  # connected, sends nothing
        b"GET / HTTP/1.1\r\nHost: x\r\n",  # half a head
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{",  # half a body
    ],
)
def test_an_incomplete_request_is_closed_after_the_request_timeout(
    live: LiveServer, partial: bytes
) -> None:
    with connect(live) as sock:
        sock.sendall(partial)
        started = time.monotonic()
        assert closed_within(sock, 5) is not None
        assert 0.3 < time.monotonic() - started < 4


@pytest.mark.serving(request_timeout=0.5)
def test_complete_requests_and_websockets_outlive_the_request_timeout(live: LiveServer) -> None:
    with connect(live) as sock:
        for _ in range(2):  # two requests on one kept-alive connection, slower than 0.5 s
            sock.sendall(b"GET /api/player HTTP/1.1\r\nHost: x\r\n\r\n")
            sock.settimeout(5)
            assert sock.recv(65536).startswith(b"HTTP/1.1 200")
            time.sleep(0.8)
    table, session = new_table(live.url)

    async def slow_client() -> dict[str, Any]:
        url = live.url.replace("http", "ws") + f"/ws/tables/{table}"
        async with websockets.connect(url, additional_headers=session, open_timeout=10) as ws:
            await asyncio.wait_for(ws.recv(), 10)
            await asyncio.sleep(1.5)  # three request timeouts: a websocket has none
            await ws.send(json.dumps({"command": "undo"}))
            answer: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
            return answer

    assert asyncio.run(slow_client())["status"] == 422  # answered: nothing to undo


@pytest.mark.serving(connections_per_client=3)
def test_one_address_holds_a_bounded_number_of_connections(live: LiveServer) -> None:
    held = [connect(live) for _ in range(3)]
    try:
        time.sleep(0.2)
        with connect(live) as extra:
            assert closed_within(extra, 5) == b""  # closed at once, nothing read
        held.pop().close()
        time.sleep(0.2)
        with urllib.request.urlopen(f"{live.url}/api/player", timeout=10) as response:
            assert response.status == 200
    finally:
        for sock in held:
            sock.close()


@pytest.mark.serving(max_connections=3, connections_per_client=None)
def test_beyond_the_connections_served_at_once_a_request_gets_503(live: LiveServer) -> None:
    held = [connect(live) for _ in range(3)]
    try:
        time.sleep(0.2)
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{live.url}/api/player", timeout=10)
        assert refused.value.code == 503
    finally:
        for sock in held:
            sock.close()


def create_from(url: str, forwarded_for: str) -> int:
    request = urllib.request.Request(
        f"{url}/api/tables",
        data=json.dumps({"game": "klondike", "deal": 7}).encode(),
        headers={"content-type": "application/json", "x-forwarded-for": forwarded_for},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


@pytest.mark.hooks(creations_per_minute=2)
def test_x_forwarded_for_does_not_escape_the_limits_per_address(live: LiveServer) -> None:
    statuses = [create_from(live.url, f"203.0.113.{n}") for n in range(3)]
    assert statuses == [201, 201, 429]


@pytest.mark.serving(proxy_headers=True)
@pytest.mark.hooks(creations_per_minute=2)
def test_behind_a_trusted_proxy_each_forwarded_address_has_its_limit(live: LiveServer) -> None:
    statuses = [create_from(live.url, "203.0.113.1") for _ in range(3)]
    assert statuses == [201, 201, 429]
    assert create_from(live.url, "203.0.113.2") == 201


def test_a_served_websocket_from_another_origin_is_refused(live: LiveServer) -> None:
    table, session = new_table(live.url)
    url = live.url.replace("http", "ws") + f"/ws/tables/{table}"

    async def open_from(origin: str) -> str:
        async with websockets.connect(
            url, origin=origin, additional_headers=session, open_timeout=10
        ) as ws:
            return str(json.loads(await asyncio.wait_for(ws.recv(), 10))["type"])

    assert asyncio.run(open_from(live.url)) == "state"
    with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
        asyncio.run(open_from("https://evil.example"))
    assert refused.value.response.status_code == 403


def test_served_responses_carry_the_security_headers(live: LiveServer) -> None:
    with urllib.request.urlopen(f"{live.url}/static/app.js", timeout=10) as response:
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "no-referrer"
        assert "default-src 'self'" in response.headers["content-security-policy"]
