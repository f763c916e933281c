# `crib stats`: per player games, wins, skunks, average hand/crib/play points, and the best hands.
from crib import db

PLAY_KINDS = ("play", "go")  # the pegging; "last" (five-card three for last) is not the play


class PlayerStats:
    def __init__(self, name):
        self.name = name
        self.games = 0  # finished games
        self.wins = 0
        self.skunks_given = 0  # won while an opponent was skunked (any label: skunk, double, lurch)
        self.skunked = 0  # lost short of a skunk line
        self.deals = 0  # deals played (the denominator of play points)
        self.hands = 0  # hands counted
        self.hand_points = 0
        self.cribs = 0  # own cribs counted
        self.crib_points = 0
        self.play_points = 0
        self.best = 0  # best hand or crib

    @property
    def hand_avg(self):
        return self.hand_points / self.hands if self.hands else 0.0

    @property
    def crib_avg(self):
        return self.crib_points / self.cribs if self.cribs else 0.0

    @property
    def play_avg(self):
        return self.play_points / self.deals if self.deals else 0.0

    @property
    def win_rate(self):
        return self.wins / self.games if self.games else 0.0


def player_stats(con, board=None):
    """PlayerStats by name over every game in the database, finished games for wins and skunks."""
    out = {}
    for g in db.games(con, board):
        sides = {}
        for side, name in enumerate(g["names"]):
            st = out.setdefault(name, PlayerStats(name))
            sides[side] = st
            st.deals += g["deals"]
            if g["over"]:
                st.games += 1
                if g["winner"] == side:
                    st.wins += 1
                    if any(lab for s, lab in enumerate(g["skunk"]) if s != side):
                        st.skunks_given += 1
                elif g["skunk"][side]:
                    st.skunked += 1
        for r in db.scores(con, g["id"]):
            st = sides.get(r["side"])
            if st is None:
                continue
            kind, pts = r["kind"], r["points"]
            if kind == "hand":
                st.hands += 1
                st.hand_points += pts
            elif kind == "crib":
                st.cribs += 1
                st.crib_points += pts
            elif kind in PLAY_KINDS:
                st.play_points += pts
            if kind in ("hand", "crib") and pts > st.best:
                st.best = pts
    return sorted(out.values(), key=lambda s: (-s.games, s.name))


def best_hands(con, n=10, board=None):
    """The n best hands and cribs counted from keyed cards: dicts name, kind, points, cards, game."""
    sql = ("SELECT g.id AS game, g.names AS names, s.side, s.kind, s.points, s.cards FROM scores s "
           "JOIN games g ON g.id = s.game WHERE s.kind IN ('hand','crib') AND s.cards != ''")
    args = ()
    if board:
        sql += " AND g.board = ?"
        args = (board,)
    sql += " ORDER BY s.points DESC, g.id, s.seq LIMIT ?"
    out = []
    import json

    for r in con.execute(sql, args + (n,)):
        names = json.loads(r["names"])
        out.append({"name": names[r["side"]], "kind": r["kind"], "points": r["points"], "cards": r["cards"],
                    "game": r["game"]})
    return out
