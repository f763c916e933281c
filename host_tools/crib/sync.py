# `crib sync`: copy the board's new events into SQLite, page by page, so a cut sync resumes where it stopped.
from crib import db
from crib.client import LinkError

# More events than any board's flash holds at once (a Pico's 1.4 MB of littlefs is about 30,000
# events at 48 bytes each): a board claiming more is not believed.
BOARD_MAX_EVENTS = 200_000


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

    def __str__(self):
        text = "board %s: %d new events (seq %d..%d), %d pages" % (
            self.board, self.added, self.start, max(self.start, self.end - 1), self.pages)
        if self.missing:
            text += "; seqs %d..%d were gone from the board before this laptop saw them" % self.missing
        if self.behind:
            text += "; the board's journal ends before this database's (a reflashed board?)"
        return text


def sync(client, con, progress=None, page=64):
    """Fetch every event the database lacks from the board behind `client`; returns a SyncReport.

    Each page is committed on its own: stop anywhere (cable, Ctrl-C, a board reset) and the next
    sync asks from the highest seq stored. (board, seq) is the primary key, so a page fetched twice
    adds nothing.
    """
    hello = client.hello or client.connect()
    board = hello["board"]
    db.note_board(con, hello)
    report = SyncReport(board)
    start = db.next_seq(con, board)
    report.start = max(start, hello.get("first", 0))
    report.end = hello["next"]
    if start > hello["next"]:
        report.behind = True
        return report
    first = hello.get("first", 0)
    if hello["next"] - max(start, first) > BOARD_MAX_EVENTS:
        raise LinkError("the board says it holds events %d..%d, more than a board's flash can: stopped"
                        % (max(start, first), hello["next"] - 1))
    if start < first and db.count_events(con, board):
        report.missing = (start, first - 1)
    if progress:
        progress(start, report.end)
    # Up to the end the board gave at hello: events played meanwhile wait for the next sync, and a
    # board inventing events or pages cannot make this one endless.
    for reply in client.iter_pages(start, page, stop=hello["next"]):
        report.pages += 1
        report.received += len(reply["events"])
        report.added += db.add_events(con, board, reply["events"])
        report.end = reply["end"]
        if progress:
            progress(reply["next"], reply["end"])
    return report
