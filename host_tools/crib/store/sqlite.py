# The history in a SQLite file: its connection ($1, $2, ... parameters), the schema made or checked as
# it opens, and SQLite's failures said in one line.
import os
import sqlite3
import time
from urllib.parse import quote

from crib.store import schema
from crib.store.schema import DbError


class Connection(sqlite3.Connection):
    """sqlite3's connection, its parameters written `$1, $2, ...` as PostgreSQL's are.

    `$1` is one of SQLite's own forms of a named parameter (named "1"): a statement's parameters,
    given in order, are bound by those names, and SQLite's parser reads the statement as written."""

    dialect = "sqlite"

    def execute(self, sql, params=()):
        return super().execute(sql, _named(params))

    def executemany(self, sql, seq):
        return super().executemany(sql, (_named(p) for p in seq))

    def tables(self):
        """The names of the tables the file holds."""
        return {r[0] for r in self.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def _named(params):
    return {str(n): value for n, value in enumerate(params, 1)}


def connect(path, readonly=False):
    """A connection to the file at `path` (a reader's never creates it); the caller checks the schema."""
    if readonly and path != ":memory:":
        con = sqlite3.connect("file:%s?mode=ro" % quote(os.path.abspath(path)), uri=True, factory=Connection)
    else:
        if path != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        con = sqlite3.connect(path, factory=Connection)
    con.row_factory = sqlite3.Row
    return con


def readable(path):
    """A reader's history must be there and hold something (SQLite leaves a file 0 bytes long until
    its first table is made: a typo'd --db or a history emptied under a reader)."""
    try:
        size = os.path.getsize(path)
    except OSError:
        raise DbError(schema.NO_HISTORY % path) from None
    if size == 0:
        raise DbError("%s is empty: no history in it yet (crib sync fills it)" % path)


def prepare(con, path, readonly=False):
    """`con` with the history's schema checked; a writer's made or migrated first, in one transaction."""
    con.execute("PRAGMA foreign_keys = ON")
    if readonly:
        version = con.execute("PRAGMA user_version").fetchone()[0]
        names = con.tables()
        if version == 0 and names and names <= schema.TABLES:
            raise DbError("%s is a history left half made: crib sync finishes it" % path)
        schema.check_version(path, version)
        return con
    if path != ":memory:":
        # WAL + NORMAL: a commit per sync page costs no fsync; a power cut may lose the last pages
        # (never corrupt the file), and the next sync simply fetches them again.
        _wal(con)
        con.execute("PRAGMA synchronous = NORMAL")
    if con.execute("PRAGMA user_version").fetchone()[0] == schema.VERSION:
        return con
    # One write-locked transaction reads the version again and makes or migrates the tables with it:
    # laptops opening a new file at once take turns, and a kill leaves the file as it was.
    con.execute("BEGIN IMMEDIATE")
    try:
        version = con.execute("PRAGMA user_version").fetchone()[0]
        schema.check_version(path, version, 0)
        if version == 0 and con.tables() - schema.TABLES:
            raise DbError("%s is not a crib database (it has tables but no schema version)" % path)
        for statement in schema.steps("sqlite", version):
            con.execute(statement)
        con.execute("PRAGMA user_version = %d" % schema.VERSION)  # a PRAGMA takes no parameter
        con.commit()
    except BaseException:
        con.rollback()
        raise
    return con


def _wal(con, tries=100):
    """Turn the file to WAL (it stays so). SQLite answers "locked" at once, without waiting, when
    another laptop holds the file as it asks: the switch is tried again a while."""
    for _ in range(tries - 1):
        try:
            if con.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                con.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e):
                raise
            time.sleep(0.05)
    con.execute("PRAGMA journal_mode = WAL")


def trouble(e, where):
    """A one-line message for SQLite's failure `e` on the history at `where`, or None if it is not one."""
    if not isinstance(e, sqlite3.DatabaseError):
        return None
    text = str(e)
    if "locked" in text or "busy" in text:
        return "%s is locked by another program (waited 5 s): try again when it is done" % where
    if "full" in text:
        return "the disk holding %s is full: what was being stored is not kept; free some space" % where
    if "malformed" in text or "corrupt" in text:
        return (
            "%s is damaged (%s): nothing was changed; `sqlite3 %s .recover` may save it, or sync the "
            "boards again into a new file" % (where, text, where)
        )
    if "not a database" in text:
        return "%s is not a crib database (%s)" % (where, text)
    if "readonly" in text or "read-only" in text:
        return "%s may not be written here (%s)" % (where, text)
    return "%s: %s" % (where, text)
