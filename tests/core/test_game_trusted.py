# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# The boot replay's shortcut (checks.journaled) takes exactly what checks.validate takes, as validate would.
from match_script import match_events

from cribbage import checks
from cribbage import records as R
from cribbage.checks import journaled, validate
from cribbage.errors import CribError
from cribbage.game import Match

SHORT = ("lay", "go", "show", "starter", "deal")


def test_shortcut_constants_agree_with_records():
    for name in ("STARTER", "SHOW", "LAY", "GO", "DEAL", "NONE"):
        mine = getattr(checks, "_" + name, None)  # MicroPython keeps no const names
        if mine is not None:
            assert mine == getattr(R, name), name


def _variants(ev):
    # The event as journaled, then spoilt one way at a time: values out of range or of the wrong
    # type, a key missing, a claim added, a card of the show changed.
    yield ev
    for k in ev:
        if k == "t":
            continue
        for bad in (-1, 0, 1, 2, 3, 15, 16, 29, 30, 51, 52, True, None, "x", "5H", [1]):
            v = dict(ev)
            v[k] = bad
            yield v
        v = dict(ev)
        del v[k]
        yield v
    for claim in (0, 1, None):
        v = dict(ev)
        v["claim"] = claim
        yield v
    cards = ev.get("cards")
    if cards:
        for bad in (52, -1, True, "5H", cards[0]):
            v = dict(ev)
            v["cards"] = [bad] + cards[1:]
            yield v
        v = dict(ev)
        v["cards"] = cards[:-1]
        yield v
        v = dict(ev)
        v["cards"] = tuple(cards)
        yield v


# What the boot replay takes on the journal's word (its checksum): the play is not run for the
# journal's own lays and goes, nor a show counted again, so the play's rules and the points counted
# are the ones it trusts. Anything else validate refuses, the shortcut must refuse too.
ON_TRUST = ("turn", "scores", "cannot say go", "no cards left", "over 31", "play is over", "counts")


def _points_as_counted(got, want):
    # validate leaves a lay's or go's points for the play to count (NONE); the shortcut writes the
    # journal's: the rest of the record is the same.
    got, want = bytearray(got), bytearray(want)
    for i in (4,) if want[0] == R.LAY else (2, 3) if want[0] == R.GO else ():
        if want[i] == R.NONE:
            want[i] = got[i]
    return bytes(got), bytes(want)


def _compare(m, ev):
    """True when the shortcut took ev; fails if it takes what validate refuses (but for the play's
    rules and the counts, which the boot replay trusts) or records otherwise. What the shortcut
    wrote in the log is taken out again (the real apply follows)."""
    log = m._log
    end, chunks = log.end, len(log.chunks)
    p = journaled(m, ev)
    got = None
    if p >= 0:
        assert log.end > p
        b, i = log.at(p)
        got = bytes(b[i : i + log.end - p])
        del log.chunks[chunks:]
        log.end = end
    else:
        assert p == -1 and log.end == end and len(log.chunks) == chunks, ev
    try:
        want = validate(m, ev, True, False)
    except CribError as e:
        assert got is None or any(w in e.args[0] for w in ON_TRUST), (ev, e.args[0])
        return got is not None
    if got is not None:
        got, want = _points_as_counted(got, want)
        assert got == want, (ev, got, want)
    return got is not None


def _check(form, three="all", muggins=False, games=2):
    taken = {}
    m = None

    def step(ev):
        nonlocal m
        if m is None:
            m = Match(ev)
            return
        t = ev["t"]
        if t in SHORT:
            variants = _variants(ev)
            # The journaled event itself: the shortcut takes it (else the boot replay is slow).
            assert _compare(m, next(variants)) or "claim" in ev, ev
            taken[t] = taken.get(t, 0) + 1
            for v in variants:
                _compare(m, v)
        m.apply(ev, True)

    live = match_events(form=form, three=three, muggins=muggins, games=games, sink=step)
    assert m is not None and m.front == live.front and m.match_points == live.match_points
    for t in SHORT:
        assert taken.get(t), t


def test_shortcut_agrees_six_card():
    _check("six")


def test_shortcut_agrees_five_card_with_muggins():
    _check("five", muggins=True)


def test_shortcut_agrees_three_handed_continued_play():
    _check("three", three="cont", games=1)


def test_shortcut_agrees_partners():
    _check("four", games=1)


def test_shortcut_refuses_after_the_game_and_the_match():
    m = Match({"t": "setup", "form": "six61", "fmt": "games", "games": 1})
    m.apply({"t": "dealer", "p": 0})
    m.apply({"t": "peg", "s": 1, "n": 29, "why": "manual"})
    m.apply({"t": "peg", "s": 1, "n": 29, "why": "manual"})
    m.apply({"t": "peg", "s": 1, "n": 29, "why": "manual"})
    assert m.game_over and m.match_over
    for ev in ({"t": "deal"}, {"t": "starter", "c": 3}, {"t": "lay", "p": 1, "c": 3, "n": 0}):
        assert _compare(m, ev) is False


def _journal_with(spoil):
    """A scripted match's journal, with the first event spoil(evs, i) accepts changed by it."""
    from match_script import match_events

    evs = [dict(e) for e in match_events(games=1)]
    for i in range(len(evs)):
        if spoil(evs, i):
            return evs, i
    raise AssertionError("nothing to spoil")


def _card_laid_twice(evs, i):
    # The second lay of a deal, made to lay the card the first one laid (the same card twice).
    ev = evs[i]
    if ev["t"] != "lay" or evs[i - 1]["t"] != "lay":
        return False
    ev["c"] = evs[i - 1]["c"]
    return True


def _show_with_the_starter(evs, i):
    ev = evs[i]
    if ev["t"] != "show" or "n" not in ev:
        return False
    starter = [e for e in evs[:i] if e["t"] == "starter"][-1]["c"]
    ev["cards"] = [starter] + ev["cards"][1:]
    return True


def _replay_refuses_at(evs, bad):
    m = Match(evs[0])
    for i in range(1, len(evs)):
        try:
            m.apply(evs[i], True)
        except CribError:
            assert i == bad, (i, evs[i])
            return
        assert i != bad, "the trusted replay folded %r" % (evs[i],)
    raise AssertionError("never refused")


def test_a_trusted_lay_of_a_card_laid_already_is_refused():
    """Issue 9 item 4: a journal record with a good checksum laying a card already laid in the deal was
    folded at boot without complaint (the trusted replay runs no play). The shortcut leaves it to
    validate, which runs the play for it, and the play refuses it."""
    evs, bad = _journal_with(_card_laid_twice)
    m = Match(evs[0])
    for ev in evs[1:bad]:
        m.apply(ev, True)
    assert journaled(m, evs[bad]) == -1  # the shortcut leaves it to validate
    try:
        validate(m, evs[bad], True, False)
        raise AssertionError("validate took a card laid twice")
    except CribError as e:
        assert "already played" in e.args[0]
    _replay_refuses_at(evs, bad)


def test_a_trusted_show_holding_the_starter_is_refused():
    evs, bad = _journal_with(_show_with_the_starter)
    _replay_refuses_at(evs, bad)
