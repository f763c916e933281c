# `crib stats`: per player and head to head, the figures players ask for, from the replayed history.
import json
from collections import Counter

from crib.history.replay import replay_board
from crib.history.report import item_parts
from crib.store import db

PLAY_KINDS = ("play", "go")  # the pegging; "last" (five-card three for last) is not the play
TOP_HANDS = (24, 28, 29)  # the hands players keep count of


def count_of(row):
    """A hand's or crib's full count: the sum of its items when keyed (a 24 pegged as 23 at the game
    hole is still a 24), else the points pegged."""
    if row["items"]:
        return sum(item_parts(it)[1] for it in row["items"])
    return row["points"]


class PlayerStats:
    def __init__(self, name):
        self.name = name
        self.games = 0  # finished games
        self.wins = 0
        self.skunks_given = 0  # won while an opponent was skunked (any label: skunk, double, lurch)
        self.skunked = 0  # lost short of a skunk line
        self.doubles_given = 0
        self.doubles_taken = 0
        self.first_dealer = [0, 0]  # [games, wins] as the game's first dealer
        self.first_pone = [0, 0]
        self.hands = {"dealer": [], "pone": []}  # hand counts by role
        self.cribs = []
        self.play = {"dealer": [], "pone": []}  # play points per whole deal by role
        self.distribution = Counter()  # hand counts (not cribs)
        self.top = Counter()  # 24, 28, 29 hands and cribs
        self.best = 0
        self.margins_won = []
        self.margins_lost = []
        self.results = []  # True/False per finished game, oldest first: the streaks
        self.keyed = 0  # hands and cribs counted from keyed cards with a claim (muggins games)
        self.missed = 0  # points those claims left on the table
        self.muggins_taken = 0  # points taken from opponents' misses
        self.discards = []  # the coach: (game id, expected points lost) per discard keyed on the board

    # the figures, as a player reads them
    @property
    def win_rate(self):
        return self.wins / self.games if self.games else 0.0

    @property
    def hand_avg(self):
        both = self.hands["dealer"] + self.hands["pone"]
        return _avg(both)

    @property
    def crib_avg(self):
        return _avg(self.cribs)

    @property
    def play_avg(self):
        return _avg(self.play["dealer"] + self.play["pone"])

    def streaks(self):
        """(longest winning run, longest losing run, the current run as +n wins or -n losses)."""
        best_w = best_l = run = 0
        for won in self.results:
            run = (run + 1 if run > 0 else 1) if won else (run - 1 if run < 0 else -1)
            best_w, best_l = max(best_w, run), max(best_l, -run)
        return best_w, best_l, run

    def as_dict(self):
        bw, bl, cur = self.streaks()
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "losses": self.games - self.wins,
            "win_rate": round(self.win_rate, 4),
            "skunks_given": self.skunks_given,
            "skunked": self.skunked,
            "double_skunks_given": self.doubles_given,
            "double_skunked": self.doubles_taken,
            "first_dealer": {"games": self.first_dealer[0], "wins": self.first_dealer[1]},
            "first_pone": {"games": self.first_pone[0], "wins": self.first_pone[1]},
            "hand_avg": _r(self.hand_avg),
            "hand_avg_dealer": _r(_avg(self.hands["dealer"])),
            "hand_avg_pone": _r(_avg(self.hands["pone"])),
            "hands": len(self.hands["dealer"] + self.hands["pone"]),
            "hands_dealer": len(self.hands["dealer"]),
            "hands_pone": len(self.hands["pone"]),
            "crib_avg": _r(self.crib_avg),
            "cribs": len(self.cribs),
            "play_avg": _r(self.play_avg),
            "play_avg_dealer": _r(_avg(self.play["dealer"])),
            "play_avg_pone": _r(_avg(self.play["pone"])),
            "play_deals_dealer": len(self.play["dealer"]),
            "play_deals_pone": len(self.play["pone"]),
            "hand_distribution": {str(k): v for k, v in sorted(self.distribution.items())},
            "hands_24_28_29": {str(k): self.top[k] for k in TOP_HANDS},
            "best": self.best,
            "longest_win_streak": bw,
            "longest_losing_streak": bl,
            "current_streak": cur,
            "avg_margin_won": _r(_avg(self.margins_won)),
            "avg_margin_lost": _r(_avg(self.margins_lost)),
            "keyed_claims": self.keyed,
            "points_missed": self.missed,
            "muggins_taken": self.muggins_taken,
            "discards": len(self.discards),
            "discard_lost_avg": _r(_avg([lost for _g, lost in self.discards])),
            "discard_lost_by_game": _by_game(self.discards),
        }


def _by_game(discards):
    # Discard accuracy over time: [game id, discards, average lost] in the order the games were played.
    out = []
    for game, lost in discards:
        if not out or out[-1][0] != game:
            out.append([game, 0, 0.0])
        out[-1][1] += 1
        out[-1][2] += lost
    return [[g, n, round(total / n, 2)] for g, n, total in out]


def _avg(xs):
    return sum(xs) / len(xs) if xs else 0.0


def _r(x):
    return round(x, 3)


def key(name):
    """The same player across boards and nights: names compared without case or outer spaces."""
    return name.strip().upper()


def _deal_dealers(con):
    """{(board, first_seq): ({deal_no: dealer side}, the coach's discards)} from replaying each board
    with the core."""
    out = {}
    for board in db.boards(con):
        games, _o, _m = replay_board(board, list(db.events(con, board)))
        for g in games:
            out[(board, g.first_seq)] = ({d: info[0] for d, info in g.deal_info.items()}, g.discards)
    return out


def _claims(con, board, seqs):
    """{seq: claim} of the keyed shows among `seqs` whose event carries a claim (muggins on)."""
    out = {}
    for seq in seqs:
        ev = db.event(con, board, seq)
        if ev is not None and isinstance(ev.get("claim"), int):
            out[seq] = ev["claim"]
    return out


def collect(con, board=None):
    """(PlayerStats by key, head-to-head dict by (key a, key b)) over the history."""
    players = {}
    h2h = {}
    dealers = _deal_dealers(con)
    for g in db.games(con, board):
        names = g["names"]
        sides = len(names)
        st = [players.setdefault(key(n), PlayerStats(n)) for n in names]
        scores = db.scores(con, g["id"])
        dealer_of, discards = dealers.get((g["board"], g["first_seq"]), ({}, []))
        for d in discards:
            if d["side"] < sides:
                st[d["side"]].discards.append((g["id"], d["lost"]))
        if g["over"]:
            _game_result(g, st, dealer_of)
            if sides == 2:
                a, b = sorted((key(names[0]), key(names[1])))
                h = h2h.setdefault(
                    (a, b),
                    {
                        "players": [players[a].name, players[b].name],
                        "games": 0,
                        "wins": {a: 0, b: 0},
                        "skunks": {a: 0, b: 0},
                    },
                )
                h["games"] += 1
                wk = key(names[g["winner"]])
                h["wins"][wk] += 1
                if any(g["skunk"]):
                    h["skunks"][wk] += 1
        _game_scores(con, g, st, scores, dealer_of)
    return players, h2h


def _game_result(g, st, dealer_of):
    names, winner = g["names"], g["winner"]
    first = dealer_of.get(1)
    for side, s in enumerate(st):
        won = winner == side
        s.games += 1
        s.wins += won
        s.results.append(won)
        others = [g["skunk"][o] for o in range(len(names)) if o != side]
        if won and any(others):
            s.skunks_given += 1
            s.doubles_given += "double" in others
        if not won and g["skunk"][side]:
            s.skunked += 1
            s.doubles_taken += g["skunk"][side] == "double"
        if first is not None:
            role = s.first_dealer if first == side else s.first_pone
            role[0] += 1
            role[1] += won
        margin = g["final"][side] - max(g["final"][o] for o in range(len(names)) if o != side)
        (s.margins_won if won else s.margins_lost).append(abs(margin))


def _game_scores(con, g, st, scores, dealer_of):
    target = g["target"]
    last_deal = max([r["deal_no"] for r in scores] + [0])
    play = {}  # (deal, side) -> play points
    claims = _claims(
        con, g["board"], [r["seq"] for r in scores if r["kind"] in ("hand", "crib") and r["cards"]]
    )
    for r in scores:
        side, kind = r["side"], r["kind"]
        if side >= len(st):
            continue
        s = st[side]
        role = "dealer" if dealer_of.get(r["deal_no"]) == side else "pone"
        if kind in ("hand", "crib"):
            n = count_of(r)
            # A hand pegged by a tap at the game hole is capped there: its true count is unknown, so
            # it stays out of the averages (the hands nobody counted after the game ended never exist).
            if not r["items"] and r["front"] >= target:
                continue
            if kind == "hand":
                s.hands[role].append(n)
                s.distribution[n] += 1
            else:
                s.cribs.append(n)
            if n in TOP_HANDS:
                s.top[n] += 1
            s.best = max(s.best, n)
            if r["seq"] in claims:
                s.keyed += 1
                s.missed += max(0, n - claims[r["seq"]])
        elif kind in PLAY_KINDS:
            play[(r["deal_no"], side)] = play.get((r["deal_no"], side), 0) + r["points"]
        elif kind == "muggins":
            s.muggins_taken += r["points"]
    for deal in range(1, last_deal + 1):
        if g["over"] and deal == last_deal:
            continue  # the deal the game ended in was cut short: its play is not a whole deal's
        for side, s in enumerate(st):
            role = "dealer" if dealer_of.get(deal) == side else "pone"
            s.play[role].append(play.get((deal, side), 0))


def player_stats(con, board=None):
    """PlayerStats over every game in the database, most games first."""
    players, _h = collect(con, board)
    return sorted(players.values(), key=lambda s: (-s.games, s.name))


def head_to_head(con, board=None):
    _p, h2h = collect(con, board)
    return [h2h[k] for k in sorted(h2h)]


def best_hands(con, n=10, board=None):
    """The n best hands and cribs keyed as cards, by full count: name, kind, points, cards, game."""
    out = []
    shown = {g["id"]: g["names"] for g in db.games(con, board)}  # the board named as the board
    for r in db.keyed_shows(con, board):
        names = shown.get(r["game"]) or json.loads(r["names"])
        row = {"items": json.loads(r["items"] or "[]"), "points": r["points"]}
        out.append(
            {
                "name": names[r["side"]],
                "kind": r["kind"],
                "points": count_of(row),
                "cards": r["cards"],
                "game": r["game"],
            }
        )
    out.sort(key=lambda h: (-h["points"], h["game"]))
    return out[:n]
