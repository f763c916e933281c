# The history's connections on SQLite and PostgreSQL: parameters, rows by name and position, transactions,
# and each statement read by its driver as written.
import pytest

from crib.store import address, postgres, sqlite


def _raw(target):
    """A connection with no schema made or checked."""
    return (postgres if address.is_url(target) else sqlite).connect(target)


def test_rows_parameters_and_transactions_read_the_same_on_both(history_db):
    con = _raw(history_db)
    con.execute("CREATE TABLE t (k TEXT PRIMARY KEY, n INTEGER NOT NULL, x DOUBLE PRECISION)")
    with con:
        con.executemany(
            "INSERT INTO t(k, n, x) VALUES ($1, $2, $3)", [("a", 1, 0.5), ("b%", 2, 1754000000.123456)]
        )
    row = con.execute("SELECT k, n, x FROM t WHERE k=$1", ("b%",)).fetchone()
    assert (row[0], row["n"], row["x"]) == ("b%", 2, 1754000000.123456)
    assert dict(zip(row.keys(), row, strict=True)) == {"k": "b%", "n": 2, "x": 1754000000.123456}
    with pytest.raises(ZeroDivisionError), con:
        con.execute("INSERT INTO t(k, n) VALUES ($1, $2)", ("c", 3))
        raise ZeroDivisionError  # the transaction is rolled back: c is not kept
    assert [r[0] for r in con.execute("SELECT k FROM t ORDER BY k")] == ["a", "b%"]
    cur = con.execute("INSERT INTO t(k, n) VALUES ($1, $2) ON CONFLICT DO NOTHING", ("a", 9))
    assert cur.rowcount == 0
    con.close()


# A literal holding what a text rewrite of the statement would take for its own: a qmark, a statement's
# end, psycopg's %s, a parameter's $1.
LITERAL = "who? me; 100%s of $1 -- or ?"


def test_a_literal_that_looks_like_a_parameter_or_an_end_survives_on_both(history_db):
    con = _raw(history_db)
    con.execute("CREATE TABLE t (k TEXT, n INTEGER, note TEXT DEFAULT 'a; b ? c')")
    with con:
        con.execute("INSERT INTO t(k, n) VALUES ('who? me; 100%s of $1 -- or ?', $1)", (7,))
        con.executemany("INSERT INTO t(k, n) VALUES ($1, $2)", [(LITERAL, 8)])
    rows = con.execute(
        "SELECT k, n, note FROM t WHERE k = 'who? me; 100%s of $1 -- or ?' AND n >= $1 ORDER BY n", (7,)
    ).fetchall()
    assert [tuple(r) for r in rows] == [(LITERAL, 7, "a; b ? c"), (LITERAL, 8, "a; b ? c")]
    con.close()


def test_a_url_is_shown_without_its_password():
    assert address.describe("postgresql://club:secret@db.local/crib") == "postgresql://club@db.local/crib"
    assert address.describe("/home/me/crib.sqlite3") == "/home/me/crib.sqlite3"
    assert address.is_url("postgres://x/y") and not address.is_url("x.sqlite3")


def test_a_password_is_shown_nowhere_however_the_url_is_spelt():
    assert address.describe("postgresql://club:pa/s@s@db/crib") == "postgresql://club@db/crib"
    assert address.describe("postgres://club@db/crib?password=s3cr&sslmode=require") == (
        "postgres://club@db/crib?password=***&sslmode=require"
    )
    said = address.scrub(
        'bad "postgresql://club:s%41cret@db/crib": near "sAcret"', "postgresql://club:s%41cret@db/crib"
    )
    assert said == 'bad "postgresql://club@db/crib": near "***"'


# URLs the driver refuses, quoting them in its message: a bad percent-escape, a malformed or spaced
# host, a password in the query, a password with the URL's own signs in it.
BAD_URLS = (
    "postgresql://club:Hunter%zz42@localhost/crib",
    "postgresql://club:Hunter42@[::1/crib",
    "postgresql://club:Hunter42@local host/crib",
    "postgresql://club@localhost/crib?password=Hunter42&bogus=1",
    "postgresql://club:Hun/ter42@localhost:5/crib",
)


@pytest.mark.parametrize("url", BAD_URLS)
def test_a_refused_url_is_said_without_its_password(url, capsys):
    from typer.testing import CliRunner

    from crib.cli import app
    from crib.store import db

    with pytest.raises(db.DbError) as e:
        db.connect(url)
    for text in (str(e.value), CliRunner().invoke(app, ["games", "--db", url]).output):
        assert "cannot open postgresql://club@" in text.replace("\n", "")
        assert "Hun" not in text and "ter42" not in text, text


def test_a_history_that_opens_is_named_without_its_password(pg_server):
    from typer.testing import CliRunner

    from crib.cli import app
    from crib.store import db

    url = pg_server.database("crib_named").replace("crib@", "crib:Hunter42@")  # trust: the password is unused
    db.connect(url).close()  # a history, empty
    r = CliRunner().invoke(app, ["show", "99", "--db", url])
    assert r.exit_code == 1 and "no game 99 in postgresql://crib@/crib_named" in r.output.replace("\n", "")
    assert "Hunter42" not in r.output
