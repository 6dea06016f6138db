"""How many shared tables the server holds at once, and how fast it answers a move.

Run: ``.venv/bin/python benchmarks/server.py [--tables N] [--seconds S] [--game leopard]
[--bot random] [--searches N]``, or ``--hints N``, or ``--rebuild N``.

The server (uvicorn, in a subprocess, with a fresh store in a temporary folder) is reached over
loopback websockets, as browsers reach it. Each simulated person creates a table (his seat open,
the others bots), joins it over its websocket and plays a random legal move whenever it is his
turn, all tables at the same time; when a game ends he starts another table. A move's latency is
the time from sending it to receiving the state that shows it, which includes storing it (a
committed, fsynced SQLite write) and the broadcast to every seat. Reported: the tables held
(every connection open and playing at the end), the moves made by people, and the median,
95th-percentile and worst move latency.

``--searches N`` (with ``--search-game spider --search-options '{"suits": 4}'`` by default) also
runs N clients that ask, again and again, for a new one-player table of a winnable deal, which
the server's real deal picker (``WinnableDealPicker``, as ``patience serve`` has) searches for
with the solver: the move latency then says whether those searches hold up the tables. Every
client comes from the one loopback address, which here stands for N addresses: the server is
started without the search pool's quota per address (its other bounds stay), so that the
searches load it as N clients would. Reported besides: the searches answered, and refused (429,
503) at once.

``--hints N`` measures the hints (``GET /api/tables/ID/hint``, answered by ``patience serve``'s
hinter at its budget, in the server's hint worker processes): for each one-player game of
``HINT_GAMES`` one client plays tables (deals 1001, 1002 and on) by the hints' moves, one
request at a time, until N hints were answered; a hint's latency is the time from the request
to its answer. A first hint, not counted, starts the worker processes. Reported per game: the
median and 95th-percentile latency, and the worst.

``--rebuild N`` measures something else, in this process: the time to rebuild (read and replay)
a one-player table whose log holds N events (a move and its undo, again and again), as the
server does for a table not in memory: from the latest snapshot the server keeps every
``SNAPSHOT_EVERY`` events (server/snapshots.py), and from the whole log (no snapshot) for
comparison; a table of more than ``MAX_EVENTS`` events is refused before its log is read, and the
time of that refusal is reported instead.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import http.cookiejar
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import websockets

SERVER = """
import sys, uvicorn
from patience.server import MAX_FRAME, create_app
picker = None
hinter = None
if sys.argv[3] == "hints":
    from patience.cli.web import hint_json as hinter
if sys.argv[3] == "search":
    from patience.study.winnable import WinnableDealPicker
    picker = WinnableDealPicker()
    try:  # one loopback address stands for many: no quota per address (the bounds stay)
        from dataclasses import replace
        from patience.server.service import POOLS
        # Its other limits kept as they are (workers, held, threads or processes).
        POOLS["search"] = replace(POOLS["search"], per_client=None)
    except ImportError:  # a server from before the work pools
        pass
# Every table comes from this one address: no bound on creations (nor, where the server has
# them, on new sessions and websockets per address).
try:
    app = create_app(sys.argv[1], creations_per_minute=None, deal_picker=picker,
                     sessions_per_minute=None, sockets_per_client=None, hinter=hinter)
except TypeError:  # a server from before sessions
    app = create_app(sys.argv[1], creations_per_minute=None, deal_picker=picker)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]),
            log_level="warning", ws_max_size=MAX_FRAME)
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


#: The one-player games whose hints ``--hints`` times: (name, options).
HINT_GAMES: list[tuple[str, dict[str, Any]]] = [
    ("klondike", {"draw": 3}),
    ("klondike", {"draw": 1}),
    ("canfield", {}),
    ("spider", {"suits": 1}),
    ("napoleon", {}),
    ("leonis-own", {}),
]


def hint_latencies(base: str, game: str, options: dict[str, Any], count: int) -> list[float]:
    """Play tables of ``game`` by the hints' moves until ``count`` hints were answered (after
    one not counted); each hint's latency in seconds."""
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )

    def call(path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"http://{base}{path}", data=data, headers={"Content-Type": "application/json"}
        )
        with opener.open(request, timeout=120) as response:
            return json.loads(response.read())

    latencies: list[float] = []
    deal = 1001
    warm = False
    while len(latencies) < count:
        table = call("/api/tables", {"game": game, "options": options, "deal": deal})["table"]
        deal += 1
        while len(latencies) < count:
            started = time.perf_counter()
            answer = call(f"/api/tables/{table}/hint")
            if warm:
                latencies.append(time.perf_counter() - started)
            warm = True
            if answer["move"] is None:
                break
            state = call(f"/api/tables/{table}", {"command": "move", "move": answer["move"]})
            if state["view"]["outcome"]["result"] != "ongoing":
                break
    return latencies


def hints(count: int) -> None:
    """Time ``count`` hints of every game of :data:`HINT_GAMES` on a server of its own."""
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(Path(folder) / "bench.sqlite3", port, "hints")
        try:
            print(
                "| game | hints | median s | p95 s | worst s |\n| --- | ---: | ---: | ---: | ---: |"
            )
            for game, options in HINT_GAMES:
                latencies = sorted(hint_latencies(f"127.0.0.1:{port}", game, options, count))
                p95 = latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))]
                name = game + "".join(f" {key}={value}" for key, value in options.items())
                print(
                    f"| {name} | {len(latencies)} | {statistics.median(latencies):.2f} "
                    f"| {p95:.2f} | {latencies[-1]:.2f} |",
                    flush=True,
                )
        finally:
            server.terminate()
            server.wait(timeout=10)


def start_server(db: Path, port: int, mode: str) -> subprocess.Popen[bytes]:
    """The server in a subprocess (``mode``: plain, search or hints), once it listens."""
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(db), str(port), mode])
    deadline = time.monotonic() + 20
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return server
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                server.terminate()
                raise SystemExit("the server did not start") from None
            time.sleep(0.1)


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.person_moves = 0
        self.games = 0
        self.errors: list[str] = []
        self.holding = 0
        self.searches: dict[int, int] = {}


async def person(
    base: str, args: argparse.Namespace, index: int, stats: Stats, stop: float
) -> None:
    """One person: create a table, join it, play until the time is up (a new table per game)."""
    rng = random.Random(index)
    players = 2 if args.game == "double-solitaire" else args.players
    options = {"players": players} if args.game == "leopard" else {}
    seats = ["open"] + [args.bot] * (players - 1)
    held = False
    try:
        while time.monotonic() < stop:
            made = await asyncio.to_thread(
                post,
                f"http://{base}/api/shared",
                {"game": args.game, "options": options, "seats": seats},
            )
            async with websockets.connect(f"ws://{base}/ws/shared/{made['table']}") as ws:
                await ws.recv()
                await ws.send(json.dumps({"type": "join", "seat": 0, "name": f"p{index}"}))
                state: dict[str, Any] = {}
                if not held:
                    held = True
                    stats.holding += 1
                last_seq = 0
                went_on = -1  # the seq of the hold he last went on from
                sent_at: float | None = None
                while time.monotonic() < stop:
                    message = json.loads(await ws.recv())
                    if message["type"] == "error":
                        stats.errors.append(message["error"])
                        state = message.get("state", state)
                        sent_at = None
                    elif message["type"] == "state":
                        state = message
                        if sent_at is not None and state["seq"] > last_seq:
                            stats.latencies.append(time.perf_counter() - sent_at)
                            sent_at = None
                    else:
                        continue
                    if state.get("outcome", {}).get("result", "ongoing") != "ongoing":
                        stats.games += 1
                        break
                    hold = state.get("hold")
                    if hold is not None:  # the end of a deal: he goes on at once
                        if 0 in hold["waiting"] and went_on != state["seq"]:
                            went_on = state["seq"]
                            await ws.send(json.dumps({"type": "go-on", "seq": went_on}))
                        continue
                    if sent_at is None and state.get("turn") == 0 and not state["waiting"]:
                        moves = state["view"]["legal_moves"]
                        last_seq = state["seq"]
                        sent_at = time.perf_counter()
                        await ws.send(
                            json.dumps(
                                {"type": "move", "move": rng.choice(moves), "seq": state["seq"]}
                            )
                        )
                        stats.person_moves += 1
                else:
                    return
    except Exception as error:  # a lost connection is a table not held
        stats.errors.append(f"{type(error).__name__}: {error}")
        if held:
            stats.holding -= 1


def search_once(base: str, args: argparse.Namespace) -> int:
    """Ask for a table of a winnable deal: the answer's status."""
    body = {"game": args.search_game, "options": json.loads(args.search_options), "winnable": True}
    try:
        post(f"http://{base}/api/tables", body)
    except urllib.error.HTTPError as error:
        return error.code
    return 201


async def searcher(
    base: str,
    args: argparse.Namespace,
    stats: Stats,
    stop: float,
    threads: concurrent.futures.Executor,
) -> None:
    """One client asking for winnable deals until the time is up (a refusal: again soon)."""
    loop = asyncio.get_running_loop()
    while time.monotonic() < stop:
        status = await loop.run_in_executor(threads, search_once, base, args)
        stats.searches[status] = stats.searches.get(status, 0) + 1
        if status != 201:
            await asyncio.sleep(0.05)


async def run(base: str, args: argparse.Namespace) -> Stats:
    stats = Stats()
    stop = time.monotonic() + args.seconds
    # The searchers' blocking requests have threads of their own: they must not hold up the
    # people's.
    with concurrent.futures.ThreadPoolExecutor(max(1, args.searches)) as threads:
        await asyncio.gather(
            *(person(base, args, i, stats, stop) for i in range(args.tables)),
            *(searcher(base, args, stats, stop, threads) for _ in range(args.searches)),
        )
    return stats


def rebuild(events: int) -> None:
    """Build a store with one table of ``events`` events (and the snapshots the server would
    have kept), then time its rebuild with and without them."""
    from patience.engine import Game
    from patience.games import get_rules
    from patience.server import snapshots
    from patience.server.errors import CommandError
    from patience.server.service import TableService
    from patience.server.table import MAX_EVENTS, replay_event
    from patience.store import Event, Store

    with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "rebuild.sqlite3") as store:
        game = Game.create(get_rules("klondike", {}), deal=7)
        store.create_table("big", game.name, game.options, game.deal, ["bench"])
        # Building is not measured: no fsync per event here.
        store._db.execute("PRAGMA synchronous = OFF")
        last = None
        for seq in range(events):
            kind, move = ("move", "t7-f1") if seq % 2 == 0 else ("undo", None)
            store.append_event(
                "big", seq, 0, kind, move, result="ongoing", reason="", moves=1 - seq % 2
            )
            if seq < MAX_EVENTS:  # the server never stores more
                last = replay_event(game, Event(seq, 0, kind, move, 0.0))
                if snapshots.due(seq + 1):
                    store.save_snapshot("big", snapshots.take(game, last, seq + 1))
        service = TableService(store)
        for label in ("from its latest snapshot", "from the whole log"):
            if label == "from the whole log":
                store._db.execute("DELETE FROM snapshots")
            started = time.perf_counter()
            try:
                table = service._load("big")
            except CommandError as error:
                took = time.perf_counter() - started
                print(f"{events} events: refused in {took * 1000:.1f} ms ({error.status}: {error})")
                return
            took = time.perf_counter() - started
            assert table is not None
            assert table.events == events
            print(
                f"{events} events (MAX_EVENTS {MAX_EVENTS}, SNAPSHOT_EVERY "
                f"{snapshots.SNAPSHOT_EVERY}): rebuilt {label} in {took * 1000:.1f} ms"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50, help="simultaneous tables (people)")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long to play")
    parser.add_argument("--game", default="leopard", choices=["leopard", "double-solitaire"])
    parser.add_argument("--players", type=int, default=2, help="Leopard's players (2-4)")
    parser.add_argument("--bot", default="random", help="the bots in the other seats")
    parser.add_argument(
        "--searches", type=int, default=0, help="clients asking for winnable deals meanwhile"
    )
    parser.add_argument("--search-game", default="spider", help="the game of those deals")
    parser.add_argument("--search-options", default='{"suits": 4}', help="its options (JSON)")
    parser.add_argument(
        "--rebuild", type=int, default=0, help="time the rebuild of a table of N events instead"
    )
    parser.add_argument(
        "--hints", type=int, default=0, help="time N hints of each one-player game instead"
    )
    args = parser.parse_args()
    if args.hints:
        hints(args.hints)
        return
    if args.rebuild:
        rebuild(args.rebuild)
        return
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.sqlite3"
        server = start_server(db, port, "search" if args.searches else "plain")
        try:
            started = time.perf_counter()
            stats = asyncio.run(run(f"127.0.0.1:{port}", args))
            elapsed = time.perf_counter() - started
        finally:
            server.terminate()
            server.wait(timeout=10)
    latencies = sorted(stats.latencies)
    if not latencies:
        raise SystemExit(f"no move was answered; errors: {stats.errors[:3]}")
    p95 = latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))]
    p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))]
    print(
        f"{args.game} ({args.players if args.game == 'leopard' else 2} players, "
        f"{args.bot} bots), {elapsed:.1f} s"
    )
    print(f"tables held at once: {stats.holding} of {args.tables}; games finished: {stats.games}")
    print(
        f"moves: {stats.person_moves} by people, {len(latencies) / elapsed:.0f} answered per second"
    )
    print(
        f"move latency: median {statistics.median(latencies) * 1000:.1f} ms, "
        f"p95 {p95 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, worst {latencies[-1] * 1000:.1f} ms"
    )
    if args.searches:
        answers = ", ".join(f"{count} {status}" for status, count in sorted(stats.searches.items()))
        print(
            f"winnable searches ({args.searches} clients, {args.search_game} "
            f"{args.search_options}): {answers}"
        )
    if stats.errors:
        print(f"errors: {len(stats.errors)} (first: {stats.errors[0]})")


if __name__ == "__main__":
    main()
