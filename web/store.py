"""Tables and rounds in one embedded SQLite file.

Every change is one ``BEGIN IMMEDIATE`` transaction on a database in WAL mode with
``synchronous=FULL``: once a request has been answered, its round is on disk, so a
server killed at any moment loses nothing it confirmed, and two scorer phones saving
at the same moment are serialised by SQLite's write lock (neither round is lost or
stored twice).

Scorer tokens are kept only as SHA-256 hashes: whoever reads the file cannot score.

Every change also raises the table's ``version``; a change may name the version it was
based on (``expected``) and is then refused with :class:`Stale` if the table moved on in
the meantime, so a phone editing "round 3" never lands on a round another phone shifted.

Databases written before a column existed get it at start-up, with its default
(:data:`MIGRATIONS`).

>>> import tempfile, pathlib
>>> store = Store(pathlib.Path(tempfile.mkdtemp()) / "t.sqlite3")
>>> table_id, token = store.create_table("tichu", ["A", "B", "C", "D"], 1000)
>>> store.check_token(table_id, token), store.check_token(table_id, "nope")
(True, False)
>>> store.add_round(table_id, {"out": [0, 2]}, lambda table: None)
1
>>> store.get_table(table_id).rounds
[{'out': [0, 2]}]
>>> store.delete_round(table_id, 0, expected={0})
Traceback (most recent call last):
...
web.store.Stale: the table is at version 1
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    target INTEGER NOT NULL,
    token_hash TEXT NOT NULL,
    created REAL NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    rules TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS rounds (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id TEXT NOT NULL REFERENCES tables(id),
    round TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS rounds_by_table ON rounds(table_id, seq);
"""

#: Columns added after the first release: (table, column, definition). A database from an
#: older version gets each missing one, with its default, when a Store opens it.
MIGRATIONS: tuple[tuple[str, str, str], ...] = (
    ("tables", "rules", "TEXT NOT NULL DEFAULT '{}'"),
)


class NotFound(LookupError):
    """No such table, or no such round in it."""


class Stale(Exception):
    """The change was based on a version of the table that is no longer current."""

    def __init__(self, current: int) -> None:
        super().__init__(f"the table is at version {current}")
        self.current = current


@dataclass(frozen=True)
class StoredTable:
    id: str
    game: str
    players: list[str]
    target: int
    rounds: list[dict[str, Any]]
    version: int
    #: House rules as stored (possibly ``{}`` for tables made before there were any).
    rules: dict[str, Any] = field(default_factory=dict)


#: Called inside the write transaction with the table as it is before the change;
#: raises to refuse the change (nothing is written).
Check = Callable[[StoredTable], None]


def _hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Store:
    """One SQLite file; safe to share between threads (one connection per operation)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        # Held open for the store's life: when the last connection to a WAL database closes,
        # SQLite checkpoints and deletes the log, which would cost several fsyncs per request.
        self._keeper = self._connect()
        self._keeper.execute("PRAGMA journal_mode=WAL")
        self._keeper.executescript(SCHEMA)
        self._migrate()

    def _migrate(self) -> None:
        """Add the columns a database from an older version lacks (in one transaction)."""
        with self._write() as conn:
            for table, column, definition in MIGRATIONS:
                columns = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
                if column not in columns:
                    conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {definition}")

    def _connect(self) -> sqlite3.Connection:
        # isolation_level=None: we issue BEGIN ourselves, so each change is exactly one
        # transaction; a generous busy timeout lets concurrent writers queue instead of failing.
        conn = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        return conn

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        conn = self._connect()
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        finally:
            conn.close()

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        conn = self._connect()
        try:
            conn.execute("BEGIN")  # one consistent snapshot of table and rounds
            yield conn
            conn.execute("COMMIT")
        finally:
            conn.close()

    # -- tables --------------------------------------------------------------------------

    def create_table(
        self, game: str, players: list[str], target: int, rules: Mapping[str, Any] | None = None
    ) -> tuple[str, str]:
        """A new table; returns its id (96 random bits) and scorer token (192 bits)."""
        table_id = secrets.token_urlsafe(12)
        token = secrets.token_urlsafe(24)
        with self._write() as conn:
            conn.execute(
                "INSERT INTO tables (id, game, players, target, token_hash, created, rules)"
                " VALUES (?,?,?,?,?,?,?)",
                (table_id, game, json.dumps(players), target, _hash_token(token), time.time(),
                 json.dumps(dict(rules or {}))),
            )
        return table_id, token

    def _load(self, conn: sqlite3.Connection, table_id: str) -> StoredTable:
        row = conn.execute(
            "SELECT game, players, target, version, rules FROM tables WHERE id = ?", (table_id,)
        ).fetchone()
        if row is None:
            raise NotFound(table_id)
        rows = conn.execute("SELECT round FROM rounds WHERE table_id = ? ORDER BY seq", (table_id,))
        rounds = [json.loads(text) for (text,) in rows]
        return StoredTable(table_id, row[0], json.loads(row[1]), row[2], rounds, row[3], json.loads(row[4]))

    def get_table(self, table_id: str) -> StoredTable:
        with self._read() as conn:
            return self._load(conn, table_id)

    def exists(self, table_id: str) -> bool:
        with self._read() as conn:
            return conn.execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone() is not None

    def version(self, table_id: str) -> int:
        with self._read() as conn:
            row = conn.execute("SELECT version FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            raise NotFound(table_id)
        return int(row[0])

    def check_token(self, table_id: str, token: str) -> bool:
        """Constant-time comparison of the token's hash with the stored one."""
        with self._read() as conn:
            row = conn.execute("SELECT token_hash FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            raise NotFound(table_id)
        return hmac.compare_digest(_hash_token(token), str(row[0]))

    # -- rounds --------------------------------------------------------------------------

    def _seqs(self, conn: sqlite3.Connection, table_id: str) -> list[int]:
        rows = conn.execute("SELECT seq FROM rounds WHERE table_id = ? ORDER BY seq", (table_id,))
        return [seq for (seq,) in rows]

    def _bump(self, conn: sqlite3.Connection, table_id: str) -> int:
        conn.execute("UPDATE tables SET version = version + 1 WHERE id = ?", (table_id,))
        return int(conn.execute("SELECT version FROM tables WHERE id = ?", (table_id,)).fetchone()[0])

    @staticmethod
    def _check_version(table: StoredTable, expected: Collection[int] | None) -> None:
        if expected is not None and table.version not in expected:
            raise Stale(table.version)

    def add_round(
        self, table_id: str, round_obj: dict[str, Any], check: Check, expected: Collection[int] | None = None
    ) -> int:
        """Append a round after ``check(table before)`` passes; returns the new version.

        With ``expected``, the table's version must be one of them, else :class:`Stale`.
        """
        with self._write() as conn:
            table = self._load(conn, table_id)
            self._check_version(table, expected)
            check(table)
            conn.execute(
                "INSERT INTO rounds (table_id, round) VALUES (?, ?)", (table_id, json.dumps(round_obj))
            )
            return self._bump(conn, table_id)

    def replace_round(
        self, table_id: str, position: int, round_obj: dict[str, Any], expected: Collection[int] | None = None
    ) -> int:
        with self._write() as conn:
            self._check_version(self._load(conn, table_id), expected)
            seqs = self._seqs(conn, table_id)
            if not 0 <= position < len(seqs):
                raise NotFound(f"round {position}")
            conn.execute("UPDATE rounds SET round = ? WHERE seq = ?", (json.dumps(round_obj), seqs[position]))
            return self._bump(conn, table_id)

    def delete_round(self, table_id: str, position: int, expected: Collection[int] | None = None) -> int:
        with self._write() as conn:
            self._check_version(self._load(conn, table_id), expected)
            seqs = self._seqs(conn, table_id)
            if not 0 <= position < len(seqs):
                raise NotFound(f"round {position}")
            conn.execute("DELETE FROM rounds WHERE seq = ?", (seqs[position],))
            return self._bump(conn, table_id)


class Notifier:
    """Wakes the event streams of a table when it changes (in this process).

    Each table has a version number (the store's change counter); a stream waits
    until the version differs from the one it last sent.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._conditions: dict[str, threading.Condition] = {}
        self._versions: dict[str, int] = {}
        self.closed = False

    def close(self) -> None:
        """Wake every stream for good (the server is stopping), so each can end its response."""
        self.closed = True
        with self._lock:
            conditions = list(self._conditions.values())
        for cond in conditions:
            with cond:
                cond.notify_all()

    def _condition(self, table_id: str) -> threading.Condition:
        with self._lock:
            cond = self._conditions.get(table_id)
            if cond is None:
                cond = self._conditions[table_id] = threading.Condition()
            return cond

    def changed(self, table_id: str, version: int) -> None:
        cond = self._condition(table_id)
        with cond:
            if version > self._versions.get(table_id, -1):
                self._versions[table_id] = version
            cond.notify_all()

    def wait(self, table_id: str, seen: int, timeout: float) -> bool:
        """True when the table moved past version ``seen`` within ``timeout`` seconds."""
        cond = self._condition(table_id)
        with cond:
            return cond.wait_for(lambda: self.closed or self._versions.get(table_id, -1) > seen, timeout)
