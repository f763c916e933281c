# Pure queries about the deal in force: what keyed cards are for now, whose turn it is, why a peg scores.
# Each takes the match (and the settings, and `skip`: the (game_no, deal_no) in which the players chose
# to go on to the show by hand), never the controller; the controller acts on the answers.


def skipped(m, skip):
    """The players went on to the show by hand in this deal."""
    return skip is not None and skip[0] == m.game_no and skip[1] == m.deal_no


def context(m, settings, skip):
    """What keyed cards are for now: "cut", "starter", "lay", "show", or None."""
    ph = m.phase()
    if ph == "cut":
        return "cut"
    if ph == "starter":
        return "show" if skipped(m, skip) else "starter"
    if ph == "play":
        return "show" if skipped(m, skip) or not settings["play"] else "lay"
    if ph == "show":
        return "show"
    return None


def player_to_lay(m):
    """The player whose turn it is in the play."""
    return m.play_seats[m.play.turn]


def laid_cards(m):
    """Cards the player whose hand counts next laid in this deal's play (the crib: none)."""
    nxt = m.next_show()
    if nxt is None or nxt[1] != "hand" or m.play is None:
        return []
    who = m.next_shower()
    seats = m.play_seats
    return [c for seat, c in m.play.laid if seats[seat] == who]


def default_side(m, ctx):
    """The side keyed points go to unless MENU picks another: the hand counting next, the player to lay."""
    nxt = m.next_show()
    if nxt is not None and ctx == "show":
        return nxt[0]
    if m.play is not None and m.play.turn is not None and m.phase() == "play":
        return m.side_of(player_to_lay(m))
    return 0


def why(m, side, skip):
    """The reason a peg of side's is journalled with: the show it counts, the play, or manual."""
    ph = m.phase()
    if ph == "show" or (skipped(m, skip) and (ph == "starter" or ph == "play")):
        nxt = m.next_show()
        if nxt is not None and nxt[0] == side:
            return nxt[1]
        return "manual"
    if ph == "starter" or ph == "play":
        return "play"
    return "manual"


def leader(m):
    """The side furthest ahead: the one a tap of the game hole is for."""
    best = 0
    for s in range(m.sides):
        if m.front[s] > m.front[best]:
            best = s
    return best
