"""A finished table's game in a laptop's history: re-dealt and checked, stored as a board's events, its
proof kept beside it so it can be checked again later."""

import json
import time
import unicodedata

from crib.history import replay
from crib.store import db
from crib.tables import fairdeal
from crib.tables.game import Refused, Table
from cribbage import events
from cribbage.errors import CribError
from cribbage.forms import MAX_NAME
from cribbage.game import Match

BOARD = "table-%s"  # the history's board for a table's game: no board's hex id looks like it

REMOTE = """CREATE TABLE IF NOT EXISTS remote_games (
    board   TEXT PRIMARY KEY,            -- the history's board of the game: 'table-' + the table's code
    code    TEXT NOT NULL,
    server  TEXT NOT NULL,               -- where the table was played
    names   TEXT NOT NULL,               -- JSON: the seats' names as the table had them
    seat    INTEGER,                     -- this laptop's seat, or NULL: a record kept by a bystander
    share   TEXT,                        -- that seat's share as it sent it
    record  TEXT NOT NULL,               -- JSON: the table's moves in order and its proof
    seen    TEXT NOT NULL DEFAULT '{}',  -- JSON: the commitments and cards this laptop's seat was shown
    checked INTEGER NOT NULL,            -- the cards checked against the seed when it was stored
    stored  DOUBLE PRECISION NOT NULL
)"""


class RecordError(ValueError):
    """A table's record that does not hold: it says where."""


def refold(record):
    """The table played again from its record's moves with the revealed secret: the game it makes must
    be the one the server said (the commitments, every move taken, the scores, the winner)."""
    proof = record.get("proof") or {}
    secret = proof.get("secret")
    if not isinstance(secret, str):
        raise RecordError("the record reveals no secret: the game is not over")
    if fairdeal.secret_commit(secret) != proof.get("secret_commit"):
        raise RecordError("the revealed secret does not match the record's secret_commit")
    form = record.get("form") or proof.get("form") or "six"
    try:
        table = Table(secret, record.get("names"), form=form)
    except Refused as e:
        raise RecordError(str(e)) from None
    for k, (seat, move) in enumerate(record.get("moves") or []):
        try:
            table.apply(seat, move)
        except Refused as e:
            raise RecordError("move %d of the record is not one the game takes: %s" % (k + 1, e)) from None
    if table.phase != "over":
        raise RecordError("the record's moves do not end the game")
    mine = table.proof()
    for key in ("secret_commit", "seed_commit", "seed", "shares", "form"):
        if mine.get(key) != proof.get(key):
            raise RecordError("the record's %s is not the one its moves make" % key)
    if table.scores != list(record.get("scores") or []) or table.winner != record.get("winner"):
        raise RecordError(
            "the record's moves make %s, not the %s it says" % (table.scores, record.get("scores"))
        )
    return table


def seen_of(views):
    """What a seat's views showed it, as check reads it: the commitments the table published first
    (before any card) and every card (fairdeal.collect)."""
    first = {}
    for v in views:
        for key, value in (v.get("proof") or {}).items():
            if key.endswith("_commit") and value is not None:
                first.setdefault(key, value)
    return {"commits": first, "deals": fairdeal.collect(views)}


def check(record, seat=None, share=None, seen=None):
    """Check a finished table's record: re-dealt from the secret and the shares (refold), and from the
    side of `seat` (which sent `share` and was shown `seen`, seen_of its views): the commitments it was
    shown first are the record's, and every card it was shown the seed's (fairdeal.verify). Returns
    (the table, the cards checked against the seed)."""
    table = refold(record)
    checked = 0
    if seat is not None:
        seen = seen or {}
        for key, value in (seen.get("commits") or {}).items():
            if record["proof"].get(key) != value:
                raise RecordError("the record's %s is not the one the table showed before the game" % key)
        try:
            checked = fairdeal.verify(record["proof"], seat, share, seen.get("deals") or [])
        except fairdeal.DealError as e:
            raise RecordError(str(e)) from None
    for s in range(table.seats):
        checked += fairdeal.verify(record["proof"], s, table.shares[s], _shown(table, s), table.form)
    return table, checked


def _shown(table, seat):
    """The cards the fold dealt `seat` and showed it, as fairdeal.verify reads them."""
    out = []
    for s in table.shows:
        hands, _starter = fairdeal.deal(table.seed, s["deal"], s["dealer"], table.form)
        out.append(
            {
                "deal": s["deal"],
                "dealer": s["dealer"],
                "hand": hands[seat],
                "starter": s["starter"],
                "shown": {"%d" % k: kept for k, kept in enumerate(s["kept"])},
                "crib": s["crib"],
            }
        )
    return out


def board_name(name, seat):
    """A name as the board holds one (1..MAX_NAME printable ASCII): accents dropped, cut to length."""
    plain = unicodedata.normalize("NFKD", name or "").encode("ascii", "ignore").decode()
    plain = " ".join("".join(c for c in plain if c.isprintable()).split())[:MAX_NAME].strip()
    return plain or "Seat %d" % (seat + 1)


def side_names(table):
    """The game's side names as the board holds them: each seat's, or in 2 v 2 each pair's joined by
    "&" (cut to the board's 12 characters; the full names are kept beside the game)."""
    names = [board_name(n, s) for s, n in enumerate(table.names)]
    if table.sides == table.seats:
        return names
    return [
        ("&".join(names[s] for s in range(side, table.seats, table.sides)))[:MAX_NAME].strip("&")
        for side in range(table.sides)
    ]


def board_events(table):
    """The game as a board keys it (a set-up with the sides' names, the first dealer, each deal's
    starter, lays, the goes the table said, the shows in order): the laptop's own fold
    (cribbage.game.Match) scores it as the table did."""
    setup = events.setup(form=table.form, names=side_names(table))
    out = [setup]
    m = Match(setup)
    seats = table.seats

    def key(ev):
        m.apply(ev)
        out.append(ev)

    key(events.dealer(table.shows[0]["dealer"] if table.shows else table.dealer))
    deals = [(s["dealer"], s["starter"], s["laid"], s) for s in table.shows]
    if not table.shows or table.shows[-1]["deal"] != table.deal_no:  # the game ended in this deal
        laid = [[s, c] for s, c in table.play.laid] if table.play else []
        deals.append((table.dealer, table.starter, laid, None))
    for k, (dealer, starter, laid, show) in enumerate(deals):
        if k:
            key(events.next_deal())
        if starter is None:
            break
        key(events.starter(starter))
        for seat, card in laid:
            if m.game_over:
                break
            for _ in range(seats + 1):  # each seat between that could not lay said go
                try:
                    key(events.lay(seat, card))
                    break
                except CribError:  # the seat to lay could not: the table said its go
                    key(events.go(m._seats[m.play.turn]))
            else:
                raise RecordError("the board does not take seat %d's lay of %s" % (seat, card))
        for _ in range(2 * seats):  # a game won on a go: the goes that end it
            if show is not None or m.game_over or m.play is None or m.play.over:
                break
            key(events.go(m._seats[m.play.turn]))
        if show is not None and not m.game_over:
            order = [(dealer + j) % seats for j in range(1, seats + 1)]  # from the dealer's left
            shows = [(p % table.sides, show["kept"][p], events.hand) for p in order]
            for side, cards, kind in shows + [(dealer % table.sides, show["crib"], events.crib)]:
                if not m.game_over:
                    key(kind(side, cards))
    if list(m.front) != table.scores:
        raise RecordError("the board's count %s is not the table's %s" % (list(m.front), table.scores))
    return out


def _prepare(con):
    with con:
        con.execute(REMOTE)


def save(con, record, server, seat=None, share=None, views=None, now=None):
    """Check `record` (a finished table's, as GET /api/tables/CODE/record gives it) and store its game
    in the history `con` under both names, with the record and its proof: (game row, cards checked)."""
    seen = seen_of(views or [])
    table, checked = check(record, seat, share, seen)
    code = record["code"]
    board = BOARD % code
    evs = board_events(table)
    _prepare(con)
    db.note_board(con, {"board": board, "form": table.form}, now)
    db.add_events(con, board, [{"seq": k, "event": ev} for k, ev in enumerate(evs, 1)], now)
    replay.rebuild(con, board)
    with con:
        con.execute("DELETE FROM remote_games WHERE board=$1", (board,))
        con.execute(
            "INSERT INTO remote_games(board, code, server, names, seat, share, record, seen, checked, "
            "stored) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            (
                board,
                code,
                server,
                json.dumps(list(table.names)),
                seat,
                share,
                json.dumps(record, separators=(",", ":")),
                json.dumps(seen, separators=(",", ":")),
                checked,
                time.time() if now is None else now,
            ),
        )
    return db.games(con, board)[-1], checked


def verify(con, code):
    """Check the table game `code` kept in the history again: its record re-dealt from the proof, the
    kept seat's cards against the seed, and the history's events for it the ones the record makes.
    Returns the cards checked; RecordError says what does not hold."""
    board = BOARD % code
    row = con.execute(
        "SELECT record, seat, share, seen FROM remote_games WHERE board=$1", (board,)
    ).fetchone()
    if row is None:
        raise RecordError("no table game %s in this history (crib table save keeps one)" % code)
    record, seat, share, seen = json.loads(row[0]), row[1], row[2], json.loads(row[3])
    table, checked = check(record, seat, share, seen)
    stored = [ev for _seq, ev in db.events(con, board)]
    if stored != board_events(table):
        raise RecordError("the history's events for table %s are not the ones its record makes" % code)
    return checked
