# A table for tests: what a bridge feeds a board in a match at a remote table, and its player's keys.
"""The table deals from a seed (cribbage.deal, dealer first as the table says), its other seat keeps its
first four cards and lays the first that fits; the board's player throws places 0 and 1 and lays the
first card that fits. table_moves(t, m) gives the table's next moves for match m (the events a bridge's
`table` op applies), player_move(m) the player's; the board's own moves are solo.next_move's (the
counts)."""

import json

from cribbage import events, solo
from cribbage.cards import pip
from cribbage.deal import deal


def setup(tag=7, names=("Ann", "Bob")):
    return events.setup(fmt="games", games=1, names=list(names), solo=["table", tag, 0])


class Table:
    def __init__(self, seed, first_dealer=0):
        self.seed = seed
        self.first_dealer = first_dealer

    def deal(self, m, deal_no=None, dealer=None):
        """(player's six, other's six, starter) of a deal."""
        n = m.deal_no if deal_no is None else deal_no
        hands, _crib, starter = deal(self.seed * 1000 + n, "six", m.dealer if dealer is None else dealer)
        return list(hands[0]), list(hands[1]), starter

    def other_six(self, m):
        """The other seat's six as told at the show: its four kept (in the order laid), then its throw."""
        six = self.deal(m)[1]
        return six[:4] + six[4:]


def table_moves(t, m):
    """The table's next events for match m (what the bridge applies), or [] while the player or the
    board is to move."""
    if m.match_over or m.game_over:
        return []
    if m.dealer is None:
        return [events.dealer(t.first_dealer)]
    phase = m.phase()
    h = solo.dealt(m)
    if phase == "deal":
        return [events.next_deal()]
    if phase == "starter":
        if h is None:
            return [{"t": "hand", "p": 0, "cards": t.deal(m)[0]}]
        if solo.thrown(m)[0]:
            return [events.starter(t.deal(m)[2])]
        return []
    if phase == "play":
        play = m.play
        p = m.play_seats[play.turn]
        if p == 0:
            for c in solo.held(m, 0):
                if play.count + pip(c) <= 31:
                    return []
            return [events.go(0)]
        laid = [c for s, c in play.laid if s == play.turn]
        for c in t.deal(m)[1][:4]:
            if c not in laid and play.count + pip(c) <= 31:
                laid_all = [c2 for _s, c2 in play.laid]
                if c not in laid_all:
                    return [events.lay(1, c)]
        return [events.go(1)]
    if phase == "show" and solo.next_move(m) is None:
        return [{"t": "hand", "p": 1, "cards": t.other_six(m)}]
    return []


def player_move(m):
    """The board's player's next event (keyed on the board), or None."""
    if m.match_over or m.game_over:
        return None
    phase = m.phase()
    if phase == "starter" and solo.dealt(m) is not None and not solo.thrown(m)[0]:
        return solo.throw(0, [0, 1])
    if phase == "play" and m.play_seats[m.play.turn] == 0:
        for c in solo.held(m, 0):
            if m.play.count + pip(c) <= 31:
                return events.lay(0, c)
    return None


def play(m, t, apply=None, stop=None):
    """Play table match m to its end (or until stop(m)) by table t, the player and the board's counts;
    -> the completed events."""
    apply = apply or m.apply
    done = []
    while not m.match_over:
        if stop is not None and stop(m):
            break
        moves = table_moves(t, m)
        if not moves:
            ev = player_move(m) or solo.next_move(m)
            assert ev is not None, (m.phase(), m.deal_no)
            moves = [ev]
        for ev in moves:
            done.append(apply(ev))
    return done


class BoardLink:
    """A bridge's link on the board app's fake USB port (a Scenario's): request lines in, reply lines out,
    the event pushes heard kept in order."""

    def __init__(self, s):
        self.s = s
        self.rid = 0
        self.at = 0  # lines of hal.link.sent read so far
        self.pushed = []  # the event pushes heard, in order

    def send(self, op, **args):
        """One request line, the board run until it answered; -> its reply."""
        self.rid += 1
        req = {"id": self.rid, "op": op}
        req.update(args)
        self.s.hal.link.inbox.append(json.dumps(req))
        for _ in range(40):
            self.s.wait(5)
            for msg in self.heard():
                if msg.get("id") == self.rid:
                    return msg
        raise AssertionError("no reply to %r" % (req,))

    def heard(self):
        sent = self.s.hal.link.sent
        out = []
        for raw in sent[self.at :]:
            for line in bytes(raw).decode().splitlines():
                if line.strip():
                    msg = json.loads(line)
                    out.append(msg)
                    if msg.get("push") == "event":
                        self.pushed.append((msg["seq"], msg["event"]))
        self.at = len(sent)
        return out

    def table(self, **move):
        return self.send("table", move=move)
