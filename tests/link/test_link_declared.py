# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# The link's declarations (board/link/ _OPS, _STATE) against what they name: Link's methods, the Match.
import json

from linkfakes import journal, new_match
from match_script import match_events

from board import link as L
from board.link import Link, state_of
from cribbage.game import Match


def _link():
    j = journal()
    return Link(j, new_match(j), board_id="ab", firmware="t", form="six")


def _answer(link, req):
    """The reply to req: the one line handle() gives, or a records stream's last line."""
    out = link.handle(json.dumps(req))
    while not out:  # a records stream: chunks of record lines, then the reply
        data = link.more()
        assert data is not None
        if bytes(data).startswith(b"{"):
            out = [bytes(data)]
    assert len(out) == 1, out
    return json.loads(out[0])


def test_each_declared_op_is_a_method_of_link_and_each_op_method_is_declared():
    methods = sorted([name[4:] for name in dir(Link) if name.startswith("_op_")])
    assert methods == sorted(L._OPS), (methods, L._OPS)


def test_each_declared_op_is_answered_by_its_method():
    # A method renamed would answer `internal` (nothing of that name), an op left out of _OPS `op`;
    # without their arguments some ops answer `args`, which is their method's own answer.
    link = _link()
    for op in L._OPS:
        reply = _answer(link, {"id": 7, "op": op})
        assert reply["id"] == 7 and reply.get("code") not in ("op", "internal"), (op, reply)


def test_the_state_sends_each_declared_field_as_the_match_has_it_at_every_event():
    # A three-game match event by event: every phase, the play, shows, game and match ends. A field
    # the Match no longer has fails here (state_of reads it without a default), before any laptop.
    m = None
    phases = set()
    extras = set()
    for ev in match_events(seed=1):
        if m is None:
            m = Match(ev)
        else:
            m.apply(ev)
        st = json.loads(json.dumps(state_of(m)))  # as the laptop reads it
        for name in L._STATE:
            v = getattr(m, name)
            assert st[name] == json.loads(json.dumps(v() if callable(v) else v)), (name, st[name])
        extra = sorted([name for name in st if name not in L._STATE])
        assert extra == sorted(
            ([] if m.play is None else ["play"]) + ([] if m.last_show is None else ["last_items"])
        )
        if m.play is not None:
            play = m.play
            assert st["play"] == {
                "count": play.count,
                "current": list(play.current),
                "turn": play.turn,
                "over": play.over,
            }
        extras.update(extra)
        phases.add(st["phase"])
    assert sorted(phases) == ["cut", "deal", "game over", "match over", "play", "show", "starter"], phases
    assert sorted(extras) == ["last_items", "play"]


def test_a_field_the_match_lacks_is_an_error_reply_never_a_null():
    link = _link()
    saved = L._STATE
    L._STATE = saved + ("dealer_seat",)  # as if Match.dealer_side had been renamed dealer_seat
    try:
        reply = _answer(link, {"id": 3, "op": "state"})
    finally:
        L._STATE = saved
    assert reply["ok"] is False and reply["code"] == "internal" and "dealer_seat" in reply["error"], reply
    assert _answer(link, {"id": 4, "op": "state"})["state"]["dealer_side"] == 0
