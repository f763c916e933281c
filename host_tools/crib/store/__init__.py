# The history's store: a SQLite file or a club's PostgreSQL server, its schema and its queries.
