"""crib play's long poll waits past the newest move it has heard itself: the loop takes the poll's views off
a queue a moment later, and a poll that asked past the loop's older view was answered at once, a read spent
twice a move, until the server's read limit (60, then 10 a second) held the poll back a second: a lay from
the other seat then reached the board a second late (bench/bench_play.py measured 1 s worst, now 0.1 s)."""

from crib.tables.bridge import Bridge


class _Http:
    """The server's seat API as the poll uses it: each view one move past what it was asked to wait past."""

    def __init__(self, bridge, polls):
        self.bridge, self.polls, self.afters = bridge, polls, []

    def view(self, after):
        self.afters.append(after)
        if len(self.afters) == self.polls:
            self.bridge._stop.set()
        return {"n": (after or 0) + 1}


def test_the_poll_waits_past_what_it_heard_while_the_loop_has_not_taken_it_yet():
    bridge = Bridge("2222222222", None, None, None, "Ann", print)
    bridge.http = http = _Http(bridge, 4)
    bridge.view = {"n": 5}  # the loop's view, not yet moved on: it is busy with the board
    bridge._poll()
    assert http.afters == [5, 6, 7, 8]
    assert [bridge._queue.get_nowait()[1]["n"] for _ in range(4)] == [6, 7, 8, 9]


def test_the_poll_waits_past_the_loop_s_view_when_a_move_s_answer_moved_it_on():
    bridge = Bridge("2222222222", None, None, None, "Ann", print)
    bridge.http = http = _Http(bridge, 2)
    bridge.view = {"n": 5}

    def view(after):  # the loop's own move answered meanwhile: its view is past what the poll heard
        bridge.view = {"n": 9}
        return _Http.view(http, after)

    http.view = view
    bridge._poll()
    assert http.afters == [5, 9]
