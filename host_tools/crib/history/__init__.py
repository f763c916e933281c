# The history read and written: the board's events synced in, replayed into games, and every view of them.
