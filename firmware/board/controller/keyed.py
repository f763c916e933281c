# What keyed cards, numbers and a lone OK mean in each phase of the deal: the cut, the starter, the
# play (laid on the keypad or pegged on the holes), the show. Part of the controller
# (board/controller/, a base class of Controller): its contract, state and dependencies are written
# once, in Controller's docstring; these methods use them and decide nothing else.
# pyright: reportAttributeAccessIssue=false
# (Keyed's state and helpers are Controller's, its one subclass: pyright cannot see a base class's host.)
from board import deal, display
from board.deal import P_EVENT, Pending
from cribbage.cards import pip
from cribbage.errors import CribError


class Keyed:
    """The controller's keying: Controller's contract (its docstring) is this class's."""

    def _rank(self, r):
        fresh = not self.entry.active()
        refused = self.entry.rank_key(r)
        if refused:
            self.say(*refused)
        elif fresh:
            self.num_side = deal.default_side(
                self.book.match, deal.context(self.book.match, self.settings, self.skip)
            )

    def _suit(self, s, now):
        c, refused = self.entry.suit_key(s)
        if refused:
            self.say(*refused)
        if c >= 0:
            ctx = deal.context(self.book.match, self.settings, self.skip)
            if ctx == "starter" or ctx == "lay" or ctx == "peg":
                self._use_cards(ctx, now)
            elif ctx == "show":
                why = display.not_shown(self.book.match, self.entry.cards)
                if why:
                    self.entry.cards.pop()  # refused as keyed, not at OK: the cards before it stay
                    self.say(*display.wrap(why))

    def _ok(self, now):
        e = self.entry
        if e.claiming:
            self._score_show(now)
            return
        n = e.number()
        m = self.book.match
        if n >= 0:
            e.reset()
            if m.phase() != "cut":  # keyed points: proposed for the side MENU picked
                side = self.num_side
                self.propose_peg(side, n, min(m.front[side] + n, m.target), now)
            elif 1 <= n <= m.players:  # at the cut: the player number names the dealer
                self.commit({"t": "dealer", "p": n - 1})
            else:
                self.say("Dealer: 1..%d" % m.players)
        elif e.rank >= 0:
            self.say("Finish the card:", "key its suit")
        elif e.cards:
            self._use_cards(deal.context(m, self.settings, self.skip), now)
        else:
            self._ok_alone(now)

    # ---- what keyed cards, numbers and a lone OK do in each phase of the deal ---------------

    def _use_cards(self, ctx, now):
        m = self.book.match
        cards = self.entry.cards
        if ctx == "cut":
            self.commit({"t": "cut", "cards": list(cards)}, keep=True)
            if m.cut_tie:
                self.say("A tie: cut again")
        elif ctx == "starter" or ctx == "peg":
            if self.commit({"t": "starter", "c": cards[0]}) and m.last_pegs:
                self.say("His heels:", "%s +2" % m.names[m.dealer_side])
        elif ctx == "lay":
            player = m.play_seats[m.play.turn]
            count = m.play.count + pip(cards[0])
            if self.commit({"t": "lay", "p": player, "c": cards[0]}):
                self.say(*display.play_lines(m, player, cards[0], count))
        elif ctx == "show":
            if m.muggins:
                nxt = m.next_show()
                try:
                    # Cards the show would refuse (a 3-card crib, a card laid by another) are refused
                    # now, not after the player has keyed a count for them.
                    if nxt is not None:
                        m.check({"t": "show", "s": nxt[0], "k": nxt[1], "cards": list(cards)})
                except CribError as e:
                    self.say(*display.wrap(str(e.args[0]) if e.args else "refused"))
                    return
                self.entry.claiming = True  # the player's own count first, then the board's
                self.entry.digits = []
            else:
                self._score_show(now)
        else:
            self.entry.reset()
            self.say("No cards now")

    def _score_show(self, now):
        m = self.book.match
        nxt = m.next_show()
        e = self.entry
        if nxt is None:
            e.reset()
            self.say("No show now")
            return
        ev = {"t": "show", "s": nxt[0], "k": nxt[1], "cards": list(e.cards)}
        if e.claiming and e.digits:
            ev["claim"] = e.number()
        claimed = "claim" in ev
        e.claiming = False
        e.digits = []
        done = self.commit(ev, keep=True)
        if done:
            self.say(*display.show_lines(m, done))
            self.pending = deal.muggins(m) or self.pending  # the points it missed, claimed
        elif claimed:
            e.claiming = True  # a claim too high: key the count again (UNDO leaves the claim first)

    def _ok_alone(self, now):
        m = self.book.match
        a = self.advising
        kept = a.show(m) if a is not None and deal.context(m, self.settings, self.skip) == "show" else None
        if kept is not None:
            self.entry.cards = list(kept)  # the hand kept in the advice, scored
            self._use_cards("show", now)
            return
        ph = m.phase()
        if ph == "cut":
            self.say("Key a card each,", "OK; or 1-%d OK" % m.players, "names the dealer")
        elif ph == "starter" or ph == "play":
            lvl = deal.level(m, self.skip)
            if lvl == 2:
                self.say("Peg the show:", "tap, or key cards")
            elif ph == "starter" and not lvl:
                # No starter keyed: the play is pegged on the holes (taps are play points, the show
                # order untouched) until a second OK goes on to the show.
                self.skip = (m.game_no, m.deal_no, 1, m.count)
                self.say("Peg the play:", "tap the holes;", "OK = the show")
            else:
                self.skip = (m.game_no, m.deal_no, 2, m.count)
                self.say("On to the show")
        elif ph == "show":
            side, kind = m.next_show()
            laid = deal.laid_cards(m)
            if laid:
                # The hand's cards were keyed in the play: score them, or start the entry with them.
                self.entry.cards = laid
                if len(laid) == m.hand_size:
                    self._use_cards("show", now)
                return
            self.pending = Pending(
                P_EVENT, {"t": "peg", "s": side, "n": 0, "why": kind}, "%s %s 0?" % (m.names[side], kind)
            )
        elif ph == "deal":
            self.commit({"t": "deal"})
        elif ph == "game over":
            self.commit({"t": "game"})
        else:
            self.pending = Pending(P_EVENT, {"t": "_new"}, self.book.note())
