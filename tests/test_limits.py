"""What the server refuses before any handler runs, through Starlette's test client: security
headers, the static files a page may load, websocket origins, rate limits per client, and the
errors of a store that fails (the live server's connection limits: browser/test_served_limits.py).
"""

from __future__ import annotations

import sqlite3
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from patience.server import create_app
from patience.server.limits import SECURITY_HEADERS, checked_origins, page_files
from patience.web import WEB_DIR

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient, WebSocketDenialResponse

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "patience.sqlite3"


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_path)) as test_client:
        yield test_client


def new_table(client: TestClient) -> str:
    response = client.post("/api/tables", json={"game": "klondike", "deal": 7})
    assert response.status_code == 201, response.text
    return str(response.json()["table"])


# -- security headers, static files


def test_every_response_has_the_security_headers(client: TestClient) -> None:
    table = new_table(client)
    responses = [
        client.get("/"),
        client.get("/static/app.js"),
        client.get("/static/__init__.py"),  # 404
        client.get("/api/games"),
        client.get(f"/api/tables/{table}"),
        client.get("/api/tables/nosuch"),  # 404, the JSON error
        client.post("/api/tables", content=b"{oops"),  # 400
        client.get("/no/such/address"),  # Starlette's own 404
        client.delete("/api/games"),  # Starlette's own 405
    ]
    for response in responses:
        for name, value in SECURITY_HEADERS.items():
            assert response.headers.get(name) == value, (response.url, name)
    assert responses[5].json()["status"] == 404


def test_static_serves_only_the_files_the_pages_load(client: TestClient) -> None:
    allowed = page_files(WEB_DIR, ("index.html", "tables.html"))
    # Every module and style sheet of the front end is loaded by a page (none is dead) ...
    shipped = {path.name for path in WEB_DIR.iterdir() if path.suffix in {".js", ".css"}}
    assert allowed == shipped
    for name in sorted(allowed):
        assert client.get(f"/static/{name}").status_code == 200, name
    # ... and nothing else is served: the package's Python, the pages themselves, other paths.
    for path in ("__init__.py", "index.html", "tables.html", "nothing.js", "../server/app.py"):
        assert client.get(f"/static/{path}").status_code == 404, path


def test_page_files_follows_the_imports_of_modules(tmp_path: Path) -> None:
    (tmp_path / "page.html").write_text('<script type="module" src="/static/a.js"></script>')
    (tmp_path / "a.js").write_text('import { b } from "./b.js";\nconst c = import("./c.js");')
    (tmp_path / "b.js").write_text('import { a } from "./a.js";')  # a cycle ends
    (tmp_path / "c.js").write_text("")
    (tmp_path / "unused.js").write_text("")
    assert page_files(tmp_path, ["page.html"]) == {"a.js", "b.js", "c.js"}


# -- websocket origins


def socket_close(client: TestClient, path: str, headers: dict[str, str]) -> int | None:
    """The close code if the websocket is refused before it opens, else None (it opened)."""
    try:
        with client.websocket_connect(path, headers=headers) as socket:
            socket.receive_json()
    except WebSocketDenialResponse:
        raise  # an HTTP answer instead of a websocket: the test looks at it
    except WebSocketDisconnect as refused:
        return refused.code
    return None


def test_a_websocket_from_another_origin_is_refused(client: TestClient) -> None:
    table = new_table(client)
    path = f"/ws/tables/{table}"
    assert socket_close(client, path, {}) is None  # no Origin: not a browser
    assert socket_close(client, path, {"origin": "http://testserver"}) is None  # our own
    assert socket_close(client, path, {"origin": "HTTP://TestServer"}) is None
    for foreign in ("https://evil.example", "http://testserver.evil.example", "null", "x"):
        assert socket_close(client, path, {"origin": foreign}) == 4403, foreign
    assert socket_close(client, "/ws/shared/nosuch", {"origin": "https://evil.example"}) == 4403


def test_allowed_origins_are_configurable(db_path: Path) -> None:
    app = create_app(db_path, allowed_origins=["https://play.example.org/"])
    with TestClient(app) as client:
        table = new_table(client)
        path = f"/ws/tables/{table}"
        assert socket_close(client, path, {"origin": "https://play.example.org"}) is None
        assert socket_close(client, path, {"origin": "http://play.example.org"}) == 4403
        assert socket_close(client, path, {"origin": "http://testserver"}) is None


@pytest.mark.parametrize("bad", ["play.example.org", "ftp://example.org", "https://"])
def test_a_bad_allowed_origin_is_refused(bad: str) -> None:
    with pytest.raises(ValueError, match=r"like https://example\.org"):
        checked_origins([bad])


# -- errors that say what happened: a store that fails


def disk_full(*args: Any, **kwargs: Any) -> Any:
    raise sqlite3.OperationalError("database or disk is full")


def test_a_failing_store_gives_the_one_json_error_over_http(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = new_table(client)
    store = client.app.state.store  # type: ignore[attr-defined]
    for method in ("create_table", "owned_tables", "append_event", "account_stats"):
        monkeypatch.setattr(store, method, disk_full)
    full = {"error": "the store failed: database or disk is full", "status": 503}
    for response in (
        client.post("/api/tables", json={"game": "klondike", "deal": 8}),
        client.get("/api/tables"),
        client.get("/api/stats"),
    ):
        assert response.status_code == 503
        assert response.json() == full
        assert response.headers["x-content-type-options"] == "nosniff"
    # A command: refused with the table as it stands, nothing changed.
    refused = client.post(f"/api/tables/{table}", json={"command": "move", "move": "stock"})
    assert refused.status_code == 503
    assert "database or disk is full" in refused.json()["error"]
    assert refused.json()["state"]["events"] == 0


def test_a_failing_store_gives_a_websocket_an_error_and_keeps_it_open(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = new_table(client)
    store = client.app.state.store  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/tables/{table}") as socket:
        assert socket.receive_json()["type"] == "state"
        with monkeypatch.context() as patched:
            patched.setattr(store, "append_event", disk_full)
            socket.send_json({"command": "move", "move": "stock"})
            error = socket.receive_json()
            assert error["type"] == "error"
            assert error["status"] == 503
            assert "database or disk is full" in error["error"]
        # The connection is open, and the disk has room again: the move is made.
        socket.send_json({"command": "move", "move": "stock"})
        answer = socket.receive_json()
        assert answer["type"] == "state", answer
        assert answer["state"]["events"] == 1


def test_a_websocket_to_a_table_the_store_cannot_read_gets_a_close_reason(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with TestClient(create_app(db_path)) as first:
        table = new_table(first)
    with TestClient(create_app(db_path)) as client:  # the table is not in memory
        monkeypatch.setattr(client.app.state.store, "table", disk_full)  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/tables/{table}") as socket:
            error = socket.receive_json()
            assert error == {
                "type": "error",
                "error": "the store failed: database or disk is full",
                "status": 503,
            }
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
        assert closed.value.code == 1011
        assert closed.value.reason == "the store failed: database or disk is full"


def test_a_host_not_allowed_is_refused(db_path: Path) -> None:
    # A foreign name made to point at this server (DNS rebinding) is not our origin.
    app = create_app(db_path, allowed_hosts=["127.0.0.1", "localhost"])
    with TestClient(app, base_url="http://localhost:8000") as client:
        table = new_table(client)
        assert client.get("/").status_code == 200
        assert socket_close(client, f"ws://localhost:8000/ws/tables/{table}", {}) is None
    with TestClient(app, base_url="http://rebound.example:8000") as client:
        refused = client.get("/")
        assert refused.status_code == 400
        assert refused.headers["x-content-type-options"] == "nosniff"
        with pytest.raises(WebSocketDenialResponse) as denied:
            socket_close(client, f"ws://rebound.example:8000/ws/tables/{table}", {})
        assert denied.value.status_code == 400
