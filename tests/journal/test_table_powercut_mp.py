# Power cuts on real littlefs at a remote table: cut at every flash operation, the deal resumes exactly.
#
# The harness is test_journal_powercut_mp.py's (every program and erase, whole and half done, and the
# recovery's own writes cut too), as test_solo_powercut_mp.py uses it. Here the script is a table's deal
# as the board journals what the table tells it (board/link/table.py): the set-up, the first dealer,
# the player's six as they arrive, the player's throw, the starter, the lays and goes of both seats,
# the counts and the other seat's six at the show, the next deal's six and throw and the first lays of
# its play, then the next match's set-up. The state a replay must give before or after the step in
# flight includes the player's six, what the player still holds, the crib, what the `state` op tells
# a bridge (table.state) and the board's next count.
import gc

from game_kit import state
from tableplay import Table, play, setup
from test_journal_powercut_mp import match_script, replayed, run_power_cuts

from cribbage import events, solo, table
from cribbage.game import Match


def table_lines():
    gc.collect()
    m = Match(setup(tag=4242))
    done = play(m, Table(2024, first_dealer=1), stop=lambda m: m.deal_no == 2 and len(m._acts) == 3)
    lines = [events.to_line(m.setup)] + [events.to_line(ev) for ev in done]
    lines.append(events.to_line(events.setup()))  # the next match: an ordinary one
    return lines, _view(m)


def _view(m):
    h = table.hands(m)
    return (state(m), [list(x) for x in h], solo.held(m, 0), solo.crib(m), table.state(m), solo.next_move(m))


def table_fold(lines):
    """The match state and what the board knows of the deal after a boot's replay (None: no match)."""
    m = replayed(lines)
    if m is None:
        return None
    if "solo" not in m.setup:
        return (state(m), None)
    return _view(m)


def test_power_cut_at_every_flash_operation_of_a_table_deal():
    lines, live = table_lines()
    kinds = [events.from_line(line)["t"] for line in lines]
    assert kinds.count("hand") >= 3 and "starter" in kinds and "lay" in kinds and "show" in kinds
    assert kinds.count("deal") == 1
    steps = match_script(len(lines) - 1)
    check = run_power_cuts(lines, table_fold, steps)
    before = table_fold(lines[:-1])
    assert before == live  # what the replay rebuilt is what the board had before the cut
    assert len(before[1][0]) == 6 and before[1][1] == [] and len(before[4]["acts"]) == 3
    print(
        "table power cuts: %d cut points over %d events; %d more inside recoveries; by step: %r"
        % (check.cuts, len(lines), check.recovery_cuts, check.in_flight)
    )
    assert check.cuts > 0 and check.in_flight.get("event", 0) > 0 and check.in_flight.get("keep", 0) > 0
