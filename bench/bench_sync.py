# Sync bench: a 100-game history pulled through the link on MicroPython, and the estimate over real USB.
"""Measures `crib sync` (host client + SQLite) against the board's link code running on the MicroPython
unix port (sim/linkserver.py: the real board.link.Link over the real board.store.journal, served on a
TCP socket like the simulator's link), with a 100-game history (about 11,000 events, seeded).

Then the same for the whole simulator (sim/launch.py: the board app's passes, LEDs and keys included)
syncing one three-game match, to show what the app's link task adds.

The USB estimate takes the slower of two limits:
- the board's CPU: the link server's CPU time on the unix port x PICO_FACTOR (the team's ratio for
  MicroPython unix on a laptop -> RP2040 at 125 MHz);
- the wire: USB full speed is 12 Mbit/s, but CDC from MicroPython on the RP2040 sustains far less
  (TinyUSB, 64-byte bulk packets, the stdout path): we assume USB_BYTES_S = 500 KB/s, a middle value
  between what is reported for rp2 CDC (a few hundred KB/s to about 1 MB/s); it is an assumption.
"""

import os
import pathlib
import random
import tempfile
import time

from boards import LinkServer, Sim, write_journal
from simmatch import flash_with_match

from crib.history.sync import sync
from crib.link import ports
from crib.link.client import LinkClient
from crib.store import db
from sim.matchgen import history

GAMES = 100
PICO_FACTOR = 150
USB_BYTES_S = 500_000
USB_FS_BITS_S = 12_000_000


def _cpu_s(pid):
    """User + system CPU seconds of a process so far (Linux /proc)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _timed_sync(url, dbpath, pid=None):
    con = db.connect(dbpath)
    client = LinkClient(ports.open_port(url, 5.0), timeout=5.0)
    cpu0 = _cpu_s(pid) if pid else 0.0
    t0 = time.perf_counter()
    rep = sync(client, con)
    wall = time.perf_counter() - t0
    cpu = (_cpu_s(pid) - cpu0) if pid else 0.0
    client.close()
    con.close()
    return rep, wall, cpu, client.received


def measure():
    tmp = tempfile.mkdtemp(prefix="bench-sync-")
    events = history(random.Random(1), GAMES)
    journal = write_journal(os.path.join(tmp, "journal.log"), events)
    with LinkServer(journal) as server:
        rep, wall, cpu, nbytes = _timed_sync(server.url, os.path.join(tmp, "h.sqlite3"), server.proc.pid)
    r = {
        "games": GAMES,
        "events": rep.added,
        "pages": rep.pages,
        "bytes": nbytes,
        "wall_s": wall,
        "board_cpu_s": cpu,
        "journal_bytes": os.path.getsize(journal),
    }
    # the whole simulator: one three-game match played by script, then synced through the app's loop
    data, _match = flash_with_match(pathlib.Path(tmp), seed=7, games=3)
    with Sim(data) as sim:
        srep, swall, _cpu, sbytes = _timed_sync(sim.url, os.path.join(tmp, "s.sqlite3"), sim.proc.pid)
    r.update({"sim_events": srep.added, "sim_wall_s": swall, "sim_bytes": sbytes})
    return r


def report(r):
    ev = r["events"]
    per_event = r["bytes"] / ev
    unix_rate = ev / r["wall_s"]
    pico_cpu_rate = ev / (r["board_cpu_s"] * PICO_FACTOR) if r["board_cpu_s"] else float("inf")
    wire_rate = USB_BYTES_S / per_event
    usb_rate = min(pico_cpu_rate, wire_rate)
    limit = "the Pico's CPU" if pico_cpu_rate < wire_rate else "USB CDC throughput"
    lines = [
        "sync bench: %d games, %d events, %d pages, %.0f KB on the wire (%.1f bytes/event; journal %.0f KB)"
        % (r["games"], ev, r["pages"], r["bytes"] / 1024, per_event, r["journal_bytes"] / 1024),
        "  link on MicroPython unix over a socket: %.2f s, %.0f events/s (board CPU %.2f s = %.0f us/event)"
        % (r["wall_s"], unix_rate, r["board_cpu_s"], 1e6 * r["board_cpu_s"] / ev),
        "  whole simulator (app loop, up to 8 requests a pass): %d events in %.2f s = %.0f events/s"
        % (r["sim_events"], r["sim_wall_s"], r["sim_events"] / r["sim_wall_s"]),
        "  Pico estimate, CPU (x%d): %.0f events/s; wire (assumed %d KB/s CDC of %d Mbit/s FS): %.0f events/s"
        % (PICO_FACTOR, pico_cpu_rate, USB_BYTES_S // 1000, USB_FS_BITS_S // 1_000_000, wire_rate),
        "  => over real USB about %.0f events/s (limited by %s): the 100-game history in %.0f s, "
        "one 150-event game in %.2f s" % (usb_rate, limit, ev / usb_rate, 150 / usb_rate),
    ]
    return "\n".join(lines)


def main():
    print(report(measure()))


if __name__ == "__main__":
    main()
