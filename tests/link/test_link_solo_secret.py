# Runs on CPython (pytest) and on MicroPython (tests/mp_runner.py).
# Against the board, the link tells no hidden card: every byte the board sends, checked as a laptop reads it.
#
# A solo match is played to its end on the app (its Commit: each event journaled, the subscriber told)
# while a laptop on the fake USB port subscribes with state pushes and, after every event, asks for
# the state, an events page and a records stream. Every line the board writes is parsed (the records'
# lines with cribbage.journal.parse), and each card it names (a lay's or starter's "c", a show's
# "cards", the state's starter, count, last show and its items) must be public by then: laid, turned
# or shown. Neither the match's nor the game's seed appears in the bytes before the game is over, nor
# does the board's key; a proposal never says whether the board holds a card. crib watch and the
# scoreboard page show what these lines say, so they can tell no more.
import json

from scenario import Scenario
from soloplay import KEY, player_move

from cribbage import events, solo
from cribbage.journal import parse

SEED = 918273645


class _Laptop:
    def __init__(self, s):
        self.s = s
        self.at = 0  # lines of hal.link.sent read so far
        self.rid = 0
        self.raw = b""  # the bytes of the last call

    def ask(self, op, **args):
        self.rid += 1
        req = {"id": self.rid, "op": op}
        req.update(args)
        self.s.hal.link.inbox.append(json.dumps(req))

    def heard(self):
        """The lines the board wrote since the last call, each parsed: (kind, object)."""
        self.s.wait(60)
        sent = self.s.hal.link.sent
        data = b"".join(sent[self.at :])
        self.at = len(sent)
        self.raw = data
        out = []
        for line in data.split(b"\n"):
            if not line.strip():
                continue
            if line.startswith(b"{"):
                out.append(("json", json.loads(line)))
            else:
                seq, text, why = parse(line)
                assert not why, (line, why)
                out.append(("record", (seq, json.loads(text))))
        return out


def _cards_of_event(ev):
    if ev.get("t") == "throw":  # places in the dealt hand, nothing else
        assert sorted(ev) == ["i", "p", "t"] and len(ev["i"]) == 2, ev
    if ev.get("t") in ("lay", "starter"):
        return [ev["c"]]
    if ev.get("t") in ("show", "cut", "advice"):
        return list(ev["cards"])
    return []


def _cards_named(kind, obj):
    """(seq, card) for every card a line of the board names: seq None for the state's play and starter
    (the deal in force), "show" for its last show (which may be of the last game)."""
    if kind == "record":
        return [(obj[0], c) for c in _cards_of_event(obj[1])]
    out = []
    if obj.get("push") == "event":
        out += [(obj["seq"], c) for c in _cards_of_event(obj["event"])]
    for item in obj.get("events") or ():
        out += [(item["seq"], c) for c in _cards_of_event(item["event"])]
    state = obj.get("state")
    cards = []
    shows = []
    if state:
        if state["starter"] is not None:
            cards.append(state["starter"])
        if state.get("play"):
            cards += state["play"]["current"]
        last = state["last_show"]
        if last is not None:
            shows += list(last[2]) + ([last[3]] if last[3] is not None else [])
            for _kind, _points, shown in state.get("last_items") or ():
                shows += list(shown)
    if obj.get("pending"):
        cards += _cards_of_event(obj["pending"].get("event") or {})
    return out + [(None, c) for c in cards] + [("show", c) for c in shows]


def test_the_link_tells_no_hidden_card_of_a_match_against_the_board():
    s = Scenario()
    try:
        s.app.start_link()
        laptop = _Laptop(s)
        laptop.ask("hello")
        s.app.book.new_match(events.setup(fmt="acc", games=2, solo=solo.make("top", SEED, KEY, 5)))
        m = s.app.match
        laptop.ask("subscribe", **{"from": 0, "state": True})
        # Each game's seed (told when it is over), and the cards each game made public so far.
        seeds = [solo._seed_of(SEED, g) for g in (1, 2)]
        public = {1: set(), 2: set()}
        game_of = {}  # seq -> the game it was played in
        checked = lines = 0
        told = [False, False]  # each game's seed seen on the link
        show_game = 0  # the game of the last show
        while not (m.match_over and solo.told(m)):
            ev = solo.next_move(m) or player_move(m)
            done = s.app.book.apply(ev)
            game_of[s.app.journal.next_seq - 1] = m.game_no
            public[m.game_no].update(_cards_of_event(done))
            if done["t"] == "show":
                show_game = m.game_no
            if m.game_over:
                public[m.game_no].update(range(52))  # its seed is told: every card of the game
            laptop.ask("state")
            laptop.ask("events", **{"from": max(0, s.app.journal.next_seq - 8), "limit": 8})
            laptop.ask("records", **{"from": max(0, s.app.journal.next_seq - 4)})
            for kind, obj in laptop.heard():
                lines += 1
                for seq, c in _cards_named(kind, obj):
                    game = m.game_no if seq is None else show_game if seq == "show" else game_of.get(seq, 0)
                    assert c in public.get(game, ()), "card %d named before it was played: %r" % (c, obj)
                    checked += 1
            assert str(SEED).encode() not in laptop.raw and KEY not in laptop.raw
            for g in (1, 2):
                if str(seeds[g - 1]).encode() in laptop.raw:
                    assert g <= len(m.results), g  # game g is over
                    told[g - 1] = True
        assert m.match_over and len(m.results) == 2 and lines > 500 and checked > 200
        # The set-up a laptop reads holds the seal, not the seed; each game's seed once it is over.
        laptop.ask("events", **{"from": 0, "limit": 8})
        page = [obj for kind, obj in laptop.heard() if kind == "json" and obj.get("events")][0]
        head = [item["event"] for item in page["events"] if item["event"]["t"] == "setup"][-1]
        assert head["solo"][0] == "top" and head["solo"][1] != SEED
        assert told == [True, True]
    finally:
        s.close()


def test_a_proposal_never_tells_whether_the_board_holds_a_card():
    s = Scenario()
    try:
        s.app.start_link()
        laptop = _Laptop(s)
        s.app.book.new_match(events.setup(solo=solo.make("expected", SEED + 1, KEY, 6)))
        m = s.app.match
        while m.phase() != "play":
            s.app.book.apply(solo.next_move(m) or player_move(m))
        board = solo.held(m, solo.BOARD)
        stranger = [c for c in range(52) if c not in board and c not in solo.held(m, 0) and c != m.starter][0]
        answers = []
        count = m.count
        for c in (board[0], stranger):
            laptop.ask("propose", event={"t": "lay", "p": solo.BOARD, "c": c})
            answers += [obj for kind, obj in laptop.heard() if kind == "json" and "ok" in obj]
        laptop.ask("propose", event={"t": "throw", "p": 1, "i": [0, 1]})
        laptop.ask("propose", event={"t": "go", "p": 0})
        answers += [obj for kind, obj in laptop.heard() if kind == "json" and "ok" in obj]
        assert len(answers) == 4
        for a in answers:
            assert not a["ok"] and a["code"] == "refused"
            assert a["error"] == "against the board: played on the board"
        s.wait(2000)
        assert m.count == count and s.app.controller.pending is None  # nothing waits, nothing applied
    finally:
        s.close()
