# `crib score`'s counting: one hand itemised, or many hands from a stream, one total a line.
import json

from rich.table import Table

from cribbage.errors import CribError
from cribbage.show import score_show
from cribbage.showtotal import score_total


def print_itemised(show, console):
    """The show as a table of its counts, the total and the words a player says."""
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("count")
    table.add_column("cards")
    table.add_column("points", justify="right")
    table.add_column("running", justify="right")
    running = 0
    for item in show.items:
        running += item.points
        d = item.to_dict()
        table.add_row(d["kind"], d["cards"], str(item.points), str(running))
    what = "crib" if show.crib else "hand"
    d = show.to_dict()
    console.print("%s %s, starter %s" % (what, d["hand"], d["starter"]))
    if show.items:
        console.print(table)
    console.print("[bold]total %d[/]" % show.total)
    console.print('"%s"' % show.spoken())


def _parse_line(text, crib):
    tokens = text.split()
    if tokens and tokens[-1].lower() == "crib":
        tokens.pop()
        crib = True
    if len(tokens) < 2:
        raise CribError("expected the hand's cards then the starter, got %s" % _quote(text))
    return tokens[:-1], tokens[-1], crib


MAX_LINE = 1000  # bytes: a hand is a few cards; anything longer is reported, not read whole
SHOWN = 40  # characters of a bad line quoted back in a message


def _quote(text):
    """A bad line as a short printable quote: control characters escaped, cut at SHOWN characters."""
    cut = text[:SHOWN]
    q = repr(cut)
    return q + ("... (%d characters)" % len(text) if len(text) > SHOWN else "")


def _lines(stream):
    """(number, text or None, problem) for each line of a text or binary stream, bounded in memory.

    Reads bytes when the stream has them (sys.stdin.buffer), so one byte that is not UTF-8 is one
    bad line, not a traceback that loses the rest; a line over MAX_LINE bytes is skipped to its end.
    """
    raw = getattr(stream, "buffer", stream)
    n = 0
    while True:
        chunk = raw.readline(MAX_LINE + 1)
        if not chunk:
            return
        n += 1
        nl = "\n" if isinstance(chunk, str) else b"\n"
        if len(chunk) > MAX_LINE and not chunk.endswith(nl):
            size = len(chunk)
            while chunk and not chunk.endswith(nl):  # drop the rest of the line, a bounded piece a time
                chunk = raw.readline(1 << 16)
                size += len(chunk)
            yield n, None, "line too long (%d bytes): a line is one hand, its starter and maybe crib" % size
            continue
        if isinstance(chunk, bytes):
            try:
                chunk = chunk.decode("utf-8")
            except UnicodeDecodeError as e:
                yield n, None, "not UTF-8 text (byte 0x%02x at column %d)" % (chunk[e.start], e.start + 1)
                continue
        yield n, chunk, None


def score_stream(lines, out, err, crib=False, five_card=False, as_json=False):
    """Score one hand a line; returns the number of bad lines (each reported on err by line number).

    Output lines match input lines one for one: a total (or a JSON object), an empty line for a
    blank or comment line, `-` (JSON: {"line", "error"}) for a bad one, so totals line up with hands.
    """
    bad = 0
    for n, line, problem in _lines(lines):
        text = line.strip() if line is not None else ""
        if problem is None and (not text or text.startswith("#")):
            out.write("\n")
            continue
        if problem is None:
            try:
                hand, starter, is_crib = _parse_line(text, crib)
                if as_json:
                    record = score_show(hand, starter, is_crib, five_card).to_dict()
                    record["line"] = n
                    out.write(json.dumps(record) + "\n")
                else:
                    out.write("%d\n" % score_total(hand, starter, is_crib, five_card))
                continue
            except CribError as e:
                problem = str(e)
                if len(problem) > 2 * SHOWN + 60:  # a message quoting a huge token stays short
                    problem = problem[: 2 * SHOWN + 60] + "..."
        bad += 1
        out.write(json.dumps({"line": n, "error": problem}) + "\n" if as_json else "-\n")
        err.write("crib score: line %d: %s\n" % (n, problem))
    return bad
