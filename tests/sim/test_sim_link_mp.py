# The sim's link socket (sim/parts.SocketLink) on MicroPython with real sockets: `session` changes
# when a laptop connects or goes, so the app can end the gone host's subscription (regression: it
# never heard of either), and a new host does not inherit the old one's half line.
import os
import socket

from sim import parts as simparts


def _link(logged):
    for _ in range(20):
        port = 20000 + (os.urandom(2)[0] * 256 + os.urandom(1)[0]) % 40000
        try:
            return simparts.SocketLink(port, logged.append)
        except OSError:
            continue  # taken: try another
    raise OSError("no free port")


def _connect(port):
    c = socket.socket()
    c.connect(socket.getaddrinfo("127.0.0.1", port)[0][-1])
    return c


def _read(link, tries=1000):
    # The loopback delivers at once; a few polls cover the kernel's hand-over without a clock.
    for _ in range(tries):
        line = link.read_line()
        if line is not None:
            return line
    return None


def test_session_changes_when_a_laptop_connects_and_when_it_goes():
    logged = []
    link = _link(logged)
    assert link.session == 0 and link.read_line() is None
    a = _connect(link.port)
    assert link.read_line() is None and link.session == 1
    a.write(b'{"id":1,"op":"hello"}\n{"id":2,"op":"st')  # the last line cut short
    assert _read(link) == b'{"id":1,"op":"hello"}'
    assert link.session == 1
    a.close()
    for _ in range(1000):
        if link.read_line() is None and link.session == 2:
            break
    assert link.session == 2 and logged[-1] == "link: laptop gone"
    b = _connect(link.port)
    b.write(b'ate"}\n{"id":3,"op":"state"}\n')
    first = _read(link)
    assert link.session == 3
    assert first == b'ate"}'  # the old host's half line was forgotten, not glued to this one
    assert _read(link) == b'{"id":3,"op":"state"}'
    b.close()
    link._drop()
    link._srv.close()
