# The link as the app wires it: a laptop's proposal waits on the display for OK (or UNDO, or a cancel).
import json

from scenario import Scenario


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
        s.wait(200)
        assert "P2 forgot 5" in s.said()
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
        s.wait(200)
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
        gone = len(s.hal.link.sent)
        s.press("OK")  # a player still answers it; the verdict goes to whoever is there
        assert s.app.match.front == [0, 5]
        after = [json.loads(x) for x in s.hal.link.sent[gone:]]
        assert [m.get("push") for m in after] == ["pending"] and after[0]["status"] == "applied"
    finally:
        s.close()
