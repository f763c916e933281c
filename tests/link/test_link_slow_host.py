# Issue 9 item 9: a host that never reads froze the simulated board. Its writes blocked once the
# socket's buffers were full (a 21 s gap in the app loop), and a second host got no answer meanwhile.
# Writes now never wait: the sim drops a host that lets its replies pile up or takes nothing for 2 s.
import json
import socket

from boards import Sim
from simmatch import flash_with_match


def _open(url, timeout=60):
    host, port = url[len("socket://") :].split(":")
    sock = socket.create_connection((host, int(port)), timeout=timeout)  # a guard against a hang only
    return sock, sock.makefile("rb")


def _logged(sim, text, guard_s=90):
    """Wait for the sim to log `text` (polling its output; the guard only ends a hang)."""
    import time

    end = time.monotonic() + guard_s
    while time.monotonic() < end:
        if text in "".join(sim.log):
            return True
        time.sleep(0.2)
    return False


def test_a_host_that_never_reads_is_dropped_and_the_next_one_answered(tmp_path):
    data, m = flash_with_match(tmp_path)
    with Sim(data) as sim:
        a, fa = _open(sim.url)
        # 6,000 pages of events asked for and never read: several MB of replies (a page is ~1 KB,
        # PAGE_BYTES), more than the sockets' buffers hold. The old sim's write blocked once they
        # were full, and the board stood still.
        page = b'{"id":%d,"op":"events","from":1,"limit":64}\n'
        a.sendall(b"\n" + b"".join(page % i for i in range(6000)))
        assert _logged(sim, "link: laptop not reading: dropped"), "".join(sim.log)[-2000:]
        b, fb = _open(sim.url)
        b.sendall(b'\n{"id":"b","op":"state"}\n')
        while True:
            line = fb.readline()
            assert line, "the board closed the link"
            reply = json.loads(line)
            if reply.get("id") == "b":
                break
        assert reply["ok"] and reply["next"] == len(m.events) + 1
        for s in (fb, b, fa, a):
            s.close()
        assert sim.running()


_WRITER = """
import socket
from sim import parts as simparts
log = []
link = simparts.SocketLink(%(port)d, log.append)
c = socket.socket()
c.connect(socket.getaddrinfo("127.0.0.1", %(port)d)[0][-1])
while link.session == 0:
    link.read_line()
line = b"x" * 1023 + b"\\n"
n = 0
while link.session == 1 and n < 20000:  # 20 MB at most, never read by the host
    link.write(line)
    link.read_line()
    n += 1
print("wrote", n, "session", link.session, "|".join(log))
"""


def test_the_sims_socket_link_drops_a_host_that_never_reads():
    """The sim's SocketLink (sim/parts.py) on MicroPython: a host holds the socket open and reads
    nothing while the board writes a reply a pass. The old blocking write never returned once the
    socket's buffers were full (the subprocess hung); now the host is dropped once its replies pile
    up past 8 KB."""
    import subprocess

    from boards import MICROPYTHON, ROOT, free_port

    from tools import unixport

    script = _WRITER % {"port": free_port()}
    env = unixport.env(unixport.FIRMWARE, ROOT)  # ROOT: the sim package
    out = subprocess.run([MICROPYTHON, "-c", script], capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    words = out.stdout.split()
    assert words[:1] == ["wrote"] and words[3] == "2", out.stdout  # dropped: the session moved on
    assert int(words[1]) < 20000 and "not reading" in out.stdout, out.stdout
