# One connection API for the history over SQLite (a file) and PostgreSQL (a URL): `?` parameters,
# rows readable by name and by position, `with con:` as one transaction.
import os
import re
import sqlite3
from urllib.parse import quote, unquote

PG_SCHEMES = ("postgresql://", "postgres://")


def is_url(target):
    return isinstance(target, str) and target.startswith(PG_SCHEMES)


def _split(target):
    """(scheme, user information, the rest) of a URL; the user information ends at the last '@'
    before the query, so a password holding '/' or '@' is still taken whole."""
    scheme, rest = target.split("://", 1)
    head, mark, query = rest.partition("?")
    who, at, place = head.rpartition("@")
    return scheme, who if at else "", (place if at else head) + mark + query


def secrets(target):
    """The passwords a URL carries (after user: and in password=): as typed, percent-decoded, in pieces."""
    if not is_url(target):
        return []
    _scheme, who, rest = _split(target)
    found = [who.split(":", 1)[1]] if ":" in who else []
    found += re.findall(r"(?:^|[?&])password=([^&]*)", rest.partition("?")[2])
    found += [unquote(s) for s in found]
    # A driver that parses a '/' or '@' in a password as the URL's own quotes the pieces.
    found += [piece for s in found for piece in re.split("[/@]", s) if len(piece) > 1]
    return sorted({s for s in found if s}, key=len, reverse=True)


def describe(target):
    """The database as a user may see it: a path, or a URL without its password."""
    if not is_url(target):
        return target
    scheme, who, rest = _split(target)
    rest = re.sub(r"(^|[?&])password=[^&]*", r"\1password=***", rest)
    return "%s://%s%s" % (scheme, who.split(":", 1)[0] + "@" if who else "", rest)


def scrub(text, target):
    """`text` (a driver's message, a log line) with the URL's passwords taken out, wherever it quotes them."""
    text = str(text).strip()
    if is_url(target):
        text = text.replace(target, describe(target))
        for secret in secrets(target):
            text = text.replace(secret, "***")
    return text


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
    """psycopg 3 behind the calls the history makes of sqlite3, so one module serves both."""

    dialect = "postgresql"

    def __init__(self, url):
        try:
            import psycopg
        except ImportError:
            raise RuntimeError(
                "a PostgreSQL history needs psycopg: pip install 'cribboard[postgres]'"
            ) from None  # noqa: E501

        self.url = url
        self._con = psycopg.connect(url, autocommit=True, row_factory=_row_factory)
        self._tx = []

    @staticmethod
    def _sql(sql):
        return sql.replace("%", "%%").replace("?", "%s")

    def execute(self, sql, params=()):
        return self._con.execute(self._sql(sql), tuple(params))

    def executemany(self, sql, seq):
        cur = self._con.cursor()
        cur.executemany(self._sql(sql), [tuple(p) for p in seq])
        return cur

    def executescript(self, script):
        for statement in script.split(";"):
            if statement.strip():
                self._con.execute(statement)

    def __enter__(self):
        tx = self._con.transaction()
        tx.__enter__()
        self._tx.append(tx)
        return self

    def __exit__(self, *exc):
        return self._tx.pop().__exit__(*exc)

    def close(self):
        self._con.close()


def connect(target, readonly=False):
    """A SQLite file (a writer's is created with its folder; a reader's is opened read-only, never
    created) or a PostgreSQL URL; the caller checks the schema."""
    if is_url(target):
        return PgConnection(target)
    if readonly and target != ":memory:":
        con = sqlite3.connect("file:%s?mode=ro" % quote(os.path.abspath(target)), uri=True)
    else:
        if target != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
        con = sqlite3.connect(target)
    con.row_factory = sqlite3.Row
    return con


def dialect(con):
    return getattr(con, "dialect", "sqlite")
