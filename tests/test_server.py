"""The web server through Starlette's test client: the HTTP API and the websocket protocol."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.requests import Request
from starlette.websockets import WebSocketDisconnect

import patience
from patience import record
from patience.server import MAX_BODY, OLD_COOKIE, create_app
from patience.server.catalogue import one_player_games
from patience.server.errors import CommandError
from patience.server.http import CreationLimit
from patience.store import Store

with warnings.catch_warnings():
    # Starlette 1.x prefers httpx2 for its test client; httpx works the same and is what the
    # older Starlette versions we support use.
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "patience.sqlite3"


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_path)) as test_client:
        yield test_client


def new_table(client: TestClient, game: str = "klondike", deal: Any = 7, **options: Any) -> Any:
    response = client.post("/api/tables", json={"game": game, "options": options, "deal": deal})
    assert response.status_code == 201, response.text
    return response.json()


def send(client: TestClient, table: str, command: str, **extra: Any) -> Any:
    return client.post(f"/api/tables/{table}", json={"command": command, **extra})


def without_clock(state: dict[str, Any]) -> dict[str, Any]:
    """A table's state less its clock, which moves on between two requests."""
    return {key: value for key, value in state.items() if key != "elapsed"}


def hidden_cards(game: patience.Game) -> set[str]:
    """The face-down cards of a one-pack game's position (they appear nowhere face up)."""
    return {card for pile in game.position()["piles"].values() for card in pile["down"]}


def test_pages_and_static_files_are_served(client: TestClient) -> None:
    for path in ("/", "/stats", "/play/abc"):
        page = client.get(path)
        assert page.status_code == (404 if path == "/play/abc" else 200)  # no table abc
        assert '<script type="module" src="/static/app.js">' in page.text
        assert "default-src 'self'" in page.headers["content-security-policy"]
    assert '<link rel="stylesheet" href="/static/start.css">' in client.get("/").text
    for name in ("app.js", "api.js", "cards.js", "layout.js", "table.js", "style.css", "start.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/static/nothing.js").status_code == 404


def test_the_catalogue_lists_every_one_player_game_with_its_options(client: TestClient) -> None:
    games = {entry["name"]: entry for entry in client.get("/api/games").json()}
    assert list(games) == one_player_games()
    assert {"klondike", "spider", "canfield", "accordion", "napoleon", "leonis-own"} <= set(games)
    draw = next(option for option in games["klondike"]["options"] if option["name"] == "draw")
    assert (draw["default"], draw["choices"]) == (3, [1, 3])
    assert games["spider"]["summary"]
    # Every option has a readable label, not its key.
    labels = {(name, o["name"]): o["label"] for name, g in games.items() for o in g["options"]}
    assert labels[("klondike", "from_foundation")] == "Cards back from the foundations"
    assert all(label and "_" not in label for label in labels.values())


def test_a_table_sends_the_view_and_never_a_face_down_card(client: TestClient) -> None:
    state = new_table(client, draw=1)
    assert state["deal"] == 7
    assert state["moves"] == 0
    assert state["seats"] == ["guest"]
    assert state["options_text"] == "draw=1,passes=unlimited,from_foundation=on"
    assert state["options_words"] == "draw 1"
    game = patience.new("klondike", deal=7, draw=1)
    assert state["view"] == json.loads(json.dumps(game.view(0)))
    page = client.get(f"/api/tables/{state['table']}").text
    assert all(f'"{card}"' not in page for card in hidden_cards(game))
    assert "position" not in page


@pytest.mark.parametrize("name", one_player_games())
def test_every_one_player_game_can_be_played(client: TestClient, name: str) -> None:
    state = new_table(client, name, deal=11)
    for pile in state["view"]["piles"].values():
        assert set(pile["down"]) <= {None}
    move = state["view"]["legal_moves"][0]
    after = send(client, state["table"], "move", move=move)
    assert after.status_code == 200, after.text
    assert after.json()["moves"] == 1


def test_a_random_deal_is_shown(client: TestClient) -> None:
    state = new_table(client, deal=None)
    assert isinstance(state["deal"], int)
    assert isinstance(new_table(client, deal="")["deal"], int)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"game": "chess"}, "unknown game"),
        ({"game": "leopard"}, "one-player games"),
        ({"game": "klondike", "options": {"draw": 2}}, "draw=2"),
        ({"game": "klondike", "options": {"speed": 1}}, "no option 'speed'"),
        ({"game": "klondike", "options": [1]}, "'options' must be an object"),
        ({"game": "klondike", "deal": -1}, "deal"),
        ({"game": "klondike", "deal": "seven"}, "deal"),
        ({"game": "klondike", "deal": True}, "whole number"),
        ({"game": "klondike", "winnable": True}, "solver"),
        ({"game": "klondike", "winnable": True, "grade": "trivial"}, "one of easy, medium, hard"),
        ({"game": "klondike", "winnable": True, "grade": 1}, "'grade' is one of easy, medium"),
        ({"game": "klondike", "grade": "easy"}, "with winnable deals only"),
        ({"game": 5}, "'game' must be a game name"),
        ([1, 2], "send"),
    ],
)
def test_bad_new_tables_are_refused(client: TestClient, body: Any, message: str) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400
    assert message in response.json()["error"]


def test_moves_in_text_and_json_and_illegal_ones_change_nothing(client: TestClient) -> None:
    table = new_table(client)["table"]
    assert send(client, table, "move", move="t7-f1").json()["moves"] == 1
    state = send(client, table, "move", move={"from": "t2", "to": "t4"}).json()
    assert state["moves"] == 2
    assert state["events"] == 2
    refused = send(client, table, "move", move="t5-f2")
    assert refused.status_code == 422
    assert "3c cannot go on f2" in refused.json()["error"]
    assert without_clock(refused.json()["state"]) == without_clock(
        client.get(f"/api/tables/{table}").json()
    )
    assert refused.json()["state"]["events"] == 2
    bad = send(client, table, "move", move="t9-t99-x")
    assert bad.status_code == 422
    assert "klondike has no action" in bad.json()["error"]
    assert send(client, table, "move", move=7).status_code == 400
    assert send(client, table, "move", move="x" * 300).status_code == 400
    assert send(client, table, "teleport").status_code == 400


def test_undo_redo_restart_and_resign(client: TestClient) -> None:
    table = new_table(client)["table"]
    assert send(client, table, "undo").status_code == 422
    assert send(client, table, "restart").status_code == 422
    send(client, table, "move", move="t7-f1")
    send(client, table, "move", move="t2-t4")
    state = send(client, table, "undo").json()
    assert (state["moves"], state["can_undo"], state["can_redo"]) == (1, True, True)
    state = send(client, table, "redo").json()
    assert (state["moves"], state["can_redo"]) == (2, False)
    assert send(client, table, "redo").status_code == 422
    state = send(client, table, "restart").json()
    assert (state["moves"], state["can_redo"]) == (0, True)
    assert state["view"] == new_table(client)["view"]
    state = send(client, table, "resign").json()
    assert state["outcome"] == {"result": "lost", "reason": "resigned"}
    assert send(client, table, "move", move="t7-f1").status_code == 422


def test_a_stale_command_is_refused(client: TestClient) -> None:
    table = new_table(client)["table"]
    send(client, table, "move", move="t7-f1", events=0)
    stale = send(client, table, "undo", events=0)
    assert stale.status_code == 409
    assert stale.json()["state"]["moves"] == 1


def test_every_move_is_stored_before_it_is_answered(client: TestClient, db_path: Path) -> None:
    table = new_table(client)["table"]
    send(client, table, "move", move="t7-f1")
    with Store(db_path) as other:  # another connection sees the committed event
        assert [event.move for event in other.events(table)] == ["t7-f1"]


def test_a_game_resumes_after_a_server_restart(db_path: Path) -> None:
    with TestClient(create_app(db_path)) as first:
        table = new_table(first, draw=1)["table"]
        for command, move in [("move", "t7-f1"), ("move", "t2-t4"), ("move", "stock")]:
            send(first, table, command, move=move)
        send(first, table, "undo")
        before = first.get(f"/api/tables/{table}").json()
        cookies = first.cookies
    with TestClient(create_app(db_path), cookies=cookies) as second:  # the same browser
        after = second.get(f"/api/tables/{table}").json()
        assert without_clock(after) == without_clock(before)
        assert send(second, table, "redo").json()["moves"] == 3


def test_malformed_and_oversized_requests_are_refused(client: TestClient) -> None:
    table = new_table(client)["table"]
    headers = {"content-type": "application/json"}
    for body in (
        b"{not json",
        b"\xff\xfe",
        b'"just a string"',
        b"[]",
        b"[" * 3000 + b"]" * 3000,
        b'{"deal": ' + b"9" * 5000 + b"}",
    ):
        response = client.post(f"/api/tables/{table}", content=body, headers=headers)
        assert response.status_code == 400, body
        assert "error" in response.json()
    huge = json.dumps({"command": "move", "move": "t7-f1", "pad": "x" * MAX_BODY})
    response = client.post(f"/api/tables/{table}", content=huge, headers=headers)
    assert response.status_code == 413
    assert client.get(f"/api/tables/{table}").json()["moves"] == 0
    assert client.get("/api/tables/nosuchtable").status_code == 404
    assert send(client, "nosuchtable", "undo").status_code == 404


@pytest.mark.parametrize("events", ["0", "1", True, False, -1, 0.5, [0], {"n": 0}])
def test_events_that_are_not_a_whole_number_are_refused_as_malformed(
    client: TestClient, events: Any
) -> None:
    table = new_table(client)["table"]
    send(client, table, "move", move="t7-f1")  # events is 1 now: True == 1 must not pass
    for response in (
        send(client, table, "undo", events=events),
        client.post(f"/api/tables/{table}/autofinish", json={"events": events}),
    ):
        assert response.status_code == 400, response.text
        assert "'events' is a whole number" in response.json()["error"]
    assert client.get(f"/api/tables/{table}").json()["events"] == 1
    with client.websocket_connect(f"/ws/tables/{table}") as socket:
        socket.receive_json()
        socket.send_json({"command": "undo", "events": events})
        error = socket.receive_json()
        assert (error["type"], error["status"]) == ("error", 400)
    assert client.get(f"/api/tables/{table}").json()["events"] == 1


@pytest.mark.parametrize("body", [[1], [], "x", 5, None, True])
def test_a_new_table_from_a_body_that_is_not_an_object_is_refused(db_path: Path, body: Any) -> None:
    # Room for two new tables: the refused requests must not use up the second.
    with TestClient(create_app(db_path, creations_per_minute=2)) as client:
        table = new_table(client)["table"]
        headers = {"content-type": "application/json"}
        for url in ("/api/tables", f"/api/tables/{table}/new"):
            response = client.post(url, content=json.dumps(body), headers=headers)
            assert response.status_code == 400, (url, response.text)
            assert "send {" in response.json()["error"]
        assert [row["table"] for row in client.get("/api/tables").json()] == [table]
        assert client.post(f"/api/tables/{table}/new", json={}).status_code == 201


@pytest.mark.parametrize("cookie", ["%ff%fe", "%C3", "a%09b", "%EF%BF%BD", "%00", "x" * 41])
def test_a_bad_old_name_cookie_is_the_guest_and_creates_no_player(
    client: TestClient, db_path: Path, cookie: str
) -> None:
    client.cookies.set(OLD_COOKIE, cookie)
    answer = client.get("/api/player")
    assert answer.json() == {"name": "guest", "claimed": False, "show_stats": False, "choices": {}}
    assert f"{OLD_COOKIE}=" in answer.headers["set-cookie"]  # deleted
    state = new_table(client)
    assert state["seats"] == ["guest"]
    with Store(db_path) as store:
        assert store.players() == []  # tables belong to sessions now, not to names


def test_a_name_with_replacement_characters_is_refused(client: TestClient) -> None:
    refused = client.post("/api/player", json={"name": "\ufffd\ufffd"})
    assert refused.status_code == 400
    assert "replacement characters" in refused.json()["error"]
    assert client.get("/api/stats?player=%ff").status_code == 400


def test_a_name_is_how_the_session_is_shown_not_who_owns_its_tables(client: TestClient) -> None:
    assert client.get("/api/player").json()["name"] == "guest"
    assert client.post("/api/player", json={"name": "\n"}).status_code == 400
    assert client.post("/api/player", json={"name": " Ann "}).json()["name"] == "Ann"
    assert client.get("/api/player").json()["name"] == "Ann"
    table = new_table(client)["table"]
    assert client.get(f"/api/tables/{table}").json()["seats"] == ["Ann"]
    # Another name changes nothing of what the session owns.
    assert client.post("/api/player", json={"name": "Smith, J"}).json()["name"] == "Smith, J"
    assert client.get(f"/api/tables/{table}").status_code == 200
    assert [t["table"] for t in client.get("/api/tables?ongoing=1").json()] == [table]
    new = new_table(client)
    assert new["seats"] == ["Smith, J"]
    # A comma in a name is fine: the record quotes it (docs/records.md).
    downloaded = client.get(f"/api/tables/{new['table']}/record").text
    assert record.read_record(downloaded).players == ["Smith, J"]


def test_new_deal_keeps_the_game_and_options(client: TestClient) -> None:
    table = new_table(client, draw=1)["table"]
    fresh = client.post(f"/api/tables/{table}/new", json={"deal": 12}).json()
    assert fresh["table"] != table
    assert (fresh["game"], fresh["deal"], fresh["options"]["draw"]) == ("klondike", 12, 1)
    random = client.post(f"/api/tables/{table}/new").json()
    assert isinstance(random["deal"], int)


def test_the_record_downloads_and_replays(client: TestClient) -> None:
    table = new_table(client)["table"]
    send(client, table, "move", move="t7-f1")
    text = client.get(f"/api/tables/{table}/record")
    assert "attachment" in text.headers["content-disposition"]
    game = record.loads(text.text)
    assert game.move_stack == [patience.Move.parse("t7-f1")]
    assert game.deal == 7
    as_json = client.get(f"/api/tables/{table}/record?format=json")
    assert record.loads(as_json.text).position() == game.position()
    assert client.get(f"/api/tables/{table}/record?format=pdf").status_code == 400


def test_a_won_game_counts_in_the_statistics(client: TestClient) -> None:
    won = record.read_record((GOLDEN / "klondike-won-draw1.rec").read_text())
    client.post("/api/player", json={"name": "ann"})
    table = new_table(client, deal=won.deal, **won.options)["table"]
    for move in won.moves:
        state = send(client, table, "move", move=move.text()).json()
    assert state["outcome"]["result"] == "won"
    assert state["moves"] == len(won.moves)
    lost = new_table(client, **won.options)["table"]
    send(client, lost, "resign")
    other = new_table(client)["table"]  # the default options: counted apart
    send(client, other, "resign")
    stats = client.get("/api/stats").json()
    assert stats["player"] == "ann"
    default, klondike = stats["games"]
    assert (default["title"], default["played"]) == ("Klondike", 1)
    assert klondike["title"] == "Klondike, draw 1"
    assert (klondike["played"], klondike["won"], klondike["win_rate"]) == (2, 1, 0.5)
    assert (klondike["current_streak"], klondike["best_streak"]) == (0, 1)
    assert klondike["best_moves"] == len(won.moves)
    assert client.get("/api/stats?player=ann").json()["games"] == stats["games"]  # his own
    assert client.get("/api/stats?player=nobody").status_code == 404  # no such claimed name


def test_statistics_and_unfinished_games_are_per_game_and_options_with_titles(
    client: TestClient,
) -> None:
    for game, options in [
        ("spider", {"suits": 1}),
        ("spider", {"suits": 4}),
        ("spider", {}),  # the defaults: four suits, as above
        ("klondike", {"draw": 1}),
        ("leonis-own", {}),
    ]:
        table = new_table(client, game, deal=3, **options)
        send(client, table["table"], "move", move=table["view"]["legal_moves"][0])
    games = client.get("/api/stats").json()["games"]
    found = [(entry["title"], entry["played"]) for entry in games]
    assert found == [
        ("Klondike, draw 1", 1),
        ("Leoni's Own", 1),
        ("Spider", 2),
        ("Spider, 1 suit", 1),
    ]
    assert games[3]["options"] == {"layout": 50, "auto_remove": True, "suits": 1}
    unfinished = client.get("/api/tables?ongoing=1").json()
    assert [row["title"] for row in unfinished] == [
        "Leoni's Own",
        "Klondike, draw 1",
        "Spider",
        "Spider",
        "Spider, 1 suit",
    ]


def test_variant_titles_name_the_options_that_differ_from_the_defaults() -> None:
    from patience.server.catalogue import variant_title

    assert variant_title("klondike", {"draw": 3, "passes": "unlimited"}) == "Klondike"
    assert variant_title("klondike", {"passes": 1, "from_foundation": False}) == (
        "Klondike, 1 pass, no cards back from the foundations"
    )
    assert variant_title("spider", {"suits": 2, "layout": 54}) == "Spider, 54-card layout, 2 suits"
    assert variant_title("accordion", {"dealing": "all"}) == "Accordion, all dealt at the start"
    assert variant_title("klondike", {"draw": 7}) == "Klondike"  # no longer valid: left out
    assert variant_title("chess", {}) == "chess"


def test_the_time_of_a_win_is_the_same_at_the_table_and_in_the_statistics(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import time
    import types

    from patience.server import service, table

    # The table's own clock runs 0.35 s ahead of the store's: the table must show the stored
    # finishing time all the same, as the statistics do.
    ahead = types.SimpleNamespace(time=lambda: time.time() + 0.35)
    monkeypatch.setattr(service, "time", ahead)
    monkeypatch.setattr(table, "time", ahead)
    won = record.read_record((GOLDEN / "klondike-won-draw1.rec").read_text())
    table = new_table(client, deal=won.deal, **won.options)["table"]
    for move in won.moves:
        state = send(client, table, "move", move=move.text()).json()
    assert state["outcome"]["result"] == "won"
    (entry,) = client.get("/api/stats").json()["games"]
    assert entry["best_seconds"] == state["elapsed"]
    assert client.get(f"/api/tables/{table}").json()["elapsed"] == state["elapsed"]


def test_the_hint_hook_says_it_needs_the_solver(client: TestClient) -> None:
    table = new_table(client)["table"]
    response = client.get(f"/api/tables/{table}/hint")
    assert response.status_code == 501
    assert "solver" in response.json()["error"]


def test_the_websocket_protocol(client: TestClient) -> None:
    table = new_table(client)["table"]
    with (
        client.websocket_connect(f"/ws/tables/{table}") as socket,
        client.websocket_connect(f"/ws/tables/{table}") as watcher,
    ):
        assert socket.receive_json()["state"]["moves"] == 0
        assert watcher.receive_json()["type"] == "state"
        socket.send_text(json.dumps({"command": "move", "move": "t7-f1"}))
        assert socket.receive_json()["state"]["moves"] == 1
        assert watcher.receive_json()["state"]["moves"] == 1  # every connection is told
        socket.send_text(json.dumps({"command": "move", "move": "t5-f2"}))
        error = socket.receive_json()
        assert (error["type"], error["status"]) == ("error", 422)
        socket.send_text("{oops")
        assert socket.receive_json()["status"] == 400
        socket.send_text("x" * (MAX_BODY + 1))
        assert socket.receive_json()["status"] == 413
        socket.send_text(json.dumps({"command": "undo"}))
        assert socket.receive_json()["state"]["moves"] == 0
    assert client.get(f"/api/tables/{table}").json()["events"] == 2


def test_a_websocket_to_an_unknown_table_is_closed(client: TestClient) -> None:
    with client.websocket_connect("/ws/tables/nosuch") as socket:
        assert socket.receive_json()["status"] == 404
        with pytest.raises(WebSocketDisconnect):
            socket.receive_json()


def test_an_event_stored_by_another_server_first_is_not_lost(db_path: Path) -> None:
    with TestClient(create_app(db_path)) as first, TestClient(create_app(db_path)) as second:
        table = new_table(first)["table"]
        second.cookies = first.cookies
        assert second.get(f"/api/tables/{table}").json()["moves"] == 0  # now in its memory
        send(first, table, "move", move="t7-f1")
        clash = send(second, table, "move", move="t2-t4")
        assert clash.status_code == 409
        assert clash.json()["state"]["moves"] == 1  # rebuilt from the store
        assert send(second, table, "move", move="t2-t4").json()["moves"] == 2


def test_serve_refuses_a_file_that_is_not_a_store(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from patience.cli import main

    bad = tmp_path / "notes.txt"
    bad.write_text("not a database " * 100)
    result = CliRunner().invoke(main, ["serve", "--db", str(bad)])
    assert result.exit_code == 1
    assert "cannot open the store" in result.output
    assert "file is not a database" in result.output
    assert CliRunner().invoke(main, ["serve", "--port", "0"]).exit_code == 2


# -- the rules of the game -------------------------------------------------------------------


def test_the_rules_of_every_game_come_as_html(client: TestClient) -> None:
    for name in one_player_games():
        response = client.get(f"/api/rules/{name}")
        assert response.status_code == 200, response.text
        assert response.json()["html"].startswith("<h1>")
    klondike = client.get("/api/rules/klondike").json()["html"]
    assert "Klondike" in klondike
    assert "<script" not in klondike.lower()


def test_a_rules_page_option_table_renders_as_a_table(client: TestClient) -> None:
    spider = client.get("/api/rules/spider").json()["html"]
    assert "<table>" in spider
    assert "<th>option</th>" in spider
    # Written for players: the option's name in words, no source paths or command lines.
    assert "<td>Suits</td>\n<td>1 or 2 or 4</td>\n<td>4</td>" in spider
    assert "<h1>Spider: how to play</h1>" in spider
    for developers in ("src/", ".py", "patience new", "-o "):
        assert developers not in spider
    assert "| option |" not in spider


def test_table_alignment_is_a_class_and_html_in_a_table_stays_escaped() -> None:
    from patience.server.rules import render_markdown

    html = render_markdown("| a | b |\n|:--|--:|\n| <b>1</b> | 2 |\n")
    assert '<th class="align-left">a</th>' in html
    assert '<td class="align-right">2</td>' in html
    assert "&lt;b&gt;1&lt;/b&gt;" in html
    assert "style=" not in html  # the pages' CSP allows no inline styles


def test_rules_are_found_in_the_repository_docs_folder() -> None:
    from patience.server.rules import REPOSITORY_RULES, default_rules_dirs

    repository_rules = Path(__file__).resolve().parents[1] / "docs" / "rules"
    assert repository_rules == REPOSITORY_RULES
    assert default_rules_dirs()[-1] == repository_rules


def test_rules_are_read_from_the_first_folder_that_has_them_and_raw_html_is_escaped(
    tmp_path: Path,
) -> None:
    packaged, repository = tmp_path / "packaged", tmp_path / "repository"
    packaged.mkdir()
    repository.mkdir()
    (packaged / "klondike.md").write_text("# Packaged\n\n<script>alert(1)</script>\n")
    (repository / "klondike.md").write_text("# From the repository\n")
    (repository / "spider.md").write_text("# Spider\n\n[x](javascript:alert(1)) *ten* piles\n")
    app = create_app(":memory:", rules_dirs=[packaged, repository])
    with TestClient(app) as test_client:
        html = test_client.get("/api/rules/klondike").json()["html"]
        assert html.startswith("<h1>Packaged</h1>")
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "<script>" not in html
        spider = test_client.get("/api/rules/spider").json()["html"]
        assert "<em>ten</em>" in spider
        assert "javascript:" not in spider.replace("[x](javascript:alert(1))", "")


def test_missing_rules_and_unknown_games_are_a_clear_404(tmp_path: Path) -> None:
    with TestClient(create_app(":memory:", rules_dirs=[tmp_path])) as test_client:
        missing = test_client.get("/api/rules/klondike")
        assert missing.status_code == 404
        assert missing.json()["error"].startswith("the rules of klondike are not installed")
        assert str(tmp_path) in missing.json()["error"]
        unknown = test_client.get("/api/rules/chess")
        assert unknown.status_code == 404
        assert "unknown game 'chess'" in unknown.json()["error"]


# -- automatic finish ----------------------------------------------------------------------


def test_automatic_finish_plays_the_winning_moves_one_by_one(db_path: Path) -> None:
    won = record.read_record((GOLDEN / "klondike-won-draw1.rec").read_text())
    # From move 97 on the golden game has every tableau card face up and the stock (two cards
    # left) gone through once: nothing is hidden, and the solver proves the win (issue 21: the
    # finish no longer waits for the stock and waste to be empty).
    ready = 97
    with TestClient(create_app(db_path)) as client:
        table = new_table(client, deal=won.deal, **won.options)["table"]
        for move in won.moves[: ready - 1]:
            state = send(client, table, "move", move=move.text()).json()
        assert state["can_autofinish"] is False
        refused = client.post(f"/api/tables/{table}/autofinish", json={})
        assert refused.status_code == 422
        assert refused.json()["error"].startswith("no automatic finish yet")
        assert refused.json()["state"]["moves"] == ready - 1
        state = send(client, table, "move", move=won.moves[ready - 1].text()).json()
        assert state["can_autofinish"] is True
        stale = client.post(f"/api/tables/{table}/autofinish", json={"events": 0})
        assert stale.status_code == 409
        finished = client.post(
            f"/api/tables/{table}/autofinish", json={"events": state["events"]}
        ).json()
        assert finished["outcome"]["result"] == "won"
        assert finished["can_autofinish"] is False
        total = finished["moves"]
        assert total > ready
        # One stored event per move, each undoable like any other.
        assert finished["events"] == state["events"] + total - ready
        undone = send(client, table, "undo").json()
        assert undone["moves"] == total - 1
        assert undone["outcome"]["result"] == "ongoing"
        assert undone["can_autofinish"] is True
        assert client.post(f"/api/tables/{table}/autofinish").json()["outcome"]["result"] == "won"
        cookies = client.cookies
    with TestClient(create_app(db_path), cookies=cookies) as client:
        resumed = client.get(f"/api/tables/{table}").json()
        assert (resumed["moves"], resumed["outcome"]["result"]) == (total, "won")
        assert client.post(f"/api/tables/{table}/autofinish").status_code == 422


def test_automatic_finish_needs_nothing_hidden_and_a_proved_win() -> None:
    from patience.server.table import autofinish_moves

    def klondike(redeals: int = 0, **piles: tuple[list[str], list[str]]) -> patience.Game:
        """A Klondike position: each foundation built to the jack, the kings and queens as
        given (face down, face up) and every other pile empty, ``redeals`` passes made."""
        layout = {
            name: {"down": [], "up": []}
            for name in patience.new("klondike", deal=1).position()["piles"]
        }
        for index, suit in enumerate("cdhs"):
            layout[f"f{index + 1}"]["up"] = [rank + suit for rank in "A23456789TJ"]
        for name, (down, up) in piles.items():
            layout[name] = {"down": down, "up": up}
        start = patience.new("klondike", deal=1).position()
        return patience.Game.from_position(
            {**start, "deal": None, "piles": layout, "redeals": redeals}
        )

    ready = klondike(
        t1=([], ["Kc", "Qd"]), t2=([], ["Kd", "Qc"]), t3=([], ["Kh", "Qs"]), t4=([], ["Ks", "Qh"])
    )
    moves = autofinish_moves(ready)
    assert moves is not None
    assert len(moves) == 8
    assert all(move.target in {"f1", "f2", "f3", "f4"} for move in moves)
    hidden = klondike(
        t1=(["Kc"], ["Qd"]), t2=(["Kd"], ["Qc"]), t3=([], ["Kh", "Qs"]), t4=([], ["Ks", "Qh"])
    )
    assert autofinish_moves(hidden) is None
    # One card face down, and the only card seen nowhere: the player knows it, so it counts
    # as seen (the solver wins from there; turning it up is one of its moves).
    known = klondike(
        t1=(["Kc"], ["Qd"]), t2=([], ["Kd", "Qc"]), t3=([], ["Kh", "Qs"]), t4=([], ["Ks", "Qh"])
    )
    finish = autofinish_moves(known)
    assert finish is not None
    for move in finish:
        known.push(move)
    assert known.outcome().result == "won"
    stock = klondike(
        stock=(["Qh", "Ks"], []),
        t1=([], ["Kc", "Qd"]),
        t2=([], ["Kd", "Qc"]),
        t3=([], ["Kh", "Qs"]),
    )
    # A stock not yet gone through hides its cards; once a pass is made they count as seen.
    assert autofinish_moves(stock) is None
    seen = klondike(
        1,
        stock=(["Qh", "Ks"], []),
        t1=([], ["Kc", "Qd"]),
        t2=([], ["Kd", "Qc"]),
        t3=([], ["Kh", "Qs"]),
    )
    through = autofinish_moves(seen)
    assert through is not None
    assert "stock" in [move.text() for move in through]
    waste = klondike(
        waste=([], ["Qh"]),
        t1=([], ["Kc", "Qd"]),
        t2=([], ["Kd", "Qc"]),
        t3=([], ["Kh", "Qs"]),
        t4=([], ["Ks"]),
    )
    # The waste's cards are seen: the solver proves the win with the queen of hearts on it.
    assert autofinish_moves(waste) is not None
    # Automatic finish makes the same moves the player could: none of them is lost on the way.
    for move in moves:
        ready.push(move)
    assert ready.outcome().result == "won"


# -- hints, winnable deals and replays (the solver's hooks and record upload) ------------------


def first_move_hinter(game: patience.Game) -> dict[str, Any]:
    """A stand-in for the solver's hint: the first legal move, with a made-up chance."""
    moves = game.legal_moves()
    move = moves[0] if moves else None
    return {
        "move": move.text() if move else None,
        "move_json": move.to_json() if move else None,
        "chance": 0.63,
        "samples": 40,
        "exact": False,
    }


def test_the_hint_comes_from_the_hinter_it_is_given(db_path: Path) -> None:
    seen: list[patience.Game] = []

    def hinter(game: patience.Game) -> dict[str, Any]:
        seen.append(game)
        return first_move_hinter(game)

    with TestClient(create_app(db_path, hinter=hinter, worker_processes=False)) as client:
        state = new_table(client)
        answer = client.get(f"/api/tables/{state['table']}/hint")
        assert answer.status_code == 200, answer.text
        expected = patience.new("klondike", deal=7).legal_moves()[0]
        assert answer.json() == {
            "move": expected.text(),
            "move_json": expected.to_json(),
            "chance": 0.63,
            "samples": 40,
            "exact": False,
        }
        # The hinter works on a copy: whatever it does, the table is untouched.
        seen[0].push(expected)
        assert client.get(f"/api/tables/{state['table']}").json()["moves"] == 0


def test_a_failing_hinter_is_a_clear_error_and_the_table_goes_on(db_path: Path) -> None:
    def hinter(game: patience.Game) -> dict[str, Any]:
        raise RuntimeError("out of time")

    with TestClient(create_app(db_path, hinter=hinter, worker_processes=False)) as client:
        table = new_table(client)["table"]
        answer = client.get(f"/api/tables/{table}/hint")
        assert answer.status_code == 500
        assert "out of time" in answer.json()["error"]
        assert send(client, table, "move", move="t7-f1").status_code == 200


def test_hints_are_bounded_per_table_per_address_and_in_all(db_path: Path) -> None:
    import threading

    started, release = threading.Semaphore(0), threading.Event()

    def slow_hinter(game: patience.Game) -> dict[str, Any]:
        started.release()
        release.wait(10)
        return first_move_hinter(game)

    app = create_app(db_path, hinter=slow_hinter, hints_at_once=2, worker_processes=False)
    with TestClient(app):
        # Three browsers (sessions) at three addresses, each with two tables of its own; the
        # first browser's session also asks from a fourth address.
        others = [TestClient(app, client=(f"10.0.0.{n}", 1000)) for n in range(3)]
        tables = [[new_table(other)["table"] for _ in range(2)] for other in others]
        roaming = TestClient(app, client=("10.0.0.9", 1000), cookies=others[0].cookies)
        answers: list[Any] = []

        def ask(by: TestClient, table: str) -> None:
            answers.append(by.get(f"/api/tables/{table}/hint"))

        workers = [threading.Thread(target=ask, args=(others[n], tables[n][0])) for n in (0, 1)]
        for worker in workers:
            worker.start()
        for _ in workers:
            assert started.acquire(timeout=10)
        again = roaming.get(f"/api/tables/{tables[0][0]}/hint")
        assert again.status_code == 429
        assert "being worked out already" in again.json()["error"]
        mine = others[0].get(f"/api/tables/{tables[0][1]}/hint")
        assert mine.status_code == 429
        assert "at another table" in mine.json()["error"]
        # The session's quota holds from another address too.
        elsewhere = roaming.get(f"/api/tables/{tables[0][1]}/hint")
        assert elsewhere.status_code == 429
        assert "at another table" in elsewhere.json()["error"]
        busy = others[2].get(f"/api/tables/{tables[2][0]}/hint")
        assert busy.status_code == 503
        assert "2 hints already" in busy.json()["error"]
        assert send(others[0], tables[0][1], "move", move="t7-f1").status_code == 200
        release.set()
        for worker in workers:
            worker.join(10)
        assert [answer.status_code for answer in answers] == [200, 200]
        assert app.state.hint_gate.busy == 0
        assert others[2].get(f"/api/tables/{tables[2][0]}/hint").status_code == 200


def test_winnable_deals_come_from_the_deal_picker(db_path: Path) -> None:
    asked: list[tuple[str, bool]] = []

    def picker(rules: Any, winnable: bool) -> int:
        asked.append((rules.name, winnable))
        return 4242 if winnable else 17

    # In threads: the stand-in is a closure that notes what it was asked here.
    with TestClient(create_app(db_path, deal_picker=picker, worker_processes=False)) as client:
        response = client.post(
            "/api/tables", json={"game": "spider", "options": {"suits": 1}, "winnable": True}
        )
        assert response.status_code == 201, response.text
        state = response.json()
        assert (state["deal"], asked[-1]) == (4242, ("spider", True))
        assert new_table(client, deal=None)["deal"] == 17  # a random deal, through the picker
        assert asked[-1] == ("klondike", False)
        fresh = client.post(f"/api/tables/{state['table']}/new", json={"winnable": True})
        assert fresh.status_code == 201
        assert fresh.json()["deal"] == 4242
        assert fresh.json()["options"]["suits"] == 1
        both = client.post("/api/tables", json={"game": "spider", "deal": 3, "winnable": True})
        assert both.status_code == 400
        assert "not both" in both.json()["error"]


def test_a_grade_of_winnable_deals_is_dealt_from_the_graded_list(tmp_path: Path) -> None:
    """The picker in a worker process (as served) deals a grade's deal; a grade the options'
    list does not have, or a grade asked of a plain callable picker, is refused (400) plainly,
    and no table is made."""
    from patience.games import get_rules
    from patience.study.winnable import WinnableDealPicker

    folder = tmp_path / "winnable"
    folder.mkdir()
    default = dict(get_rules("klondike").options)
    draw1 = dict(get_rules("klondike", {"draw": 1}).options)
    graded = {"easy": [1, 2], "medium": [3, 4], "hard": [5, 6]}
    lists = [
        {"options": default, "deals": [1, 2, 3, 4, 5, 6], "grades": graded},
        {"options": draw1, "deals": [7, 8]},
    ]
    (folder / "klondike.json").write_text(json.dumps({"game": "klondike", "lists": lists}))
    picker = WinnableDealPicker(folder=folder, seconds_per_deal=0.01, total_seconds=0.02)
    with TestClient(create_app(tmp_path / "db.sqlite3", deal_picker=picker)) as client:
        assert client.app.state.service.pools["search"].limits.processes  # type: ignore[attr-defined]
        games = {entry["name"]: entry["winnable"] for entry in client.get("/api/games").json()}
        assert {"options": default, "deals": 6, "grades": {"easy": 2, "medium": 2, "hard": 2}} in (
            games["klondike"]["lists"]
        )
        for grade, deals in graded.items():
            body = {"game": "klondike", "winnable": True, "grade": grade}
            made = client.post("/api/tables", json=body)
            assert made.status_code == 201, made.text
            assert made.json()["deal"] in deals
            again = client.post(f"/api/tables/{made.json()['table']}/new", json=body)
            assert again.status_code == 201, again.text
            assert again.json()["deal"] in deals
        tables = len(client.get("/api/tables").json())
        ungraded = {"game": "klondike", "options": {"draw": 1}, "winnable": True, "grade": "hard"}
        refused = client.post("/api/tables", json=ungraded)
        assert refused.status_code == 400
        assert "has no grades" in refused.json()["error"]
        unlisted = {**ungraded, "options": {"passes": 1}}
        refused = client.post("/api/tables", json=unlisted)
        assert refused.status_code == 400
        assert "searched for on demand, which has no grades" in refused.json()["error"]
        assert len(client.get("/api/tables").json()) == tables
    # A plain callable picker is never asked for a grade.
    with TestClient(
        create_app(
            tmp_path / "db2.sqlite3",
            deal_picker=lambda rules, winnable: 4242,
            worker_processes=False,
        )
    ) as client:
        body = {"game": "klondike", "winnable": True}
        assert client.post("/api/tables", json=body).json()["deal"] == 4242
        refused = client.post("/api/tables", json={**body, "grade": "easy"})
        assert refused.status_code == 400
        assert "has no grades of winnable deals" in refused.json()["error"]


def test_winnable_deals_are_refused_clearly_without_a_picker(client: TestClient) -> None:
    state = new_table(client)
    for response in (
        client.post("/api/tables", json={"game": "klondike", "winnable": True}),
        client.post(f"/api/tables/{state['table']}/new", json={"winnable": True}),
    ):
        assert response.status_code == 400
        assert "winnable deals need the solver" in response.json()["error"]


def test_the_catalogue_says_how_winnable_deals_are_dealt(client: TestClient) -> None:
    # Without a deal picker: not available at all.
    for entry in client.get("/api/games").json():
        assert entry["winnable"]["available"] is False


def test_the_catalogue_names_the_shipped_lists_and_the_hard_options(db_path: Path) -> None:
    from patience.study.winnable import WinnableDealPicker

    with TestClient(create_app(db_path, deal_picker=WinnableDealPicker())) as client:
        games = {entry["name"]: entry["winnable"] for entry in client.get("/api/games").json()}
    assert all(info["available"] for info in games.values())
    for name in ("klondike", "canfield", "accordion", "leonis-own", "napoleon", "spider"):
        assert games[name]["default_listed"] is True, name
        assert games[name]["lists"][0]["deals"] > 0
        assert games[name]["seconds"] == 8.0
    # Four suits other than the default layout are searched for on demand, rarely with success.
    spider = games["spider"]
    assert [entry["options"] for entry in spider["rarely"]] == [{"suits": 4}]
    assert "rarely proves" in spider["rarely"][0]["note"]


def test_a_list_added_to_the_folder_is_offered_with_no_change_to_the_code(tmp_path: Path) -> None:
    from patience.games import get_rules
    from patience.study.winnable import WinnableDealPicker

    folder = tmp_path / "winnable"
    folder.mkdir()
    napoleon = dict(get_rules("napoleon").options)
    (folder / "napoleon.json").write_text(
        json.dumps({"game": "napoleon", "lists": [{"options": napoleon, "deals": [5, 9]}]})
    )
    picker = WinnableDealPicker(folder=folder, total_seconds=0.01)
    with TestClient(create_app(tmp_path / "db.sqlite3", deal_picker=picker)) as client:
        games = {entry["name"]: entry["winnable"] for entry in client.get("/api/games").json()}
        assert games["napoleon"]["default_listed"] is True
        assert games["napoleon"]["lists"] == [{"options": napoleon, "deals": 2}]
        assert games["klondike"]["default_listed"] is False  # only this folder is read
        made = client.post("/api/tables", json={"game": "napoleon", "winnable": True})
        assert made.status_code == 201, made.text
        assert made.json()["deal"] in {5, 9}


def test_no_winnable_spider_deal_says_plainly_why(tmp_path: Path) -> None:
    from patience.study.winnable import WinnableDealPicker

    picker = WinnableDealPicker(folder=tmp_path, seconds_per_deal=0.01, total_seconds=0.02)
    with TestClient(create_app(tmp_path / "db.sqlite3", deal_picker=picker)) as client:
        response = client.post(
            "/api/tables", json={"game": "spider", "options": {"suits": 4}, "winnable": True}
        )
        assert response.status_code == 400
        error = response.json()["error"]
        assert "rarely proves a deal of Spider with 4 suits winnable" in error
        assert 'play without "winnable deals only"' in error
        assert client.get("/api/tables").json() == []


def only_null_face_down(piles: dict[str, Any]) -> bool:
    return all(card is None for pile in piles.values() for card in pile["down"])


@pytest.mark.parametrize(
    "name", ["klondike-won-draw1.rec", "klondike-won-draw1-json.json", "klondike-resigned.rec"]
)
def test_a_record_upload_replays_step_by_step_as_views(client: TestClient, name: str) -> None:
    text = (GOLDEN / name).read_text()
    rec = record.read_record(text)
    response = client.post("/api/replay", content=text.encode())
    assert response.status_code == 200, response.text
    replay = response.json()
    assert (replay["game"], replay["deal"], replay["result"]) == (
        rec.game,
        rec.deal,
        rec.result,
    )
    steps = replay["steps"]
    assert [step["move"] for step in steps] == [None, *(move.text() for move in rec.moves)]
    # Each step sends what changed; put together they are the views of the game move by move.
    again = patience.new(rec.game, deal=rec.deal, **rec.options)
    piles: dict[str, Any] = {}
    for index, step in enumerate(steps):
        assert only_null_face_down(step["piles"])
        piles = {**piles, **step["piles"]}
        if index:
            again.push(rec.moves[index - 1])
        if index == len(steps) - 1 and rec.reason == "resigned":
            again.resign()
        assert piles == again.view(0)["piles"]
        assert step["outcome"] == again.view(0)["outcome"]
    assert 0 < len(steps[1]["piles"]) < len(steps[0]["piles"])
    hidden = hidden_cards(patience.new(rec.game, deal=rec.deal, **rec.options))
    first = json.dumps(steps[0])
    assert not any(f'"{card}"' in first for card in hidden)


def test_bad_record_uploads_are_refused_clearly(client: TestClient) -> None:
    text = (GOLDEN / "klondike-won-draw1.rec").read_text()
    broken = text.replace("t7-f1", "t7-f4", 1) if "t7-f1" in text else text + " zz-top"
    cases = [
        (b"", 400, "empty"),
        (b"\xff\xfe junk", 400, "UTF-8"),
        (b'[Game "klondike"\n', 422, "line 1"),
        (b"{not json", 422, "cannot be replayed"),
        (broken.encode(), 422, "cannot be replayed"),
        ((GOLDEN / "double-solitaire-draw.rec").read_bytes(), 422, "one-player games"),
        (b"x" * (512 * 1024 + 1), 413, "at most"),
    ]
    for body, status, message in cases:
        response = client.post("/api/replay", content=body)
        assert response.status_code == status, (body[:30], response.text)
        assert message in response.json()["error"], response.text
    assert client.get("/replay").status_code == 200
    assert client.get("/static/replay.js").status_code == 200


def test_the_rules_are_package_data_so_an_installed_package_has_them() -> None:
    import tomllib
    from importlib.resources import files

    from patience.server.rules import RulesBook

    root = Path(__file__).resolve().parents[1]
    pyproject = tomllib.loads((root / "pyproject.toml").read_text())
    # maturin packs every file of the package folder (src/patience), rules/*.md among them.
    assert pyproject["tool"]["maturin"]["python-source"] == "src"
    packaged = files("patience") / "rules"
    names = {entry.name for entry in packaged.iterdir()}
    assert {f"{name}.md" for name in one_player_games()} <= names
    assert names == {path.name for path in (root / "docs" / "rules").glob("*.md")}
    book = RulesBook([packaged])  # the package's folder alone, as in a wheel
    for name in one_player_games():
        assert book.html(name).startswith("<h1>")


def test_one_address_creates_a_bounded_number_of_tables_a_minute(db_path: Path) -> None:
    with TestClient(create_app(db_path, creations_per_minute=3)) as client:
        for _ in range(2):
            assert client.post("/api/tables", json={"game": "klondike"}).status_code == 201
        shared = client.post("/api/shared", json={"game": "leopard", "seats": ["open", "greedy"]})
        assert shared.status_code == 201
        refused = client.post("/api/tables", json={"game": "klondike"})
        assert refused.status_code == 429
        assert "at most 3 new tables a minute" in refused.json()["error"]
        assert len(client.get("/api/tables").json()) == 2


def test_the_creation_limit_forgets_what_is_a_minute_old() -> None:
    now = [0.0]
    limit = CreationLimit(2, clock=lambda: now[0])
    request = Request({"type": "http", "client": ("10.0.0.1", 5), "headers": []})
    other = Request({"type": "http", "client": ("10.0.0.2", 5), "headers": []})
    limit.check(request)
    limit.check(request)
    with pytest.raises(CommandError, match="wait 60 s"):
        limit.check(request)
    limit.check(other)  # another address has its own count
    now[0] = 60.5
    limit.check(request)


# -- forgiving play (issue 21): automatic safe moves, resigning from the move box ----------------


def test_autoplay_makes_the_solvers_safe_moves_each_undoable(client: TestClient) -> None:
    state = new_table(client)
    table = state["table"]
    # Deal 7 has the ace of clubs face up on pile 7: the one safe move.
    assert state["has_safe_moves"] is True
    assert state["safe_moves"] == ["t7-f1"]
    played = send(client, table, "autoplay").json()
    assert played["moves"] == 1
    assert played["view"]["piles"]["f1"]["up"] == ["Ac"]
    assert played["safe_moves"] == []
    # Nothing left to play is no error, and changes nothing.
    again = send(client, table, "autoplay")
    assert again.status_code == 200
    assert again.json()["events"] == played["events"]
    undone = send(client, table, "undo").json()
    assert undone["view"]["piles"]["t7"]["up"] == ["Ac"]
    assert undone["safe_moves"] == ["t7-f1"]  # offered, not made: Undo is not followed by it
    # A move with "autoplay": the move, then the safe moves, each an event of its own.
    moved = send(client, table, "move", move="stock", autoplay=True).json()
    assert moved["moves"] == 2
    assert moved["events"] == undone["events"] + 2
    assert moved["view"]["piles"]["f1"]["up"] == ["Ac"]
    assert send(client, table, "move", move="t2-t4", autoplay="yes").status_code == 400


def test_autoplay_leaves_a_card_taken_down_from_a_foundation() -> None:
    from patience.server.service import autoplay_moves
    from patience.solve import safe_moves

    start = patience.new("klondike", deal=1).position()
    piles: dict[str, dict[str, list[str]]] = {
        name: {"down": [], "up": []} for name in start["piles"]
    }
    piles["f1"]["up"] = ["Ac", "2c"]
    piles["t1"]["up"] = ["3h"]
    rest = [f"{r}{s}" for s in "cdhs" for r in "A23456789TJQK" if f"{r}{s}" not in "Ac2c3h"]
    piles["t7"]["down"], piles["t7"]["up"] = rest[:-1], rest[-1:]
    game = patience.Game.from_position({**start, "deal": None, "piles": piles})
    game.push("f1-t1")  # the two of clubs taken down onto the three of hearts, on purpose
    # Safe by the solver's rule (a two), but not sent straight back up.
    assert [move.text() for move in safe_moves(game)] == ["t1-f1"]
    assert autoplay_moves(game) == []


def test_games_without_a_proved_safe_move_rule_have_none(client: TestClient) -> None:
    for game in ("spider", "accordion", "leonis-own"):
        state = new_table(client, game=game, deal=3)
        assert (state["has_safe_moves"], state["safe_moves"]) == (False, []), game


def test_resign_typed_as_a_move_gives_up(client: TestClient) -> None:
    table = new_table(client)["table"]
    state = send(client, table, "move", move=" Resign ").json()
    assert state["outcome"] == {"result": "lost", "reason": "resigned"}
    refused = send(client, table, "move", move="resign")
    assert refused.status_code == 422
    assert refused.json()["error"].startswith("the game is already over")


def test_a_refused_card_move_names_its_cards_in_the_reason(client: TestClient) -> None:
    table = new_table(client)["table"]
    refused = send(client, table, "move", move="t1-t3")
    assert refused.status_code == 422
    body = refused.json()
    assert body["error"] == (
        "illegal move t1-t3: 4d cannot go on Js: the tableau builds down in alternating colours"
    )
    assert body["reason"] == {
        "kind": "illegal_move",
        "move": "t1-t3",
        "from": "t1",
        "to": "t3",
        "card": "4d",
        "onto": "Js",
        "cards": ["4d", "Js"],
        "why": "4d cannot go on Js: the tableau builds down in alternating colours",
    }
    # A face-down card is never named: two cards from pile 2 would start with a hidden one.
    hidden = send(client, table, "move", move="t2-t4:2").json()["reason"]
    assert (hidden["card"], hidden["onto"], hidden["cards"]) == (None, "7s", ["7s"])
    unreadable = send(client, table, "move", move="t1~t3").json()["reason"]
    assert unreadable["kind"] == "unreadable_move"


def test_the_solvers_finish_is_for_games_that_deal_hidden_cards() -> None:
    from patience.server.table import _hidden_cards

    # Dealt face up, the whole game is a puzzle in plain view: the solver would play it all.
    assert not _hidden_cards(patience.new("accordion", deal=3, dealing="all"))
    assert not _hidden_cards(patience.new("napoleon", deal=3))
    for name in ("klondike", "spider", "canfield", "leonis-own"):
        assert _hidden_cards(patience.new(name, deal=3)), name
