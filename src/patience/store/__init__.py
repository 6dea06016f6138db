"""The SQLite store: players, tables (saved games) with every event of their play, statistics.

A *table* is one game being played: which game, its options, its deal, who sits in each seat,
and the log of everything done at it (moves, undos, redos, restarts, resignations). The log is
written, and committed, before the server acknowledges the event, so a game is rebuilt exactly
by replaying its log: after a reload of the page or a restart of the server.

The schema is versioned with SQLite's ``user_version`` and upgrades itself: :data:`MIGRATIONS`
lists the steps in order, and opening a store runs the ones it has not run yet.
"""

from __future__ import annotations

from .db import (
    EVENT_KINDS,
    MIGRATIONS,
    SCHEMA_VERSION,
    Account,
    Event,
    GameStats,
    SharedSeat,
    Snapshot,
    Store,
    StoreError,
    TableRow,
    name_key,
    valid_player_name,
)

__all__ = [
    "EVENT_KINDS",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "Account",
    "Event",
    "GameStats",
    "SharedSeat",
    "Snapshot",
    "Store",
    "StoreError",
    "TableRow",
    "name_key",
    "valid_player_name",
]
