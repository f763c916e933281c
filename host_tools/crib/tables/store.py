"""A table's rows in the club database (SQLite or PostgreSQL): the table, its seats and every move."""

import json
import sqlite3
import time

from crib.store import address, postgres
from crib.store import sqlite as crib_sqlite
from crib.tables import fanout

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS remote_tables (
    code    TEXT PRIMARY KEY,        -- the short code a player shares
    secret  TEXT NOT NULL,           -- the server's part of the seed, revealed when the game is over
    created DOUBLE PRECISION NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS remote_seats (
    code   TEXT NOT NULL REFERENCES remote_tables(code),
    seat   INTEGER NOT NULL,
    token  TEXT NOT NULL,            -- sha256 of the seat's token: the token itself is never stored
    name   TEXT NOT NULL,
    level  TEXT,                     -- the board's opponent at this level, or NULL for a person
    joined DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (code, seat)
)""",
    """CREATE TABLE IF NOT EXISTS remote_moves (
    code  TEXT NOT NULL REFERENCES remote_tables(code),
    n     INTEGER NOT NULL,          -- the table's order of moves, 1, 2, ...: one process wins each n
    seat  INTEGER NOT NULL,
    seq   INTEGER NOT NULL,          -- the seat's own count: a move sent again is found by it
    move  TEXT NOT NULL,             -- the move as applied (compact JSON)
    at    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (code, n),
    UNIQUE (code, seat, seq)
)""",
    # A table's form when it is not the two-player game: a table of its own, so a database made before
    # the forms needs no change of its tables (a table without a row here is a two-player table).
    """CREATE TABLE IF NOT EXISTS remote_forms (
    code  TEXT PRIMARY KEY REFERENCES remote_tables(code),
    form  TEXT NOT NULL              -- cribbage.forms' id: three (three-handed) or four (2 v 2)
)""",
)


class Conflict(Exception):
    """Another process stored a move or a seat first: read the table again and decide again."""


def connect(path):
    """A connection to the club database at `path` (a file or a postgresql:// URL) with the tables made.

    SQLite's is shared by the server's threads (each call under the service's lock)."""
    if address.is_url(path):
        con = postgres.connect(path)
    else:
        con = sqlite3.connect(path, factory=crib_sqlite.Connection, check_same_thread=False, timeout=10)
        con.row_factory = sqlite3.Row
        if path != ":memory:":
            con.execute("PRAGMA journal_mode = WAL")
            con.execute("PRAGMA synchronous = NORMAL")
    with con:
        for statement in SCHEMA:
            con.execute(statement)
    return con


def shared(con):
    """True when other servers may share the database and listen for its moves (PostgreSQL)."""
    return getattr(con, "dialect", None) == "postgresql"


def _notify(con, code):
    if shared(con):
        fanout.notify(con, code, getattr(con, "origin", ""))  # sent at the commit, never on a rollback


def _is_conflict(e):
    if isinstance(e, sqlite3.IntegrityError):
        return True
    return type(e).__name__ in ("UniqueViolation", "IntegrityError")


def add_table(con, code, secret, now=None, form="six"):
    try:
        with con:
            con.execute(
                "INSERT INTO remote_tables(code, secret, created) VALUES ($1, $2, $3)",
                (code, secret, time.time() if now is None else now),
            )
            if form != "six":
                con.execute("INSERT INTO remote_forms(code, form) VALUES ($1, $2)", (code, form))
    except Exception as e:
        if _is_conflict(e):
            raise Conflict(code) from None
        raise


def table(con, code):
    """(secret, created, form) of the table `code`, or None."""
    row = con.execute(
        "SELECT t.secret, t.created, f.form FROM remote_tables t LEFT JOIN remote_forms f ON f.code = t.code "
        "WHERE t.code=$1",
        (code,),
    ).fetchone()
    return None if row is None else (row[0], row[1], row[2] or "six")


def seats(con, code):
    """{seat: {"token", "name", "level"}} of the seats taken."""
    rows = con.execute("SELECT seat, token, name, level FROM remote_seats WHERE code=$1", (code,))
    return {r[0]: {"token": r[1], "name": r[2], "level": r[3]} for r in rows}


def add_seat(con, code, seat, token_hash, name, level=None, now=None):
    try:
        with con:
            con.execute(
                "INSERT INTO remote_seats(code, seat, token, name, level, joined) "
                "VALUES ($1, $2, $3, $4, $5, $6)",
                (code, seat, token_hash, name, level, time.time() if now is None else now),
            )
            _notify(con, code)
    except Exception as e:
        if _is_conflict(e):
            raise Conflict(seat) from None
        raise


def moves(con, code, after=0):
    """(n, seat, seq, move) of the table's moves after n = `after`, in order."""
    rows = con.execute(
        "SELECT n, seat, seq, move FROM remote_moves WHERE code=$1 AND n>$2 ORDER BY n", (code, after)
    )
    return [(r[0], r[1], r[2], json.loads(r[3])) for r in rows]


def add_move(con, code, n, seat, seq, move, now=None):
    """Store move `n`; Conflict if another process stored an n or this seat's seq first."""
    try:
        with con:
            con.execute(
                "INSERT INTO remote_moves(code, n, seat, seq, move, at) VALUES ($1, $2, $3, $4, $5, $6)",
                (
                    code,
                    n,
                    seat,
                    seq,
                    json.dumps(move, separators=(",", ":")),
                    time.time() if now is None else now,
                ),
            )
            _notify(con, code)
    except Exception as e:
        if _is_conflict(e):
            raise Conflict(n) from None
        raise


def last_n(con, code):
    row = con.execute("SELECT MAX(n) FROM remote_moves WHERE code=$1", (code,)).fetchone()
    return row[0] or 0
