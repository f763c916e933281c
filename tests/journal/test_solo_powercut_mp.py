# Power cuts on real littlefs against the board: cut at every flash operation, the deal resumes exactly.
#
# The harness is test_journal_powercut_mp.py's (every program and erase, whole and half done, and the
# recovery's own writes cut too). Here the script is a solo deal as the board journals it: the set-up
# with its sealed seed, the board's cut, both throws, the starter, every lay and go, the counts, the
# next deal's throws, and the next match's set-up after the end-of-match compaction. The state a
# replay must give before or after the step in flight includes what the journal never holds in
# clear: both hands as dealt, what each player still holds, the crib, and the board's next move.
import gc

from game_kit import state
from soloplay import KEY, new_match, play
from test_journal_powercut_mp import match_script, replayed, run_power_cuts

from cribbage import events, solo


def solo_lines():
    """A solo match's journal lines through its first deal and to the board's throw in the second,
    then a new set-up."""
    gc.collect()
    m = new_match(86420, muggins=True)
    done = play(m, stop=lambda m: m.deal_no == 2 and solo.thrown(m)[1], claim=0)
    lines = [events.to_line(m.setup)] + [events.to_line(ev) for ev in done]
    lines.append(events.to_line(events.setup()))  # the next match: an ordinary one
    return lines, _view(m)


def _view(m):
    # The state, and what the board knows of the deal in force that the journal holds only sealed.
    d = solo.dealt(m)
    hidden = None
    if d is not None:
        hidden = (
            [list(h) for h in d[0]],
            d[2],
            solo.held(m, 0),
            solo.held(m, 1),
            solo.crib(m),
            solo.thrown(m),
        )
    return (state(m), hidden, solo.next_move(m))


def solo_fold(lines):
    """The match state and the hidden cards after a boot's replay of lines (None: no match). The seed
    is given back by the key, as the board's solo code does once the journal is replayed."""
    m = replayed(lines)
    if m is None:
        return None
    if "solo" not in m.setup:
        return (state(m), None)
    solo._seeds.clear()
    solo.register(m.setup["solo"], solo.unseal(m.setup["solo"], KEY))
    return _view(m)


def test_power_cut_at_every_flash_operation_of_a_solo_deal():
    lines, live = solo_lines()
    kinds = [events.from_line(line)["t"] for line in lines]
    assert "throw" in kinds and "starter" in kinds and "lay" in kinds and "show" in kinds
    assert kinds.count("deal") == 1 and kinds[-2] == "throw"
    steps = match_script(len(lines) - 1)
    check = run_power_cuts(lines, solo_fold, steps)
    # The states the cuts were checked against knew the deal: here the player holds six, the board
    # four, and the board waits for the player's throw.
    before = solo_fold(lines[:-1])
    assert before == live  # what the replay rebuilt is what the board had before the cut
    assert before[1] is not None and len(before[1][2]) == 6 and len(before[1][3]) == 4 and before[2] is None
    print(
        "solo power cuts: %d cut points over %d events; %d more inside recoveries; by step: %r"
        % (check.cuts, len(lines), check.recovery_cuts, check.in_flight)
    )
    assert check.cuts > 0 and check.in_flight.get("event", 0) > 0 and check.in_flight.get("keep", 0) > 0
