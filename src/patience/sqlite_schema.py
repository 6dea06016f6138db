"""Numbered schema migrations for patience's SQLite files, kept in ``PRAGMA user_version``.

The store (``patience.sqlite3``) and the study files (``studies.sqlite3``) both hold their schema
as a list of steps: step ``n`` takes a file from version ``n`` to ``n + 1``, and the file's
``user_version`` says how many steps it has had (0 for a new file, or one made before its schema
was numbered). A step is SQL (statements separated by ``;``) or, where SQL alone cannot say it
(a step that must look at what a file already has), a function of the connection. Never edit a
step that has shipped; add a new one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence

__all__ = ["Migration", "NewerSchema", "migrate", "schema_version", "statements"]

#: One step: a script of SQL statements, or a function that changes the file through the
#: connection (inside the step's transaction; it must not commit).
Migration = str | Callable[[sqlite3.Connection], None]


class NewerSchema(RuntimeError):
    """A file whose schema version is newer than this program knows: written by a later
    version of patience, so it is left alone."""

    def __init__(self, version: int, known: int) -> None:
        super().__init__(
            f"schema version {version}, newer than this program's {known}: upgrade patience "
            "to open it"
        )
        self.version = version
        self.known = known


def schema_version(connection: sqlite3.Connection) -> int:
    """The file's schema version (``PRAGMA user_version``)."""
    return int(connection.execute("PRAGMA user_version").fetchone()[0])


def statements(script: str) -> list[str]:
    """The statements of a migration script, one by one."""
    # executescript() would commit on its own; running the statements one by one keeps each
    # migration inside its transaction. Migration scripts hold no ';' inside a literal.
    return [part.strip() for part in script.split(";") if part.strip()]


def migrate(
    connection: sqlite3.Connection, migrations: Sequence[Migration], target: int | None = None
) -> int:
    """Run the steps from the file's version up to ``target`` (all of ``migrations`` by
    default), each in its own transaction together with the new ``user_version``, so that a
    crash leaves the file at one version or the next. Returns the version reached.

    The version is read again inside each step's write transaction, so two programs opening
    one file at once never run a step twice. A file newer than ``migrations`` raises
    :class:`NewerSchema` and is not touched.
    """
    known = len(migrations)
    target = known if target is None else target
    if not 0 <= target <= known:
        raise ValueError(f"a schema version to migrate to is 0 to {known}, not {target}")
    version = schema_version(connection)
    while True:
        if version > known:
            raise NewerSchema(version, known)
        if version >= target:
            return version  # an up-to-date file is opened without taking the write lock
        connection.execute("BEGIN IMMEDIATE")
        try:
            # Again under the lock: another program may have migrated the file meanwhile.
            version = schema_version(connection)
            if version < target:
                step = migrations[version]
                if isinstance(step, str):
                    for statement in statements(step):
                        connection.execute(statement)
                else:
                    step(connection)
                version += 1
                # PRAGMA takes no parameters; the value is our own integer.
                connection.execute(f"PRAGMA user_version = {version}")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")
