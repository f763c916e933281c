# Club night scoring as the ACC does it: rotations, game points, standings, tie-breaks, scorecards, pots.
import random

# Game points a club gives; the ACC's are 2 a win and 3 a skunk win. Variants keep the same fields.
ACC = {"win": 2, "skunk": 3, "double_skunk": 3, "loss": 0, "skunked": 0}
VARIANTS = {
    "acc": ACC,
    # Some clubs pay a double skunk more, or charge the skunked player a point.
    "double4": dict(ACC, double_skunk=4),
    "minus1": dict(ACC, skunked=-1),
}
SIDE_POT_TOTALS = (24, 28, 29)


class ClubError(Exception):
    """A schedule or result the night cannot use (said plainly to the director)."""


def rules(name="acc", **overrides):
    """The game points of a named variant, with any field overridden."""
    if name not in VARIANTS:
        raise ClubError("unknown scoring %r: choose from %s" % (name, ", ".join(sorted(VARIANTS))))
    out = dict(VARIANTS[name])
    for key, value in overrides.items():
        if key not in out:
            raise ClubError("unknown scoring field %r" % key)
        out[key] = int(value)
    return out


def skunk_of(loser_score, target=121):
    """'' , 'skunk' or 'double': the loser short of the skunk line (91 of 121) or the double line (61)."""
    if loser_score < target - 60:
        return "double"
    if loser_score < target - 30:
        return "skunk"
    return ""


def rotation(players, games):
    """Rounds of (player, player) tables for `games` games: the round-robin circle, so nobody meets twice.

    An odd field gets a bye (None) each round. More games than a round-robin has is refused."""
    field = list(players)
    if len(set(field)) != len(field):
        raise ClubError("a player is listed twice")
    if len(field) < 2:
        raise ClubError("a night needs two players at least")
    if len(field) % 2:
        field.append(None)
    n = len(field)
    if games > n - 1:
        raise ClubError(
            "%d players meet each other in %d games at most, not %d" % (len(players), n - 1, games)
        )
    rounds = []
    ring = field[1:]
    for _ in range(games):
        seats = [field[0]] + ring
        tables = [(seats[i], seats[n - 1 - i]) for i in range(n // 2)]
        # Players with a bye sit out: their table is dropped, they are listed apart.
        rounds.append([t for t in tables if None not in t])
        ring = ring[-1:] + ring[:-1]
    return rounds


def seat_draw(players, games, seed):
    """A rotation after a drawn seating: the same seed gives the same night (the director can reprint it)."""
    drawn = list(players)
    random.Random(seed).shuffle(drawn)
    return rotation(drawn, games)


def game_points(result, rule):
    """(points of player a, points of player b) for one finished game."""
    a, b = result["scores"]
    target = result.get("target", 121)
    if (a >= target) == (b >= target):
        raise ClubError(
            "round %s board %s: exactly one player must reach %d (%d-%d)"
            % (result.get("round"), result.get("board"), target, a, b)
        )
    skunk = skunk_of(min(a, b), target)
    win = rule["double_skunk"] if skunk == "double" else rule["skunk"] if skunk else rule["win"]
    lose = rule["skunked"] if skunk else rule["loss"]
    return (win, lose) if a > b else (lose, win)


def _margin(result):
    a, b = result["scores"]
    target = result.get("target", 121)
    return target - min(a, b)


_COUNTS = ("games", "won", "lost", "skunks", "skunked", "points", "spread")


def _row(player):
    row = {"player": player}
    row.update(dict.fromkeys(_COUNTS, 0))
    return row


def players_of(rounds):
    """The night's players in the order its schedule first seats them (rounds of [(board, a, b)])."""
    out = []
    for tables in rounds:
        for _board, a, b in tables:
            for p in (a, b):
                if p not in out:
                    out.append(p)
    return out


def standings(results, rule=ACC, players=()):
    """A row a player in ACC order: game points, games won, spread, then head to head; ties share a place.

    `players` (the night's) who have no finished game yet are listed after the others, with no place."""
    rows = {}
    for r in results:
        pts = game_points(r, rule)
        margin = _margin(r)
        a_won = r["scores"][0] > r["scores"][1]
        for i, player in enumerate(r["players"]):
            row = rows.setdefault(player, _row(player))
            won = a_won == (i == 0)
            row["games"] += 1
            row["won" if won else "lost"] += 1
            row["points"] += pts[i]
            row["spread"] += margin if won else -margin
            if skunk_of(min(r["scores"]), r.get("target", 121)):
                row["skunks" if won else "skunked"] += 1
    order = sorted(rows.values(), key=lambda x: (-x["points"], -x["won"], -x["spread"], str(x["player"])))
    out = []
    i = 0
    while i < len(order):
        j = i
        key = (order[i]["points"], order[i]["won"], order[i]["spread"])
        while j < len(order) and (order[j]["points"], order[j]["won"], order[j]["spread"]) == key:
            j += 1
        out.extend(_head_to_head(order[i:j], results, rule, place=i + 1))
        i = j
    for player in players:
        if player not in rows:
            out.append(dict(_row(player), place=None))
    return out


def _head_to_head(group, results, rule, place):
    """Order a tie by the game points its players took from each other; those still level share the place."""
    if len(group) == 1:
        group[0]["place"] = place
        return group
    names = {row["player"] for row in group}
    h2h = {name: 0 for name in names}
    for r in results:
        if set(r["players"]) <= names:
            pts = game_points(r, rule)
            for i, player in enumerate(r["players"]):
                h2h[player] += pts[i]
    group = sorted(group, key=lambda x: (-h2h[x["player"]], str(x["player"])))
    for k, row in enumerate(group):
        tied = k and h2h[row["player"]] == h2h[group[k - 1]["player"]]
        row["place"] = group[k - 1]["place"] if tied else place + k
    return group


def scorecard(player, results, rule=ACC):
    """The player's ACC scorecard: a line a game in round order, with running game points and spread."""
    lines = []
    total = spread = 0
    for r in sorted((r for r in results if player in r["players"]), key=lambda r: r["round"]):
        i = r["players"].index(player)
        own, other = r["scores"][i], r["scores"][1 - i]
        won = own > other
        margin = _margin(r) if won else -_margin(r)
        pts = game_points(r, rule)[i]
        total += pts
        spread += margin
        lines.append(
            {
                "round": r["round"],
                "board": r.get("board"),
                "opponent": r["players"][1 - i],
                "result": "W" if won else "L",
                "score": own,
                "against": other,
                "skunk": skunk_of(min(own, other), r.get("target", 121)),
                "points": pts,
                "spread": margin,
                "total": total,
                "total_spread": spread,
            }
        )
    return lines


def season(nights, drop_worst=0):
    """Season table from each night's standings: points and spread summed, a player's worst nights dropped.

    A night is worse by fewer game points, then by less spread. Players keep at least one night; a night a
    player finished no game in is not counted as theirs."""
    seen = {}
    for night in nights:
        for row in night:
            if not row["games"]:  # on the night's list, but finished no game: not one of their nights
                continue
            seen.setdefault(row["player"], []).append((row["points"], row["spread"], row["won"]))
    out = []
    for player, per_night in seen.items():
        kept = sorted(per_night, reverse=True)
        dropped = min(drop_worst, len(kept) - 1)
        if dropped:
            kept = kept[:-dropped]
        out.append(
            {
                "player": player,
                "nights": len(per_night),
                "dropped": dropped,
                "points": sum(p for p, _, _ in kept),
                "spread": sum(s for _, s, _ in kept),
                "won": sum(w for _, _, w in kept),
            }
        )
    out.sort(key=lambda x: (-x["points"], -x["won"], -x["spread"], str(x["player"])))
    for k, row in enumerate(out):
        same = k and (row["points"], row["won"], row["spread"]) == (
            out[k - 1]["points"],
            out[k - 1]["won"],
            out[k - 1]["spread"],
        )
        row["place"] = out[k - 1]["place"] if same else k + 1
    return out


def side_pots(hands, totals=SIDE_POT_TOTALS):
    """The night's pot hands: every hand or crib of a listed total, and every four of a kind (starter too)."""
    out = []
    for h in hands:
        ranks = [c[:-1] for c in h["cards"].replace("|", " ").split()]
        four = any(ranks.count(r) == 4 for r in set(ranks))
        if h["points"] in totals or four:
            why = ("%d hand" % h["points"]) if h["points"] in totals else "four of a kind"
            if h["points"] in totals and four:
                why += ", four of a kind"
            out.append(dict(h, why=why))
    return out


def assign(schedule, games):
    """Match the boards' finished games to the night's tables: the k-th table on a board takes its k-th game.

    `schedule`: rounds of [(board, player_a, player_b)]. `games`: finished games {"id", "board",
    "first_seq", "scores" (seat order), "names" (seat order)}. A game whose seat names are the table's
    players the other way round is turned round ("turned": 1). Returns (results, problems): problems
    name the tables with no game and the games that fit no table, for the director."""
    queue = {}
    for g in sorted(games, key=lambda g: (str(g["board"]), g["first_seq"])):
        queue.setdefault(g["board"], []).append(g)
    results, problems = [], []
    for k, tables in enumerate(schedule, 1):
        for tab, (board, a, b) in enumerate(tables, 1):
            if not queue.get(board):
                problems.append(
                    "game %d table %d (board %s): no finished game yet for %s v %s" % (k, tab, board, a, b)
                )
                continue
            g = queue[board].pop(0)
            turned = int(list(g.get("names") or []) == [b, a])
            scores = tuple(g["scores"][::-1] if turned else g["scores"])
            results.append(
                {
                    "round": k,
                    "board": board,
                    "players": (a, b),
                    "scores": scores,
                    "target": g.get("target", 121),
                    "game": g.get("id"),
                    "first_seq": g.get("first_seq"),
                    "turned": turned,
                }
            )
    for board in sorted(queue, key=str):
        for g in queue[board]:
            problems.append("board %s game %s fits no table of the night" % (board, g.get("id")))
    return results, problems
