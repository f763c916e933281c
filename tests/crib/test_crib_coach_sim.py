# The coach (issue 14) on the real sim: discard advice turned on from the menu (at once), then
# both players key their six dealt cards on the board, P1 keeps the best discard's hand and P2 the
# second-ranked one, and the hands are scored from the kept cards. `crib show` marks each discard with
# the expected points it gave away against the best, `crib stats` gives each player's average: both
# checked against this test's own exact hand values over the 46 starters and the crib table.
import json
import sqlite3
from itertools import combinations

from boards import Sim
from test_crib_counting_sim import RANKS, count
from typer.testing import CliRunner

from board import settings
from crib.advise import advice, crib_table
from crib.cli import app
from cribbage.cards import format_card

runner = CliRunner()
DEALT = {"P1": "5H 5C 5S JD 4C 6D".split(), "P2": "AS 2S 3S 4S 5D 6S".split()}  # P1 deals
PAGE = {"P1": 1, "P2": 2}  # the advice page whose hand each player keeps
STARTER = "KH"


def net_values(dealt, dealer):
    """{thrown cards (sorted tuple): net} for every discard: the kept hand's exact mean over the 46
    starters not dealt, plus (dealer) or minus (pone) the crib table's value of the throw."""
    table = crib_table("six")["dealer" if dealer else "pone"]
    deck = [r + s for r in RANKS for s in "SHDC"]
    out = {}
    for thrown in combinations(dealt, 2):
        kept = [c for c in dealt if c not in thrown]
        starters = [c for c in deck if c not in dealt]
        hand = sum(count(kept, s, False) for s in starters) / len(starters)
        a, b = sorted(thrown, key=lambda c: RANKS.index(c[0]))
        crib = table[a[0] + b[0]]
        out[tuple(sorted(thrown))] = hand + crib if dealer else hand - crib
    return out


def scripts():
    menu = (
        ["key MENU"]
        + ["key MENU"] * settings.ORDER.index("advice")
        + ["expect display Advice", "key OK", "expect display on", "key UNDO"]
    )
    menu += ["wait 6000", "quit"]  # the settings reach flash a few seconds after the last change
    game = ["key A OK"]  # player 1 deals
    for who in ("P1", "P2"):
        game.append("hold MENU 1200")  # held MENU at the starter: advice, for the dealer first
        game.append("expect display Advice")
        if who == "P2":
            game.append("key MENU")  # whose cards: the pone's
        game.append("cards " + " ".join(DEALT[who]))
        game.append("key OK")
        game += ["key MENU"] * (PAGE[who] - 1)  # page on, as through an itemised count
        game.append("key OK")  # keep this page's four cards as the hand
        game.append("expect display %s hand kept" % who)
    game += ["cards " + STARTER, "key OK"]  # the play pegged on the holes (none here)
    game.append("key OK")  # P2's hand: OK alone scores the cards kept last
    # P1's hand: the board keeps one kept hand (P2's replaced it), so P1 keys the page's four cards.
    game += ["cards " + " ".join(advice(DEALT["P1"], "six", True)[0]["keep"]), "key OK"]
    game += ["key OK", "key OK", "key OK"]  # the crib not keyed: a zero proposed and pegged; next deal
    return "\n".join(menu) + "\n", "\n".join(game) + "\n"


def test_the_coach_marks_each_discard_against_the_best(tmp_path):
    menu, game = scripts()
    (tmp_path / "menu.script").write_text(menu)
    (tmp_path / "game.script").write_text(game)
    data = str(tmp_path / "sim-data")
    with Sim(data, script=str(tmp_path / "menu.script"), fresh=True) as sim:
        out = sim.wait()
    assert "0 failed" in out or "quit" in out, out[-2000:]
    with Sim(data, script=str(tmp_path / "game.script")) as sim:
        out = sim.wait()
    assert "0 failed" in out, out[-3000:]
    dbp = str(tmp_path / "c.sqlite3")
    with Sim(data) as sim:
        r = runner.invoke(app, ["sync", "--port", sim.url, "--db", dbp])
        assert r.exit_code == 0, r.output
    # What each player kept, from the journal's show events; the discard is the rest of the six.
    con = sqlite3.connect(dbp)
    shows = [json.loads(e) for (e,) in con.execute("SELECT event FROM events ORDER BY seq")]
    advised = [e for e in shows if e.get("t") == "advice"]
    assert [e["p"] for e in advised] == [0, 1]  # both keyings in the journal
    hands = {e["s"]: e["cards"] for e in shows if e.get("t") == "show" and e.get("k") == "hand"}
    want = {}
    for side, who in enumerate(("P1", "P2")):
        kept = [format_card(c) for c in hands[side]]
        thrown = tuple(sorted(c for c in DEALT[who] if c not in kept))
        nets = net_values(DEALT[who], side == 0)
        want[who] = (thrown, max(nets.values()) - nets[thrown])
    assert want["P1"][1] < 0.02 and want["P2"][1] > 0  # P1 kept the best, P2 the second
    text = " ".join(runner.invoke(app, ["show", "1", "--db", dbp]).output.split())
    for who, (thrown, lost) in want.items():
        line = text[text.index("coach: %s threw" % who) :]
        assert sorted(line.split()[3:5]) == sorted(thrown), line[:120]
        verdict = "the best discard" if lost < 0.005 else "%.2f points below the best" % lost
        assert verdict in line[:200] or lost >= 0.005 and "points below the best" in line[:200], line[:200]
    stats = json.loads(runner.invoke(app, ["stats", "--json", "--db", dbp]).stdout)
    got = {p["name"]: p for p in stats["players"]}
    for who, (_thrown, lost) in want.items():
        assert got[who]["discards"] == 1
        assert abs(got[who]["discard_lost_avg"] - lost) <= 0.02, (who, got[who]["discard_lost_avg"], lost)
    # The board's own ranking agrees: P2's discard is its second page.
    rows = advice(DEALT["P2"], "six", False)
    assert tuple(sorted(rows[1]["discard"])) == tuple(sorted(want["P2"][0]))
