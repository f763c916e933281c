# The laptop's game history in SQLite (or a club's PostgreSQL): raw events (the truth, unique per board + seq)
# and what replay derives. Each query is written once, in the $1, $2, ... parameters both drivers take.
import hashlib
import json
import os
import time

import platformdirs

from crib.store import address, postgres, sqlite
from crib.store.schema import DbError

APP = "cribboard"


def default_path():
    """Per-user data file: $CRIB_DB, else crib.sqlite3 in the platform's per-user data folder for crib
    (XDG_DATA_HOME on Linux, Application Support on macOS, LOCALAPPDATA on Windows)."""
    if os.environ.get("CRIB_DB"):
        return os.environ["CRIB_DB"]
    return os.path.join(platformdirs.user_data_dir(APP, appauthor=False), "crib.sqlite3")


def _driver(path):
    return postgres if address.is_url(path) else sqlite


def connect(path=None, readonly=False):
    """Open the history at `path` (a file or a postgresql:// URL) and check its schema.

    A writer (sync, club night) makes the history if there is none yet; a reader (readonly: games,
    stats, export, club standings, serve) writes nothing, and a history that is missing or empty
    is a DbError naming it."""
    path = path or default_path()
    driver = _driver(path)
    if driver is sqlite:
        if os.path.isdir(path):
            raise DbError("%s is a folder: give --db a file name" % path)
        if readonly and path != ":memory:":
            sqlite.readable(path)
    try:
        con = driver.connect(path, readonly)
    except Exception as e:  # the driver's own words: a refused login, an unknown host, no psycopg
        raise DbError("cannot open %s: %s" % (address.describe(path), address.scrub(e, path))) from None
    try:
        return driver.prepare(con, path, readonly)
    except DbError:
        con.close()
        raise
    except Exception as e:  # not SQLite, locked, damaged, a role that may not read: one line, no traceback
        said = trouble(e, path)
        con.close()
        if said is None:
            raise
        raise DbError(said) from None


def trouble(e, path=None):
    """A one-line message for a database failure `e` (sqlite3's or psycopg's), or None if it is none.

    A failed statement changed nothing (its transaction is rolled back); the messages say what to do."""
    path = path or default_path()
    if isinstance(e, DbError):
        return str(e)
    where = address.describe(path)
    return sqlite.trouble(e, where) or postgres.trouble(e, where, path)


def note_board(con, hello, now=None):
    """Record (or refresh) the board that said `hello`."""
    now = time.time() if now is None else now
    with con:
        con.execute(
            "INSERT INTO boards(board, firmware, protocol, form, first_seen) VALUES ($1, $2, $3, $4, $5) "
            "ON CONFLICT(board) DO UPDATE SET firmware=excluded.firmware, protocol=excluded.protocol, "
            "form=excluded.form",
            (hello["board"], hello.get("firmware", ""), hello.get("protocol", 0), hello.get("form", ""), now),
        )


def next_seq(con, board):
    """The first seq this database does not hold for `board` (where a sync resumes)."""
    row = con.execute("SELECT max(seq) FROM events WHERE board=$1", (board,)).fetchone()
    return 0 if row[0] is None else row[0] + 1


def add_events(con, board, items, now=None, again=None, new=None):
    """Store [{"seq", "event"}] for `board` in one transaction; returns how many were new.

    The seqs already stored are read in one query and compared: an event served again with the
    same content adds nothing; with other content it is kept in served_again beside the first one,
    and its seq is appended to `again` (a list) when given. The new ones go in one executemany, and
    their seqs are appended to `new` (a list) when given.
    """
    now = time.time() if now is None else now
    rows = []
    for item in items:
        ev = item["event"]
        text = json.dumps(ev, separators=(",", ":"))
        kind = str(ev.get("t", "")) if isinstance(ev, dict) else ""
        rows.append((board, int(item["seq"]), kind, text, now))
    with con:
        had = _stored(con, board, rows)
        fresh = []
        other = []
        for row in rows:
            text = had.get(row[1])
            if text is None:
                had[row[1]] = row[3]  # a seq twice in one page: the second is compared with the first
                fresh.append(row)
            elif text != row[3]:
                other.append(row)
        added = 0
        if fresh:
            added = con.executemany(
                "INSERT INTO events(board, seq, t, event, received) VALUES ($1, $2, $3, $4, $5) "
                "ON CONFLICT DO NOTHING",
                fresh,
            ).rowcount
            if added != len(fresh):  # another laptop stored some of them meanwhile: compared as above
                had = _stored(con, board, fresh)
                other += [row for row in fresh if had[row[1]] != row[3]]
            if new is not None:
                new.extend(row[1] for row in fresh)
        for row in other:
            kept = con.execute(
                "INSERT INTO served_again(board, seq, event, received) VALUES ($1, $2, $3, $4) "
                "ON CONFLICT DO NOTHING",
                (board, row[1], row[3], now),
            ).rowcount
            if kept and again is not None:
                again.append(row[1])
        con.execute("UPDATE boards SET last_sync=$1 WHERE board=$2", (now, board))
    return added


def _stored(con, board, rows):
    """{seq: event text} of what the database holds for `board` over the seqs of `rows`: one query."""
    if not rows:
        return {}
    seqs = [r[1] for r in rows]
    cur = con.execute(
        "SELECT seq, event FROM events WHERE board=$1 AND seq BETWEEN $2 AND $3",
        (board, min(seqs), max(seqs)),
    )
    return {r[0]: r[1] for r in cur}


def served_again(con, board):
    """(seq, event text) of the events `board` served again with other content, by seq."""
    return [
        (r[0], r[1])
        for r in con.execute(
            "SELECT seq, event FROM served_again WHERE board=$1 ORDER BY seq, received, event", (board,)
        )
    ]


def aside_fetched(con, board, name):
    """Bytes of the board's set-aside file `name` stored so far (up to the end of its last whole line)."""
    row = con.execute(
        "SELECT max(at + size) FROM quarantine WHERE board=$1 AND file=$2", (board, name)
    ).fetchone()
    return row[0] or 0


def add_quarantined(con, board, name, lines, now=None):
    """Store [(at, size, seq or None, valid, line text)] from a set-aside file; returns how many were new."""
    now = time.time() if now is None else now
    added = 0
    with con:
        for at, size, seq, valid, text in lines:
            added += con.execute(
                "INSERT INTO quarantine(board, file, at, size, seq, valid, line, received) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING",
                (board, name, at, size, seq, int(valid), text, now),
            ).rowcount
    return added


def quarantined(con, board):
    """Rows of `board`'s quarantined lines (file, at, size, seq, valid, line), in file order."""
    cur = con.execute(
        "SELECT file, at, size, seq, valid, line FROM quarantine WHERE board=$1 ORDER BY file, at", (board,)
    )
    return [{"file": r[0], "at": r[1], "size": r[2], "seq": r[3], "valid": r[4], "line": r[5]} for r in cur]


def events(con, board, start=0):
    """(seq, event dict) of `board` from `start`, in order."""
    cur = con.execute("SELECT seq, event FROM events WHERE board=$1 AND seq>=$2 ORDER BY seq", (board, start))
    for seq, text in cur:
        yield seq, json.loads(text)


def boards(con):
    return [r["board"] for r in con.execute("SELECT board FROM boards ORDER BY first_seen, board")]


def count_events(con, board=None):
    if board is None:
        return con.execute("SELECT count(*) FROM events").fetchone()[0]
    return con.execute("SELECT count(*) FROM events WHERE board=$1", (board,)).fetchone()[0]


def store_games(con, board, games, since=0):
    """Replace the derived games and scores of `board` from seq `since` on by `games` (replay.Game,
    the replay of the matches from there); ids stay stable, the games before `since` stay."""
    with con:
        keep = []
        for g in games:
            con.execute(
                "INSERT INTO games(board, first_seq, last_seq, match_no, game_no, form, target, names, final,"
                "winner, skunk, over, deals, flagged, flag, solo) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) "
                "ON CONFLICT(board, first_seq) DO UPDATE SET last_seq=excluded.last_seq, "
                "match_no=excluded.match_no, game_no=excluded.game_no, form=excluded.form, "
                "target=excluded.target, names=excluded.names, final=excluded.final, winner=excluded.winner, "
                "skunk=excluded.skunk, over=excluded.over, deals=excluded.deals, flagged=excluded.flagged, "
                "flag=excluded.flag, solo=excluded.solo",
                (
                    board,
                    g.first_seq,
                    g.last_seq,
                    g.match_no,
                    g.game_no,
                    g.form,
                    g.target,
                    json.dumps(g.names),
                    json.dumps(g.final),
                    g.winner,
                    json.dumps(g.skunk),
                    int(g.over),
                    g.deals,
                    int(bool(g.flags)),
                    "\n".join(g.flags),
                    g.solo,
                ),
            )
            key = (board, g.first_seq)
            gid = con.execute("SELECT id FROM games WHERE board=$1 AND first_seq=$2", key).fetchone()[0]
            keep.append(gid)
            con.execute("DELETE FROM scores WHERE game=$1", (gid,))
            con.executemany(
                "INSERT INTO scores(game, seq, deal_no, side, kind, points, front, cards, items) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                [(gid,) + tuple(r) for r in g.scores],
            )
        # Games an undo took back (a 'game' event undone) vanish from the history too.
        held = con.execute("SELECT id FROM games WHERE board=$1 AND first_seq>=$2", (board, since))
        gone = {r[0] for r in held} - set(keep)
        con.executemany("DELETE FROM games WHERE id=$1", [(gid,) for gid in sorted(gone)])


def replay_from(con, board, since):
    """The seq a replay of `board` starts at to take in every change from seq `since` on (None:
    none) and every event no game holds yet: the set-up of the match it falls in (0: from the
    first event); None when nothing is to be replayed."""
    covered = con.execute("SELECT max(last_seq) FROM games WHERE board=$1", (board,)).fetchone()[0]
    newest = con.execute("SELECT max(seq) FROM events WHERE board=$1", (board,)).fetchone()[0]
    if covered is None or newest is None:
        return 0 if newest is not None or since is not None else None
    if newest > covered:  # events stored by a sync whose replay never ran
        since = covered + 1 if since is None else min(since, covered + 1)
    if since is None:
        return None
    row = con.execute(
        "SELECT max(seq) FROM events WHERE board=$1 AND t='setup' AND seq<=$2", (board, since)
    ).fetchone()
    return row[0] or 0


def matches_before(con, board, seq):
    """How many matches (set-up events) `board` has before `seq`."""
    return con.execute(
        "SELECT count(*) FROM events WHERE board=$1 AND t='setup' AND seq<$2", (board, seq)
    ).fetchone()[0]


def orphans(con, board):
    """Seqs of `board`'s events before its first match set-up (no match to replay them in)."""
    first = con.execute("SELECT min(seq) FROM events WHERE board=$1 AND t='setup'", (board,)).fetchone()[0]
    cur = con.execute(
        "SELECT seq FROM events WHERE board=$1 AND seq<$2 ORDER BY seq",
        (board, (1 << 62) if first is None else first),
    )
    return [r[0] for r in cur]


BOARD_SIDE = "the board (%s)"  # the board's side in a game against it, at its level, in every view


def side_names(names, solo):
    """A game's side names as the views show them: in a game against the board (`solo`: its level),
    the board's side (cribbage.solo.BOARD) is the board, whatever its set-up calls it. A game at a remote
    table (`solo` "table TAG") is between its two players, as named."""
    out = list(names)
    if solo and not solo.startswith("table"):
        out[1] = BOARD_SIDE % solo
    return out


def table_tag(code, seat):
    """The tag of a board's seat at a remote table (`crib play`'s table match on the board, its set-up's
    "solo": ["table", TAG, 0]): the same for the same seat, so a restarted bridge finds its match on the
    board, and the history tells the board's own copy of a table's game from the table's record of it."""
    h = hashlib.sha256(("crib-table|%s|%d" % (code, seat)).encode()).digest()
    return int.from_bytes(h[:4], "big") & 0x3FFFFFFF  # 0 .. 2**30 - 1, a small int on the board


def _tables_kept(con):
    """The tags of the board seats whose table games the history keeps from the table's record, with its
    proof (crib play, crib table save: remote_games, made beside the history when one is first kept)."""
    if "remote_games" not in con.tables():
        return set()
    rows = con.execute("SELECT code, seat FROM remote_games WHERE seat IS NOT NULL")
    return {table_tag(r[0], r[1]) for r in rows}


def games(con, board=None):
    """Game rows, oldest first, names/final/skunk decoded; a game against the board names its side
    as the board (side_names)."""
    if board:
        rows = con.execute("SELECT * FROM games WHERE board=$1 ORDER BY board, first_seq", (board,))
    else:
        rows = con.execute("SELECT * FROM games ORDER BY board, first_seq")
    out = []
    kept = None
    for r in rows:
        d = dict(r)
        for k in ("names", "final", "skunk"):
            d[k] = json.loads(d[k])
        d.setdefault("solo", "")  # a history of an older crib, read without migrating it
        if d["solo"].startswith("table "):
            # a board's own copy of a table's game (crib sync) whose record this history keeps too
            # (crib play): one game, counted once, as the record has it with its proof
            kept = _tables_kept(con) if kept is None else kept
            if int(d["solo"][6:]) in kept:
                continue
        d["names"] = side_names(d["names"], d["solo"])
        out.append(d)
    return out


def game(con, gid):
    r = con.execute("SELECT * FROM games WHERE id=$1", (gid,)).fetchone()
    if r is None:
        return None
    d = dict(r)
    for k in ("names", "final", "skunk"):
        d[k] = json.loads(d[k])
    return d


# A game's scores in the order they were stored: SQLite's rowid, PostgreSQL's rid column.
_SCORES_OF = {
    "sqlite": "SELECT * FROM scores WHERE game=$1 ORDER BY seq, rowid",
    "postgresql": "SELECT * FROM scores WHERE game=$1 ORDER BY seq, rid",
}


def scores(con, gid):
    rows = con.execute(_SCORES_OF[con.dialect], (gid,))
    out = []
    for r in rows:
        d = dict(r)
        d["items"] = json.loads(d["items"] or "[]")
        out.append(d)
    return out


def mark(con):
    """A cheap fingerprint of the history: it changes whenever a board, an event or a game does."""
    return tuple(
        con.execute(
            "SELECT (SELECT count(*) FROM boards), (SELECT count(*) FROM events), "
            "(SELECT max(received) FROM events), (SELECT count(*) FROM games), "
            "(SELECT sum(last_seq) FROM games), (SELECT sum(over) FROM games), "
            "(SELECT sum(deals) FROM games)"
        ).fetchone()
    )


def event(con, board, seq):
    """The event `board` stored at `seq` (a dict), or None."""
    r = con.execute("SELECT event FROM events WHERE board=$1 AND seq=$2", (board, seq)).fetchone()
    return None if r is None else json.loads(r[0])


_KEYED_SHOWS = (
    "SELECT g.id AS game, g.names AS names, s.side, s.kind, s.points, s.cards, s.items FROM scores s "
    "JOIN games g ON g.id = s.game WHERE s.kind IN ('hand','crib') AND s.cards != ''"
)


def keyed_shows(con, board=None):
    """Rows of every hand and crib counted with its cards (of `board`, or of every board): game,
    names (JSON), side, kind, points, cards, items (JSON)."""
    if board:
        return con.execute(_KEYED_SHOWS + " AND g.board = $1", (board,))
    return con.execute(_KEYED_SHOWS)


def game_times(con, g):
    """When game row `g` was played: (start, None) from the board's stamp ("at", Unix seconds, on the
    set-up or next-game event that starts it: the board has no clock, crib tells it the time at each
    hello), else (first, last) time the laptop received its events (a board never told the time)."""
    r = con.execute(
        "SELECT event FROM events WHERE board=$1 AND seq=$2", (g["board"], g["first_seq"])
    ).fetchone()
    if r is not None:
        try:
            at = json.loads(r[0]).get("at")
        except (ValueError, AttributeError):
            at = None
        if isinstance(at, int) and not isinstance(at, bool) and at > 0:
            return (at, None)
    r = con.execute(
        "SELECT min(received), max(received) FROM events WHERE board=$1 AND seq BETWEEN $2 AND $3",
        (g["board"], g["first_seq"], g["last_seq"]),
    ).fetchone()
    return (r[0], r[1]) if r is not None else (None, None)
