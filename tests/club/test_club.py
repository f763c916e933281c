# Club night scoring: rotations, ACC game points, standings and tie-breaks, scorecards, season, side pots.
import pytest

from crib import club

PLAYERS = ["A", "B", "C", "D", "E", "F"]
# Three rounds of six players, scored by hand: A skunks F in round 1; B, D and F tie on 4 points and
# 2 wins and are split by spread (+7, -3, -5).
SCORES = {
    1: {("A", "F"): (121, 85), ("B", "E"): (121, 110), ("C", "D"): (100, 121)},
    2: {("A", "E"): (121, 118), ("F", "D"): (121, 95), ("B", "C"): (121, 120)},
    3: {("A", "D"): (119, 121), ("E", "C"): (121, 104), ("F", "B"): (121, 116)},
}


def _night():
    rounds = club.rotation(PLAYERS, 3)
    results = []
    for k, tables in enumerate(rounds, 1):
        for board, (a, b) in enumerate(tables, 1):
            results.append({"round": k, "board": board, "players": (a, b), "scores": SCORES[k][(a, b)]})
    return results


def test_rotation_meets_everyone_once_and_seats_everyone_each_round():
    rounds = club.rotation(PLAYERS, 5)
    met = [frozenset(t) for tables in rounds for t in tables]
    assert len(met) == len(set(met)) == 15  # a full round robin of six
    for tables in rounds:
        assert sorted(p for t in tables for p in t) == PLAYERS
    assert [set(t) for t in rounds[0]] == [{"A", "F"}, {"B", "E"}, {"C", "D"}]


def test_rotation_gives_a_bye_to_an_odd_field_and_refuses_too_many_games():
    rounds = club.rotation(["A", "B", "C"], 3)
    assert [len(t) for t in rounds] == [1, 1, 1]
    sitting_out = [set("ABC") - {p for t in tables for p in t} for tables in rounds]
    assert sorted("".join(s) for s in sitting_out) == ["A", "B", "C"]
    with pytest.raises(club.ClubError, match="in 5 games at most"):
        club.rotation(PLAYERS, 6)
    with pytest.raises(club.ClubError, match="twice"):
        club.rotation(["A", "A"], 1)


def test_seat_draw_is_reproducible_from_its_seed():
    assert club.seat_draw(PLAYERS, 3, seed=7) == club.seat_draw(PLAYERS, 3, seed=7)
    assert club.seat_draw(PLAYERS, 3, seed=7) != club.rotation(PLAYERS, 3)


def test_standings_follow_the_acc_order_with_a_tie_broken_by_spread():
    rows = club.standings(_night())
    table = [(r["place"], r["player"], r["points"], r["won"], r["spread"]) for r in rows]
    assert table == [
        (1, "A", 5, 2, 37),
        (2, "B", 4, 2, 7),
        (3, "D", 4, 2, -3),
        (4, "F", 4, 2, -5),
        (5, "E", 2, 1, 3),
        (6, "C", 0, 0, -39),
    ]
    a, f = rows[0], rows[3]
    assert (a["skunks"], f["skunked"]) == (1, 1)


def test_a_tie_on_points_wins_and_spread_goes_to_head_to_head():
    results = [
        {"round": 1, "players": ("P", "Q"), "scores": (121, 111)},  # P beats Q by 10
        {"round": 2, "players": ("Q", "R"), "scores": (121, 111)},  # Q beats R by 10
        {"round": 3, "players": ("P", "S"), "scores": (111, 121)},  # P loses to S by 10
        {"round": 4, "players": ("Q", "S"), "scores": (121, 111)},  # Q beats S by 10
        {"round": 5, "players": ("P", "R"), "scores": (121, 111)},  # P beats R by 10
    ]
    rows = {r["player"]: r for r in club.standings(results)}
    # P: 4 points, 2 wins, +10; Q: 4 points, 2 wins, +10: level until P's win over Q.
    assert (rows["P"]["points"], rows["P"]["won"], rows["P"]["spread"]) == (4, 2, 10)
    assert (rows["Q"]["points"], rows["Q"]["won"], rows["Q"]["spread"]) == (4, 2, 10)
    assert rows["P"]["place"] < rows["Q"]["place"]


def test_club_variants_change_the_game_points():
    skunk = {"round": 1, "players": ("A", "B"), "scores": (121, 58)}  # a double skunk
    assert club.game_points(skunk, club.rules()) == (3, 0)
    assert club.game_points(skunk, club.rules("double4")) == (4, 0)
    assert club.game_points(skunk, club.rules("minus1")) == (3, -1)
    assert club.game_points(skunk, club.rules(win=1, skunk=2, double_skunk=2)) == (2, 0)
    with pytest.raises(club.ClubError, match="exactly one"):
        club.game_points({"round": 1, "players": ("A", "B"), "scores": (120, 110)}, club.ACC)
    with pytest.raises(club.ClubError, match="unknown scoring"):
        club.rules("bogus")


def test_scorecard_runs_its_totals_as_the_acc_sheet():
    card = club.scorecard("F", _night())
    assert [
        (c["round"], c["opponent"], c["result"], c["points"], c["spread"], c["total"], c["total_spread"])
        for c in card
    ] == [
        (1, "A", "L", 0, -36, 0, -36),
        (2, "D", "W", 2, 26, 2, -10),
        (3, "B", "W", 2, 5, 4, -5),
    ]
    assert card[0]["skunk"] == "skunk"


def test_season_sums_nights_and_drops_the_worst():
    night1 = club.standings(_night())
    night2 = club.standings([{"round": 1, "players": ("C", "A"), "scores": (121, 80)}])
    table = {r["player"]: r for r in club.season([night1, night2])}
    assert (table["A"]["points"], table["C"]["points"]) == (5, 3)
    dropped = {r["player"]: r for r in club.season([night1, night2], drop_worst=1)}
    # A keeps its 5-point night, C its 3-point one; B came once and keeps it.
    assert (dropped["A"]["points"], dropped["C"]["points"], dropped["B"]["points"]) == (5, 3, 4)
    assert dropped["B"]["dropped"] == 0 and dropped["A"]["dropped"] == 1


def test_side_pots_list_the_big_hands_and_four_of_a_kind():
    hands = [
        {"player": "A", "points": 29, "cards": "5H 5C 5S JD | 5D"},
        {"player": "B", "points": 12, "cards": "5H 5C 5S 5D | KD"},
        {"player": "C", "points": 24, "cards": "3H 3C 3S 6D | 6C"},
        {"player": "D", "points": 16, "cards": "7H 8C 8S 9D | 6C"},
    ]
    pots = club.side_pots(hands)
    assert [(p["player"], p["why"]) for p in pots] == [
        ("A", "29 hand, four of a kind"),
        ("B", "four of a kind"),
        ("C", "24 hand"),
    ]


def test_assign_takes_each_boards_games_in_order_for_its_tables():
    schedule = [[("b1", "A", "B"), ("b2", "C", "D")], [("b1", "A", "C"), ("b2", "B", "D")]]
    games = [
        {"id": 7, "board": "b1", "first_seq": 40, "scores": [121, 60], "names": ["A", "C"]},
        {"id": 5, "board": "b1", "first_seq": 1, "scores": [121, 100], "names": ["P1", "P2"]},
        {
            "id": 6,
            "board": "b2",
            "first_seq": 1,
            "scores": [90, 121],
            "names": ["D", "C"],
        },  # seated the other way
        {"id": 9, "board": "b3", "first_seq": 1, "scores": [121, 1], "names": []},
    ]
    results, problems = club.assign(schedule, games)
    assert [(r["round"], r["players"], r["scores"], r["game"], r["turned"]) for r in results] == [
        (1, ("A", "B"), (121, 100), 5, 0),
        (1, ("C", "D"), (121, 90), 6, 1),
        (2, ("A", "C"), (121, 60), 7, 0),
    ]
    assert problems == [
        "game 2 table 2 (board b2): no finished game yet for B v D",
        "board b3 game 9 fits no table of the night",
    ]
