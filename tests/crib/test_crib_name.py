# `crib name PLAYER NAME` (issue 12, players not seats): the proposal goes over the link to the board app,
# waits on its display in the board's words, and applies only when a player presses OK there; the
# board refuses what its display cannot show. The port is a bridge into the scenario harness's board.
import pytest
from scenario import Scenario
from typer.testing import CliRunner

from crib.cli import app
from crib.link import ports as crib_ports

runner = CliRunner()
READ_MS = 1500  # board/controller/ _LINK_READ_MS: keys are not taken this soon after a proposal


class BoardPort:
    """A pyserial-like port into a Scenario's board app; a player stands at the board and presses
    `answer` once the board shows `words` (and has shown them for READ_MS)."""

    def __init__(self, s, words, answer):
        self.s, self.words, self.answer = s, words, answer
        self.out = bytearray()
        self.timeout = 1.0
        self.is_open = True
        self.shown_for = 0
        self.seen = []

    def write(self, data):
        for line in bytes(data).decode().splitlines():
            if line.strip():
                self.s.hal.link.inbox.append(line)
        self._run(50)
        return len(data)

    def _run(self, ms):
        self.s.wait(ms)
        screen = self.s.said()
        if self.words in screen:
            self.seen.append(screen)
            self.shown_for += ms
            if self.answer and self.shown_for > READ_MS:
                self.s.press(self.answer)
                self.answer = None
        for raw in self.s.hal.link.sent:
            self.out += raw
        del self.s.hal.link.sent[:]

    @property
    def in_waiting(self):
        if not self.out:
            self._run(100)
        return len(self.out)

    def read(self, n=1):
        data = bytes(self.out[:n])
        del self.out[:n]
        return data

    def flush(self):
        pass

    def close(self):
        self.is_open = False


@pytest.fixture
def board(monkeypatch):
    s = Scenario()
    s.app.start_link()
    s.keys("A OK")
    ports = []
    plan = ["P2 is Bob?", "OK"]  # what the player at the board waits to read, and presses then

    def open_port(spec, timeout=2.0):
        ports.append(BoardPort(s, *plan))
        return ports[-1]

    monkeypatch.setattr(crib_ports, "open_port", open_port)
    yield s, ports, plan
    s.close()


def test_crib_name_is_applied_when_ok_is_pressed_on_the_board(board):
    s, ports, _plan = board
    r = runner.invoke(app, ["name", "2", "Bob", "--port", "bridge", "--wait", "30"])
    assert r.exit_code == 0, r.output
    assert "applied" in r.output
    assert ports[0].seen  # the board asked in its own words before anything changed
    assert s.app.match.names == ["P1", "Bob"] and "Bob" in s.screen()


def test_crib_name_refused_on_the_board_changes_nothing(board):
    s, _ports, plan = board
    plan[1] = "UNDO"
    r = runner.invoke(app, ["name", "2", "Bob", "--port", "bridge", "--wait", "30"])
    assert r.exit_code == 1 and "refused" in r.output
    assert s.app.match.names == ["P1", "P2"]


def test_a_name_the_display_cannot_show_is_refused_with_words(board):
    s, ports, _plan = board
    r = runner.invoke(app, ["name", "1", "Zo\u00eb", "--port", "bridge"])
    assert r.exit_code == 3 and "ASCII" in r.output, r.output
    r = runner.invoke(app, ["name", "1", "Bartholomew-Jr", "--port", "bridge"])
    assert r.exit_code == 3 and "1..12 characters" in r.output, r.output
    r = runner.invoke(app, ["name", "0", "Al", "--port", "bridge"])
    assert r.exit_code == 1 and "from 1" in r.output
    assert s.app.match.names == ["P1", "P2"] and not any(p.seen for p in ports)
