# Regression (disconnect): the app never heard that a laptop went or came, so a subscription lived on
# and its backlog was pushed to the next host, which never asked for it. The sim's link now counts
# connections (hal.link.session) and the app ends the old host's subscription before answering the new.
import json
import socket

from boards import Sim
from simmatch import flash_with_match


def _open(url):
    host, port = url[len("socket://") :].split(":")
    sock = socket.create_connection((host, int(port)), timeout=30)
    return sock, sock.makefile("rb")


def _until_reply(f, rid):
    """Every line up to and including the reply to `rid`."""
    got = []
    while True:
        line = f.readline()
        assert line, "the board closed the link"
        got.append(json.loads(line))
        if got[-1].get("id") == rid:
            return got


def test_a_new_laptop_gets_no_pushes_from_the_last_ones_subscription(tmp_path):
    data, m = flash_with_match(tmp_path)
    # In real time (not --fast) the backlog takes 16 passes of 100 ms, so it is still going when
    # the next laptop connects: a subscription that outlived its host would push the rest to it.
    with Sim(data, extra=["--realtime"]) as sim:
        a, fa = _open(sim.url)
        a.sendall(b'\n{"id":"a","op":"subscribe","from":1,"state":true}\n')
        got = _until_reply(fa, "a")
        assert got[-1]["ok"] and got[-1]["next"] == len(m.events) + 1
        # The backlog of 124 events goes 8 a pass; another laptop takes the link at once (the sim
        # serves one host: the newcomer replaces the first, as a replugged cable would).
        b, fb = _open(sim.url)
        b.sendall(b'\n{"id":"b1","op":"hello"}\n')
        first = _until_reply(fb, "b1")
        b.sendall(b'{"id":"b2","op":"state"}\n')
        second = _until_reply(fb, "b2")
        for f in (fa, a, fb, b):
            f.close()
        assert sim.running()
    pushed = [x for x in first + second if "push" in x]
    assert pushed == [], pushed[:3]
    log = "".join(sim.log)
    assert "link: laptop gone" in log and log.count("link: laptop connected") == 2
