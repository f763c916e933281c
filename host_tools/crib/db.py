# The laptop's game history in SQLite: raw events (the truth, unique per board + seq) and what replay derives.
import json
import os
import sqlite3
import sys
import time

SCHEMA_VERSION = 1
APP = "cribboard"

_SCHEMA = """
CREATE TABLE boards (
    board      TEXT PRIMARY KEY,          -- hex of machine.unique_id()
    firmware   TEXT NOT NULL DEFAULT '',
    protocol   INTEGER NOT NULL DEFAULT 0,
    form       TEXT NOT NULL DEFAULT '',
    first_seen REAL NOT NULL,
    last_sync  REAL
);
CREATE TABLE events (
    board    TEXT NOT NULL REFERENCES boards(board),
    seq      INTEGER NOT NULL,
    t        TEXT NOT NULL,               -- the event's type, for queries
    event    TEXT NOT NULL,               -- the event as the board sent it (compact JSON)
    received REAL NOT NULL,
    PRIMARY KEY (board, seq)              -- sync is idempotent: the same event is never stored twice
) WITHOUT ROWID;
CREATE TABLE games (
    id        INTEGER PRIMARY KEY,
    board     TEXT NOT NULL,
    first_seq INTEGER NOT NULL,           -- the event that started the game: keeps ids stable on re-replay
    last_seq  INTEGER NOT NULL,
    match_no  INTEGER NOT NULL,
    game_no   INTEGER NOT NULL,
    form      TEXT NOT NULL DEFAULT '',
    target    INTEGER NOT NULL,
    names     TEXT NOT NULL,              -- JSON list, one name a side
    final     TEXT NOT NULL,              -- JSON list of front pegs at the end (or now)
    winner    INTEGER,                    -- side, or NULL while the game is open
    skunk     TEXT NOT NULL DEFAULT '[]', -- JSON list, one label a side: '', 'skunk', 'double', 'lurch'
    over      INTEGER NOT NULL DEFAULT 0,
    deals     INTEGER NOT NULL DEFAULT 0,
    flagged   INTEGER NOT NULL DEFAULT 0, -- replay with the core disagreed with the board
    flag      TEXT NOT NULL DEFAULT '',
    UNIQUE (board, first_seq)
);
CREATE TABLE scores (
    game    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    deal_no INTEGER NOT NULL,
    side    INTEGER NOT NULL,
    kind    TEXT NOT NULL,                -- the core's why: hand crib play go heels muggins manual fix ...
    points  INTEGER NOT NULL,
    front   INTEGER NOT NULL,             -- the side's front peg after this score
    cards   TEXT NOT NULL DEFAULT '',     -- e.g. '5H 5S JD 4C | 5D' for a show
    items   TEXT NOT NULL DEFAULT '[]'    -- JSON itemised count [[reason, points], ...]
);
CREATE INDEX scores_game ON scores(game, seq);
"""


class DbError(Exception):
    """The database cannot be used (newer schema, not a crib database)."""


def default_path(env=None, platform=None):
    """Per-user data file: $CRIB_DB, else XDG_DATA_HOME (Linux), Application Support (macOS), LOCALAPPDATA."""
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    if env.get("CRIB_DB"):
        return env["CRIB_DB"]
    home = env.get("HOME") or os.path.expanduser("~")
    if platform == "darwin":
        base = os.path.join(home, "Library", "Application Support")
    elif platform.startswith("win"):
        base = env.get("LOCALAPPDATA") or os.path.join(home, "AppData", "Local")
    else:
        base = env.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share")
    return os.path.join(base, APP, "crib.sqlite3")


def connect(path=None):
    """Open (creating if needed) the history database at `path` and check its schema version."""
    path = path or default_path()
    if path != ":memory:":
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    con = sqlite3.connect(path)
    con.row_factory = sqlite3.Row
    con.execute("PRAGMA foreign_keys = ON")
    if path != ":memory:":
        # WAL + NORMAL: a commit per sync page costs no fsync; a power cut may lose the last pages
        # (never corrupt the file), and the next sync simply fetches them again.
        con.execute("PRAGMA journal_mode = WAL")
        con.execute("PRAGMA synchronous = NORMAL")
    version = con.execute("PRAGMA user_version").fetchone()[0]
    if version == 0:
        tables = con.execute("SELECT count(*) FROM sqlite_master WHERE type='table'").fetchone()[0]
        if tables:
            con.close()
            raise DbError("%s is not a crib database (it has tables but no schema version)" % path)
        with con:
            con.executescript(_SCHEMA)
            con.execute("PRAGMA user_version = %d" % SCHEMA_VERSION)
    elif version > SCHEMA_VERSION:
        con.close()
        raise DbError("%s has schema %d, newer than this crib's %d: update crib"
                      % (path, version, SCHEMA_VERSION))
    return con


def note_board(con, hello, now=None):
    """Record (or refresh) the board that said `hello`."""
    now = time.time() if now is None else now
    with con:
        con.execute(
            "INSERT INTO boards(board, firmware, protocol, form, first_seen) VALUES (?,?,?,?,?) "
            "ON CONFLICT(board) DO UPDATE SET firmware=excluded.firmware, protocol=excluded.protocol, "
            "form=excluded.form",
            (hello["board"], hello.get("firmware", ""), hello.get("protocol", 0), hello.get("form", ""), now))


def next_seq(con, board):
    """The first seq this database does not hold for `board` (where a sync resumes)."""
    row = con.execute("SELECT max(seq) FROM events WHERE board=?", (board,)).fetchone()
    return 0 if row[0] is None else row[0] + 1


def add_events(con, board, items, now=None):
    """Store [{"seq", "event"}] for `board` in one transaction; returns how many were new."""
    now = time.time() if now is None else now
    rows = []
    for item in items:
        ev = item["event"]
        text = json.dumps(ev, separators=(",", ":"))
        kind = str(ev.get("t", "")) if isinstance(ev, dict) else ""
        rows.append((board, int(item["seq"]), kind, text, now))
    with con:
        before = con.total_changes
        con.executemany("INSERT OR IGNORE INTO events(board, seq, t, event, received) VALUES (?,?,?,?,?)",
                        rows)
        added = con.total_changes - before
        con.execute("UPDATE boards SET last_sync=? WHERE board=?", (now, board))
    return added


def events(con, board, start=0):
    """(seq, event dict) of `board` from `start`, in order."""
    cur = con.execute("SELECT seq, event FROM events WHERE board=? AND seq>=? ORDER BY seq", (board, start))
    for seq, text in cur:
        yield seq, json.loads(text)


def boards(con):
    return [r["board"] for r in con.execute("SELECT board FROM boards ORDER BY first_seen, board")]


def count_events(con, board=None):
    if board is None:
        return con.execute("SELECT count(*) FROM events").fetchone()[0]
    return con.execute("SELECT count(*) FROM events WHERE board=?", (board,)).fetchone()[0]


def store_games(con, board, games):
    """Replace the derived games and scores of `board` by `games` (replay.Game); ids stay stable."""
    with con:
        keep = []
        for g in games:
            con.execute(
                "INSERT INTO games(board, first_seq, last_seq, match_no, game_no, form, target, names, final,"
                "winner, skunk, over, deals, flagged, flag) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) "
                "ON CONFLICT(board, first_seq) DO UPDATE SET last_seq=excluded.last_seq, "
                "match_no=excluded.match_no, game_no=excluded.game_no, form=excluded.form, "
                "target=excluded.target, names=excluded.names, final=excluded.final, winner=excluded.winner, "
                "skunk=excluded.skunk, over=excluded.over, deals=excluded.deals, flagged=excluded.flagged, "
                "flag=excluded.flag",
                (board, g.first_seq, g.last_seq, g.match_no, g.game_no, g.form, g.target, json.dumps(g.names),
                 json.dumps(g.final), g.winner, json.dumps(g.skunk), int(g.over), g.deals, int(bool(g.flags)),
                 "\n".join(g.flags)))
            key = (board, g.first_seq)
            gid = con.execute("SELECT id FROM games WHERE board=? AND first_seq=?", key).fetchone()[0]
            keep.append(gid)
            con.execute("DELETE FROM scores WHERE game=?", (gid,))
            con.executemany(
                "INSERT INTO scores(game, seq, deal_no, side, kind, points, front, cards, items) "
                "VALUES (?,?,?,?,?,?,?,?,?)", [(gid,) + tuple(r) for r in g.scores])
        marks = ",".join("?" * len(keep)) or "NULL"
        # Games an undo took back (a 'game' event undone) vanish from the history too.
        con.execute("DELETE FROM games WHERE board=? AND id NOT IN (%s)" % marks, [board] + keep)


def games(con, board=None):
    """Game rows, oldest first, names/final/skunk decoded."""
    sql = "SELECT * FROM games" + (" WHERE board=?" if board else "") + " ORDER BY board, first_seq"
    out = []
    for r in con.execute(sql, (board,) if board else ()):
        d = dict(r)
        for k in ("names", "final", "skunk"):
            d[k] = json.loads(d[k])
        out.append(d)
    return out


def game(con, gid):
    r = con.execute("SELECT * FROM games WHERE id=?", (gid,)).fetchone()
    if r is None:
        return None
    d = dict(r)
    for k in ("names", "final", "skunk"):
        d[k] = json.loads(d[k])
    return d


def scores(con, gid):
    rows = con.execute("SELECT * FROM scores WHERE game=? ORDER BY seq, rowid", (gid,))
    out = []
    for r in rows:
        d = dict(r)
        d["items"] = json.loads(d["items"] or "[]")
        out.append(d)
    return out
