"""Three-handed and 2 v 2 tables: whole games through the service, a deal played card by card with its
points, moves refused out of turn, not held or of the wrong count, the opponent in any seat."""

import random

import pytest
from tableseats import Seat, play_out
from test_tables_core import board_match

from crib.tables import fairdeal, game
from crib.tables.service import Forbidden, Rejected, Tables
from cribbage.cards import parse_card
from cribbage.forms import skunk_label

SEATS = {"three": 3, "four": 4}
NAMES = ("Ann", "Bob", "Cy", "Dee")


@pytest.fixture
def tables(tmp_path):
    return Tables(str(tmp_path / "club.sqlite3"), burst=10_000)


def seated(tables, form, seed):
    code = tables.new(form=form)
    rng = random.Random(seed)
    return code, [Seat(tables, code, name, rng) for name in NAMES[: SEATS[form]]]


@pytest.mark.parametrize("form", ["three", "four"])
@pytest.mark.parametrize("seed", range(4))
def test_a_whole_game_in_each_form_ends_at_121_scored_as_the_board_scores_it(tables, form, seed):
    code, seats = seated(tables, form, seed)
    end = play_out(*seats)
    table = tables.cache[code].table
    sides = 2 if form == "four" else 3
    assert end["form"] == form and len(end["scores"]) == sides
    assert end["scores"][end["winner"]] == 121 and sorted(end["scores"])[-2] < 121
    assert end["skunks"] == [
        "" if s == end["winner"] else skunk_label(end["scores"][s], 121, "acc") for s in range(sides)
    ]
    # every peg went to the pegging seat's side: partners (seats 0 and 2, 1 and 3) score together; the
    # winning peg stops on the game hole
    for side in range(sides):
        pegged = sum(p for _d, s, p, _w in table.pegs if s % sides == side)
        assert min(121, pegged) == end["scores"][side]
    for show in table.shows:
        n = SEATS[form]
        assert [len(k) for k in show["kept"]] == [4] * n and len(set(show["crib"])) == 4
        # the show goes round from the dealer's left, the dealer last, then the crib to the dealer
        # (a show the game ends in stops at the count that wins it)
        left = [(show["dealer"] + k) % n for k in range(1, n + 1)]
        counted = len(show["counted"]) if show is table.shows[-1] else n + 1
        assert [c["seat"] for c in show["counted"]] == (left + [show["dealer"]])[:counted]
        assert [c["k"] for c in show["counted"]] == (["hand"] * n + ["crib"])[:counted]
        hands, to_crib, starter = fairdeal.dealt(table.seed, show["deal"], show["dealer"], form)
        assert [len(h) for h in hands] == [5] * n and len(to_crib) == (1 if form == "three" else 0)
        assert set(to_crib) <= set(show["crib"]) and starter == show["starter"]
    dealers = [s["dealer"] for s in table.shows]
    assert all(b == (a + 1) % SEATS[form] for a, b in zip(dealers, dealers[1:], strict=False))
    # the board's own fold, keyed the game as a board of this form keys it, scores it the same
    m = board_match(table)
    assert list(m.front) == end["scores"] and m.game_over
    for s in seats:
        assert fairdeal.verify(end["proof"], s.seat, s.share, fairdeal.collect(s.views)) > 5 * len(
            table.shows
        )


def _fixed_deal(monkeypatch, hands, to_crib, starter):
    """Deal 1 dealt from `hands` (notation), seat 0 the dealer: a deal whose every point is worked out."""
    real = fairdeal.dealt

    def dealt(seed, deal_no, dealer, form="six"):
        if deal_no != 1:
            return real(seed, deal_no, dealer, form)
        return (
            [[parse_card(c) for c in h.split()] for h in hands],
            [parse_card(c) for c in to_crib],
            parse_card(starter),
        )

    monkeypatch.setattr(fairdeal, "dealt", dealt)
    monkeypatch.setattr(fairdeal, "first_dealer", lambda seed, seats=2: 0)


def test_a_three_handed_deal_pegs_the_goes_the_show_and_the_crib_point_for_point(tables, monkeypatch):
    _fixed_deal(
        monkeypatch,
        ["TD 9D 3C 4C AH", "TS 9S 8S 7S AC", "TH 9H 8H 2H AD"],
        ["KC"],
        "6C",
    )
    code, seats = seated(tables, "three", 0)
    for s in seats:
        s.send({"t": "share", "share": s.share})
    v = seats[1].look()
    assert v["dealer"] == 0 and v["to_throw"] == 1 and len(v["hand"]) == 5 and v["holds"] == [5, 5, 5]
    for s in (seats[1], seats[2], seats[0]):
        s.send({"t": "discard", "cards": ["A" + "CDH"[(s.seat + 2) % 3]]})
    assert seats[0].look()["awaited"] == [1]  # the dealer's left leads
    # each count: three tens (pair, pair royal), nobody can go on, the last layer's go; three nines, a
    # two, two goes; then the rest to the last card
    for seat, c in (
        (1, "TS"), (2, "TH"), (0, "TD"),
        (1, "9S"), (2, "9H"), (0, "9D"), (2, "2H"),
        (0, "3C"), (1, "8S"), (2, "8H"), (0, "4C"), (1, "7S"),
    ):  # fmt: skip
        assert seats[seat].look()["awaited"] == [seat], c
        seats[seat].send({"t": "lay", "card": c})
    table = tables.cache[code].table
    assert table.pegs == [
        (1, 2, 2, "pair"),
        (1, 0, 6, "pair royal"),
        (1, 0, 1, "go"),
        (1, 2, 2, "pair"),
        (1, 0, 6, "pair royal"),
        (1, 2, 1, "go"),
        (1, 2, 2, "pair"),
        (1, 1, 1, "last card"),
        (1, 1, 13, "hand"),  # TS 9S 8S 7S + 6C: a run of five, two fifteens, a four-card flush
        (1, 2, 9, "hand"),  # TH 9H 8H 2H + 6C: fifteen two, a run of three, a flush
        (1, 0, 2, "hand"),  # TD 9D 3C 4C + 6C: fifteen two
        (1, 0, 6, "crib"),  # AH AC AD and the deck's KC + 6C: a pair royal
    ]
    v = seats[0].look()
    assert v["scores"] == [21, 14, 16] and v["deal"] == 2 and v["dealer"] == 1 and v["phase"] == "discard"
    assert v["shows"][0]["crib"] == [parse_card(c) for c in ("AH", "AC", "AD", "KC")]


def test_a_2v2_deal_pegs_partners_together_point_for_point(tables, monkeypatch):
    _fixed_deal(
        monkeypatch,
        ["9S 9H 7C 8C AS", "5S 5H KS QS AC", "5D TH 2C 3C AD", "5C JD 4H 6H AH"],
        [],
        "KD",
    )
    code, seats = seated(tables, "four", 0)
    for s in seats:
        s.send({"t": "share", "share": s.share})
    for s, ace in zip(seats, ("AS", "AC", "AD", "AH"), strict=True):
        s.send({"t": "discard", "cards": [ace]})
    for seat, c in (
        (1, "5S"), (2, "5D"), (3, "5C"), (0, "9S"), (1, "5H"), (2, "2C"),
        (3, "JD"), (0, "9H"), (1, "KS"),
        (2, "TH"), (3, "4H"), (0, "7C"), (1, "QS"),
        (2, "3C"), (3, "6H"), (0, "8C"),
    ):  # fmt: skip
        assert seats[seat].look()["awaited"] == [seat], c
        seats[seat].send({"t": "lay", "card": c})
    assert tables.cache[code].table.pegs == [
        (1, 2, 2, "pair"),
        (1, 3, 2, "fifteen"),
        (1, 3, 6, "pair royal"),
        (1, 2, 2, "thirty-one"),
        (1, 1, 1, "go"),  # at 29 nobody can lay: the last to lay pegs the go
        (1, 1, 2, "thirty-one"),
        (1, 0, 1, "last card"),
        (1, 1, 16, "hand"),  # 5S 5H KS QS + KD: six fifteens, two pairs
        (1, 2, 8, "hand"),  # 5D TH 2C 3C + KD: four fifteens
        (1, 3, 10, "hand"),  # 5C JD 4H 6H + KD: three fifteens, a run of three, nobs
        (1, 0, 10, "hand"),  # 9S 9H 7C 8C + KD: fifteen two, a pair, a double run
        (1, 0, 12, "crib"),  # the four aces
    ]
    v = seats[3].look()
    # seats 0 and 2 (5 in the play, 8 + 10 + the crib's 12) against 1 and 3 (11 in the play, 16 + 10)
    assert v["scores"] == [35, 37] and v["sides"] == 2 and v["dealer"] == 1 and v["deal"] == 2


def test_out_of_turn_not_held_and_the_wrong_count_are_refused_and_change_nothing(tables):
    for form in ("three", "four"):
        code, seats = seated(tables, form, 7)
        for s in seats:
            s.turn()
        before = [s.look() for s in seats]
        a = seats[0]
        hand = before[0]["hand"]
        not_mine = next(c for c in before[1]["hand"])
        for move, said in (
            ({"t": "discard", "cards": hand[:2]}, "a discard is one card"),
            ({"t": "discard", "cards": []}, "a discard is one card"),
            ({"t": "discard", "cards": [not_mine]}, "is not in seat 0's hand"),
            ({"t": "lay", "card": hand[0]}, "no lay now"),
        ):
            with pytest.raises(Rejected, match=said):
                tables.move(code, a.token, a.seq + 1, move)
        assert [s.look() for s in seats] == before
        with pytest.raises(Forbidden, match="full"):
            tables.join(code, "Eve")
        for s in seats:
            s.turn()  # each throws one
        v = a.look()
        assert v["phase"] == "play"
        waiting = [s for s in seats if s.seat not in v["awaited"]]
        assert len(waiting) == len(seats) - 1
        for s in waiting:
            w = s.look()
            with pytest.raises(Rejected, match="not seat %d's turn" % s.seat):
                tables.move(code, s.token, s.seq + 1, {"t": "lay", "card": w["hand"][0]})
        layer = next(s for s in seats if s.seat in v["awaited"])
        other = next(s for s in seats if s is not layer).look()["hand"][0]
        with pytest.raises(Rejected, match="is not in seat %d's hand" % layer.seat):
            tables.move(code, layer.token, layer.seq + 1, {"t": "lay", "card": other})
        assert a.look()["n"] == v["n"]


@pytest.mark.parametrize("form", ["three", "four"])
def test_the_boards_opponent_fills_every_empty_seat_and_plays_a_whole_game(tables, form):
    code = tables.new(form=form)
    a = Seat(tables, code, "Ann", random.Random(3))
    levels = ["beginner", "expected", "top"][: SEATS[form] - 1]
    filled = [tables.fill(code, level) for level in levels]
    assert sorted(filled + [a.seat]) == list(range(SEATS[form]))
    with pytest.raises(Forbidden, match="full"):
        tables.fill(code, "top")
    end = play_out(a)
    assert max(end["scores"]) == 121 and end["winner"] is not None
    assert [s["level"] for s in end["seats"]] == [None] + levels
    assert fairdeal.verify(end["proof"], a.seat, a.share, fairdeal.collect(a.views)) > 0
    assert list(board_match(tables.cache[code].table).front) == end["scores"]


def test_two_opponents_of_one_level_are_told_apart_and_a_form_not_a_tables_is_refused(tables):
    code = tables.new(form="three")
    tables.fill(code, "top")
    tables.fill(code, "top")
    assert tables.public(code)["seats"] == ["Board (top)", "Board 2 (top)", None]
    for form in ("five", "six61", None):
        with pytest.raises(Exception, match="no table form"):
            tables.new(form=form)
    with pytest.raises(game.Refused, match="no table form"):
        game.Table("00", form="five")


@pytest.mark.parametrize("form", ["three", "four"])
def test_two_servers_on_one_database_play_a_table_of_each_form(history_db, form):
    one, two = Tables(history_db, burst=10_000), Tables(history_db, burst=10_000)
    code = one.new(form=form)
    rng = random.Random(5)
    seats = [Seat((one, two)[k % 2], code, name, rng) for k, name in enumerate(NAMES[: SEATS[form]])]
    end = play_out(*seats)
    assert one.public(code) == two.public(code) and one.public(code)["form"] == form
    assert max(end["scores"]) == 121
    # read back from the database alone (the form's row included), a third server agrees move for move
    assert Tables(history_db).public(code) == one.public(code)
