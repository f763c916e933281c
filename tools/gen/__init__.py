# Generators of committed firmware modules (python -m tools.gen.NAME): the crib tables, the show total's
# rank table and the record types' const copies; a test fails while what they write is stale.
