# `crib sync --follow`: after the sync, keep the history current as the board plays (a live scoreboard).
import time

from crib import db
from crib.replay import rebuild

QUIET_S = 0.5  # games are replayed once the board has been quiet this long, not at every event


def follow(client, con, say=print, until=None, clock=time.monotonic):
    """Store each event the board pushes, replaying the games when it goes quiet; stops at `until` (tests).

    Pushed events carry their seq, so they land exactly as a sync would store them ((board, seq) is
    unique); a gap (a push lost while the link was busy) is filled by the sync that starts the next run."""
    board = client.hello["board"]
    client.subscribe(start=db.next_seq(con, board))
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
            continue
        if dirty and clock() - last >= QUIET_S:
            games, _orphans, _m = rebuild(con, board)
            dirty = False
            say("%d games replayed, %d events held" % (len(games), db.count_events(con, board)))
    if dirty:
        rebuild(con, board)
