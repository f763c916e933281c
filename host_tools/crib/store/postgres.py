# The history on a PostgreSQL server (psycopg 3) behind the calls it makes of sqlite3: rows read by
# name and by position, `?` parameters, `with con:` as one transaction.


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


def connect(url, readonly=False):
    """A connection to `url`; a reader's is made read-only as its schema is checked."""
    return PgConnection(url)
