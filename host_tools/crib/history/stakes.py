# `crib stakes`' ledger for those who play for points or pennies, from the history and laptop settings.
import json
import os

from crib.history.stats import key
from crib.store import address, db

DEFAULTS = {"per_game": 1.0, "per_point": 0.0, "skunk": 2.0, "double": 3.0, "unit": ""}
HELP = {
    "per_game": "what a lost game costs",
    "per_point": "what each point the loser is short costs",
    "skunk": "multiplier when the loser is skunked",
    "double": "multiplier when double skunked",
    "unit": "shown before amounts, e.g. $ or p",
}


def settings_path(db_path=None):
    """$CRIB_STAKES, else stakes.json beside the history database (the laptop's, never the board's)."""
    if os.environ.get("CRIB_STAKES"):
        return os.environ["CRIB_STAKES"]
    path = db_path or db.default_path()
    if address.is_url(path):  # a PostgreSQL history: the laptop's settings stay in its own folder
        path = db.default_path()
    return os.path.join(os.path.dirname(os.path.abspath(path)), "stakes.json")


def load(path):
    out = dict(DEFAULTS)
    if os.path.exists(path):
        with open(path) as f:
            saved = json.load(f)
        if isinstance(saved, dict):
            out.update({k: v for k, v in saved.items() if k in DEFAULTS})
    return out


def change(path, pairs):
    """Apply 'name=value' pairs to the settings file; ValueError naming a bad one, nothing written."""
    cur = load(path)
    for pair in pairs:
        name, sep, value = pair.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or name not in DEFAULTS:
            raise ValueError("%r: say NAME=VALUE, NAME one of %s" % (pair, ", ".join(DEFAULTS)))
        if name == "unit":
            if len(value) > 8:
                raise ValueError("unit: at most 8 characters")
            cur[name] = value
            continue
        try:
            number = float(value)
        except ValueError:
            raise ValueError("%s: %r is not a number" % (name, value)) from None
        if not 0 <= number <= 1e6 or number != number:
            raise ValueError("%s: %r is out of range (0..1000000)" % (name, value))
        cur[name] = number
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        json.dump(cur, f, indent=1)
    return cur


def amount(game, st):
    """What the loser of a finished two-sided game pays the winner under settings `st`."""
    w = game["winner"]
    loser = 1 - w
    short = game["final"][w] - game["final"][loser]
    mult = {"skunk": st["skunk"], "double": st["double"]}.get(game["skunk"][loser], 1.0)
    return round((st["per_game"] + st["per_point"] * short) * mult, 2)


def ledger(con, st):
    """[(game row, winner, loser, amount, pair key, running balance of the pair's first name)]: each finished
    two-sided game, oldest first; a balance is what the pair's second player owes the first."""
    rows = []
    balance = {}
    for g in db.games(con):
        if not g["over"] or len(g["names"]) != 2 or g["winner"] is None:
            continue
        win, lose = g["names"][g["winner"]], g["names"][1 - g["winner"]]
        pair = tuple(sorted((key(win), key(lose))))
        pay = amount(g, st)
        balance[pair] = round(balance.get(pair, 0.0) + (pay if key(win) == pair[0] else -pay), 2)
        rows.append((g, win, lose, pay, pair, balance[pair]))
    return rows
