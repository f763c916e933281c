# What keyed cards, numbers and a lone OK do in each phase of a deal: cut, starter, play, show, next deal.
# Functions of the controller (ctl) and its host's match, split from controller.py to keep both small;
# the controller owns the state, these decide what a key means now (docs/keys.md).
from cribbage.cards import format_card, pip


def context(ctl):
    """What keyed cards are for now: cut, starter, lay, show, or None."""
    m = ctl.host.match
    ph = m.phase()
    skipped = ctl.skip == (m.game_no, m.deal_no)
    if ph == "cut":
        return "cut"
    if ph == "starter":
        return "show" if skipped else "starter"
    if ph == "play":
        return "show" if skipped or not ctl.host.settings["play"] else "lay"
    if ph == "show":
        return "show"
    return None


def use_cards(ctl, ctx, now):
    m = ctl.host.match
    cards = ctl.entry.cards
    if ctx == "cut":
        ctl.commit({"t": "cut", "cards": list(cards)}, keep=True)
        if m.cut_tie:
            ctl.say("A tie: cut again")
    elif ctx == "starter":
        if ctl.commit({"t": "starter", "c": cards[0]}) and m.last_pegs:
            ctl.say("His heels:", "%s +2" % m.names[m.dealer_side])
    elif ctx == "lay":
        player = m.play_seats[m.play.turn]
        count = m.play.count + pip(cards[0])
        if ctl.commit({"t": "lay", "p": player, "c": cards[0]}):
            play_message(ctl, player, cards[0], count)
    elif ctx == "show":
        if m.muggins:
            ctl.entry.claiming = True  # the player's own count first, then the board's
            ctl.entry.digits = []
        else:
            score_show(ctl, now)
    else:
        ctl.entry.reset()
        ctl.say("No cards now")


def score_show(ctl, now):
    m = ctl.host.match
    nxt = m.next_show()
    e = ctl.entry
    if nxt is None:
        e.reset()
        ctl.say("No show now")
        return
    side, kind = nxt
    ev = {"t": "show", "s": side, "k": kind, "cards": list(e.cards)}
    if e.claiming and e.digits:
        ev["claim"] = e.number()
    e.claiming = False
    e.digits = []
    done = ctl.commit(ev, keep=True)
    if done:
        ctl.say(*ctl.host.show_lines(done))
        ctl.offer_muggins(now)


def keyed_number(ctl, n, now):
    m = ctl.host.match
    ctl.entry.reset()
    if m.phase() == "cut":
        if 1 <= n <= m.players:
            ctl.commit({"t": "dealer", "p": n - 1})
        else:
            ctl.say("Dealer: 1..%d" % m.players)
        return
    side = ctl.num_side
    hole = min(m.front[side] + n, m.target)
    ctl.propose_peg(side, n, hole, now)


def ok_alone(ctl, now):
    m = ctl.host.match
    ph = m.phase()
    if ph == "cut":
        ctl.say("Key a card each,", "OK; or 1-%d OK" % m.players, "names the dealer")
    elif ph == "starter" or ph == "play":
        if ctl.skip == (m.game_no, m.deal_no):
            ctl.say("Peg the show:", "tap, or key cards")
        else:
            ctl.skip = (m.game_no, m.deal_no)
            ctl.say("On to the show")
    elif ph == "show":
        side, kind = m.next_show()
        laid = laid_cards(ctl)
        if laid:
            # The hand's cards were keyed in the play: score them, or start the entry with them.
            ctl.entry.cards = laid
            if len(laid) == m.hand_size:
                use_cards(ctl, "show", now)
            return
        ctl.propose({"t": "peg", "s": side, "n": 0, "why": kind}, "%s %s 0?" % (m.names[side], kind))
    elif ph == "deal":
        ctl.commit({"t": "deal"})
    elif ph == "game over":
        ctl.commit({"t": "game"})
    else:
        ctl.propose({"t": "_new"}, ctl.host.new_match_note())


def laid_cards(ctl):
    """Cards the player whose hand counts next laid in this deal's play (the crib: none)."""
    m = ctl.host.match
    nxt = m.next_show()
    if nxt is None or nxt[1] != "hand" or m.play is None:
        return []
    who = m.next_shower()
    seats = m.play_seats
    return [c for seat, c in m.play.laid if seats[seat] == who]


def go(ctl, now):
    m = ctl.host.match
    player = m.play_seats[m.play.turn]
    count = m.play.count
    if ctl.commit({"t": "go", "p": player}):
        play_message(ctl, player, -1, count)


def play_message(ctl, player, card, count):
    m = ctl.host.match
    side = m.side_of(player)
    got = 0
    to = side
    for s, n, _why in m.last_pegs:
        got += n
        to = s
    what = format_card(card) if card >= 0 else "go"
    line = "%s %s" % (m.names[side], what)
    play = m.play
    if got and to != side:
        # A go scores for the last to lay, not for the player saying it (and the count is done).
        done = "play over" if play is None or play.over else "new count"
        ctl.say(line, "%s +%d" % (m.names[to], got), done)
        return
    if got:
        line += " +%d" % got
    lines = [line, "count %d" % count]
    if play is not None and play.count != count:
        lines.append("new count" if not play.over else "play over")
    elif play is not None and play.over:
        lines.append("play over")
    ctl.say(*lines)


# ---- taps and proposals -----------------------------------------------------------------


def default_side(ctl):
    m = ctl.host.match
    nxt = m.next_show()
    if nxt is not None and context(ctl) == "show":
        return nxt[0]
    if m.play is not None and m.play.turn is not None and m.phase() == "play":
        return m.side_of(m.play_seats[m.play.turn])
    return 0


def why(ctl, side):
    m = ctl.host.match
    ph = m.phase()
    skipped = ctl.skip == (m.game_no, m.deal_no)
    if ph == "show" or (skipped and (ph == "starter" or ph == "play")):
        nxt = m.next_show()
        if nxt is not None and nxt[0] == side:
            return nxt[1]
        return "manual"
    if ph == "starter" or ph == "play":
        return "play"
    return "manual"
