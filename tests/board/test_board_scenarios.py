# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# Board scenarios: keys and taps in against a fake clock; LED frames, display text and journal out.
from scenario import Scenario


def test_boot_shows_new_match():
    s = Scenario()
    try:
        assert "Cut: a card each" in s.screen()
        assert s.journal()[0]["t"] == "setup"
    finally:
        s.close()


def test_boot_notices_a_journal_record_that_lays_a_card_twice():
    """Issue 9 item 4: a record with a good checksum but impossible content (the same card laid twice in
    a deal) was folded at boot without complaint. The board now refuses it: the boot reports it on the
    console and the display, and the match in force never holds the impossible lay."""
    from fakehal import scratch_dir
    from match_script import match_events

    from board.app import JOURNAL
    from board.store.journal import Journal
    from cribbage import events

    evs = [dict(e) for e in match_events(games=1)]
    bad = [i for i in range(2, len(evs)) if evs[i]["t"] == "lay" and evs[i - 1]["t"] == "lay"][0]
    evs[bad]["c"] = evs[bad - 1]["c"]
    folder = scratch_dir()
    j = Journal(folder + JOURNAL)
    j.open()
    for ev in evs[: bad + 1]:
        j.append(events.to_line(ev))
    j.close()
    s = Scenario(storage_dir=folder)
    try:
        assert "Journal" in s.said(), s.screen()
        assert [x for x in s.hal.logged if "refused" in x or "set aside" in x or "dropped" in x], s.hal.logged
        laid = [c for _seat, c in s.app.match.play.laid]
        assert len(laid) == len(set(laid)) and evs[bad]["c"] in laid  # the first lay stands, alone
    finally:
        s.close()
