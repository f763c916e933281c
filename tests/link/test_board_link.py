# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# The link as the app wires it: a laptop's proposal waits on the display for OK (or UNDO, or a cancel).
import json

from scenario import Scenario

READ_MS = 1500  # board/controller/ _LINK_READ_MS: no OK or UNDO so soon after a laptop's proposal


def _sent(s):
    out = []
    for raw in s.hal.link.sent:
        for line in bytes(raw).decode().splitlines():
            if line.strip():
                out.append(json.loads(line))
    return out


def _linked():
    s = Scenario()
    s.app.start_link()
    s.keys("A OK")
    return s


def test_laptop_proposal_applied_on_ok():
    s = _linked()
    try:
        ev = {"t": "peg", "s": 1, "n": 5, "why": "manual"}
        s.hal.link.inbox.append(json.dumps({"id": 1, "op": "propose", "event": ev, "note": "P2 forgot 5"}))
        s.wait(READ_MS)
        assert "P2 +5 to 5?" in s.said() and "(P2 forgot 5)" in s.said()
        assert s.app.match.front == [0, 0]
        s.press("OK")
        assert s.app.match.front == [0, 5]
        sent = _sent(s)
        assert {"id": 1, "ok": True, "pending": 1} in sent
        assert any(m.get("push") == "pending" and m.get("status") == "applied" for m in sent)
    finally:
        s.close()


def test_laptop_proposal_refused_with_undo_or_withdrawn_by_cancel():
    s = _linked()
    try:
        ev = {"t": "peg", "s": 0, "n": 3, "why": "manual"}
        s.hal.link.inbox.append(json.dumps({"id": 2, "op": "propose", "event": ev, "note": "take 3"}))
        s.wait(READ_MS)
        s.press("UNDO")
        assert s.app.match.front == [0, 0]
        assert any(m.get("push") == "pending" and m.get("status") == "refused" for m in _sent(s))
        s.hal.link.inbox.append(json.dumps({"id": 3, "op": "propose", "event": ev, "note": "take 3"}))
        s.wait(200)
        assert "take 3" in s.said()
        s.hal.link.inbox.append(json.dumps({"id": 4, "op": "cancel", "pending": 2}))
        s.wait(200)
        assert "take 3" not in s.said() and s.app.controller.pending is None
    finally:
        s.close()


def test_subscriber_hears_each_event_as_it_is_journalled():
    s = _linked()
    try:
        s.hal.link.inbox.append(json.dumps({"id": 5, "op": "subscribe", "since": 1}))
        s.wait(100)
        s.peg(1, 4)
        s.wait(100)
        pushed = [m for m in _sent(s) if m.get("push") == "event"]
        assert pushed and pushed[-1]["event"] == {"t": "peg", "s": 1, "n": 4, "why": "play"}
    finally:
        s.close()


def _replies(s):
    return [m for m in _sent(s) if "id" in m]


def test_app_answers_up_to_8_link_lines_a_pass_not_1():
    """Regression: the app read one link line per pass (10 a second at save_ms), so a paged sync or a
    host's burst crawled; it now answers up to board.link.LINES (8) a pass, and no more."""
    from board.link import LINES

    s = _linked()
    try:
        assert LINES == 8
        start = len(_replies(s))
        s.hal.link.inbox.extend(json.dumps({"id": i, "op": "hello"}) for i in range(20))
        counts = []
        for _ in range(4):
            s.app.save(s.hal.now)  # one pass of the link task
            counts.append(len(_replies(s)) - start)
        assert counts == [8, 16, 20, 20]
        assert [m["id"] for m in _replies(s)[start:]] == list(range(20))
    finally:
        s.close()


def test_hello_names_the_chip_not_the_board_files_id():
    """Regression: hello's "board" was board.json's "id", the same on every board built from it."""
    s = _linked()
    try:
        s.hal.link.inbox.append(json.dumps({"id": "h", "op": "hello"}))
        s.wait(100)
        hello = [m for m in _sent(s) if m.get("id") == "h"][0]
        assert hello["board"] == s.hal.board_uid() == "f00dfeedc0ffee01"
        assert hello["board"] != s.board.id
    finally:
        s.close()


def test_a_laptop_going_ends_its_subscription_and_its_proposal_stays_on_the_display():
    """Regression: the app never called link.disconnect(), so a gone laptop's subscription lived on
    and the next host got its pushes; the HAL's link.session now tells it a host came or went."""
    s = _linked()
    try:
        s.hal.link.session = 0
        s.hal.link.inbox.append(json.dumps({"id": 1, "op": "subscribe"}))
        ev = {"t": "peg", "s": 1, "n": 5, "why": "manual"}
        s.hal.link.inbox.append(json.dumps({"id": 2, "op": "propose", "event": ev, "note": "P2 forgot 5"}))
        s.wait(200)
        assert s.app.link.subscribed and "P2 forgot 5" in s.said()
        s.hal.link.session = 1  # the laptop went (the sim's socket closed)
        s.wait(200)
        assert not s.app.link.subscribed
        assert "P2 forgot 5" in s.said() and s.app.link.pending is not None
        s.wait(READ_MS)
        gone = len(s.hal.link.sent)
        s.press("OK")  # a player still answers it; the verdict goes to whoever is there
        assert s.app.match.front == [0, 5]
        after = [json.loads(x) for x in s.hal.link.sent[gone:]]
        assert [m.get("push") for m in after] == ["pending"] and after[0]["status"] == "applied"
    finally:
        s.close()


def _propose(s, rid, ev, note=None):
    req = {"id": rid, "op": "propose", "event": ev}
    if note is not None:
        req["note"] = note
    s.hal.link.inbox.append(json.dumps(req))


def test_a_laptop_proposal_is_shown_in_the_boards_own_words():
    """Issue 9 item 6: the display showed only the laptop's note ("Synced. Press OK to continue")
    and OK moved P2 from 26 to 55; an undo showed only "Laptop: undo?"."""
    s = _linked()
    try:
        _propose(s, 9, {"t": "peg", "s": 1, "n": 26, "why": "manual"})
        s.wait(READ_MS)
        s.press("OK")
        assert s.app.match.front[1] == 26
        _propose(s, 1, {"t": "fix", "s": 1, "n": 29}, "Synced. Press OK to continue")
        s.wait(READ_MS)
        said = s.said()
        assert "P2 +29 to 55?" in said and said.index("P2 +29 to 55?") < said.index("(Synced.")
        s.press("UNDO")
        assert s.app.match.front[1] == 26
        _propose(s, 2, {"t": "undo"})
        s.wait(READ_MS)
        assert "undo P2 +26?" in s.said() and "Laptop" not in s.said()
        s.press("OK")
        assert s.app.match.front[1] == 0
    finally:
        s.close()


def test_a_press_meant_for_a_replaced_proposal_answers_neither():
    """Issue 9 item 6: the laptop cancelled its proposal and made another while the player read the
    first; the OK meant for the first applied the first's event and told the laptop its second was
    applied. Now the new one shows at once, and OK or UNDO within READ_MS do nothing."""
    s = _linked()
    try:
        _propose(s, 1, {"t": "peg", "s": 0, "n": 2, "why": "manual"}, "first")
        s.wait(READ_MS)
        assert "P1 +2 to 2?" in s.said()
        # cancel and replace in one go, then the player's OK, meant for the first
        s.hal.link.inbox.append(json.dumps({"id": 2, "op": "cancel", "pending": 1}))
        _propose(s, 3, {"t": "peg", "s": 1, "n": 9, "why": "manual"}, "second")
        s.wait(100)
        assert "P2 +9 to 9?" in s.said() and "P1 +2" not in s.said()
        s.press("OK")
        # ignored, and said so: the hint asks the player to read it (it was silent), the log says why
        assert "read it, then OK" in s.screen() and "P2 +9 to 9?" in s.said()
        assert any(line.startswith("OK ignored: the laptop's proposal changed") for line in s.hal.logged)
        s.press("UNDO")
        assert any(line.startswith("UNDO ignored") for line in s.hal.logged)
        assert s.app.match.front == [0, 0]
        assert s.app.link.pending["pid"] == 2 and s.app.controller.pending.pid == 2
        assert not any(m.get("push") == "pending" for m in _sent(s))
        s.wait(READ_MS)
        s.press("OK")  # read: now OK answers the proposal on the display
        assert s.app.match.front == [0, 9]
        verdicts = [m for m in _sent(s) if m.get("push") == "pending"]
        assert verdicts == [{"push": "pending", "pid": 2, "status": "applied"}]
    finally:
        s.close()


def test_a_press_just_after_a_withdrawal_does_nothing():
    """A proposal withdrawn while the player reads it: their OK does not fall through to what OK
    means on the bare board (here "Starter? OK=skip": it went on to the show)."""
    s = _linked()
    try:
        _propose(s, 1, {"t": "peg", "s": 0, "n": 2, "why": "manual"})
        s.wait(READ_MS)
        before = s.app.journal.next_seq
        s.hal.link.inbox.append(json.dumps({"id": 2, "op": "cancel", "pending": 1}))
        s.wait(100)
        shown = s.said()
        assert "Starter?" in shown
        s.press("OK")
        # nothing done, and the display says why the OK did nothing (it was silent)
        assert s.app.journal.next_seq == before and s.app.controller.pending is None
        assert "OK ignored: the laptop's proposal went" in s.said() and "Starter? OK=skip" in s.said()
        assert "On to the show" not in s.said() and "Peg play" not in s.said()
    finally:
        s.close()


def test_a_name_proposed_by_the_laptop_is_shown_and_taken_only_on_ok():
    # Issue 12 (players, not seats): `crib name 2 Bob` proposes {"t":"name",...}; the board asks in
    # its own words, nothing changes until OK, and the new name is on the score rows after it.
    s = _linked()
    try:
        _propose(s, 5, {"t": "name", "s": 1, "name": "Bob"}, "crib name")
        s.wait(READ_MS)
        assert "P2 is Bob?" in s.said() and s.app.match.names == ["P1", "P2"]
        s.press("UNDO")
        assert s.app.match.names == ["P1", "P2"]
        _propose(s, 6, {"t": "name", "s": 1, "name": "Bob"})
        s.wait(READ_MS)
        s.press("OK")
        assert s.app.match.names == ["P1", "Bob"]
        s.wait(200)
        assert "Bob" in s.screen() and "P2" not in s.screen().split("\n")[1]
        statuses = [m.get("status") for m in _sent(s) if m.get("push") == "pending"]
        assert statuses == ["refused", "applied"]
        # A name the display cannot show is refused at the link, before the board sees it.
        # (The line as crib's json writes it, \u escaped; MicroPython's json.dumps would write UTF-8.)
        s.hal.link.inbox.append('{"id":7,"op":"propose","event":{"t":"name","s":0,"name":"Ren\\u00e9e"}}')
        s.wait(200)
        errs = [m for m in _sent(s) if m.get("id") == 7]
        assert errs and errs[0]["ok"] is False and "ASCII" in json.dumps(errs[0])
        assert s.app.match.names == ["P1", "Bob"] and s.app.controller.pending is None
    finally:
        s.close()


def test_the_scan_pass_answers_the_link_and_streams_a_sync():
    """Regression (issue 15): the link was read only in the save pass, every 100 ms, so each round trip
    of a sync waited for it (a page per 100 ms: ~200 events/s on a Pico). The scan pass (every 5 ms)
    now answers requests and hands on a records stream's chunks."""
    s = _linked()
    try:
        start = len(s.hal.link.sent)
        s.hal.link.inbox.append(json.dumps({"id": 41, "op": "hello"}))
        s.hal.link.inbox.append(json.dumps({"id": 42, "op": "records", "from": 1}))
        s.app._scan_apply(s.hal.now)  # one scan pass, no save pass
        raw = b"".join(bytes(x) for x in s.hal.link.sent[start:]).split(b"\n")
        got = [json.loads(x) for x in raw if x.startswith(b"{")]
        assert got[0]["id"] == 41 and got[0]["ok"] is True
        lines = [x for x in raw if x[:1].isdigit()]
        assert [int(x.split(b" ")[0]) for x in lines] == list(range(1, got[0]["next"]))
        assert got[-1]["id"] == 42 and got[-1]["records"] == len(lines) == got[-1]["next"] - 1
    finally:
        s.close()


def test_the_link_is_loaded_when_a_laptop_first_sends_a_line():
    # Its code is heap from then on, not from boot (issue 15: the heap after boot); the laptop's first
    # line (the blank one crib opens the port with, or a request) is answered as before.
    s = Scenario()
    try:
        s.wait(200)
        assert s.app.link is None
        s.hal.link.inbox.append("")
        s.hal.link.inbox.append(json.dumps({"id": 1, "op": "hello"}))
        s.wait(50)
        assert s.app.link is not None
        assert any(m.get("id") == 1 and m.get("ok") for m in _sent(s))
    finally:
        s.close()
    s = Scenario()
    try:
        s.hal.link.inbox.append(json.dumps({"id": 7, "op": "hello"}))  # no blank line first
        s.wait(50)
        assert any(m.get("id") == 7 and m.get("ok") for m in _sent(s))
    finally:
        s.close()


class _NoRoom:
    """Stands for board.link in sys.modules: its import runs out of heap."""

    def __getattr__(self, name):
        raise MemoryError


def test_a_link_with_no_room_to_load_says_so_and_changes_nothing():
    import sys

    s = Scenario()
    was = sys.modules.get("board.link")
    sys.modules["board.link"] = _NoRoom()
    try:
        s.keys("A OK")
        front = list(s.app.match.front)
        s.hal.link.inbox.append(json.dumps({"id": 1, "op": "hello"}))
        s.wait(50)
        assert "Out of memory:" in s.said() and "no USB link" in s.said()
        assert s.app.link is None and s.app.match.front == front and not _sent(s)
    finally:
        if was is None:
            sys.modules.pop("board.link", None)
        else:
            sys.modules["board.link"] = was
    try:
        s.hal.link.inbox.append(json.dumps({"id": 2, "op": "hello"}))  # room again: the next line loads it
        s.wait(50)
        assert s.app.link is not None and any(m.get("id") == 2 and m.get("ok") for m in _sent(s))
    finally:
        s.close()
