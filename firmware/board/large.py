# Large print: the display's rows laid out again with the scores, the play's count and the points big.
# Loaded only while the setting is on (start.py at boot, display.large_print when it is switched on).
# A big row is a row whose first character is its width scale: "\x01" (16 characters of 8 x 24 px),
# "\x02" (8 of 16 x 24) or "\x03" (5 of 24 x 24). It covers its text row and the two under it, which are
# "" (the HAL draws it: hal/bigtext.py; the sim's terminal: sim/term.py).
from board.deal import P_PEG
from board.display import COLS, ROWS

_ABOVE = ROWS - 1  # the rows above the prompt
_PAGE = _ABOVE - 1  # the rows a page of a message may take: the status row says how to turn it


def big(text):
    """The row of text in the largest size that fits: 5 characters 3 columns wide, 8 two, else 16."""
    text = " ".join(text.split())  # a count's row is padded to the small width: not at 2 or 3 wide
    n = len(text)
    return ("\x03" if n <= 5 else "\x02" if n <= 8 else "\x01") + text[:COLS]


def _height(row):
    return 3 if row and row < " " else 1


def _lines(lines):
    """A message's lines as rows. An itemised count (display.show_lines: its head "P2 hand 23", after
    the winner's line if it won the game) all big, a line a page; else the lines that end in points
    ("P1 TH +2", display.play_lines; "P1 +2" for his heels) big, and the count under a lay
    ("count 15") when the whole still fits one page, so MENU is still go in the play."""
    for x in lines[:2]:
        w = x.split()
        if len(w) > 2 and (w[-2] == "hand" or w[-2] == "crib") and w[-1].isdigit():
            return [big(x) for x in lines]
    rows = []
    h = 0
    for x in lines:
        w = x.split()
        if w and w[-1][:1] == "+" and w[-1][1:].isdigit():
            x = big(x)
        rows.append(x)
        h += _height(x)
    if rows and rows[-1][:6] == "count " and h + 2 <= _ABOVE:
        rows[-1] = big(rows[-1])
    return rows


def _chunks(rows):
    """(first, end) of each page's share of rows after the head, which every page repeats: one page
    when all fit above the prompt, else as many as fit with the head in _PAGE rows."""
    heights = [_height(r) for r in rows]
    if sum(heights) <= _ABOVE:
        return [(1, len(rows))]
    room = _PAGE - heights[0]
    out = []
    first = 1
    used = 0
    for i in range(1, len(rows)):
        if used and used + heights[i] > room:
            out.append((first, i))
            first = i
            used = 0
        used += heights[i]
    out.append((first, len(rows)))
    return out


def pages(lines):
    """How many pages a message takes in large print (Controller._pages: MENU turns them)."""
    return len(_chunks(_lines(lines)))


def _scores(match, out):
    """The names row, small (each side's dealer mark from display.rows' score row and its name), and
    under it the points in big digits: two sides 16 x 24 px, three 8 x 24 (three 3-digit scores fit)."""
    n = match.sides
    w = COLS // n
    names = ""
    points = ""
    for s in range(n):
        name = match.names[s]
        row = out[s]
        at = row.find(name[:9])
        field = w if s < n - 1 else COLS - w * (n - 1)
        text = ((row[:at] if at > 0 else "") + name)[:field]
        names += text + " " * (field - len(text))
        # the side to move (display.to_move: "> " before its points) marked as big as its points
        pts = (">" if row.find("> ", max(at, 0) + len(name[:9])) > 0 else " ") + str(match.front[s])
        size = w // 2 if n == 2 else field
        points += pts + " " * (size - len(pts))
    return [names, ("\x02" if n == 2 else "\x01") + points, "", ""]


def rows(match, c, out, body, hint, paged, k):
    """display.rows in large print, from what it made: out (the score rows and the status row), body,
    hint, and paged/k (a message longer than the display, page k). The scores big with the status row
    when the body leaves room, else the scores small (display.rows' rows), else neither (a count's
    page, a big peg three-handed); a fault, or how to turn a page, is never dropped."""
    n = match.sides
    status = out[n]
    must = bool(c.fault or c.stuck)
    if paged is not None:
        lines = _lines(paged)
        chunks = _chunks(lines)
        k %= len(chunks)
        first, end = chunks[k]
        body = lines[:1] + lines[first:end]
        if len(chunks) > 1 and not must:
            status = "MENU=more %d/%d" % (k + 1, len(chunks))
            must = True
    elif c.menu < 0 and c.pending is not None and c.pending.kind == P_PEG and c.pending.ev is not None:
        body = [big("+%d" % c.pending.ev["n"])] + body  # the peg's points, over its words
    elif c.menu < 0 and body and body[0].startswith("count "):
        body = [big(body[0])]  # the play's count (the cards of the count are on the table)
    h = 0
    for r in body:
        h += _height(r)
    scores = _scores(match, out)
    small = out[:n]
    top = []
    shown = must  # nothing fits whole: the body is cut under the status row if it must be there
    for tried, said in ((scores, True), (scores, False), (small, True), (small, False), (top, True)):
        if (said or not must) and len(tried) + said + h <= _ABOVE:
            top, shown = tried, said
            break
    rows = top + ([status] if shown else [])
    for r in body:
        if _height(r) > 1:
            if len(rows) + 3 > _ABOVE:
                r = r[1:]  # no room left for it big: small
            else:
                rows += [r, "", ""]
                continue
        rows.append(r[:COLS])
    rows = rows[:_ABOVE]
    while len(rows) < _ABOVE:
        rows.append("")
    rows.append(hint[:COLS])
    return rows
