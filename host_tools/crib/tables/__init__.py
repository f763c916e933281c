"""Remote tables: a game between seats in different homes, its state in the club server's database."""
