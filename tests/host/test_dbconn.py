# The history's connection API on SQLite and PostgreSQL: parameters, rows by name and position, transactions.
import pytest

from crib import dbconn


def test_rows_parameters_and_transactions_read_the_same_on_both(history_db):
    con = dbconn.connect(history_db)
    con.executescript("CREATE TABLE t (k TEXT PRIMARY KEY, n INTEGER NOT NULL, x DOUBLE PRECISION);")
    with con:
        con.executemany(
            "INSERT INTO t(k, n, x) VALUES (?,?,?)", [("a", 1, 0.5), ("b%", 2, 1754000000.123456)]
        )
    row = con.execute("SELECT k, n, x FROM t WHERE k=?", ("b%",)).fetchone()
    assert (row[0], row["n"], row["x"]) == ("b%", 2, 1754000000.123456)
    assert dict(zip(row.keys(), row, strict=True)) == {"k": "b%", "n": 2, "x": 1754000000.123456}
    with pytest.raises(ZeroDivisionError), con:
        con.execute("INSERT INTO t(k, n) VALUES (?,?)", ("c", 3))
        raise ZeroDivisionError  # the transaction is rolled back: c is not kept
    assert [r[0] for r in con.execute("SELECT k FROM t ORDER BY k")] == ["a", "b%"]
    cur = con.execute("INSERT INTO t(k, n) VALUES (?,?) ON CONFLICT DO NOTHING", ("a", 9))
    assert cur.rowcount == 0
    con.close()


def test_a_url_is_shown_without_its_password():
    assert dbconn.describe("postgresql://club:secret@db.local/crib") == "postgresql://club@db.local/crib"
    assert dbconn.describe("/home/me/crib.sqlite3") == "/home/me/crib.sqlite3"
    assert dbconn.is_url("postgres://x/y") and not dbconn.is_url("x.sqlite3")
