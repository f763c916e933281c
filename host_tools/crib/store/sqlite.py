# The history in a SQLite file: a writer's is made with its folder, a reader's is opened read-only.
import os
import sqlite3
from urllib.parse import quote


def connect(path, readonly=False):
    """A connection to the file at `path` (a reader's never creates it); the caller checks the schema."""
    if readonly and path != ":memory:":
        con = sqlite3.connect("file:%s?mode=ro" % quote(os.path.abspath(path)), uri=True)
    else:
        if path != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        con = sqlite3.connect(path)
    con.row_factory = sqlite3.Row
    return con
