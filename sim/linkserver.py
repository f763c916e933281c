# A board without keys or LEDs: a journal replayed into the core and served on the link's TCP socket.
#   MICROPYPATH=.frozen:FIRMWARE micropython -m sim.linkserver JOURNAL PORT [SECONDS]
# run in the checkout; prints "ready PORT NEXT_SEQ" once listening. FIRMWARE: firmware/, or another
# tree's (a bench's before). The sync bench and the CLI tests use it (tests/support/boards.py) to measure
# and exercise the link on the real interpreter when the whole simulator is not needed.
import select
import socket
import sys
import time

from board.link import Link
from board.store.journal import Journal
from cribbage.events import from_line
from cribbage.game import Match
from hal.lines import LineBuffer


class Board:
    def __init__(self):
        self.match = None

    def apply(self, line):
        ev = from_line(line)
        if ev["t"] == "setup":
            self.match = Match(ev)
        elif self.match is not None:
            self.match.apply(ev, True)


def serve(path, port, seconds):
    board = Board()
    j = Journal(path, max_bytes=1 << 30)
    report = j.open(board.apply)
    link = Link(j, board.match, board_id="5ee0000000000001", firmware="bench", form="six")
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(socket.getaddrinfo("127.0.0.1", port)[0][-1])
    srv.listen(1)
    print("ready %d %d" % (port, report.next_seq))
    try:
        sys.stdout.flush()
    except AttributeError:
        pass
    end = time.time() + seconds
    while time.time() < end:
        client, _ = srv.accept()
        poll = select.poll()
        poll.register(client, select.POLLIN)
        lines = LineBuffer()
        link.disconnect()
        gone = []

        def readinto(buf, client=client, poll=poll, gone=gone):
            if not poll.poll(0):
                return 0
            data = client.recv(len(buf))
            if not data:
                gone.append(True)
                return 0
            buf[: len(data)] = data
            return len(data)

        try:
            while not gone:
                if not poll.poll(200):
                    if time.time() >= end:
                        break
                    continue
                while True:
                    line = lines.read_line(readinto)  # as the HALs do: one line read at a time
                    if line is None:
                        break
                    for out in link.handle(line):
                        client.write(out)
                for out in link.pushes():
                    client.write(out)
                while True:  # a records stream, chunk by chunk (the socket blocks: each is sent whole)
                    out = link.more()
                    if out is None:
                        break
                    client.write(out)
        except OSError:
            pass  # the host went mid-write (a cable pulled): wait for the next one
        client.close()
    srv.close()
    j.close()


if __name__ == "__main__":
    serve(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]) if len(sys.argv) > 3 else 600.0)
