# Counting accuracy (issue 12) on the real sim: muggins turned on from the board's menu, a new match, and
# deals whose hands and cribs are keyed as cards with a claim, some short. `crib stats` must then give
# each player's keyed claims, points missed and muggins taken as this test works them out itself: the
# counts with its own brute-force scorer, the claims and takings from the script it wrote.
import json
import random
from itertools import combinations

from boards import Sim
from typer.testing import CliRunner

from board import settings
from crib.cli import app

RANKS = "A23456789TJQK"
runner = CliRunner()


def count(hand, starter, crib):
    """A show's points by brute force: fifteens, pairs, runs, flush, nobs ("5H" cards)."""
    cards = hand + [starter]
    rank = {c: RANKS.index(c[0]) + 1 for c in cards}
    pts = 0
    for k in range(2, 6):
        for sub in combinations(cards, k):
            if sum(min(rank[c], 10) for c in sub) == 15:
                pts += 2
    pts += 2 * sum(1 for a, b in combinations(cards, 2) if rank[a] == rank[b])
    for k in (5, 4, 3):
        runs = 0
        for sub in combinations(cards, k):
            rs = sorted(rank[c] for c in sub)
            if all(rs[i + 1] == rs[i] + 1 for i in range(k - 1)):
                runs += 1
        if runs:
            pts += k * runs
            break
    if len({c[1] for c in hand}) == 1:
        if starter[1] == hand[0][1]:
            pts += 5
        elif not crib:
            pts += 4
    pts += sum(1 for c in hand if c[0] == "J" and c[1] == starter[1])
    return pts


def number_keys(n):
    # A = 1, T = 0; a single digit alone (T alone is 10), two digits for 0 and for 10 and more.
    digits = "%02d" % n if n == 0 or n >= 10 else "%d" % n
    return " ".join("T" if d == "0" else "A" if d == "1" else d for d in digits)


def script_and_figures(seed, deals=4):
    """The key script and the figures it must make: {name: [claims, missed, taken, hand counts]}."""
    rng = random.Random(seed)
    lines = (
        ["key MENU"]
        + ["key MENU"] * settings.ORDER.index("muggins")
        + ["expect display Muggins", "key OK", "expect display on", "key UNDO"]
    )
    lines += ["hold MENU UNDO 1500", "expect display new match?", "key OK", "key A OK"]  # P1 deals first
    names = ("P1", "P2")
    want = {n: [0, 0, 0, []] for n in names}
    front = [0, 0]
    dealer = 0
    for _deal in range(deals):
        deck = [r + s for r in RANKS for s in "SHDC"]
        rng.shuffle(deck)
        hands = [deck[0:4], deck[4:8]]
        crib_cards, starter = deck[8:12], deck[12]
        lines += ["cards " + starter, "key OK"]  # the play pegged on the holes (none here)
        if starter[0] == "J":
            front[dealer] += 2
        pone = 1 - dealer
        for side, cards, is_crib in (
            (pone, hands[pone], False),
            (dealer, hands[dealer], False),
            (dealer, crib_cards, True),
        ):
            n = count(cards, starter, is_crib)
            short = rng.choice((0, 0, 1, 2, 3)) if n else 0
            claim = max(0, n - short)
            lines += ["cards " + " ".join(cards), "key OK", "key %s OK" % number_keys(claim)]
            want[names[side]][0] += 1
            want[names[side]][1] += n - claim
            if not is_crib:
                want[names[side]][3].append(n)  # a hand claimed short still counted n
            front[side] += claim
            if n > claim:
                if rng.random() < 0.6:  # the opponent takes what was missed
                    lines.append("key OK")
                    want[names[1 - side]][2] += n - claim
                    front[1 - side] += n - claim
                else:
                    lines.append("key UNDO")
        lines.append("key OK")  # next deal
        dealer = 1 - dealer
    assert max(front) < 121  # no game ends in these deals
    lines.append("expect score %d %d" % tuple(front))
    return "\n".join(lines) + "\n", want


def test_counting_accuracy_from_keyed_claims(tmp_path):
    script, want = script_and_figures(seed=12)
    assert sum(w[1] for w in want.values()) > 0 and sum(w[2] for w in want.values()) > 0
    (tmp_path / "count.script").write_text(script)
    data = str(tmp_path / "sim-data")
    with Sim(data, script=str(tmp_path / "count.script"), fresh=True) as sim:
        out = sim.wait()
    assert "0 failed" in out, out[-3000:]
    dbp = str(tmp_path / "c.sqlite3")
    with Sim(data) as sim:
        r = runner.invoke(app, ["sync", "--port", sim.url, "--db", dbp])
        assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["stats", "--json", "--db", dbp])
    assert r.exit_code == 0, r.output
    players = json.loads(r.stdout)["players"]
    got = {p["name"]: [p["keyed_claims"], p["points_missed"], p["muggins_taken"]] for p in players}
    assert got == {n: w[:3] for n, w in want.items()}
    # A hand claimed as 0 that counted 2 pegged nothing, and the history lost its count: it read as 0.
    for p in players:
        hands = want[p["name"]][3]
        assert (p["hands"], p["hand_avg"]) == (len(hands), round(sum(hands) / len(hands), 3))
