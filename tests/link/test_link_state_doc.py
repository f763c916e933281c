# docs/protocol.md and crib watch name what the board's link declares (board/link/): ops, state fields.
import json
import os
import re

from match_script import match_events

from board import link as L
from board.link import state_of
from cribbage.game import Match

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _read(rel):
    with open(os.path.join(ROOT, rel)) as f:
        return f.read()


def _sent():
    """{field: its sub-fields} of every state the board sends over a three-game match, event by event."""
    fields = {}
    m = None
    for ev in match_events(seed=1):
        if m is None:
            m = Match(ev)
        else:
            m.apply(ev)
        for name, value in json.loads(json.dumps(state_of(m))).items():
            fields.setdefault(name, set()).update(value if isinstance(value, dict) else ())
    return fields


def test_the_protocol_page_has_a_section_for_each_declared_op_and_no_other():
    doc = _read("docs/protocol.md")
    part = doc[doc.index("\n## Requests and replies\n") :]
    part = part[: part.index("\n## ", 1)]
    ops = [op for head in re.findall(r"^### (.*)$", part, re.M) for op in re.findall(r"`(\w+)`", head)]
    assert sorted(ops) == sorted(L._OPS), ops


def test_the_protocol_page_lists_each_state_field_the_board_sends_and_no_other():
    doc = _read("docs/protocol.md")
    part = doc[doc.index("\n### `state`\n") :]
    part = part[: part.index("\n### ", 1)]
    rows = re.findall(r"^\| (`.*?) \| (.*) \|$", part, re.M)
    listed = [name for first, _ in rows for name in re.findall(r"`(\w+)`", first)]
    sent = _sent()
    assert sorted(listed) == sorted(sent), (listed, sorted(sent))
    play = [what for first, what in rows if first == "`play`"][0]
    assert sorted(re.findall(r'"(\w+)"', play)) == sorted(sent["play"])


def test_crib_watch_reads_only_state_fields_the_board_sends():
    # watch reads the state with .get(): a field the board does not send would show as None, silently.
    src = _read("host_tools/crib/watch.py")
    read = set(re.findall(r'\bstate(?:\.get\(|\[)"(\w+)"', src))
    sent = _sent()
    assert read and sorted(read - set(sent)) == [], sorted(read - set(sent))
    in_play = set(re.findall(r'\bplay(?:\.get\(|\[)"(\w+)"', src))
    assert in_play and sorted(in_play - sent["play"]) == []
