# Regression (link flood): a host that sends a burst of ~600 KB (3,000 lines) at once made the sim log
# MemoryError every pass and stop answering: hal/lines.py queued every line that had arrived, because
# the sim's (and rp2's) read_line() drained all input at once. The HAL now reads only until one line
# is ready, so the rest waits in the socket (the host's send blocks) instead of on the board's heap.
import json
import socket
import threading

from boards import Sim

N_LINES = 3000
LINE_BYTES = 200
LONG_EVERY = 500  # every 500th line is 5 KB: over the 1 KB limit, discarded, one error each
LONG_BYTES = 5000


def _flood():
    lines = []
    long_ids = []
    for i in range(1, N_LINES + 1):
        if i % LONG_EVERY == 0:
            size = LONG_BYTES
            long_ids.append(i)
        else:
            size = LINE_BYTES
        head = '{"id":%d,"op":"hello","pad":"' % i
        lines.append((head + "p" * (size - len(head) - 2) + '"}').encode())
    return lines, long_ids


def _tail(sim):
    log = "".join(sim.log)
    return "%d MemoryErrors logged; log ends: %s" % (log.count("MemoryError"), log[-600:])


def _ask(f, sock, req):
    sock.sendall(json.dumps(req).encode() + b"\n")
    while True:
        r = json.loads(f.readline())
        if r.get("id") == req["id"]:
            return r


def test_a_600_kb_burst_is_answered_line_by_line_and_changes_nothing(tmp_path):
    lines, long_ids = _flood()
    blob = b"\n".join(lines) + b"\n"
    assert len(blob) > 600_000
    with Sim(str(tmp_path / "sim-data"), fresh=True, heap="200k") as sim:
        host, port = sim.url[len("socket://") :].split(":")
        sock = socket.create_connection((host, int(port)), timeout=30)
        f = sock.makefile("rb")
        sock.sendall(b"\n")
        before = _ask(f, sock, {"id": "before", "op": "state"})
        # The whole burst in one go from another thread: it blocks while the board's side is full,
        # which is the point; the replies are read here as they come.
        sender = threading.Thread(target=sock.sendall, args=(blob,), daemon=True)
        sender.start()
        replies = []
        for _ in range(N_LINES):
            try:
                line = f.readline()
            except TimeoutError:
                line = b""
            assert line, "the board stopped answering after %d replies: %s" % (len(replies), _tail(sim))
            replies.append(json.loads(line))
        sender.join(120)
        after = _ask(f, sock, {"id": "after", "op": "state"})
        f.close()
        sock.close()
        assert sim.running()
    log = "".join(sim.log)
    assert "MemoryError" not in log and "error in" not in log, log[-3000:]
    ok = [r["id"] for r in replies if r["ok"]]
    refused = [r for r in replies if not r["ok"]]
    assert ok == [i for i in range(1, N_LINES + 1) if i not in long_ids]  # every line, in order
    assert len(refused) == len(long_ids) and all(r["code"] == "too-long" and r["id"] is None for r in refused)
    # the too-long errors come where their lines were in the stream
    assert [i for i, r in enumerate(replies, 1) if not r["ok"]] == long_ids
    before.pop("id")
    after.pop("id")
    assert after == before
