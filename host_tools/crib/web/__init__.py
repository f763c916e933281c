# `crib serve`'s web app: the room's live scoreboard, its pages' templates and files, and its connection gate.
