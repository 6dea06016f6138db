"""A game added from outside the package (tests/toy_game.py) through ``patience.games.register``:
the registry's checks, then the toy played over the websocket of a shared table, at the terminal
and listed by every catalogue, with nothing of it in the package."""

from __future__ import annotations

import contextlib
import json
import re
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from click.testing import CliRunner, Result

import patience
from patience import games, record
from patience.cli import main
from patience.engine import Rules
from patience.games import GAMES, RegistrationError
from patience.moves import Move
from patience.options import Option
from patience.server import create_app
from patience.server.catalogue import one_player_games, shared_games
from patience.store import Store
from toy_game import ToyDuel, ToySolo

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient, WebSocketTestSession

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")

CARD = re.compile(r"^[2-9TJQKA][cdhs]$")


@pytest.fixture
def toys() -> Iterator[None]:
    """The two toy games, registered for one test."""
    with games.registered(ToyDuel), games.registered(ToySolo):
        yield
    assert "toy-duel" not in GAMES
    assert "toy-solo" not in GAMES


# -- the registry -------------------------------------------------------------------------------


def variant(base: type[Rules[Any]], **attributes: Any) -> type[Rules[Any]]:
    """A subclass of ``base`` with other class attributes (by default a name of its own)."""
    attributes.setdefault("name", "toy-variant")
    attributes.setdefault("aliases", ())
    return type("Variant", (base,), attributes)


def test_every_game_of_the_package_passes_the_checks() -> None:
    for cls in list(GAMES.values()):
        with games.registered(variant(cls, name=cls.name + "-copy")) as copy:
            assert patience.get_rules(copy.name).title == cls.title
        # Its own name is taken already.
        with pytest.raises(RegistrationError, match="already the name"):
            games.register(cls)


def test_a_registered_game_is_looked_up_and_listed(toys: None) -> None:
    assert list(GAMES)[-2:] == ["toy-duel", "toy-solo"]
    assert games.resolve_name("Duel") == "toy-duel"
    assert games.resolve_name("TOY_DUEL") == "toy-duel"
    assert patience.new("duel", deal=1).rules.players == 2
    assert "toy-duel" in shared_games()
    assert "toy-duel" not in one_player_games()
    assert "toy-solo" in one_player_games()
    assert "toy-solo" not in shared_games()
    with pytest.raises(
        RegistrationError, match="'duel' is already an alias of the game 'toy-duel'"
    ):
        games.register(variant(ToySolo, aliases=("duel",)))
    with pytest.raises(RegistrationError, match="one of patience's own games"):
        games.unregister("klondike")
    assert games.unregister("duel") is ToyDuel
    assert "toy-duel" not in GAMES
    with pytest.raises(games.UnknownGame, match="unknown game 'toy-duel'"):
        patience.new("toy-duel")
    games.register(ToyDuel)


@pytest.mark.parametrize(
    ("cls", "message"),
    [
        (int, "is not a subclass of patience.Rules"),
        (Rules, "does not define apply, candidate_moves, deal, finished, from_json_parts"),
        (variant(ToyDuel, title=""), "needs a title"),
        (variant(ToyDuel, name="Toy Duel"), "'Toy Duel' is not a game name"),
        (variant(ToyDuel, name="toy_duel"), "'toy_duel' is not a game name"),
        (variant(ToyDuel, aliases=("toy-variant",)), "an alias repeats the name"),
        (variant(ToyDuel, aliases=["a"]), "aliases must be a tuple of strings"),
        (variant(ToyDuel, name="klondike"), "'klondike' is already the name of the game"),
        (variant(ToyDuel, aliases=("forty-thieves",)), "already an alias of the game 'napoleon'"),
        (variant(ToyDuel, pile_names=("stock", "row0", "stock")), "listed twice in pile_names"),
        (variant(ToyDuel, pile_names=("stock", "row_0")), "'row_0' cannot be written in a move"),
        (variant(ToyDuel, option_specs=[]), "option_specs must be a tuple"),
        (
            variant(ToyDuel, option_specs=(Option("Hand", "choice", 3, "", (2, 3)),)),
            "option name 'Hand' must be lower case",
        ),
        (
            variant(ToyDuel, option_specs=(Option("hand", "choice", 3, "", (2, 3)),) * 2),
            "option 'hand' is listed twice",
        ),
        (
            variant(ToyDuel, option_specs=(Option("hand", "number", 3, ""),)),
            "has kind 'number': use one of choice, bool, passes",
        ),
        (
            variant(ToyDuel, option_specs=(Option("hand", "choice", 3, ""),)),
            "choice option 'hand' lists no choices",
        ),
        (
            variant(ToyDuel, option_specs=(Option("hand", "choice", 4, "", (2, 3)),)),
            r"default 4, which is not one of its allowed values \(2 or 3\)",
        ),
        (variant(ToyDuel, players=property(lambda self: 0)), "players must be a whole number"),
        (
            variant(ToyDuel, __init__=lambda self, options=None: 1 / 0),
            "cannot be made with its default options: division by zero",
        ),
    ],
)
def test_a_bad_game_is_refused_saying_why(cls: Any, message: str) -> None:
    before = dict(GAMES)
    with pytest.raises(RegistrationError, match=message):
        games.register(cls)
    assert before == GAMES


# -- over the websocket ---------------------------------------------------------------------------


class Conn:
    """One websocket connection to a shared table, with a receive that times out."""

    def __init__(self, socket: WebSocketTestSession) -> None:
        self.socket = socket
        self.seat: int | None = None
        self.state: dict[str, Any] = {}

    def receive(self, timeout: float = 10.0) -> dict[str, Any]:
        async def get() -> Any:
            with anyio.fail_after(timeout):
                return await self.socket._send_rx.receive()

        message = self.socket.portal.call(get)
        assert message["type"] == "websocket.send", message
        data: dict[str, Any] = json.loads(message["text"])
        if data["type"] == "state":
            self.state = data
        elif data["type"] == "joined":
            self.seat = data["seat"]
        return data

    def next_state(self) -> dict[str, Any]:
        deadline = time.monotonic() + 10
        while True:
            message = self.receive(max(0.05, deadline - time.monotonic()))
            assert message["type"] != "error", message
            if message["type"] == "state":
                return message


def card_texts(data: object) -> set[str]:
    """Every card name (``Th``) among the strings of a JSON value."""
    if isinstance(data, str):
        return {data} if CARD.match(data) else set()
    if isinstance(data, dict):
        return {card for value in data.values() for card in card_texts(value)}
    if isinstance(data, list):
        return {card for value in data for card in card_texts(value)}
    return set()


def true_game(db: Path, table: str) -> patience.Game:
    """The table's game as the store holds it, replayed."""
    with Store(db) as store:
        row = store.table(table)
        assert row is not None
        game = patience.Game.create(patience.get_rules(row.game, row.options), deal=row.deal)
        for event in store.events(table):
            assert event.move is not None
            game.push(Move.parse(event.move))
    return game


def visible(game: patience.Game, seat: int | None) -> set[str]:
    """The cards ``seat`` (None: a spectator) may know in the true position: the rows, and his
    own hand."""
    position = game.position()
    seen = {card for pile in position["piles"].values() for card in pile["up"]}
    if seat is not None:
        seen.update(position["hands"][seat])
    return seen


def test_two_people_play_the_toy_over_the_websocket(toys: None, tmp_path: Path) -> None:
    db = tmp_path / "toy.sqlite3"
    with TestClient(create_app(db)) as client:
        catalogue = client.get("/api/shared/games").json()
        entry = next(game for game in catalogue["games"] if game["name"] == "toy-duel")
        assert entry["players"] == 2
        assert entry["options"][0]["label"] == "Hand"
        made = client.post(
            "/api/shared", json={"game": "duel", "seats": ["open", "open"], "deal": 11}
        )
        assert made.status_code == 201, made.text
        table = made.json()["table"]
        assert made.json()["state"]["heading"] == "Toy Duel · hand 3"
        url = f"/ws/shared/{table}"
        with contextlib.ExitStack() as stack:
            a, b, watch = (Conn(stack.enter_context(client.websocket_connect(url))) for _ in "abw")
            for conn in (a, b, watch):
                assert conn.receive()["seat"] is None
            for conn, seat, name in ((a, 0, "Ann"), (b, 1, "Bob")):
                conn.socket.send_text(json.dumps({"type": "join", "seat": seat, "name": name}))
                assert conn.receive()["type"] == "joined"
                for other in (a, b, watch):
                    other.next_state()
            seats = {0: a, 1: b}
            moves = 0
            while a.state["outcome"]["result"] == "ongoing":
                game = true_game(db, table)
                for conn in (a, b, watch):
                    view = conn.state["view"]
                    # Each seat holds its own hand and sees only the size of the other's.
                    assert view["hands"] == [
                        game.position()["hands"][seat] if seat == conn.seat else None
                        for seat in (0, 1)
                    ]
                    assert view["hand_sizes"] == [len(hand) for hand in game.position()["hands"]]
                    assert card_texts(conn.state) <= visible(game, conn.seat), conn.seat
                mover = seats[a.state["turn"]]
                other = seats[1 - a.state["turn"]]
                assert not other.state["view"]["legal_moves"]
                legal = mover.state["view"]["legal_moves"]
                # Play the highest card of the hand: the game's result is then the true one.
                move = max(legal, key=lambda m: patience.Card.parse(m["card"]).rank)
                mover.socket.send_text(
                    json.dumps({"type": "move", "move": move, "seq": mover.state["seq"]})
                )
                for conn in (a, b, watch):
                    state = conn.next_state()
                    assert state["seq"] == moves + 1
                    # The card played lies face up on the mover's row: everybody is told it.
                    assert state["last"] == {"seat": mover.seat, "move": move}
                moves += 1
            game = true_game(db, table)
            assert moves == 12 == len(game.move_stack)
            assert a.state["outcome"] == b.state["outcome"] == game.outcome().to_json()
            assert game.outcome().is_over
            assert a.state["deal"] == 11  # told once the game is over
        text = client.get(f"/api/shared/{table}/record").text
        assert record.loads(text).position() == game.position()


def test_a_card_named_in_a_move_stays_hidden_from_who_cannot_see_it(
    toys: None, tmp_path: Path
) -> None:
    """The shared tables' generic rule for a game they know nothing of: a card that the last
    move names is told to the other seats only if their view shows it."""

    class Secret(ToyDuel):
        name = "toy-secret"
        aliases = ()

        def view_piles(self, state: Any, seat: int) -> dict[str, Any]:
            # Rows lie face down to everybody but their owner.
            piles = super().view_piles(state, seat)
            for index, row in enumerate(("row0", "row1")):
                if index != seat:
                    piles[row] = {"down": [None] * len(state.piles[row]), "up": []}
            return piles

    # Defined in this function, Secret cannot be pickled to a bots' worker process (see
    # docs/games.md): its bots think in threads.
    app = create_app(tmp_path / "s.sqlite3", worker_processes=False)
    with games.registered(Secret), TestClient(app) as client:
        made = client.post("/api/shared", json={"game": "toy-secret", "seats": ["open", "random"]})
        table = made.json()["table"]
        with client.websocket_connect(f"/ws/shared/{table}") as socket:
            conn = Conn(socket)
            conn.receive()
            socket.send_text(json.dumps({"type": "join", "seat": 0, "name": "Ann"}))
            conn.receive()
            state = conn.next_state()
            move = state["view"]["legal_moves"][0]
            socket.send_text(json.dumps({"type": "move", "move": move, "seq": state["seq"]}))
            assert conn.next_state()["last"] == {"seat": 0, "move": move}
            # The random bot plays; its card is not named to Ann.
            state = conn.next_state()
            assert state["last"] == {"seat": 1, "move": {"action": "play", "card": None}}


def test_a_bot_thinks_about_a_registered_game_in_a_worker_process(
    toys: None, tmp_path: Path
) -> None:
    """The worker processes do not know a game registered here by name: the bot takes the
    game's rules with it (the class pickles by its module)."""
    with TestClient(create_app(tmp_path / "w.sqlite3")) as client:
        made = client.post("/api/shared", json={"game": "toy-duel", "seats": ["open", "greedy"]})
        table = made.json()["table"]
        with client.websocket_connect(f"/ws/shared/{table}") as socket:
            conn = Conn(socket)
            conn.receive()
            socket.send_text(json.dumps({"type": "join", "seat": 0, "name": "Ann"}))
            conn.receive()
            state = conn.next_state()
            move = state["view"]["legal_moves"][0]
            socket.send_text(json.dumps({"type": "move", "move": move, "seq": state["seq"]}))
            assert conn.next_state()["last"] == {"seat": 0, "move": move}
            assert conn.next_state()["last"]["seat"] == 1  # the greedy bot played
        assert client.app.state.service.pools["bots"].limits.processes  # type: ignore[attr-defined]


def test_a_one_player_toy_is_dealt_by_the_one_player_tables(toys: None, tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "solo.sqlite3")) as client:
        listed = client.get("/api/games").json()
        names = [entry["name"] for entry in listed]
        assert "toy-solo" in names
        assert "toy-duel" not in names
        made = client.post("/api/tables", json={"game": "toy-solo", "deal": 4})
        assert made.status_code == 201, made.text
        state = made.json()
        game = patience.new("toy-solo", deal=4)
        assert state["view"]["piles"] == game.view()["piles"]
        refused = client.post("/api/tables", json={"game": "toy-duel"})
        assert refused.status_code == 400
        assert "toy-solo" in refused.json()["error"]


# -- at the terminal ------------------------------------------------------------------------------


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The autosave in the test's own directory, never in the user's."""
    monkeypatch.setenv("PATIENCE_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def run(*args: str, input: str | None = None) -> Result:
    result = CliRunner().invoke(main, list(args), input=input)
    assert "Traceback" not in result.output, result.output
    return result


def test_the_command_line_lists_and_deals_the_toy(toys: None, home: Path) -> None:
    listed = json.loads(run("games", "--json").output)
    duel = next(entry for entry in listed if entry["name"] == "toy-duel")
    assert duel["aliases"] == ["duel"]
    assert duel["options"][0]["allowed"] == "2 or 3"
    dealt = run("deal", "duel", "--deal", "11", "-o", "hand=2")
    assert dealt.exit_code == 0, dealt.output
    for text in ("Toy Duel", "hand=2", "stock", "row0", "row1", "hand 0", "hand 1"):
        assert text in dealt.output
    bad = run("deal", "duel", "-o", "hand=4")
    assert bad.exit_code == 2
    assert "option hand='4' is not allowed: use 2 or 3" in bad.output


def test_two_people_play_the_toy_at_the_terminal(toys: None, home: Path) -> None:
    # The moves: each seat plays the first card of its hand. A wrong card first, and the
    # commands moves and help, at seat 0's first turn.
    game = patience.new("toy-duel", deal=11)
    lines = ["play(card=Kd)", "moves", "help"]
    first_hands = [game.view(seat)["hands"][seat] for seat in (0, 1)]
    while not game.is_over():
        move = game.legal_moves()[0]
        lines.append(move.text())
        game.push(move)
    result = run(
        "play", "toy-duel", "--deal", "11", "--seats", "human,human", input="\n".join(lines) + "\n"
    )
    assert result.exit_code == 0, result.output
    output = result.output
    # The generic layout: piles, then the hands, the seat to move marked; each seat sees its own
    # hand and only the other's size.
    assert "row0" in output
    assert "stock" in output
    shown = [patience.Card.parse(card).symbol() for card in first_hands[0]]
    assert re.search(r"> hand 0\s+" + r"\s+".join(map(re.escape, shown)), output)
    assert re.search(r"hand 1\s+3 cards", output)
    assert "Kd is not in seat 0's hand" in output
    assert "3 legal: play(card=" in output
    assert "Type a move in notation" in output
    assert str(patience.Outcome.from_json(game.outcome().to_json()).reason) in output


def test_a_person_plays_the_toy_against_a_bot_and_a_match_is_recorded(
    toys: None, home: Path, tmp_path: Path
) -> None:
    # Seat 0's hand does not depend on the bot's moves (each seat draws the next stock card
    # after its own move), so his six moves are known in advance: always the first card.
    game = patience.new("toy-duel", deal=5)
    lines: list[str] = []
    while not game.is_over():
        move = game.legal_moves()[-1 if game.current_player() else 0]
        if game.current_player() == 0:
            lines.append(move.text())
        game.push(move)
    result = run(
        "play", "toy-duel", "--deal", "5", "--seats", "human,random", input="\n".join(lines) + "\n"
    )
    assert result.exit_code == 0, result.output
    assert "seat 1 (random) plays play(card=" in result.output
    assert re.search(r"(Won|Draw): ", result.output)

    path = tmp_path / "duel.json"
    match = run(
        "match",
        "duel",
        "--seats",
        "greedy,random",
        "--deal",
        "3",
        "--seed",
        "2",
        "--json",
        "--record",
        str(path),
    )
    assert match.exit_code == 0, match.output
    outcome = json.loads(match.output)["outcome"]
    replayed = run("replay", str(path), "--json")
    assert json.loads(replayed.output)["outcome"] == outcome


def test_a_one_player_toy_is_played_and_saved_at_the_terminal(toys: None, home: Path) -> None:
    # Deal 10: t1 holds Ac over 3c, t2 2c over 4c, t3 5c over 6c.
    moves = ["t1-f1", "t2-f1", "t1-f1", "quit"]
    result = run("play", "toy-solo", "--deal", "10", input="\n".join(moves) + "\n")
    assert result.exit_code == 0, result.output
    for pile in ("t1", "t2", "t3", "f1"):
        assert pile in result.output
    resumed = run("play", "--resume", input="t2-f1\nt3-f1\nt3-f1\n")
    assert resumed.exit_code == 0, resumed.output
    assert "Won: all six clubs are up" in resumed.output
