# `crib sync --follow`: after the sync, keep the history current as the board plays (a live scoreboard).
import time

from crib.history.replay import rebuild
from crib.link.client import LinkError, Refused
from crib.store import db

QUIET_S = 0.5  # games are replayed once the board has been quiet this long, not at every event


def follow(client, con, say=print, until=None, clock=time.monotonic, reopen=None, retry_s=1.0):
    """Store each event the board pushes (_follow) until `until`, and follow the board through its
    restarts: when it goes (reset, unplugged, the simulator restarted) and `reopen` is given (a new
    connected client, or an exception), follow says so, replays what it stored, tries `reopen()`
    every `retry_s` seconds and, once the board is back, subscribes again from the history's next
    seq: what the board journalled meanwhile lands as well. Without `reopen` the LinkError goes up."""
    while True:
        try:
            return _follow(client, con, say, until, clock)
        except LinkError as e:
            if reopen is None:
                raise
            _close(client)
            rebuild(con, client.hello["board"])
            say("the board went away (%s): waiting for it to come back" % e)
        client = None
        while client is None:
            if until is not None and clock() >= until:
                return
            try:
                client = reopen()
            except Exception:  # not back yet: the port missing, refused, or the board still booting
                time.sleep(retry_s)
        db.note_board(con, client.hello)
        say("the board is back (%d events on it): following again" % max(0, client.hello["next"] - 1))


def _close(client):
    try:
        client.close()
    except Exception:
        pass


def _follow(client, con, say, until, clock):
    """Store each event the board pushes, replaying the games when it goes quiet; stops at `until` (tests).

    Pushed events carry their seq, so they land exactly as a sync would store them ((board, seq) is
    unique); a gap (a push lost while the link was busy or the board restarting) is read back from
    the board at the next quiet point (_fill), as a sync would read it.

    At each quiet point the board is told (`ack`, as a plain sync does) the seqs stored without a gap
    since the subscription began: it may drop those at its next new match. Never past a gap (a lost
    push, or seqs the board set aside: the next sync sorts them out), and once per quiet point at
    most, only when that run of seqs grew."""
    board = client.hello["board"]
    start = db.next_seq(con, board)
    client.subscribe(start=start)
    acked = client.hello.get("acked")
    can_ack = isinstance(acked, int) and not isinstance(acked, bool)  # a board whose firmware acknowledges
    # Every seq up to held is stored: the sync before (or the board holds none below its first), then
    # pushes without a gap.
    held = max(start, client.hello.get("first") or 0) - 1
    dirty = False
    last = clock()
    while until is None or clock() < until:
        push = client.next_push(timeout=QUIET_S)
        if push is not None and push.get("push") == "event":
            seq, event = push.get("seq"), push.get("event")
            good = isinstance(seq, int) and not isinstance(seq, bool) and seq > 0 and isinstance(event, dict)
            if good and db.add_events(con, board, [{"seq": seq, "event": event}]):
                dirty = True
                last = clock()
            if good and seq == held + 1:
                held = seq
            continue
        if clock() - last >= QUIET_S and held < db.next_seq(con, board) - 1:
            held, got = _fill(client, con, board, held)  # a push lost: its seqs read back
            dirty = dirty or got
        if dirty and clock() - last >= QUIET_S:
            games, _orphans, _m = rebuild(con, board)
            dirty = False
            n = len(games)
            say(
                "%d game%s replayed, %d events held" % (n, "" if n == 1 else "s", db.count_events(con, board))
            )
            if can_ack and held > acked:
                acked = _ack(client, held, acked, say)
    if dirty:
        rebuild(con, board)
    if can_ack and held > acked:
        _ack(client, held, acked, say)


def _fill(client, con, board, held):
    """Read back from the board the seqs after `held` up to the last stored (a push was lost): -> (the
    new held, whether anything was added). held moves only over seqs stored without a gap: one the
    board no longer gives (set aside) stays a gap, for the next sync to sort out."""
    top = db.next_seq(con, board) - 1
    added = False
    while held < top:
        items = client.events(held + 1, 32).get("events") or []
        good = [e for e in items if isinstance(e, dict) and isinstance(e.get("event"), dict)]
        added = bool(db.add_events(con, board, good)) or added
        moved = held
        for e in good:
            if e.get("seq") == held + 1:
                held += 1
        if held == moved:
            break  # the board does not give the next seq: a gap it set aside
    return held, added


def _ack(client, seq, acked, say):
    """Tell the board every event up to seq is stored; -> the seq it acknowledged (acked if it refused)."""
    try:
        got = client.request("ack", seq=seq).get("acked")
    except Refused as e:  # a board that restarted meanwhile may hold fewer seqs: the next sync acks
        say("the board did not take ack %d: %s" % (seq, e))
        return acked
    return got if isinstance(got, int) and not isinstance(got, bool) else acked
