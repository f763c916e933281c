# `--port auto` and `crib ports` find a simulator running on this machine, without connecting to it.
# Pins down: with the README's bare `crib sync`, auto looked only for USB boards and said "no board
# found" while `make sim` was running; `crib ports` did not list the simulator.
import socket

import pytest
import serial.tools.list_ports
from boards import LinkServer, Sim, played, write_journal
from rich.console import Console
from typer.testing import CliRunner

from crib.cli import app, common
from crib.link import ports, share

runner = CliRunner()
common.console = Console(width=200)
common.err = Console(width=200, stderr=True)


@pytest.fixture
def no_usb(monkeypatch):
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: [])


@pytest.fixture(scope="module")
def sim(tmp_path_factory):
    d = tmp_path_factory.mktemp("ports")
    journal = write_journal(str(d / "journal.log"), played(1, seed=5))
    with LinkServer(journal) as server:
        yield server


def test_auto_finds_a_running_simulator_and_sync_uses_it(sim, no_usb, monkeypatch, tmp_path):
    monkeypatch.setattr(ports, "SIM_PORTS", (sim.port,))
    assert ports.resolve("auto") == sim.url
    r = runner.invoke(app, ["sync", "--db", str(tmp_path / "h.sqlite3")])
    assert r.exit_code == 0, r.output
    assert "new events" in r.output
    r = runner.invoke(app, ["ports"])
    assert r.exit_code == 0 and "%s  board 5ee0000000000001  the simulator" % sim.url in r.output


def test_finding_it_does_not_connect(sim, monkeypatch):
    # The simulator drops its laptop when another connects: a probe must not connect.
    with socket.create_connection(("127.0.0.1", sim.port), timeout=5) as held:
        calls = []
        real = socket.socket.connect
        monkeypatch.setattr(socket.socket, "connect", lambda self, *a: calls.append(a) or real(self, *a))
        assert ports.listening(sim.port)
        assert calls == []
        held.sendall(b'{"id": 1, "op": "hello"}\n')
        held.settimeout(10)
        assert b'"ok": true' in held.recv(4096).replace(b'"ok":true', b'"ok": true')


def test_nothing_running_nothing_found(no_usb, monkeypatch):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    free = s.getsockname()[1]
    s.close()  # bound, never listened: nothing there now
    monkeypatch.setattr(ports, "SIM_PORTS", (free,))
    assert not ports.listening(free)
    with pytest.raises(ports.PortError, match="start the simulator"):
        ports.resolve("auto")
    r = runner.invoke(app, ["ports"])
    assert r.exit_code == 1 and "no simulator" in r.output


def test_a_board_and_a_simulator_ask_which(sim, monkeypatch):
    class P:
        device, vid, pid, serial_number, product, description = "/dev/ttyACM0", 0x2E8A, 5, "E66", "Pico", ""

    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: [P()])
    monkeypatch.setattr(ports, "SIM_PORTS", (sim.port,))
    with pytest.raises(ports.PortError, match="2 boards found .*/dev/ttyACM0.*socket://"):
        ports.resolve("auto")


def test_ports_lists_every_simulator_with_its_board_id(tmp_path, no_usb):
    # Two simulators, two boards (each flash its own id), on two link ports: `crib ports` names both, and
    # asks each its id without disturbing a crib that has it open (the hub answers for the board).
    free = [p for p in ports.SIM_PORTS[1:] if not ports.listening(p)][:2]  # 7373 left to a user's make sim
    with (
        Sim(str(tmp_path / "a"), port=free[0], fresh=True) as a,
        Sim(str(tmp_path / "b"), port=free[1], fresh=True) as b,
    ):
        watching = share.connect(a.url, 5.0)
        watching.subscribe(state=True)
        ids = [watching.hello["board"], share.connect(b.url, 5.0).hello["board"]]
        r = runner.invoke(app, ["ports"])
        assert watching.state()["next"] == watching.hello["next"]  # still connected, still answered
        with pytest.raises(ports.PortError, match="boards found .*%s.*%s" % (a.url, b.url)):
            ports.resolve("auto")  # more than one: auto asks which
    assert r.exit_code == 0, r.output
    assert ids[0] != ids[1]
    for sim, board in zip((a, b), ids, strict=True):
        assert "%s  board %s  the simulator" % (sim.url, board) in r.output, r.output
