# Games against the board in the laptop's history: named as the board at its level, the player's record
# against each level, and the coach's discards from the cards each deal dealt (known once the seed is told).
import sqlite3

import soloplay
from fakeport import FakePort
from linkfakes import journal
from rich.console import Console
from typer.testing import CliRunner

from board.link import Link
from crib.cli import app, common
from crib.history.replay import rebuild
from crib.history.stats import best_hands, head_to_head, player_stats
from crib.history.sync import sync
from crib.link.client import LinkClient
from crib.store import db, schema
from cribbage import solo
from cribbage.cards import format_cards
from cribbage.events import to_line

runner = CliRunner()
common.console = Console(width=200)
common.err = Console(width=200, stderr=True)


def _journal_of(*matches):
    """A board journal holding solo matches played through, each (seed, level); -> (journal, events)."""
    j = journal()
    done = []
    for seed, level in matches:
        m = soloplay.new_match(seed, level=level, games=3, fmt="games")
        j.append(to_line(m.setup))
        done.append((m, soloplay.play(m, apply=lambda ev, m=m: _kept(j, m.apply(ev)))))
    return j, done


def _kept(j, ev):
    j.append(to_line(ev))
    return ev


def _synced(tmp_path, *matches):
    j, done = _journal_of(*matches)
    link = Link(j, None, board_id="ab12", firmware="t", form="six")
    path = str(tmp_path / "h.sqlite3")
    con = db.connect(path)
    sync(LinkClient(FakePort(link), timeout=0.5), con)
    rebuild(con, "ab12")  # what crib sync does after storing the events
    return con, path, done


def test_a_game_against_the_board_is_named_as_the_board_at_its_level(tmp_path):
    con, path, done = _synced(tmp_path, (7, "top"))
    games = db.games(con)
    assert [g["solo"] for g in games] == ["top"] * 3
    assert all(g["names"] == ["P1", "the board (top)"] for g in games)
    m = done[0][0]
    assert [g["winner"] for g in games] == [r[0] for r in m.results]  # the match's own results
    r = runner.invoke(app, ["games", "--db", path])
    assert r.exit_code == 0, r.output
    assert r.output.count("P1 v the board (top)") == 3
    won = sum(1 for g in games if g["winner"] == 1)
    assert r.output.count("the board (top)") == 3 + won  # players, and the winner where it won


def test_the_players_record_against_each_level(tmp_path):
    con, _path, done = _synced(tmp_path, (7, "top"), (11, "beginner"))
    by_level = {h["players"][1]: h for h in head_to_head(con)}
    assert sorted(by_level) == ["the board (beginner)", "the board (top)"]
    for (m, _evs), level in zip(done, ("top", "beginner"), strict=True):
        h = by_level["the board (%s)" % level]
        assert h["players"][0] == "P1" and h["games"] == len(m.results)  # best of 3: two games or three
        assert h["wins"]["P1"] == sum(1 for r in m.results if r[0] == 0)
        assert h["wins"]["THE BOARD (%s)" % level.upper()] == sum(1 for r in m.results if r[0] == 1)
    names = {s.name: s for s in player_stats(con)}
    played = [len(m.results) for m, _evs in done]
    assert names["P1"].games == sum(played)  # one player across both matches; the board a player a level
    assert [names["the board (top)"].games, names["the board (beginner)"].games] == played
    assert "P2" not in names  # the set-up's name for the board's side is never shown as a player
    assert all(h["name"] != "P2" for h in best_hands(con, 50))


def test_the_coach_grades_each_solo_discard_from_the_cards_dealt(tmp_path):
    con, _path, done = _synced(tmp_path, (7, "top"))
    games, _orphans, _last = rebuild(con, "ab12")
    m = done[0][0]
    seeds = [ev["n"] for ev in done[0][1] if ev["t"] == "seed"]
    assert len(seeds) == 3  # each game's seed told at its end
    for g, seed in zip(games, seeds, strict=True):
        assert g.discards and len(g.discards) == g.deals  # the player's every deal (the show reached)
        for d in g.discards:
            # the cards dealt to the player, dealt again from the revealed seed: thrown + kept
            dealer = 0 if d["dealer"] else solo.BOARD
            dealt = list(solo.deal_of(seed, d["deal"], m.form, dealer)[0][0])
            assert d["dealt"] == format_cards(dealt)
            assert sorted((d["thrown"] + " " + d["kept"]).split()) == sorted(format_cards(dealt).split())
            assert d["lost"] >= 0
    p1 = {s.name: s for s in player_stats(con)}["P1"]
    assert len(p1.discards) == sum(len(g.discards) for g in games)


def test_an_older_history_gets_the_level_column_and_keeps_its_games(tmp_path):
    path = str(tmp_path / "old.sqlite3")
    raw = sqlite3.connect(path)
    for statement in schema.STEPS["sqlite"][1] + schema.STEPS["sqlite"][2]:
        raw.execute(statement)
    raw.execute("PRAGMA user_version = 2")
    raw.execute(
        "INSERT INTO games(board, first_seq, last_seq, match_no, game_no, form, target, names, final) "
        "VALUES ('ab12', 1, 9, 1, 1, 'six', 121, '[\"Ann\", \"Bob\"]', '[121, 80]')"
    )
    raw.commit()
    raw.close()
    old = db.connect(path, readonly=True)  # a reader reads it as it is, unmigrated
    assert [(g["names"], g["solo"]) for g in db.games(old)] == [(["Ann", "Bob"], "")]
    old.close()
    con = db.connect(path)  # a writer migrates it
    assert con.execute("PRAGMA user_version").fetchone()[0] == schema.VERSION == 3
    assert [(g["names"], g["solo"]) for g in db.games(con)] == [(["Ann", "Bob"], "")]


def _as_a_laptop():
    # This process dealt the matches (soloplay seals and registers each seed, as the board does): a
    # laptop knows none of them but what the journal's seed events reveal.
    solo._seeds.clear()
    solo._games.clear()


def test_the_replay_checks_every_deal_against_the_revealed_seeds(tmp_path):
    # A starter changed on the laptop's copy of the journal: each game's seed, revealed at its end,
    # deals the game again, and the replay refuses the starter that is not the deal's.
    j, done = _journal_of((7, "top"))
    m, evs = done[0]
    at = [i for i, ev in enumerate(evs) if ev["t"] == "starter"][3]  # a starter in game 1 or 2
    forged = dict(evs[at], c=(evs[at]["c"] + 1) % 52)
    lines = [to_line(m.setup)] + [to_line(forged if i == at else ev) for i, ev in enumerate(evs)]
    j2 = journal()
    for line in lines:
        j2.append(line)
    con = db.connect(str(tmp_path / "h.sqlite3"))
    sync(LinkClient(FakePort(Link(j2, None, board_id="ab12", firmware="t", form="six")), timeout=0.5), con)
    _as_a_laptop()
    games, _orphans, _last = rebuild(con, "ab12")
    seq = at + 2  # the set-up is seq 1
    flagged = [g for g in games if g.flags]
    assert len(flagged) == 1 and flagged[0].first_seq <= seq <= flagged[0].last_seq
    assert any(("seq %d" % seq) in f and "starter" in f for f in flagged[0].flags), flagged[0].flags
    con = _synced(tmp_path / "clean", (7, "top"))[0]
    _as_a_laptop()
    clean, _o, _l = rebuild(con, "ab12")
    assert not any(g.flags for g in clean)  # the same match unforged replays clean, every deal checked
