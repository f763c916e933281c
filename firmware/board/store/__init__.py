# The board's store on flash: the journal (journal.py), what its open() does with a damaged file
# (salvage.py, loaded only then) and the commit that keeps the match and its journal the same (commit.py).
