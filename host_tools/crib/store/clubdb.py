# A club night's register beside the history: its players, boards and tables, and the games scored for it.
import json
import time

from crib import club, untrusted
from crib.store import db, schema


def ensure(con):
    """Add the club tables to a history database (they stand apart from the sync's schema version)."""
    with con:
        for statement in schema.CLUB:
            con.execute(statement)
        if con.dialect == "postgresql" and con.execute(schema.PG_CLUB_OPENED).fetchone()[0] == "real":
            con.execute(schema.PG_CLUB_WIDEN)


def registered(con):
    """Whether the history has the club tables (a reader asks; only `crib club night` makes them)."""
    return "club_nights" in con.tables()


def mark(con):
    """A cheap fingerprint of the club's nights and tables; None while the history has no club tables
    (a reader never makes them)."""
    if not registered(con):
        return None
    return tuple(
        con.execute("SELECT (SELECT max(id) FROM club_nights), (SELECT count(*) FROM club_tables)").fetchone()
    )


def board_ids(con, typed):
    """The boards a director typed, as their hellos say them: hex digits (crib link hello shows them),
    spelt as the history holds a board already (any case), else in lower case as a board sends them."""
    known = {b.lower(): b for b in db.boards(con)}
    out = []
    for text in typed:
        try:
            untrusted.board_id(text)
        except untrusted.BadBoard:
            raise club.ClubError(
                "--board %s is not a board id: the hex digits a board says at hello "
                "(crib link hello shows them, e.g. e6614104032f122b)" % untrusted.plain(text, 24)
            ) from None
        out.append(known.get(text.lower(), text.lower()))
    return out


def unseen(con, boards):
    """The boards of `boards` that have never synced into this history (a mistyped id, or a new board)."""
    known = set(db.boards(con))
    return [b for b in boards if b not in known]


def open_night(con, name, players, boards, games, scoring="acc", seed=None, now=None):
    """Register a night: its rotation (or a seeded seat draw) laid out on `boards`, table 1 on the first."""
    ensure(con)
    boards = board_ids(con, boards)
    for text in [name] + list(players):
        if untrusted.printable(text) != text:
            raise club.ClubError("%s: a name takes no control characters" % untrusted.plain(text, 24))
    rounds = club.seat_draw(players, games, seed) if seed is not None else club.rotation(players, games)
    need = max(len(t) for t in rounds)
    if len(boards) < need:
        raise club.ClubError("%d players need %d boards, %d given" % (len(players), need, len(boards)))
    if len(set(boards)) != len(boards):
        raise club.ClubError("a board is listed twice")
    points = club.rules(scoring)
    now = time.time() if now is None else now
    with con:
        night = 1 + (con.execute("SELECT max(id) FROM club_nights").fetchone()[0] or 0)
        con.execute(
            "INSERT INTO club_nights(id, name, opened, games, scoring) VALUES ($1, $2, $3, $4, $5)",
            (night, name, now, games, json.dumps(points)),
        )
        for k, tables in enumerate(rounds, 1):
            for tab, (board, (a, b)) in enumerate(zip(boards, tables, strict=False), 1):
                con.execute(
                    "INSERT INTO club_tables(night, round, tab, board, a, b) VALUES ($1, $2, $3, $4, $5, $6)",
                    (night, k, tab, board, a, b),
                )
    return night


def night(con, night_id=None):
    """The night's row (the latest when no id is given), scoring decoded; None if there is none."""
    if not registered(con):
        return None
    if night_id is None:
        row = con.execute("SELECT * FROM club_nights ORDER BY id DESC LIMIT 1").fetchone()
    else:
        row = con.execute("SELECT * FROM club_nights WHERE id=$1", (night_id,)).fetchone()
    if row is None:
        return None
    out = dict(row)
    out["scoring"] = json.loads(out["scoring"])
    return out


def schedule(con, night_id):
    """Rounds of [(board, a, b)] in table order."""
    rounds = {}
    for r in con.execute(
        "SELECT round, board, a, b FROM club_tables WHERE night=$1 ORDER BY round, tab", (night_id,)
    ):
        rounds.setdefault(r["round"], []).append((r["board"], r["a"], r["b"]))
    return [rounds[k] for k in sorted(rounds)]


def _games_of(con, n, boards):
    """Finished games on the night's boards that were first stored after it opened, in board order."""
    out = []
    for g in db.games(con):
        if g["board"] not in boards or not g["over"]:
            continue
        row = con.execute(
            "SELECT received FROM events WHERE board=$1 AND seq=$2", (g["board"], g["first_seq"])
        ).fetchone()
        if row is None or row[0] < n["opened"]:
            continue
        out.append(dict(g, scores=g["final"]))
    return out


def results(con, night_id=None):
    """(night, results, problems): the night's games matched to its tables (club.assign), for scoring."""
    n = night(con, night_id)
    if n is None:
        raise club.ClubError("no club night yet: start one with `crib club night`")
    rounds = schedule(con, n["id"])
    boards = {board for tables in rounds for board, _, _ in tables}
    found, problems = club.assign(rounds, _games_of(con, n, boards))
    return n, found, problems


def pot_hands(con, night_id=None):
    """The night's counted hands and cribs, each with the player who held it (for club.side_pots)."""
    n, found, _ = results(con, night_id)
    out = []
    for r in found:
        for s in db.scores(con, r["game"]):
            if s["kind"] in ("hand", "crib"):  # keyed (with cards) or pegged by a tap (points only)
                player = r["players"][s["side"] ^ r["turned"]]
                out.append(
                    {
                        "player": player,
                        "points": _counted(con, r["board"], s),
                        "cards": s["cards"],
                        "round": r["round"],
                        "board": r["board"],
                        "kind": s["kind"],
                    }
                )
    return out


def standings(con, night_id=None):
    """(night, standings rows, problems) of a night, by its own scoring."""
    n, found, problems = results(con, night_id)
    return n, standings_rows(n, schedule(con, n["id"]), found), problems


def standings_rows(n, rounds, found):
    """The night's standings as every view shows them (`crib club standings`, `crib serve`): every player
    the schedule seats, those with no finished game yet listed last with no place."""
    return club.standings(found, n["scoring"], players=club.players_of(rounds))


def season(con, drop_worst=0):
    """The season table over every night in the database."""
    nights = []
    if not registered(con):
        return club.season(nights, drop_worst)
    for (nid,) in con.execute("SELECT id FROM club_nights ORDER BY id").fetchall():
        nights.append(standings(con, nid)[1])
    return club.season(nights, drop_worst)


def _counted(con, board, score):
    """What a hand counted, not what it pegged: a hand that goes out stops at the game hole."""
    row = con.execute("SELECT event FROM events WHERE board=$1 AND seq=$2", (board, score["seq"])).fetchone()
    n = json.loads(row[0]).get("n") if row else None
    return max(score["points"], n) if isinstance(n, int) and not isinstance(n, bool) else score["points"]
