# `crib sync`: the board's new events into SQLite page by page; events served again compared; set-asides kept.
from crib.link.client import LinkError, Refused
from crib.store import db
from cribbage.journal import parse

# More events than any board's flash holds at once (a Pico's 1.4 MB of littlefs is about 30,000
# events at 48 bytes each): a board claiming more is not believed.
BOARD_MAX_EVENTS = 200_000
OVERLAP = 4096  # stored events the board still holds that a sync reads again, to compare
ASIDE_MAX = 1 << 20  # bytes of one set-aside file fetched at most (a board's flash holds 1.4 MB)


class SyncReport:
    def __init__(self, board):
        self.board = board
        self.start = 0  # first seq asked for
        self.end = 0  # the board's next seq when the sync ended
        self.added = 0  # events new to the database
        self.received = 0  # events received (re-sent ones included)
        self.pages = 0
        self.missing = None  # (first, last) seqs the board no longer holds and the database lacks
        self.behind = False  # the board's journal ends before the database's: another board with this id?
        self.again = []  # seqs the board served again with other content (both kept)
        self.quarantined = 0  # set-aside lines newly stored
        self.quarantined_valid = 0  # of them, records whose checksum holds
        self.acked = None  # type: int | None  # the seq the board was told is stored (None: an older board)
        self.changed = None  # type: int | None  # the lowest seq stored or served again by this sync

    def __str__(self):
        text = "board %s: %d new event%s (seq %d..%d), stored in %d batch%s" % (
            self.board,
            self.added,
            "" if self.added == 1 else "s",
            self.start,
            max(self.start, self.end - 1),
            self.pages,
            "" if self.pages == 1 else "es",
        )
        if self.missing:
            text += "; seqs %d..%d were gone from the board before this laptop saw them" % self.missing
        if self.behind:
            text += "; the board's journal ends before this database's (a reflashed board?)"
        if self.again:
            seqs = ", ".join(str(s) for s in self.again[:8]) + (", ..." if len(self.again) > 8 else "")
            text += (
                "; WARNING: %d events served again with other content (seq %s): both kept, their "
                "games flagged" % (len(self.again), seqs)
            )
        if self.quarantined:
            text += "; %d lines the board set aside stored as quarantined (%d intact records)" % (
                self.quarantined,
                self.quarantined_valid,
            )
        return text


def sync(client, con, progress=None, page=64):
    """Fetch every event the database lacks from the board behind `client`; returns a SyncReport.

    What arrives is stored as it arrives, a page (`page` records) a transaction: stop anywhere
    (cable, Ctrl-C, a board reset) and the next sync asks from the highest seq stored, so each try
    on a flaky link moves on. (board, seq) is the primary key, so a page fetched twice adds nothing.
    Once the new events are in, the stored events the board still holds (up to OVERLAP of them) are
    read again and compared, a page a query: one served with other content is kept beside the first
    (db.served_again), and one missing (a line lost on the way) is stored. Then the board's set-aside
    files are stored as quarantined, and the board is told which seqs are stored (`ack`), so it may
    drop them at its next new match. `report.changed` is the lowest seq whose game must be replayed;
    a LinkError carries the report of what was stored before it as its `report`.
    """
    hello = client.hello or client.connect()
    db.note_board(con, hello)
    report = SyncReport(hello["board"])
    try:
        return _sync(client, con, hello, report, progress, page)
    except LinkError as e:
        e.report = report  # pyright: ignore[reportAttributeAccessIssue]
        raise


def _sync(client, con, hello, report, progress, page):
    board = report.board
    start = db.next_seq(con, board)
    report.start = max(start, hello.get("first", 0))
    report.end = hello["next"]
    if start > hello["next"]:
        report.behind = True
        return report
    first = hello.get("first", 0)
    if hello["next"] - max(start, first) > BOARD_MAX_EVENTS:
        raise LinkError(
            "the board says it holds events %d..%d, more than a board's flash can: stopped"
            % (max(start, first), hello["next"] - 1)
        )
    if start < first and db.count_events(con, board):
        report.missing = (start, first - 1)
    read_from = max(first, start) if start else 0  # an empty history asks from 0: the board says from where
    if progress:
        progress(read_from, report.end)
    # Up to the end the board gave at hello: events played meanwhile wait for the next sync, and a
    # board inventing events or pages cannot make this one endless.
    last = None
    gone_before = first  # the board's first seq on the last page: events before it are gone
    end = hello["next"]
    for reply in _pages(client, read_from, page, end, to=end) if read_from < end else ():
        report.pages += 1
        _store(con, board, reply["events"], report)
        report.end = reply["end"]
        last = reply["next"] - 1
        gone_before = reply.get("first", gone_before)
        if progress:
            progress(reply["next"], reply["end"])
    _check_complete(report, read_from if last is None else last + 1, hello["next"], gone_before)
    again_from = max(first, start - OVERLAP)
    if start and again_from < read_from:
        for reply in _pages(client, again_from, page, hello["next"], to=read_from):
            _store(con, board, reply["events"], report)
    acked = hello.get("acked")
    if isinstance(acked, int) and not isinstance(acked, bool):  # a firmware with ack and set-aside files
        _fetch_aside(client, con, board, report)
        top = hello["next"] - 1  # every seq to there is stored (_check_complete), by this try or the last
        if acked < top and db.next_seq(con, board) > top:
            report.acked = client.request("ack", seq=top).get("acked")
    return report


def _store(con, board, items, report):
    """One page into the database (db.add_events); notes what it changed in the report."""
    report.received += len(items)
    again = len(report.again)
    new = []
    report.added += db.add_events(con, board, items, again=report.again, new=new)
    changed = new + report.again[again:]
    if changed:
        low = min(changed)
        report.changed = low if report.changed is None else min(report.changed, low)


def _pages(client, start, page, stop, to=None):
    """The board's records as a stream (op `records`) up to `stop` (hello's next) or `to`, or page
    by page (op `events`) from a board that does not know the stream (it answers `op`): both yield
    the same pages, a page every `page` records. A stream the board ended early (its journal was
    written anew meanwhile) is asked again from where it stopped."""
    end = stop if to is None else min(stop, to)
    while True:
        stream = client.iter_records(start, stop, batch=page, to=to)
        try:
            reply = next(stream)
        except Refused as e:
            if e.code != "op":
                raise
            yield from client.iter_pages(start, page, stop=end)
            return
        yield reply
        for reply in stream:
            yield reply
        if not reply["more"] or reply["next"] >= end or reply["next"] <= start:
            return
        start = reply["next"]


def _check_complete(report, got_to, announced, gone_before):
    """LinkError when the board stopped serving before the end it announced at hello: an empty page
    or `more: false` early must not read as a finished sync (what came is stored and committed)."""
    if got_to >= announced:
        return
    if isinstance(gone_before, int) and gone_before > got_to:  # dropped by the board meanwhile
        report.missing = (got_to, min(gone_before, announced) - 1)
        return
    raise LinkError(
        "the board announced events up to seq %d but stopped serving at seq %d: the sync is "
        "incomplete (%d new event%s stored); run crib sync again"
        % (announced - 1, got_to, report.added, "" if report.added == 1 else "s")
    )


def _fetch_aside(client, con, board, report):
    """Store the lines of the board's set-aside files this database lacks (an older board has none)."""
    try:
        files = client.request("aside").get("aside")
    except Refused as e:
        if e.code == "op":
            return
        raise
    if not isinstance(files, list):
        raise LinkError("the board's set-aside list is not a list: stopped")
    for f in files[:32]:
        name = f.get("name") if isinstance(f, dict) else None
        size = f.get("size") if isinstance(f, dict) else None
        if not isinstance(name, str) or len(name) > 64 or not isinstance(size, int) or size < 0:
            raise LinkError("the board's set-aside list names no sensible file: stopped")
        at = db.aside_fetched(con, board, name)
        data = bytearray()
        pos = at
        while pos < min(size, at + ASIDE_MAX):
            r = client.request("aside", name=name, **{"from": pos})
            try:
                chunk = bytes.fromhex(r["data"]) if isinstance(r.get("data"), str) else b""
            except ValueError:
                raise LinkError("the board's set-aside page is not hex: stopped") from None
            if not chunk:
                break
            data += chunk
            pos += len(chunk)
        lines = parse_aside(at, bytes(data))
        report.quarantined += db.add_quarantined(con, board, name, lines)
        valid = [line[2] for line in lines if line[3]]
        report.quarantined_valid += len(valid)
        if valid:  # an intact record set aside flags its game: replayed
            report.changed = min(valid + ([] if report.changed is None else [report.changed]))


def parse_aside(at, data):
    """[(offset, size, seq or None, checksum holds, text)] of the whole lines in data (read from
    byte `at` of a set-aside file); a last line without its newline waits for the next sync."""
    out = []
    pos = 0
    while True:
        nl = data.find(b"\n", pos)
        if nl < 0:
            return out
        raw = data[pos:nl]
        seq, valid = _record(raw)
        out.append((at + pos, nl + 1 - pos, seq, valid, raw.decode("utf-8", "backslashreplace")))
        pos = nl + 1


def _record(raw):
    """(seq, whether it is an intact record) of a line of a set-aside file (cribbage.journal's record
    line): seq None when the line does not start with one."""
    seq, _, why = parse(raw)
    return (None if seq < 0 else seq), not why
