# Discard advice on the board: the dealt cards keyed, every discard ranked, paged like a count.
# Held MENU while the board asks for the starter starts it (docs/keys.md); nothing is pegged.
# The app makes one at boot only when the setting "advice" is on: its code and tables then take
# heap from the start, never in the middle of a game (docs/memory.md, docs/advice.md).
from board import deal, display
from cribbage.advice import Advisor, hundredths_text
from cribbage.cards import RANKS, SUITS, format_card
from cribbage.errors import CribError


class Advising:
    """The advice mode's state, for the controller (keys) and the display (rows).

    While `on`: the player keys the dealt cards into the controller's entry; `side` is whose cards
    they are (the crib is theirs when it is the dealer's side); `rank` is the option shown, -1 while
    keying. `kept` is (game, deal, side, cards) of a hand kept for that side's show.
    """

    def __init__(self):
        self.advisor = Advisor()  # its buffers made once, at boot
        self.on = False
        self.side = 0
        self.rank = -1
        self.kept = None

    def start(self, match):
        self.on = True
        self.rank = -1
        self.side = match.dealer_side

    def rank_cards(self, match, cards):
        """Rank the discards of the keyed cards; None, or the lines saying what is wrong."""
        n = 6 if match.players == 2 and not match.five else 5  # dealt: six in the six-card games
        if len(cards) != n:
            return ("key the %d cards, not %d" % (n, len(cards)),)  # in the prompt's words
        try:
            self.advisor.advise(cards, match.form, self.side == match.dealer_side)
        except CribError as e:
            return (str(e.args[0]),)
        self.rank = 0
        return None

    def keep(self, match):
        """The shown option's kept cards become its side's hand for this deal's show."""
        self.kept = (match.game_no, match.deal_no, self.side, self.advisor.shown(self.rank)[1])
        self.on = False
        return self.kept[3]

    def kept_for(self, match, nxt):
        """The cards kept for the hand `nxt` (match.next_show()) in this deal, or None."""
        k = self.kept
        if k is None or nxt is None or nxt[1] != "hand" or k[2] != nxt[0]:
            return None
        return k[3] if k[0] == match.game_no and k[1] == match.deal_no else None

    def lines(self, match, entry):
        """The display's body rows: the keying prompt; once ranked, a head line and every option's
        rows, one option a page (display.page shows them, MENU turns the pages as a count's)."""
        dealer = self.side == match.dealer_side
        if self.rank < 0:
            who = "Advice: " + match.names[self.side][:8]
            cards = [format_card(c) for c in entry.cards]
            if entry.rank >= 0:
                cards.append(RANKS[entry.rank] + "?")
            role = "dealer: own crib" if dealer else "pone: their crib"
            if not cards:
                return [who, role, "key the %d cards" % (6 if match.players == 2 and not match.five else 5)]
            return [who, role, " ".join(cards[:5]), " ".join(cards[5:])]
        sign = "+" if dealer else "-"
        name = match.names[self.side]
        head = name + " hand" + sign + "crib=net"
        # "Bob hand+crib": the net's "=" is on every figures row; a long name gives way, never the words
        out = [head if len(head) <= display.COLS else name[:6] + head[len(name) : -4]]
        per = display.ROWS - match.sides - 3  # a page's rows under the head: one option each
        for i in range(self.advisor.count):
            thrown, kept, hand, crib, net = self.advisor.shown(i)
            out.append("%d throw %s" % (i + 1, display.cards_text(thrown)))
            if per > 2:  # three-handed (two rows a page): the kept four are the other keyed cards
                out.append("keep " + display.cards_text(kept))
            out.append(hundredths_text(hand) + sign + hundredths_text(crib) + "=" + hundredths_text(net))
        return out

    def rows(self, match, entry, context):
        """(body rows, hint) for the display while advising or before the kept hand's show, else None;
        while ranked the rows are every option's, paged by display.page at `rank`.
        (The controller and the display name only this class's handle/start/show/rows/rank: each name
        in their code is interned at boot even with the advice off, and the pool's edge is near.)"""
        if self.on:
            if self.rank < 0:
                return self.lines(match, entry), "MENU=who OK=rank"
            return self.lines(
                match, entry
            ), "OK=keep UNDO=end" if match.players == match.sides else "UNDO=end"
        kept = self.kept_for(match, match.next_show()) if context == "show" else None
        return (["kept " + display.cards_text(kept), "OK=score them"], None) if kept else None

    def handle(self, c, name, released):
        """A key while advising (c: the controller, whose entry the cards are keyed into and which says
        and commits what it is asked to): pressed (released False), or MENU/UNDO released."""
        m = c.book.match
        if released:
            if name == "UNDO" and self.rank < 0 and c.entry.active():
                c.entry.backspace()
            elif name == "UNDO":
                self.on = False  # back to the starter, nothing changed
                c.entry.reset()
            elif self.rank < 0:
                self.side = (self.side + 1) % m.sides  # MENU: whose cards (the crib is theirs as dealer)
            else:
                self.rank = (self.rank + 1) % self.advisor.count  # MENU: the next page, as a count's
            return
        if self.rank >= 0:
            if name == "OK" and m.players == m.sides:
                kept = self.keep(m)  # OK: the option shown is kept for its side's show
                c.entry.reset()
                c.say("%s hand kept:" % m.names[self.side], display.cards_text(kept))
            return
        r = RANKS.find(name) if len(name) == 1 else -1
        s = SUITS.find(name) if len(name) == 1 else -1
        refused = None
        if r >= 0:
            c.entry.rank_key(r, True)  # cards only here: a second rank replaces the first, never a number
        elif s >= 0:
            refused = c.entry.suit_key(s)[1]
        elif name == "OK":
            refused = self.rank_cards(m, c.entry.cards)
            if not refused and m.players == m.sides:
                # The dealt cards go to the journal for the coach (the laptop compares the discard
                # the player makes with the best). Partners: a side has two hands, so not kept.
                c.commit({"t": "advice", "p": self.side, "cards": list(c.entry.cards)}, True)
        if refused:
            c.say(*display.wrap(" ".join(refused), 16, 3))

    def tick(self, c, now):
        """Each pass while on (Controller.tick): the advice times nothing (-> nothing to redraw)."""
        return False

    def show(self, match):
        """The hand kept for the show OK alone scores now, or None (none kept for it, or its cards were
        laid in the play: those are scored instead)."""
        kept = self.kept_for(match, match.next_show())
        return None if kept is None or deal.laid_cards(match) else kept
