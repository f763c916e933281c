# Talking to a board: finding its port, the link protocol, and the hub that shares one board among cribs.
