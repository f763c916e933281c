# The history on a PostgreSQL server (psycopg 3): a connection with the calls the history makes of
# sqlite3 (rows by name and by position, `with con:` as one transaction, PostgreSQL's own $1, $2, ...
# parameters), the schema made or checked as it opens, and the server's failures said in one line.
import sys

from crib.store import address, schema
from crib.store.schema import DbError

_LOCK = 7373121  # pg_advisory_xact_lock key: laptops creating the schema at once take turns


class Row:
    """A result row as sqlite3.Row reads: by column name or by position, and dict(row) works."""

    __slots__ = ("_names", "_values")

    def __init__(self, names, values):
        self._names = names
        self._values = values

    def keys(self):
        return list(self._names)

    def __getitem__(self, key):
        if isinstance(key, (int, slice)):
            return self._values[key]
        return self._values[self._names.index(key)]

    def __iter__(self):
        return iter(self._values)

    def __len__(self):
        return len(self._values)


def _row_factory(cursor):
    names = tuple(c.name for c in cursor.description or ())
    return lambda values: Row(names, values)


class PgConnection:
    """psycopg 3 behind the calls the history makes of sqlite3, so its queries serve both.

    Its cursors are psycopg's raw ones: the statement goes to the server as written, with `$1, $2, ...`
    bound by the server (psycopg reads no `%s` in it, so a `%` or `?` in a literal is only text)."""

    dialect = "postgresql"

    def __init__(self, url):
        try:
            import psycopg
        except ImportError:
            raise RuntimeError(
                "a PostgreSQL history needs psycopg: pip install 'cribboard[postgres]'"
            ) from None  # noqa: E501

        self.url = url
        self._con = psycopg.connect(
            url, autocommit=True, row_factory=_row_factory, cursor_factory=psycopg.RawCursor
        )
        self._tx = []

    def execute(self, sql, params=()):
        return self._con.execute(sql, tuple(params))

    def executemany(self, sql, seq):
        cur = self._con.cursor()
        cur.executemany(sql, [tuple(p) for p in seq])
        return cur

    def tables(self):
        """The names of the tables in the connection's schema."""
        cur = self.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
        return {r[0] for r in cur}

    def __enter__(self):
        tx = self._con.transaction()
        tx.__enter__()
        self._tx.append(tx)
        return self

    def __exit__(self, *exc):
        return self._tx.pop().__exit__(*exc)

    def close(self):
        self._con.close()


def connect(url, readonly=False):
    """A connection to `url`, read-only for a reader (it needs no right but SELECT)."""
    con = PgConnection(url)
    if readonly:
        con.execute("SET default_transaction_read_only = on")
    return con


def prepare(con, url, readonly=False):
    """`con` with the history's schema checked; a writer's made or migrated first, in one transaction
    locked against laptops doing it at once. A reader makes nothing."""
    where = address.describe(url)
    if readonly:
        if "crib_meta" not in con.tables():
            raise DbError(schema.NO_HISTORY % where)
        schema.check_version(where, _version(con))
        return con
    with con:
        con.execute("SELECT pg_advisory_xact_lock($1)", (_LOCK,))
        names = con.tables()
        if "crib_meta" not in names:
            if names & {"boards", "events", "games", "scores"}:
                raise DbError("%s is not a crib database (it has tables but no schema version)" % where)
            con.execute(schema.PG_META)
            con.execute("INSERT INTO crib_meta(key, value) VALUES ('schema', 0)")
        version = _version(con)
        if version < schema.VERSION:
            for statement in schema.steps("postgresql", version):
                con.execute(statement)
            version = schema.VERSION
            con.execute("UPDATE crib_meta SET value=$1 WHERE key='schema'", (version,))
    schema.check_version(where, version)
    return con


def _version(con):
    return con.execute("SELECT value FROM crib_meta WHERE key='schema'").fetchone()[0]


def trouble(e, where, url):
    """A one-line message for the server's failure `e` on the history at `where`, or None if it is not one."""
    psycopg = sys.modules.get("psycopg")
    if psycopg is None or not isinstance(e, psycopg.Error):
        return None
    # The server's first line says it; the rest quotes the statement ("LINE 2: CREATE ...").
    return "%s: %s" % (where, (address.scrub(e, url).splitlines() or [""])[0])
