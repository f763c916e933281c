# `crib export`: the history as CSV (one row per score) or JSON (games with their scores and events).
import csv
import json
import os
import tempfile

from crib.history.report import item_parts, item_text
from crib.store import db, schema
from crib.untrusted import printable

CSV_FIELDS = (
    "game",
    "board",
    "match_no",
    "game_no",
    "form",
    "seq",
    "deal_no",
    "side",
    "name",
    "kind",
    "points",
    "front",
    "cards",
    "items",
    "flagged",
)


def csv_rows(con):
    for g in db.games(con):
        for r in db.scores(con, g["id"]):
            row = {k: g[k] for k in ("board", "match_no", "game_no", "form", "flagged")}
            row.update({k: r[k] for k in ("seq", "deal_no", "side", "kind", "points", "front", "cards")})
            row["game"] = g["id"]
            row["name"] = g["names"][r["side"]]
            row["items"] = item_text(r["items"], "; ")  # cards as cards: fifteen 2 (5H JD)
            yield row


FORMULA_LEAD = ("=", "+", "-", "@", "\t", "\r")  # a spreadsheet reads a cell starting so as a formula


def cell(value):
    """A CSV cell a spreadsheet shows as text: a string led by = + - @ tab or CR gets a leading
    apostrophe (OWASP's advice for CSV injection), and control characters (escape sequences from a
    history an older crib stored) are written as \\xNN; numbers stay numbers (a fix of -2 is -2)."""
    if isinstance(value, str):
        return printable("'" + value if value.startswith(FORMULA_LEAD) else value)
    return value


def write_csv(con, out):
    w = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
    w.writeheader()
    n = 0
    for row in csv_rows(con):
        w.writerow({k: cell(v) for k, v in row.items()})
        n += 1
    return n


def as_json(con):
    """Every game with its scores and the raw events (board, seq) that made it."""
    out = []
    for g in db.games(con):
        g = dict(g)
        g["flag"] = g["flag"].split("\n") if g["flag"] else []
        keys = ("seq", "deal_no", "side", "kind", "points", "front", "cards", "items")
        g["scores"] = [
            dict({k: r[k] for k in keys}, items=[_item(it) for it in r["items"]])
            for r in db.scores(con, g["id"])
        ]
        g["events"] = [
            {"seq": s, "event": e}
            for s, e in db.events(con, g["board"], g["first_seq"])
            if s <= g["last_seq"]
        ]
        out.append(g)
    return {"schema": schema.VERSION, "games": out}


def _item(it):
    reason, points, cards = item_parts(it)
    return {"kind": reason, "points": points, "cards": cards} if cards else {"kind": reason, "points": points}


def write_json(con, out):
    data = as_json(con)
    json.dump(data, out, indent=1)
    out.write("\n")
    return len(data["games"])


def write_file(path, write):
    """`write(f)` into a temporary file beside `path`, renamed over it only once whole: an export
    that fails half way (a full disk, Ctrl-C, a damaged history) leaves the previous file as it was."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        mode = os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        mask = os.umask(0)
        os.umask(mask)
        mode = 0o666 & ~mask
    fd, part = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".", suffix=".part")
    try:
        with os.fdopen(fd, "w", newline="", encoding="utf-8") as f:
            n = write(f)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(part, mode)
        os.replace(part, path)
    except BaseException:
        os.unlink(part)
        raise
    return n
