# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# The link protocol handler: requests, paging, pushes, pending proposals, bad lines (both interpreters).
import json

from linkfakes import FakeSettings, journal, new_match, pegs, record

from board.link import MAX_LINE, PAGE_MAX, PROTOCOL, Link
from board.link.pages import PAGE_BYTES
from cribbage import events


def make(n_events=2):
    """A board whose journal holds n_events: the set-up, the dealer, then manual pegs."""
    j = journal()
    m = new_match(j)
    pegs(j, m, n_events - 2)
    s = FakeSettings()
    link = Link(j, m, board_id=b"\xe6\x61\x41\x04\x03\x2f\x12\x2b", firmware="0.1.0", form="six", settings=s)
    return link, j, m, s


def ask(link, req):
    line = req if isinstance(req, (str, bytes)) else json.dumps(req)
    out = link.handle(line)
    assert len(out) == 1, out
    assert out[0].endswith(b"\n")
    return json.loads(out[0])


def snapshot(link, j, m, s):
    return (json.dumps(link._op_state({})), j.next_seq, json.dumps(s.values), json.dumps(link.pending))


def test_hello_names_protocol_firmware_board_and_form():
    link, j, m, s = make(3)
    r = ask(link, {"id": 1, "op": "hello"})
    assert r["ok"] is True and r["id"] == 1
    assert r["protocol"] == PROTOCOL
    assert r["firmware"] == "0.1.0"
    assert r["board"] == "e6614104032f122b"
    assert r["form"] == "six"
    assert r["first"] == 1 and r["next"] == 4
    assert r["max_line"] == MAX_LINE


def test_string_ids_are_echoed():
    link = make()[0]
    assert ask(link, {"id": "a-7", "op": "hello"})["id"] == "a-7"


def test_state_is_the_derived_state():
    link, j, m, s = make(4)
    r = ask(link, {"id": 2, "op": "state"})
    st = r["state"]
    assert st["front"] == m.front == [1, 2] and st["back"] == m.back
    assert st["names"] == ["Ann", "Bob"] and st["target"] == 121
    assert st["dealer"] == 0 and st["phase"] == "starter" and st["deal_no"] == 1
    assert r["next"] == 5 and r["pending"] is None


def test_events_are_paged_from_a_sequence_number():
    link, j, m, s = make(70)
    got = []
    start = 0
    pages = 0
    while True:
        r = ask(link, {"id": pages, "op": "events", "from": start, "limit": 25})
        got.extend(r["events"])
        start = r["next"]
        pages += 1
        if not r["more"]:
            break
    assert pages == 3
    assert [e["seq"] for e in got] == list(range(1, 71))
    assert got[0]["event"]["t"] == "setup" and got[0]["event"]["names"] == ["Ann", "Bob"]
    assert got[2]["event"] == {"t": "peg", "s": 0, "n": 1, "why": "manual"}
    r = ask(link, {"id": 9, "op": "events", "from": start})
    assert r["events"] == [] and r["next"] == 71 and r["more"] is False and r["end"] == 71


def test_events_default_page_and_limit_range():
    link = make(20)[0]
    assert len(ask(link, {"id": 1, "op": "events"})["events"]) == 20  # all, under PAGE_DEFAULT (32)
    r = ask(link, {"id": 1, "op": "events", "limit": PAGE_MAX + 1})
    assert r["ok"] is False and r["code"] == "range"
    r = ask(link, {"id": 1, "op": "events", "limit": 0})
    assert r["code"] == "range"
    r = ask(link, {"id": 1, "op": "events", "from": -1})
    assert r["code"] == "range"


def test_a_page_holds_about_a_kilobyte_of_events_whatever_the_limit():
    # A full page of 64 events was one 3.5 KB string on the board's heap; after a long evening a
    # Pico's fragmented heap had no such block and the sync failed with MemoryError. A page now stops
    # once PAGE_BYTES of event lines are in it, says more, and the laptop asks on.
    link = make(120)[0]
    got, start, pages = [], 0, 0
    while True:
        r = ask(link, {"id": pages, "op": "events", "from": start, "limit": PAGE_MAX})
        assert len(r["events"]) < PAGE_MAX  # 64 events of ~38 bytes do not fit
        sizes = [len(json.dumps(e["event"], separators=(",", ":"))) for e in r["events"]]
        assert sum(sizes[:-1]) < PAGE_BYTES and (not r["more"] or sum(sizes) >= PAGE_BYTES)
        got.extend(r["events"])
        start, pages = r["next"], pages + 1
        if not r["more"]:
            break
    assert [e["seq"] for e in got] == list(range(1, 121))
    assert pages >= 120 * 38 // PAGE_BYTES


def test_wrong_types_are_refused():
    link, j, m, s = make(5)
    before = snapshot(link, j, m, s)
    for req in (
        {"id": 1, "op": "events", "from": "3"},
        {"id": 1, "op": "events", "from": True},
        {"id": 1, "op": "events", "from": 1.5},
        {"id": 1, "op": "events", "limit": None},
        {"id": 1, "op": "subscribe", "state": 1},
        {"id": 1, "op": "settings", "set": [1]},
        {"id": 1, "op": "propose", "event": "peg"},
        {"id": 1, "op": "propose", "event": {"side": 0}},
        {"id": 1, "op": "propose", "event": {"t": "peg"}, "note": 5},
        {"id": 1, "op": "cancel"},
        {"id": 1, "op": 3},
    ):
        r = ask(link, req)
        assert r["ok"] is False and r["id"] == 1, req
        assert r["error"]
    assert snapshot(link, j, m, s) == before


def test_bad_ids_unknown_ops_and_non_objects():
    link, j, m, s = make(2)
    before = snapshot(link, j, m, s)
    cases = (
        ({"op": "hello"}, "id"),
        ({"id": None, "op": "hello"}, "id"),
        ({"id": [1], "op": "hello"}, "id"),
        ({"id": "x" * 33, "op": "hello"}, "id"),
        ({"id": 4, "op": "reboot"}, "op"),
        ({"id": 4}, "op"),
        ("[1, 2]", "json"),
        ("42", "json"),
        ('{"id": 1, "op": "hel', "json"),
        ("hello", "json"),
    )
    for req, code in cases:
        r = ask(link, req)
        assert r["ok"] is False and r["code"] == code, (req, r)
    assert snapshot(link, j, m, s) == before


def test_noise_control_characters_and_non_ascii_are_refused():
    link, j, m, s = make(2)
    before = snapshot(link, j, m, s)
    for line in (
        b"\x03\x03",
        b"\x01",
        b'{"id":1,"op":"hello"}\x04',
        b"\xff\xfe\x00",
        b'{"id":1,"op":"h\xc3\xa9llo"}',
        b"\x80abc",
        '{"id":1,"op":"caf\u00e9"}',
    ):
        r = ask(link, line)
        assert r["ok"] is False and r["code"] in ("control", "encoding"), (line, r)
    assert snapshot(link, j, m, s) == before


# Lines MicroPython's json.loads reads but no strict JSON reader does (issue 9, item 7): each one,
# with the strict form beside it, would have changed a setting or made a proposal.
LAX_LINES = (
    b'{"id":1,"op":"settings","set":{"brightness":01}}',
    b'{"id":1,"op":"settings","set":{"brightness":016}}',
    b'{"id":1,"op":"settings","set":{"brightness":16,}}',
    b'{"id":1,"op":"settings","set":{"brightness" 16}}',
    b'{"id":1,"op":"settings","set":{"brightness":16},}',
    b'{"id":1,"op":"settings","set":{"muggins":true,"brightness":16.}}',
    b'{"id":1,"op":"propose","event":{"t":"fix","s":0,"n":01}}',
    b'{"id":1,"op":"propose","event":{"t":"fix","s":0,"n":1,},"note":"x"}',
    b'{"id":1,"op":"propose","event":{"t":"fix" "s":0,"n":1}}',
    b'{"id":1,"op":"propose","event":{"t":"fi\\x","s":0,"n":1}}',
    b'{"id":1,"op":"propose","event":{"t":"fix","s":0,"n":1,"x":}}',
    b'{"id":1,,"op":"hello"}',
    b'{1:1,"id":1,"op":"hello"}',
    b'{"id":1,"op":"hello"} {}',
)


def test_lines_that_are_not_strict_json_get_json_and_change_nothing():
    """Issue 9 item 7: MicroPython's json accepted 01, 016, trailing commas, a missing colon or
    comma, "\\x" for "x"..., so such lines changed settings and made proposals."""
    link, j, m, s = make(4)
    before = snapshot(link, j, m, s)
    for line in LAX_LINES:
        r = ask(link, line)
        assert r["ok"] is False and r["code"] == "json" and r["id"] is None, (line, r)
    assert snapshot(link, j, m, s) == before and link.pending is None
    # the strict forms of the same requests are obeyed
    assert ask(link, b'{"id":1,"op":"settings","set":{"brightness":16}}')["settings"]["brightness"] == 16
    assert ask(link, b'{"id":2,"op":"propose","event":{"t":"fix","s":0,"n":1}}')["ok"] is True


def test_overlong_utf8_is_refused_on_the_bytes():
    """Issue 9 item 8: the ASCII check ran on decoded text, and MicroPython decodes the overlong
    C0 A2 / E0 80 A2 as '"', so a request spelt with them was executed. Read through the HAL's
    LineBuffer as on the board."""
    from hal.lines import LineBuffer

    link, j, m, s = make(2)
    before = snapshot(link, j, m, s)
    lines = (
        b'{"id":1,"op":\xc0\xa2hello\xc0\xa2}',
        b'{"id":1,"op":\xe0\x80\xa2hello"}',
        b'{"id":1,"op":"settings","set":{"brightness":1\xc0\xb6}}',
        b'{"id":1,"op":"settings","set":{\xc0\xa2brightness":16}}',
    )
    data = b"\n".join(lines) + b"\n"
    pos = [0]

    def readinto(buf):
        n = min(len(buf), len(data) - pos[0])
        buf[:n] = data[pos[0] : pos[0] + n]
        pos[0] += n
        return n

    reader = LineBuffer()
    for want in lines:
        line = reader.read_line(readinto)
        assert line == want
        r = ask(link, line)
        assert r["ok"] is False and r["code"] == "encoding", (line, r)
    assert snapshot(link, j, m, s) == before


def test_every_reply_is_strict_utf8_json_even_for_escaped_surrogates():
    """Issue 9 item 8: MicroPython's json turns "\\ud800" into the bytes ED A0 80, which are not
    UTF-8, and echoed them in the reply's id (crib could not read the reply and timed out)."""
    from board import jsonscan

    link, j, m, s = make(2)
    before = snapshot(link, j, m, s)
    for line in (
        b'{"id":"\\ud800","op":"hello"}',
        b'{"id":1,"op":"\\udc80"}',
        b'{"id":"\\ud83c\\udccf","op":"hello"}',
        b'{"id":1,"op":"settings","set":{"\\udfff":1}}',
        b'{"id":1,"op":"propose","event":{"t":"fix","s":0,"n":1},"note":"\\ud800"}',
    ):
        out = link.handle(line)
        assert len(out) == 1 and jsonscan.error(out[0]) is None, (line, out)
        r = json.loads(out[0])
        assert r["ok"] is False and r["code"] == "json", (line, r)
    assert snapshot(link, j, m, s) == before
    # text outside ASCII, escaped as the protocol asks, is fine and comes back as UTF-8
    out = link.handle(b'{"id":"caf\\u00e9","op":"hello"}')[0]
    assert jsonscan.error(out) is None and (b'"caf\xc3\xa9"' in out or b'"caf\\u00e9"' in out), out


def test_over_long_line_is_refused():
    link = make()[0]
    line = '{"id":1,"op":"hello","pad":"%s"}' % ("x" * MAX_LINE)
    r = ask(link, line)
    assert r["code"] == "too-long"


def test_blank_lines_get_no_reply():
    link = make()[0]
    assert link.handle(b"") == []
    assert link.handle(b"  \r") == []


def test_subscribe_pushes_new_events_then_state():
    link, j, m, s = make(3)
    r = ask(link, {"id": 1, "op": "subscribe", "state": True})
    assert r["from"] == 4
    assert link.pushes() == []
    ev = events.peg(1, 2)
    record(j, m, ev)
    out = [json.loads(x) for x in link.pushes()]
    assert out[0] == {"push": "event", "seq": 4, "event": {"t": "peg", "s": 1, "n": 2, "why": "manual"}}
    assert out[1]["push"] == "state" and out[1]["state"]["front"] == m.front
    assert link.pushes() == []
    ask(link, {"id": 2, "op": "unsubscribe"})
    record(j, m, ev)
    assert link.pushes() == []


def test_subscribe_from_an_old_seq_sends_the_backlog_in_batches():
    link, j, m, s = make(20)
    ask(link, {"id": 1, "op": "subscribe", "from": 1})
    seqs = []
    for _ in range(5):
        seqs.extend(json.loads(x)["seq"] for x in link.pushes())
    assert seqs == list(range(1, 21))


def test_settings_get_and_set_validated_whole():
    link, j, m, s = make()
    assert ask(link, {"id": 1, "op": "settings"})["settings"] == {"brightness": 96, "muggins": False}
    r = ask(link, {"id": 2, "op": "settings", "set": {"brightness": 60}})
    assert r["ok"] and r["settings"]["brightness"] == 60
    r = ask(link, {"id": 3, "op": "settings", "set": {"brightness": 10, "volume": 3}})
    assert r["ok"] is False and r["code"] == "refused" and "volume" in r["error"]
    assert s.values["brightness"] == 60
    r = ask(link, {"id": 4, "op": "settings", "set": {"brightness": 1e999}})
    assert r["ok"] is False
    assert s.values["brightness"] == 60


def test_a_proposal_waits_for_the_board_and_changes_nothing_until_then():
    link, j, m, s = make(4)
    before = snapshot(link, j, m, s)
    ev = {"t": "fix", "s": 0, "n": -1}
    r = ask(link, {"id": 1, "op": "propose", "event": ev, "note": "overpegged"})
    pid = r["pending"]
    assert link.pending == {"pid": pid, "event": ev, "note": "overpegged"}
    after = snapshot(link, j, m, s)
    assert json.loads(after[0])["state"] == json.loads(before[0])["state"] and after[1:3] == before[1:3]
    r = ask(link, {"id": 2, "op": "propose", "event": ev})
    assert r["ok"] is False and r["code"] == "busy"
    assert ask(link, {"id": 3, "op": "pending"})["pending"]["pid"] == pid
    # the board app shows it; OK pressed: the app applies and journals it, then tells the link
    record(j, m, link.pending["event"])
    link.resolve(True)
    out = [json.loads(x) for x in link.pushes()]
    assert out == [{"push": "pending", "pid": pid, "status": "applied"}]
    assert link.pending is None


def test_the_core_refuses_an_impossible_proposal_at_once():
    link, j, m, s = make(4)
    before = snapshot(link, j, m, s)
    for ev in (
        {"t": "fix", "s": 0, "n": -9},
        {"t": "correct"},
        {"t": "setup"},
        {"t": "show", "s": 1, "k": "hand", "cards": []},
        {"t": "peg", "s": 0, "n": 30, "why": "hand"},
    ):
        r = ask(link, {"id": 1, "op": "propose", "event": ev})
        assert r["ok"] is False and r["code"] == "refused", (ev, r)
    assert snapshot(link, j, m, s) == before


def test_a_refused_or_cancelled_proposal():
    link = make(3)[0]
    pid = ask(link, {"id": 1, "op": "propose", "event": {"t": "undo"}})["pending"]
    link.resolve(False, "UNDO pressed")
    assert json.loads(link.pushes()[0]) == {
        "push": "pending",
        "pid": pid,
        "status": "refused",
        "error": "UNDO pressed",
    }
    pid = ask(link, {"id": 2, "op": "propose", "event": {"t": "undo"}})["pending"]
    assert ask(link, {"id": 3, "op": "cancel", "pending": pid + 1})["ok"] is False
    assert ask(link, {"id": 4, "op": "cancel", "pending": pid})["cancelled"] == pid
    assert link.pending is None
    link.resolve(True)  # nothing pending: nothing happens
    assert link.pushes() == []


def test_a_verdict_on_a_cancelled_proposal_is_not_given_to_its_replacement():
    """Issue 9 item 6: the laptop cancelled a proposal and made another while the player read the
    first; the OK meant for the first was reported as the second one applied."""
    link = make(3)[0]
    first = ask(link, {"id": 1, "op": "propose", "event": {"t": "fix", "s": 0, "n": 1}})["pending"]
    ask(link, {"id": 2, "op": "cancel", "pending": first})
    second = ask(link, {"id": 3, "op": "propose", "event": {"t": "undo"}})["pending"]
    link.resolve(True, None, first)  # the player's OK, for the proposal they were reading
    assert link.pending["pid"] == second and link.pushes() == []
    link.resolve(False, "UNDO pressed", second)
    assert json.loads(link.pushes()[0])["pid"] == second and link.pending is None


def test_no_match_and_no_settings():
    j = journal()
    link = Link(j, None, board_id="ab", form="five")
    r = ask(link, {"id": 1, "op": "settings", "set": {"x": 2}})
    assert r["code"] == "refused"
    assert ask(link, {"id": 1, "op": "settings"})["settings"] == {}
    assert ask(link, {"id": 1, "op": "state"})["state"] is None
    assert ask(link, {"id": 1, "op": "hello"})["form"] == "five"
    assert ask(link, {"id": 1, "op": "propose", "event": {"t": "undo"}})["code"] == "refused"


def test_an_internal_error_is_an_error_reply_not_a_crash():
    class Broken:
        first_seq = 1
        next_seq = 3

        def records(self, start):
            raise OSError(5)

    link = Link(Broken(), None, board_id="ab")
    r = ask(link, {"id": 1, "op": "events"})
    assert r["ok"] is False and r["code"] == "internal"


def _page(link, start, limit):
    r = ask(link, {"id": 1, "op": "events", "from": start, "limit": limit})
    return [e["seq"] for e in r["events"]], r


def test_pages_stay_right_when_the_journal_grows_or_is_compacted_between_them():
    link, j, m, s = make(30)
    seqs, r = _page(link, 1, 10)
    assert seqs == list(range(1, 11))
    pegs(j, m, 3)  # the board goes on playing between two pages
    seqs, r = _page(link, 11, 10)
    assert seqs == list(range(11, 21))
    # compaction keeps the records from 15 on (their seqs do not change) in a new file
    kept = [line for seq, line in j.records(15)]
    j.compact(kept, 15)
    seqs, r = _page(link, 21, 64)
    assert seqs == list(range(21, 34)) and r["more"] is False
    seqs, r = _page(link, 3, 5)  # below the journal's first seq now
    assert seqs == [15, 16, 17, 18, 19] and r["first"] == 15


def test_appended_pushes_without_reading_the_journal():
    link, j, m, s = make(5)
    ask(link, {"id": 1, "op": "subscribe", "state": True})
    ev = events.peg(0, 2)
    done = m.apply(ev)
    line = events.to_line(done)
    seq = j.append(line)
    link.appended(seq, line)
    out = [json.loads(x) for x in link.pushes()]
    assert out[0] == {"push": "event", "seq": seq, "event": done}
    assert out[1]["push"] == "state" and out[1]["state"]["front"] == m.front
    assert link.pushes() == []
    link.appended(seq, line)  # a repeat is ignored
    assert link.pushes() == []


def test_disconnect_ends_the_subscription_and_its_queued_pushes_but_keeps_the_proposal():
    """Regression: nothing told the app that the laptop went, so its subscription (and the pushes
    queued for it) went on to whichever host came next; now the app calls disconnect() when the
    HAL's link.session changes, and only a pending proposal and its verdict outlive the host."""
    link, j, m, s = make(5)
    ask(link, {"id": 1, "op": "subscribe", "from": 1, "state": True})
    pid = ask(link, {"id": 2, "op": "propose", "event": {"t": "undo"}})["pending"]
    done = m.apply(events.peg(0, 2))
    line = events.to_line(done)
    seq = j.append(line)
    link.appended(seq, line)  # queued for the subscriber, not yet sent
    link.resolve(False, "UNDO pressed")  # a player answered the proposal meanwhile
    link.disconnect()
    assert not link.subscribed
    out = [json.loads(x) for x in link.pushes()]
    assert out == [{"push": "pending", "pid": pid, "status": "refused", "error": "UNDO pressed"}]
    record(j, m, events.peg(1, 3))
    assert link.pushes() == []  # no backlog, no events, no state for a host that never subscribed
    pid = ask(link, {"id": 3, "op": "propose", "event": {"t": "undo"}})["pending"]
    link.disconnect()
    assert link.pending["pid"] == pid  # still on the board's display, waiting for OK or UNDO
