# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# The board's clock (issue 12): the board has none; `crib` tells it the time in its hello, and the board
# stamps each match and game it starts with that time plus its ticks since, so the history dates a game
# by when it was played, not when it was synced. No hello with the time: no stamp (the laptop falls back).
import json

from scenario import Scenario

from cribbage import events as E

NOW = 1764590000  # 2025-12-01 11:53:20 UTC, as crib would send int(time.time())


def _ask(s, req):
    s.hal.link.inbox.append(json.dumps(req))
    s.wait(100)
    out = []
    for raw in s.hal.link.sent:
        for line in bytes(raw).decode().splitlines():
            if line.strip():
                out.append(json.loads(line))
    s.hal.link.sent[:] = []
    return [m for m in out if m.get("id") == req["id"]][0]


def _journal(s):
    got = _ask(s, {"id": 90, "op": "events", "from": 0})
    return [it["event"] for it in got["events"]]


def test_a_board_told_the_time_stamps_the_matches_and_games_it_starts():
    s = Scenario()
    try:
        s.app.start_link()
        assert _ask(s, {"id": 1, "op": "hello", "now": NOW})["ok"]
        s.wait(65000)  # a minute and more later, the players start a new match
        s.hold("MENU", "UNDO")
        s.wait(1000)
        s.release("MENU", "UNDO")
        s.wait(60)
        assert "new match?" in s.screen()
        s.keys("OK")
        setups = [ev for ev in _journal(s) if ev["t"] == "setup"]  # unsynced, the old match stays too
        assert len(setups) == 2 and "at" not in setups[0]  # the boot's match: before the hello
        # (The new-match question's keys took a few hundred ms more: whole seconds after the hello.)
        assert NOW + 66 <= setups[1]["at"] <= NOW + 68, setups[1]
        s.keys("A OK")
        s.app.book.apply(E.fix(0, 121))  # a game won at once (the real commit: the match and the journal)
        s.wait(600000)  # ten minutes on, OK starts the next game
        s.keys("OK")
        game = _journal(s)[-1]
        assert game["t"] == "game" and NOW + 666 <= game["at"] <= NOW + 670, game
        assert s.app.match.game_no == 2
    finally:
        s.close()


def test_no_time_no_stamp_and_a_bad_time_is_ignored():
    s = Scenario()
    try:
        s.app.start_link()
        assert _ask(s, {"id": 1, "op": "hello", "now": "soon"})["ok"]  # old or odd laptops still connect
        s.keys("A OK")
        s.app.book.apply(E.fix(0, 121))
        s.keys("OK")
        evs = _journal(s)
        assert evs[-1]["t"] == "game" and "at" not in evs[-1] and "at" not in evs[0]
        assert s.app.match.game_no == 2
    finally:
        s.close()
