"""Sessions, not names (docs/web.md, "Sessions and names"): each browser's session owns its
tables, claimed names reach them from another browser, statistics are private unless shown, and
the tables of the days of the name cookie go only to that cookie or to the administrator."""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from click.testing import CliRunner
from starlette.applications import Starlette
from starlette.websockets import WebSocketDisconnect
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from patience.cli import main
from patience.server import OLD_COOKIE, SESSION_COOKIE, create_app
from patience.server.pools import PoolLimits, WorkPool
from patience.server.sessions import SEEN_EVERY, SESSION_MAX_AGE
from patience.sqlite_schema import migrate
from patience.store import MIGRATIONS, Store, name_key

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")

#: argon2 at its cheapest: the tests check what is hashed and verified, not its cost.
CHEAP = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
PASSWORD = "correct horse"


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "sessions.sqlite3"


@pytest.fixture
def app(db_path: Path) -> Starlette:
    return create_app(db_path, password_hasher=CHEAP)


@pytest.fixture
def browsers(app: Starlette) -> Iterator[tuple[TestClient, TestClient]]:
    """Two browsers that share no cookie."""
    with TestClient(app) as first, TestClient(app) as second:
        yield first, second


def solo(client: TestClient, deal: int = 7) -> str:
    response = client.post("/api/tables", json={"game": "klondike", "deal": deal})
    assert response.status_code == 201, response.text
    return str(response.json()["table"])


def play(client: TestClient, table: str, command: str = "resign") -> None:
    assert client.post(f"/api/tables/{table}", json={"command": command}).status_code == 200


def table_ids(client: TestClient) -> list[str]:
    return [row["table"] for row in client.get("/api/tables").json()]


def claim(client: TestClient, name: str, password: str = PASSWORD) -> Any:
    return client.post("/api/player/claim", json={"name": name, "password": password})


def login(client: TestClient, name: str, password: str = PASSWORD) -> Any:
    return client.post("/api/player/login", json={"name": name, "password": password})


def test_two_anonymous_browsers_never_see_each_others_tables(
    browsers: tuple[TestClient, TestClient],
) -> None:
    ann, bob = browsers
    mine = solo(ann)
    play(ann, mine)
    theirs = solo(bob, 8)
    assert table_ids(ann) == [mine]
    assert table_ids(bob) == [theirs]
    nothing = {"error": f"there is no table {mine!r}", "status": 404}
    for url in (
        f"/api/tables/{mine}",
        f"/api/shared/{mine}",
        f"/api/tables/{mine}/record",
        f"/api/shared/{mine}/record",
        f"/api/tables/{mine}/hint",
    ):
        refused = bob.get(url)
        assert (refused.status_code, refused.json()) == (404, nothing), url
    for url in (f"/api/tables/{mine}", f"/api/tables/{mine}/new"):
        assert bob.post(url, json={"command": "undo"}).json() == nothing
    # The page is the page of a table that is not there: the same as for an unknown id.
    assert bob.get(f"/play/{mine}", follow_redirects=False).status_code == 404
    assert bob.get(f"/table/{mine}", follow_redirects=False).status_code == 404
    assert bob.get("/play/nosuchtable").status_code == 404
    assert ann.get(f"/play/{mine}").status_code == 200
    for url in (f"/ws/tables/{mine}", f"/ws/shared/{mine}"):
        with bob.websocket_connect(url) as socket:
            assert socket.receive_json() == {"type": "error", **nothing}
            with pytest.raises(WebSocketDisconnect):
                socket.receive_json()
    # Statistics: each his own.
    assert [entry["played"] for entry in ann.get("/api/stats").json()["games"]] == [1]
    assert bob.get("/api/stats").json()["games"] == []
    # Nothing changed at the table.
    assert ann.get(f"/api/tables/{mine}").json()["events"] == 1


def test_a_browser_without_a_cookie_gets_a_session_and_nothing_of_anybody(app: Starlette) -> None:
    with TestClient(app) as ann:
        solo(ann)
        # Every visitor without a cookie used to be "guest", with guest's tables.
        newcomer = TestClient(app)
        assert newcomer.get("/api/player").json() == {
            "name": "guest",
            "claimed": False,
            "show_stats": False,
            "choices": {},
        }
        assert table_ids(newcomer) == []
        assert newcomer.get("/api/stats").json()["games"] == []
        # A made-up token is no session: it owns nothing, and the browser gets a real one.
        newcomer.cookies.set(SESSION_COOKIE, "x" * 43)
        assert table_ids(newcomer) == []
        newcomer.cookies.set(SESSION_COOKIE, "not a token")
        answer = newcomer.get("/api/player")
        assert SESSION_COOKIE in answer.headers["set-cookie"]
        assert answer.cookies[SESSION_COOKIE] != "not a token"


def test_a_planted_token_never_becomes_a_session(app: Starlette) -> None:
    planted = {"cookie": f"{SESSION_COOKIE}={'p' * 43}"}  # another's choice, in the cookie
    with TestClient(app) as victim, TestClient(app) as planter:
        made = victim.post("/api/tables", json={"game": "klondike", "deal": 7}, headers=planted)
        assert made.status_code == 201
        token = made.cookies[SESSION_COOKIE]
        assert token != "p" * 43
        assert planter.get("/api/tables", headers=planted).json() == []
        mine = victim.get("/api/tables", headers={"cookie": f"{SESSION_COOKIE}={token}"})
        assert [row["table"] for row in mine.json()] == [made.json()["table"]]


def test_new_sessions_are_bounded_per_address(db_path: Path) -> None:
    app = create_app(db_path, password_hasher=CHEAP)
    app.state.sessions.new_sessions.per_minute = 2
    with TestClient(app) as client:
        for _ in range(2):  # a client that never keeps its cookie: a new session each time
            client.cookies.clear()
            assert client.post("/api/player", json={"name": "Ann"}).status_code == 200
        client.cookies.clear()
        refused = client.post("/api/player", json={"name": "Ann"})
        assert refused.status_code == 429
        assert refused.json()["error"].startswith("at most 2 new sessions a minute")


def test_a_session_without_a_name_cannot_log_out(browsers: tuple[TestClient, TestClient]) -> None:
    ann, _ = browsers
    table = solo(ann)
    refused = ann.post("/api/player/logout")
    assert refused.status_code == 409
    assert "claim one first" in refused.json()["error"]
    assert table_ids(ann) == [table]


def test_the_session_cookie_is_httponly_lax_and_secure_over_tls(app: Starlette) -> None:
    with TestClient(app) as plain:
        header = plain.get("/").headers["set-cookie"]
        assert header.startswith(f"{SESSION_COOKIE}=")
        attributes = {part.strip().split("=")[0].lower() for part in header.split(";")}
        assert {"httponly", "max-age", "path"} <= attributes
        assert "samesite=lax" in header.lower()
        assert "secure" not in attributes
        token = plain.cookies[SESSION_COOKIE]
        assert len(token) == 43  # 256 random bits
        # Known from then on: no new cookie.
        assert "set-cookie" not in plain.get("/api/player").headers
    with TestClient(app, base_url="https://testserver") as tls:
        assert "; secure" in tls.get("/").headers["set-cookie"].lower()
    # Behind a trusted proxy (patience serve --proxy-headers): the scheme it forwards.
    proxied = ProxyHeadersMiddleware(app, trusted_hosts="*")
    with TestClient(proxied) as behind:
        header = behind.get("/", headers={"x-forwarded-proto": "https"}).headers["set-cookie"]
        assert "; secure" in header.lower()


def test_the_store_keeps_only_a_hash_of_the_session_token(
    browsers: tuple[TestClient, TestClient], db_path: Path
) -> None:
    ann, _ = browsers
    solo(ann)
    token = ann.cookies[SESSION_COOKIE]
    db = sqlite3.connect(db_path)
    try:
        stored = [row[0] for row in db.execute("SELECT token_hash FROM sessions")]
    finally:
        db.close()
    assert stored == [hashlib.sha256(token.encode()).hexdigest()]
    for name in db_path.parent.iterdir():
        if name.name.startswith(db_path.name):
            assert token.encode() not in name.read_bytes()


def test_a_claimed_name_reaches_the_same_tables_and_statistics_from_another_browser(
    browsers: tuple[TestClient, TestClient],
) -> None:
    home, phone = browsers
    first = solo(home)
    play(home, first)
    claimed = claim(home, "Straße")
    assert claimed.status_code == 200, claimed.text
    assert claimed.json() == {"name": "Straße", "claimed": True, "show_stats": False, "choices": {}}
    home_token = home.cookies[SESSION_COOKIE]
    assert table_ids(home) == [first]  # the session's tables are the name's now
    # The phone played a table before logging in: it joins the name's tables.
    before = solo(phone, 9)
    phone_token = phone.cookies[SESSION_COOKIE]
    answer = login(phone, "STRASSE")  # the same name, compared NFKC + case folded
    assert answer.status_code == 200, answer.text
    assert answer.json()["name"] == "Straße"  # shown as chosen
    assert phone.cookies[SESSION_COOKIE] != phone_token  # a login gives a new token
    assert set(table_ids(phone)) == {first, before}
    assert phone.get(f"/api/tables/{first}").status_code == 200
    assert set(table_ids(home)) == {first, before}
    # The table in memory follows: the name's other browser reaches it too.
    assert home.get(f"/api/tables/{before}").status_code == 200
    assert phone.get(f"/api/tables/{before}").status_code == 200
    assert phone.get("/api/stats").json()["games"] == home.get("/api/stats").json()["games"]
    # Logging out: the browser's session ends; logging in again finds everything.
    out = phone.post("/api/player/logout")
    assert out.json() == {"name": "guest", "claimed": False, "show_stats": False, "choices": {}}
    assert table_ids(phone) == []
    assert phone.get(f"/api/tables/{first}").status_code == 404
    assert home.cookies[SESSION_COOKIE] == home_token
    assert set(table_ids(home)) == {first, before}  # the other browser is still logged in
    assert login(phone, "ｓｔｒａｓｓｅ").status_code == 200  # fullwidth: NFKC
    assert set(table_ids(phone)) == {first, before}


def test_names_are_one_name_by_nfkc_and_case_folding(
    browsers: tuple[TestClient, TestClient],
) -> None:
    assert name_key("STRASSE") == name_key("straße") == name_key("Ｓｔｒａｓｓｅ")
    ann, bob = browsers
    assert claim(ann, "Straße").status_code == 200
    for spelling in ("STRASSE", "strasse", "Ｓｔｒａｓｓｅ"):
        taken = claim(bob, spelling)
        assert taken.status_code == 409
        assert taken.json() == {
            "error": f"the name {spelling} is claimed already: log in, or choose another",
            "status": 409,
        }
        # Nor may another browser go by it unclaimed.
        shown = bob.post("/api/player", json={"name": spelling})
        assert shown.status_code == 409
        assert "claimed name" in shown.json()["error"]
    # The owner may change its case or form, not the name.
    assert ann.post("/api/player", json={"name": "STRASSE"}).json()["name"] == "STRASSE"
    other = ann.post("/api/player", json={"name": "Ann"})
    assert other.status_code == 409
    assert "log out" in other.json()["error"]
    assert claim(ann, "Ann").status_code == 409  # one name per session


def test_a_wrong_password_is_refused_with_the_one_json_error(
    browsers: tuple[TestClient, TestClient],
) -> None:
    ann, bob = browsers
    table = solo(ann)
    assert claim(ann, "ann").status_code == 200
    wrong = login(bob, "Ann", "wrong password")
    assert wrong.status_code == 403
    assert wrong.json() == {"error": "wrong password for ann", "status": 403}
    assert bob.get(f"/api/tables/{table}").status_code == 404
    unknown = login(bob, "nobody")
    assert unknown.json() == {
        "error": "nobody has claimed the name nobody: claim it",
        "status": 404,
    }
    short = login(bob, "ann", "short")
    assert short.status_code == 400
    assert "8 to 1024 characters" in short.json()["error"]
    assert claim(bob, "guest").status_code == 400
    for body in ({}, {"name": "ann"}, [], {"name": "ann", "password": 12345678}):
        refused = bob.post("/api/player/login", json=body)
        assert refused.status_code == 400, body
        assert set(refused.json()) == {"error", "status"}


def test_password_attempts_are_limited_per_address(db_path: Path) -> None:
    app = create_app(db_path, password_hasher=CHEAP, password_tries_per_minute=3)
    with TestClient(app) as ann, TestClient(app) as guesser:
        assert claim(ann, "ann").status_code == 200  # one attempt of the address
        for _ in range(2):
            assert login(guesser, "ann", "guess0000").status_code == 403
        limited = login(guesser, "ann")  # the right password, too late
        assert limited.status_code == 429
        assert limited.json()["error"].startswith("at most 3 password attempts a minute")
        # Another address has its own attempts.
        with TestClient(app, client=("10.0.0.7", 1000)) as elsewhere:
            assert login(elsewhere, "ann").status_code == 200


def test_statistics_are_private_unless_shown(browsers: tuple[TestClient, TestClient]) -> None:
    ann, bob = browsers
    play(ann, solo(ann))
    assert claim(ann, "Ann").status_code == 200
    private = bob.get("/api/stats?player=ANN")
    assert private.status_code == 403
    assert private.json() == {"error": "the statistics of Ann are private", "status": 403}
    assert bob.get("/api/stats?player=nobody").status_code == 404
    own = ann.get("/api/stats?player=ann").json()
    assert (own["player"], own["public"], len(own["games"])) == ("Ann", False, 1)
    assert ann.post("/api/player", json={"show_stats": True}).json()["show_stats"] is True
    shown = bob.get("/api/stats?player=ann")
    assert shown.status_code == 200
    assert shown.json()["games"] == own["games"]
    assert shown.json()["public"] is True
    assert ann.post("/api/player", json={"show_stats": "yes"}).status_code == 400
    assert ann.post("/api/player", json={"show_stats": False}).status_code == 200
    assert bob.get("/api/stats?player=ann").status_code == 403
    # An unclaimed name is only how a session is shown: its own page, until somebody claims it.
    assert bob.post("/api/player", json={"name": "Cleo"}).status_code == 200
    assert bob.get("/api/stats?player=cleo").json()["player"] == "Cleo"
    cleo = TestClient(ann.app)
    assert claim(cleo, "CLEO").status_code == 200
    assert bob.get("/api/stats?player=cleo").json()["error"] == (
        "the statistics of CLEO are private"
    )


def old_store(path: Path) -> None:
    """A store as the name cookie left it: Ann's two tables (one stored as ANN), guest's."""
    with Store(path) as store:
        store.create_table("old-ann", "klondike", {}, 3, ["Ann"])
        store.append_event("old-ann", 0, 0, "resign", None, result="lost", reason="", moves=0)
        store.create_table("old-straße", "klondike", {}, 4, ["straße"])
        store.create_table("old-guest", "klondike", {}, 5, ["guest"])


def test_an_old_name_cookie_takes_over_that_names_tables_once(db_path: Path) -> None:
    old_store(db_path)
    app = create_app(db_path, password_hasher=CHEAP)
    with TestClient(app) as squatter, TestClient(app) as ann, TestClient(app) as late:
        # Nobody else can claim the name while its tables wait, nor reach them.
        waiting = claim(squatter, "ann")
        assert waiting.status_code == 409
        assert "patience admin claim-name" in waiting.json()["error"]
        assert squatter.get("/api/tables/old-ann").status_code == 404
        # Ann's browser still has the old cookie.
        ann.cookies.set(OLD_COOKIE, "ann")
        first = ann.get("/")
        assert f'{OLD_COOKIE}=""' in first.headers["set-cookie"]  # deleted (and harmless if kept)
        assert ann.get("/api/player").json()["name"] == "ann"
        assert table_ids(ann) == ["old-ann"]
        assert ann.get("/api/tables/old-ann").json()["seats"] == ["Ann"]
        assert [entry["played"] for entry in ann.get("/api/stats").json()["games"]] == [1]
        # Taken over once: another old cookie of the same name gets nothing now.
        late.cookies.set(OLD_COOKIE, "ANN")
        assert table_ids(late) == []
        # Guest's tables were everybody's: no cookie takes them.
        late.cookies.set(OLD_COOKIE, "guest")
        assert table_ids(late) == []
        # The name is free to claim now, by whoever comes first: Ann keeps her tables anyway.
        assert claim(ann, "Ann").status_code == 200
        assert table_ids(ann) == ["old-ann"]
    with Store(db_path) as store:
        assert store.unclaimed_names() == [("guest", 1), ("straße", 1)]


def test_the_admin_claims_an_old_name_for_a_player_who_lost_the_cookie(
    db_path: Path, tmp_path: Path
) -> None:
    old_store(db_path)
    runner = CliRunner()
    listed = runner.invoke(main, ["admin", "names", "--db", str(db_path), "--json"])
    assert listed.exit_code == 0, listed.output
    assert json.loads(listed.output) == [
        {"name": "Ann", "tables": 1},
        {"name": "guest", "tables": 1},
        {"name": "straße", "tables": 1},
    ]
    secret = tmp_path / "password"
    secret.write_text(f"{PASSWORD}\n")
    done = runner.invoke(
        main,
        [
            *("admin", "claim-name", "STRASSE", "--password-file", str(secret)),
            *("--db", str(db_path), "--json"),
        ],
    )
    assert done.exit_code == 0, done.output
    assert json.loads(done.output) == {
        "name": "STRASSE",
        "claimed": True,
        "tables": 1,
        "store": str(db_path),
    }
    # Again with another password: refused, nothing changed.
    other = tmp_path / "other"
    other.write_text("another password\n")
    refused = runner.invoke(
        main,
        ["admin", "claim-name", "strasse", "--password-file", str(other), "--db", str(db_path)],
    )
    assert refused.exit_code == 1
    assert "claimed already, with another password" in refused.output
    short = tmp_path / "short"
    short.write_text("short\n")
    bad = runner.invoke(
        main, ["admin", "claim-name", "Ann", "--password-file", str(short), "--db", str(db_path)]
    )
    assert bad.exit_code == 2
    assert "8 to 1024 characters" in bad.output
    guest = runner.invoke(
        main, ["admin", "claim-name", "guest", "--password-file", str(secret), "--db", str(db_path)]
    )
    assert guest.exit_code == 2
    nowhere = runner.invoke(
        main,
        ["admin", "names", "--db", str(tmp_path / "none.sqlite3")],
    )
    assert nowhere.exit_code == 1
    assert "there is no store" in nowhere.output
    # The player logs in with the password from any browser (the admin hashes with argon2's
    # defaults; the server verifies any argon2 hash).
    with TestClient(create_app(db_path, password_hasher=CHEAP)) as browser:
        assert login(browser, "Straße").status_code == 200
        assert table_ids(browser) == ["old-straße"]
        assert browser.get("/api/tables/old-straße").status_code == 200


def test_a_running_server_sees_the_admins_claim(db_path: Path, tmp_path: Path) -> None:
    old_store(db_path)
    secret = tmp_path / "password"
    secret.write_text(PASSWORD)
    with TestClient(create_app(db_path, password_hasher=CHEAP)) as browser:
        # Somebody probed the old table: the server read it, and refused it.
        assert browser.get("/api/tables/old-ann").status_code == 404
        done = CliRunner().invoke(
            main,
            ["admin", "claim-name", "ann", "--password-file", str(secret), "--db", str(db_path)],
        )
        assert done.exit_code == 0, done.output
        assert "1 table taken over" in done.output
        assert login(browser, "ANN").status_code == 200
        assert browser.get("/api/tables/old-ann").json()["seats"] == ["Ann"]


def test_a_store_of_the_name_cookie_days_migrates(db_path: Path) -> None:
    db = sqlite3.connect(db_path)
    migrate(db, MIGRATIONS, 4)  # the last version of the name cookie's days
    db.execute("INSERT INTO players (name, created) VALUES ('STRASSE', 0), ('Ann', 0)")
    db.execute(
        "INSERT INTO tables (id, game, options, deal, created, updated) "
        "VALUES ('t', 'klondike', '{}', 1, 0, 0)"
    )
    db.execute("INSERT INTO seats (table_id, seat, player_id) VALUES ('t', 0, 1)")
    db.commit()
    db.close()
    with Store(db_path) as store:
        assert store.version == len(MIGRATIONS)
        assert store.unclaimed_tables("straße") == ["t"]
        assert store.unclaimed_names() == [("STRASSE", 1)]
        row = store.table("t")
        assert row is not None
        assert (row.owner, row.shared, row.seats) == (None, False, ["STRASSE"])


def test_shared_tables_are_reached_by_link_and_listed_only_if_their_creator_chose(
    browsers: tuple[TestClient, TestClient],
) -> None:
    ann, bob = browsers
    body = {"game": "leopard", "seats": ["open", "greedy"], "deal": 3}
    hidden = ann.post("/api/shared", json=body).json()["table"]
    listed = ann.post("/api/shared", json={**body, "listed": True}).json()["table"]
    assert ann.post("/api/shared", json={**body, "listed": "yes"}).status_code == 400
    assert [row["table"] for row in ann.get("/api/shared").json()] == [listed, hidden]
    rows = bob.get("/api/shared").json()
    assert [(row["table"], row["listed"], row["mine"]) for row in rows] == [(listed, True, False)]
    assert rows[0]["url"] == f"/table/{listed}"
    assert [seat["kind"] for seat in rows[0]["seats"]] == ["open", "bot"]
    # The link is enough: anybody holding it may look on and join.
    assert bob.get(f"/api/shared/{hidden}").status_code == 200
    assert bob.get(f"/table/{hidden}").status_code == 200
    assert claim(ann, "Ann").status_code == 200
    with bob.websocket_connect(f"/ws/shared/{hidden}") as socket:
        assert socket.receive_json()["type"] == "state"
        # Nobody sits under another's claimed name.
        socket.send_text(json.dumps({"type": "join", "seat": 0, "name": "ANN"}))
        while (message := socket.receive_json())["type"] != "error":
            pass
        assert message["status"] == 409
        assert "log in as Ann" in message["error"]
        socket.send_text(json.dumps({"type": "join", "seat": 0, "name": "Bob"}))
        while (message := socket.receive_json())["type"] != "joined":
            pass
        assert message["seat"] == 0
    with ann.websocket_connect(f"/ws/shared/{listed}") as socket:  # her own name, logged in
        socket.send_text(json.dumps({"type": "join", "seat": 0, "name": "ann"}))
        while (message := socket.receive_json())["type"] != "joined":
            assert message["type"] != "error", message
        assert message["name"] == "ann"


def test_table_ids_are_unguessable(browsers: tuple[TestClient, TestClient]) -> None:
    ann, _ = browsers
    ids = {solo(ann) for _ in range(5)}
    assert len(ids) == 5
    assert all(len(table) >= 16 for table in ids)  # 96 random bits at least


def test_one_address_holds_a_bounded_number_of_websockets(app: Starlette) -> None:
    app.state.service.sockets_per_client = 2
    with TestClient(app) as ann, TestClient(app, client=("10.0.0.8", 1)) as other:
        table = solo(ann)
        shared = other.post("/api/shared", json={"game": "leopard", "deal": 3}).json()["table"]
        with (
            ann.websocket_connect(f"/ws/tables/{table}") as one,
            ann.websocket_connect(f"/ws/tables/{table}") as two,
        ):
            assert one.receive_json()["type"] == "state"
            assert two.receive_json()["type"] == "state"
            with ann.websocket_connect(f"/ws/tables/{table}") as three:
                refused = three.receive_json()
                assert (refused["type"], refused["status"]) == ("error", 429)
                assert "2 websockets at once" in refused["error"]
            # Another address is not held up.
            with other.websocket_connect(f"/ws/shared/{shared}") as elsewhere:
                assert elsewhere.receive_json()["type"] == "state"
        # Closed ones are given back.
        with ann.websocket_connect(f"/ws/tables/{table}") as again:
            assert again.receive_json()["type"] == "state"


def test_another_sites_page_cannot_post_with_a_visitors_session(
    browsers: tuple[TestClient, TestClient],
) -> None:
    ann, _ = browsers
    table = solo(ann)
    evil = {"origin": "https://evil.example"}
    refused = ann.post(f"/api/tables/{table}", json={"command": "resign"}, headers=evil)
    assert refused.status_code == 403
    assert refused.json() == {"error": "this origin may not send requests here", "status": 403}
    assert login(ann, "ann").status_code == 404  # no origin: not a browser, let through
    assert (
        ann.post(
            "/api/player/login", json={"name": "a", "password": PASSWORD}, headers=evil
        ).json()["status"]
        == 403
    )
    own = ann.post(
        f"/api/tables/{table}", json={"command": "resign"}, headers={"origin": "http://testserver"}
    )
    assert own.status_code == 200
    assert ann.get(f"/api/tables/{table}", headers=evil).status_code == 200  # a GET changes nothing


def test_a_work_pools_quota_holds_for_each_key_of_a_client() -> None:
    async def run() -> None:
        pool = WorkPool("searches", PoolLimits(workers=2, held=4, per_client=1))
        gate = asyncio.Event()
        loop = asyncio.get_running_loop()

        def wait() -> None:
            asyncio.run_coroutine_threadsafe(gate.wait(), loop).result(5)

        first = asyncio.ensure_future(pool.run(("10.0.0.1", "session:a"), wait))
        await asyncio.sleep(0.05)
        assert (pool.held_for("10.0.0.1"), pool.held_for("session:a")) == (1, 1)
        for client in (("10.0.0.2", "session:a"), ("10.0.0.1", "session:b")):
            with pytest.raises(Exception, match="1 searches under way already") as refused:
                await pool.run(client, wait)
            assert getattr(refused.value, "status", None) == 429
        other = asyncio.ensure_future(pool.run(("10.0.0.2", "session:b"), wait))
        await asyncio.sleep(0.05)
        gate.set()
        await asyncio.gather(first, other)
        assert pool.held == 0
        pool.close()

    asyncio.run(run())


def test_the_games_settings_are_remembered_for_the_player_across_browsers(
    browsers: tuple[TestClient, TestClient],
) -> None:
    first, second = browsers
    choice = {"options": {"draw": "1"}, "winnable": True, "scoring": "vegas", "grade": "easy"}
    saved = first.post("/api/player", json={"choices": {"klondike": choice}})
    assert saved.status_code == 200, saved.text
    spider = {"options": {"suits": 2}, "winnable": False, "scoring": None}
    assert first.post("/api/player", json={"choices": {"spider": spider}}).status_code == 200
    # Per game: the second game's choice keeps the first's.
    assert first.get("/api/player").json()["choices"] == {"klondike": choice, "spider": spider}
    # Another browser has its own until it logs in to the claimed name.
    assert second.get("/api/player").json()["choices"] == {}
    assert claim(first, "Ann").status_code == 200
    assert login(second, "Ann").status_code == 200
    assert second.get("/api/player").json()["choices"]["klondike"] == choice


@pytest.mark.parametrize(
    ("choices", "said"),
    [
        ([], "'choices' is an object"),
        ({"leopard": {}}, "not a one-player game"),
        ({"klondike": {"options": {"draw": "7"}}}, "'choices'.klondike.options: "),
        ({"klondike": {"colour": "red"}}, "'options', 'winnable', 'scoring' and 'grade'"),
        ({"klondike": {"grade": "trivial"}}, "grade is one of easy, medium, hard, or null"),
        ({"klondike": {"grade": ["easy"]}}, "grade is one of easy, medium, hard, or null"),
        ({"klondike": {"winnable": "yes"}}, "winnable is true or false"),
        ({"klondike": {"scoring": "<script>"}}, "scoring is a short word"),
    ],
)
def test_bad_choices_are_refused_saying_what_is_allowed(
    browsers: tuple[TestClient, TestClient], choices: object, said: str
) -> None:
    first, _ = browsers
    refused = first.post("/api/player", json={"choices": choices})
    assert refused.status_code == 400
    assert said in refused.json()["error"]
    assert first.get("/api/player").json()["choices"] == {}


# -- sessions unused for a long time ------------------------------------------------------


def _set_last_seen(db_path: Path, token: str, when: float) -> None:
    db = sqlite3.connect(db_path)
    try:
        db.execute(
            "UPDATE sessions SET last_seen = ? WHERE token_hash = ?",
            (when, hashlib.sha256(token.encode()).hexdigest()),
        )
        db.commit()
    finally:
        db.close()


def _last_seen(db_path: Path, token: str) -> float:
    db = sqlite3.connect(db_path)
    try:
        row = db.execute(
            "SELECT last_seen FROM sessions WHERE token_hash = ?",
            (hashlib.sha256(token.encode()).hexdigest(),),
        ).fetchone()
    finally:
        db.close()
    return float(row[0])


def test_a_session_seen_after_a_day_is_noted_and_its_cookie_renewed(
    browsers: tuple[TestClient, TestClient], db_path: Path
) -> None:
    ann, _ = browsers
    table = solo(ann)
    token = ann.cookies[SESSION_COOKIE]
    assert time.time() - _last_seen(db_path, token) < 60  # seen when stored
    # Within a day: nothing written, no cookie sent again.
    assert SESSION_COOKIE not in ann.get("/api/tables").headers.get("set-cookie", "")
    yesterday = time.time() - SEEN_EVERY - 60
    _set_last_seen(db_path, token, yesterday)
    # A websocket cannot carry the cookie back: its visit is not noted.
    with ann.websocket_connect(f"/ws/tables/{table}") as socket:
        socket.receive_json()
    assert _last_seen(db_path, token) == yesterday
    answer = ann.get("/api/tables")
    assert answer.status_code == 200
    renewed = answer.headers["set-cookie"]
    assert f"{SESSION_COOKIE}={token}" in renewed
    assert f"Max-Age={SESSION_MAX_AGE}" in renewed
    assert time.time() - _last_seen(db_path, token) < 60
    assert SESSION_COOKIE not in ann.get("/api/tables").headers.get("set-cookie", "")


def test_sessions_unused_for_a_year_go_when_the_server_starts(db_path: Path) -> None:
    with TestClient(create_app(db_path, password_hasher=CHEAP)) as ann:
        kept = solo(ann)  # an anonymous account with a table
        ann_token = ann.cookies[SESSION_COOKIE]
    with TestClient(create_app(db_path, password_hasher=CHEAP)) as bob:
        assert bob.post("/api/player", json={"name": "Bob"}).status_code == 200  # no table
        bob_token = bob.cookies[SESSION_COOKIE]
    with TestClient(create_app(db_path, password_hasher=CHEAP)) as cat:
        assert claim(cat, "Cat").status_code == 200
        cat_token = cat.cookies[SESSION_COOKIE]
    with TestClient(create_app(db_path, password_hasher=CHEAP)) as dan:
        mine = solo(dan)
        dan_token = dan.cookies[SESSION_COOKIE]
    long_ago = time.time() - SESSION_MAX_AGE - 3600
    for token in (ann_token, bob_token, cat_token):
        _set_last_seen(db_path, token, long_ago)
    _set_last_seen(db_path, dan_token, time.time() - SESSION_MAX_AGE + 3600)  # not quite
    db = sqlite3.connect(db_path)
    db.execute("UPDATE accounts SET created = ?", (long_ago,))
    db.commit()
    db.close()
    app = create_app(db_path, password_hasher=CHEAP)
    with TestClient(app) as dan:
        # Expired when the server starts (in a task of its own: waited for here).
        deadline = time.monotonic() + 10
        while _session_count(db_path) != 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        dan.cookies[SESSION_COOKIE] = dan_token
        answer = dan.get("/api/tables")
        assert [row["table"] for row in answer.json()] == [mine]
        assert f"{SESSION_COOKIE}={dan_token}" in answer.headers["set-cookie"]  # renewed
        with Store(db_path) as store:
            assert store.session_account(hashlib.sha256(ann_token.encode()).hexdigest()) is None
            # Ann's account stays with her table, Cat's claimed name with its password; Bob's
            # anonymous account had nothing left to reach it by.
            row = store.table(kept)
            assert row is not None
            assert row.owner is not None
            assert store.claimed_account("Cat") is not None
            assert _account_names(db_path) == [None, "cat", None]
        # Ann's browser, had it kept the cookie past its year, owns nothing now.
        dan.cookies.clear()
        dan.cookies[SESSION_COOKIE] = ann_token
        assert table_ids(dan) == []
        # Cat logs in again from any browser.
        assert login(dan, "Cat").status_code == 200


def _session_count(db_path: Path) -> int:
    db = sqlite3.connect(db_path)
    try:
        return int(db.execute("SELECT count(*) FROM sessions").fetchone()[0])
    finally:
        db.close()


def _account_names(db_path: Path) -> list[str | None]:
    db = sqlite3.connect(db_path)
    try:
        return [row[0] for row in db.execute("SELECT name_key FROM accounts ORDER BY id")]
    finally:
        db.close()


def test_the_store_expires_only_what_nobody_can_reach(db_path: Path) -> None:
    with Store(db_path) as store:
        old = store.new_session("a" * 64)
        young = store.new_session("b" * 64)
        now = time.time()
        store.seen_session("a" * 64, now - 1000)  # never moves back
        assert store.expire_sessions(500, now) == (0, 0)
        assert store.expire_sessions(500, now + 1000) == (2, 2)
        assert store.session_account("a" * 64) is None
        assert store.account(old.id) is None
        assert store.account(young.id) is None
        # A session seen lately stays, with its account.
        kept = store.new_session("c" * 64)
        store.seen_session("c" * 64, now + 10**6)
        assert store.expire_sessions(500, now + 10**6) == (0, 0)
        assert store.account(kept.id) is not None
    # An account younger than the time unused, even with no session yet (the administrator's
    # claim-name makes one, then claims its name), is left alone.
    db = sqlite3.connect(db_path)
    db.execute("INSERT INTO accounts (created) VALUES (?)", (now,))
    db.commit()
    db.close()
    with Store(db_path) as store:
        assert store.expire_sessions(500, now) == (0, 0)
        assert store.expire_sessions(500, now + 1000) == (0, 1)


def test_a_store_of_version_6_migrates_its_sessions_as_seen_now(db_path: Path) -> None:
    db = sqlite3.connect(db_path)
    migrate(db, MIGRATIONS, 6)
    db.execute("INSERT INTO accounts (display, created) VALUES ('Ann', 0)")
    db.execute("INSERT INTO sessions (token_hash, account_id, created) VALUES ('h', 1, 0)")
    db.commit()
    db.close()
    before = time.time()
    with Store(db_path) as store:
        assert store.version == len(MIGRATIONS) == 7
        found = store.session("h")
        assert found is not None
        account, seen = found
        assert account.display == "Ann"
        assert before <= seen <= time.time()
        assert store.expire_sessions(SESSION_MAX_AGE) == (0, 0)
