"""The SQLite store: schema versions and migrations, players, the event log, statistics."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from patience.options import OptionValue
from patience.sqlite_schema import statements
from patience.store import MIGRATIONS, SCHEMA_VERSION, Store, StoreError, valid_player_name


def test_a_new_store_has_the_latest_schema(tmp_path: Path) -> None:
    with Store(tmp_path / "sub" / "p.sqlite3") as store:
        assert store.version == SCHEMA_VERSION
        assert SCHEMA_VERSION == len(MIGRATIONS) >= 2


def test_an_old_store_upgrades_itself_and_keeps_its_data(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    # A store as version 1 of the schema left it, with one table and one event.
    db = sqlite3.connect(path)
    assert isinstance(MIGRATIONS[0], str)
    for statement in statements(MIGRATIONS[0]):
        db.execute(statement)
    db.execute("PRAGMA user_version = 1")
    db.execute("INSERT INTO players (id, name, created) VALUES (1, 'ann', 0)")
    db.execute(
        "INSERT INTO tables (id, game, options, deal, created, updated, moves) "
        "VALUES ('t', 'klondike', '{\"draw\": 1}', 7, 0, 0, 1)"
    )
    db.execute("INSERT INTO seats VALUES ('t', 0, 1)")
    db.execute("INSERT INTO events VALUES ('t', 0, 0, 'move', 't7-f1', 1)")
    db.commit()
    db.close()
    with Store(path) as store:
        assert store.version == SCHEMA_VERSION
        row = store.table("t")
        assert row is not None
        assert (row.game, row.deal, row.seats, row.score) == ("klondike", 7, ["ann"], None)
        assert [event.move for event in store.events("t")] == ["t7-f1"]


def test_a_store_from_a_newer_program_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(StoreError, match="newer than this program"):
        Store(path)


@pytest.mark.parametrize("name", ["", "   ", "x" * 41, "tab\there", 7])
def test_bad_player_names_are_refused(name: object) -> None:
    with pytest.raises(StoreError, match="player name"):
        valid_player_name(name)


def test_players_are_found_by_name_without_regard_to_case() -> None:
    with Store(":memory:") as store:
        first = store.player_id(" Ann ")
        assert store.player_id("ann") == first
        assert store.player_id("bob") != first
        assert store.players() == ["Ann", "bob"]


def test_events_are_numbered_and_an_event_out_of_turn_writes_nothing() -> None:
    with Store(":memory:") as store:
        store.create_table("t1", "klondike", {"draw": 3}, 7, ["ann"])
        store.append_event("t1", 0, 0, "move", "t7-f1", result="ongoing", reason="", moves=1)
        with pytest.raises(StoreError, match="out of turn"):
            store.append_event("t1", 0, 0, "undo", None, result="ongoing", reason="", moves=0)
        with pytest.raises(StoreError, match="unknown event"):
            store.append_event("t1", 1, 0, "shuffle", None, result="ongoing", reason="", moves=0)
        with pytest.raises(StoreError, match="carries its move"):
            store.append_event("t1", 1, 0, "move", None, result="ongoing", reason="", moves=0)
        with pytest.raises(StoreError, match="no table"):
            store.append_event("zz", 0, 0, "undo", None, result="ongoing", reason="", moves=0)
        assert [(e.seq, e.kind, e.move) for e in store.events("t1")] == [(0, "move", "t7-f1")]
        row = store.table("t1")
        assert row is not None
        assert (row.moves, row.events, row.result) == (1, 1, "ongoing")


def _play(store: Store, table: str, result: str, moves: int = 10) -> None:
    store.append_event(table, 0, 0, "move", "stock", result=result, reason="", moves=moves)


def test_statistics_count_games_wins_streaks_and_bests() -> None:
    with Store(":memory:") as store:
        results = ["won", "lost", "won", "won", "ongoing", "won", "ongoing"]
        for number, result in enumerate(results):
            store.create_table(f"k{number}", "klondike", {}, number, ["ann"])
            _play(store, f"k{number}", result, moves=100 - number)
        store.create_table("unplayed", "klondike", {}, 99, ["ann"])  # no event: not played
        store.create_table("s0", "spider", {}, 1, ["ann"])
        _play(store, "s0", "lost")
        store.create_table("b0", "klondike", {}, 1, ["bob"])
        _play(store, "b0", "won")
        stats = {entry.game: entry for entry in store.stats("ann")}
        klondike = stats["klondike"]
        assert (klondike.played, klondike.won) == (7, 4)
        assert klondike.win_rate == pytest.approx(4 / 7)
        # won lost won won (abandoned: a loss) won (latest, ongoing: not counted)
        assert (klondike.current_streak, klondike.best_streak) == (1, 2)
        assert klondike.best_moves == 95
        assert klondike.best_seconds is not None
        assert klondike.best_seconds >= 0
        assert stats["spider"].to_json() == {
            "game": "spider",
            "options": {},
            "played": 1,
            "won": 0,
            "win_rate": 0.0,
            "current_streak": 0,
            "best_streak": 0,
            "best_seconds": None,
            "best_moves": None,
        }
        assert store.stats("nobody") == []
        assert [t.id for t in store.tables_of("ann", ongoing=True)][:2] == ["unplayed", "k6"]


def test_statistics_are_kept_apart_by_options() -> None:
    with Store(":memory:") as store:
        tables: list[tuple[str, str, dict[str, OptionValue], str]] = [
            ("a", "spider", {"suits": 1}, "won"),
            ("b", "spider", {"suits": 4}, "lost"),
            ("c", "spider", {"suits": 1}, "won"),
            ("d", "klondike", {"draw": 1, "passes": "unlimited"}, "won"),
            # The same options in another order are the same set of options.
            ("e", "klondike", {"passes": "unlimited", "draw": 1}, "lost"),
            ("f", "klondike", {"draw": 3}, "won"),
        ]
        for table, game, options, result in tables:
            store.create_table(table, game, options, 1, ["ann"])
            _play(store, table, result)
        found = [(e.game, e.options, e.played, e.won, e.best_streak) for e in store.stats("ann")]
        assert found == [
            ("klondike", {"draw": 1, "passes": "unlimited"}, 2, 1, 1),
            ("klondike", {"draw": 3}, 1, 1, 1),
            ("spider", {"suits": 1}, 2, 2, 2),
            ("spider", {"suits": 4}, 1, 0, 0),
        ]
        # The canonical options decide the groups: here every Klondike counts as one.
        merged = store.stats("ann", lambda game, options: {} if game == "klondike" else options)
        assert (merged[0].game, merged[0].options, merged[0].played) == ("klondike", {}, 3)
