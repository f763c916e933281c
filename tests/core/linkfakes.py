# Small stand-ins for the journal, match and settings that the link tests drive (both interpreters).
import json


class FakeJournal:
    """Events by sequence number, the read API the link uses: first_seq, next_seq, read(start, limit)."""

    def __init__(self, first=1):
        self.first_seq = first
        self.next_seq = first
        self.events = {}

    def append(self, event):
        seq = self.next_seq
        self.events[seq] = json.dumps(event)
        self.next_seq += 1
        return seq

    def read(self, start, limit):
        out = []
        seq = max(start, self.first_seq)
        while seq < self.next_seq and len(out) < limit:
            out.append((seq, json.loads(self.events[seq])))
            seq += 1
        return out


class FakeMatch:
    def __init__(self):
        self.sides = 2
        self.names = ["Ann", "Bob"]
        self.front = [0, 0]
        self.back = [0, 0]
        self.target = 121
        self.dealer = 0
        self.deal_no = 1
        self.game_no = 1
        self.game_over = False
        self.winner = None
        self.skunk = ["", ""]
        self.match_points = [0, 0]
        self.match_over = False
        self.match_winner = None
        self.play = None
        self.last_show = None

    def next_show(self):
        return None

    def apply(self, event):
        side = event["side"]
        self.back[side] = self.front[side]
        self.front[side] += event["points"]
        return event


class FakeSettings:
    """Validates every key before changing any, as the board's settings must."""

    def __init__(self):
        self.values = {"brightness": 40, "muggins": False}

    def get(self):
        return dict(self.values)

    def set(self, new):
        for k in new:
            if k not in self.values:
                raise ValueError("unknown setting '%s'" % k)
            if type(new[k]) is not type(self.values[k]):
                raise ValueError("setting '%s' has the wrong type" % k)
        for k in new:
            self.values[k] = new[k]
