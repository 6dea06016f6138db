"""Snapshots of a table's game, so that rebuilding a table replays a bounded number of events.

Every :data:`SNAPSHOT_EVERY` events the service keeps the table's whole game (position, the
moves that may be undone, what may be redone, the resignation) in the store; a rebuild starts
from the latest snapshot and replays only the events stored after it, at most
``SNAPSHOT_EVERY - 1`` of them, however long the table's log is.

A snapshot is a cache, never the record: the event log stays complete, and a snapshot that
cannot be read back, or that another version of the program wrote (the :func:`fingerprint` of
the code differs), is ignored and the whole log replayed. The data is a compressed pickle of
the :class:`~patience.engine.Game`: the store belongs to the server as much as its code does
(whoever can write the database can already rewrite every table), and a pickle restores the
undo stack exactly, which no position format carries.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import pickle
import sys
import zlib
from pathlib import Path

from ..engine import Game
from ..moves import Move
from ..store import Snapshot

__all__ = ["SNAPSHOT_EVERY", "SnapshotUnreadable", "due", "fingerprint", "restore", "take"]

log = logging.getLogger(__name__)

#: Events between two snapshots of a table: a rebuild replays fewer than this many events.
SNAPSHOT_EVERY = 500
#: Bump when the snapshot layout (not the game classes, which the fingerprint covers) changes.
_LAYOUT = 1


class SnapshotUnreadable(ValueError):
    """A snapshot this program cannot use (another version wrote it, or it is damaged)."""


@functools.cache
def fingerprint() -> str:
    """A digest of the program that reads and writes snapshots: the Python version, the
    snapshot layout and the source of every module of the package, so that a snapshot never
    outlives a change to the classes it pickles."""
    digest = hashlib.sha256(f"{_LAYOUT} {sys.version_info[:2]}".encode())
    package = Path(__file__).resolve().parent.parent
    for path in sorted(package.rglob("*.py")):
        digest.update(str(path.relative_to(package)).encode())
        digest.update(path.read_bytes())
    for path in sorted(package.glob("_core*")):  # the compiled core, whose objects games hold
        digest.update(path.name.encode())
        digest.update(str(path.stat().st_size).encode())
    return digest.hexdigest()


def due(events: int) -> bool:
    """True when a table that has just stored its event number ``events - 1`` should keep a
    snapshot."""
    return events > 0 and events % SNAPSHOT_EVERY == 0


def take(game: Game, last: tuple[int, Move] | None, events: int) -> Snapshot:
    """The snapshot of ``game`` after ``events`` events, with the table's last move."""
    data = zlib.compress(pickle.dumps((game, last), protocol=pickle.HIGHEST_PROTOCOL), 6)
    return Snapshot(events, fingerprint(), data)


def restore(snapshot: Snapshot) -> tuple[Game, tuple[int, Move] | None]:
    """The game and last move a snapshot holds; :class:`SnapshotUnreadable` when this program
    did not write it or it cannot be read."""
    if snapshot.fingerprint != fingerprint():
        raise SnapshotUnreadable("written by another version of the program")
    try:
        game, last = pickle.loads(zlib.decompress(snapshot.data))
    except Exception as error:  # any damage: the caller replays the whole log instead
        raise SnapshotUnreadable(f"damaged ({error.__class__.__name__}: {error})") from None
    if not isinstance(game, Game):
        raise SnapshotUnreadable(f"holds a {type(game).__name__}, not a game")
    return game, last
