"""Size and shape limits of messages as the server is really served (uvicorn, as `patience
serve` runs it), not only through Starlette's test client, which skips uvicorn's own limits."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from typing import Any

import pytest

from patience.server import MAX_BODY

websockets = pytest.importorskip("websockets")


def post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


async def replies(socket_url: str, messages: list[str | bytes]) -> list[dict[str, Any]]:
    """Send each message on one connection; the reply to each (after the first state)."""
    answers = []
    async with websockets.connect(socket_url, open_timeout=10) as socket:
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
    table = post(f"{server_url}/api/tables", {"game": "klondike", "deal": 7})["table"]
    socket_url = server_url.replace("http", "ws") + f"/ws/tables/{table}"
    answers = asyncio.run(replies(socket_url, [*BAD_MESSAGES, json.dumps({"command": "undo"})]))
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
    answers = asyncio.run(replies(socket_url, [*BAD_MESSAGES, json.dumps({"type": "teleport"})]))
    assert [answer.get("status") for answer in answers] == [413, 400, 400, 400, 400, 400]
    assert "nested too deeply" in answers[1]["error"]
    assert "too many digits" in answers[3]["error"]
    assert "unknown message type" in answers[5]["error"]
