# Discard advice on the board: the dealt cards keyed, every discard ranked, paged like a count.
# Held MENU while the board asks for the starter starts it (docs/keys.md); nothing is pegged.
# The app makes one at boot only when the setting "advice" is on: its code and tables then take
# heap from the start, never in the middle of a game (docs/memory.md, docs/advice.md).
from cribbage.advice import Advisor, hundredths_text
from cribbage.cards import RANKS, format_card
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

    def kept_for(self, match, nxt):
        """The cards kept for the hand `nxt` (match.next_show()) in this deal, or None."""
        k = self.kept
        if k is None or nxt is None or nxt[1] != "hand" or k[2] != nxt[0]:
            return None
        return k[3] if k[0] == match.game_no and k[1] == match.deal_no else None

    def lines(self, match, entry):
        """The display's body rows: the keying prompt, or one ranked discard a page."""
        who = "Advice: " + match.names[self.side][:8]
        dealer = self.side == match.dealer_side
        if self.rank < 0:
            cards = [format_card(c) for c in entry.cards]
            if entry.rank >= 0:
                cards.append(RANKS[entry.rank] + "?")
            role = "dealer: own crib" if dealer else "pone: their crib"
            if not cards:
                return [who, role, "key the %d cards" % (6 if match.players == 2 and not match.five else 5)]
            return [who, role, " ".join(cards[:5]), " ".join(cards[5:])]
        thrown, kept, hand, crib, net = self.advisor.shown(self.rank)
        page = "%d/%d" % (self.rank + 1, self.advisor.count)
        worth = "h%s crib%s%s" % (hundredths_text(hand), "+" if dealer else "-", hundredths_text(crib))
        keep = "keep " + " ".join([format_card(c) for c in kept])
        if len(thrown) == 1:  # three rows are all a three-handed display has
            return ["%s %s net %s" % (page, format_card(thrown[0]), hundredths_text(net)), keep, worth]
        return [
            page + " net " + hundredths_text(net),
            "throw " + " ".join([format_card(c) for c in thrown]),
            keep,
            worth,
        ]

    def hint(self):
        return "MENU=who OK=rank" if self.rank < 0 else "OK=more MENU=use"
