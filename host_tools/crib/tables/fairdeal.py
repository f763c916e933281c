"""The table's checkable deal: a commitment before the first card, the seed revealed after the game."""

import hashlib
import hmac
import secrets

from cribbage.deal import FORM_DEAL
from cribbage.forms import FORMS

SHARE_HEX = 64  # a seat's entropy share: 32 random bytes, as hex


class DealError(ValueError):
    """A share that is not one, or a proof that does not check."""


def new_secret():
    """The server's own 32 random bytes for a table, as hex (kept secret until the game is over)."""
    return secrets.token_hex(32)


def new_share():
    """A seat's random share, as a page or a laptop makes it."""
    return secrets.token_hex(32)


def check_share(share):
    """`share` as lower-case hex of 32 bytes, or DealError saying what it is not."""
    if not isinstance(share, str) or len(share) != SHARE_HEX:
        raise DealError("a share is %d hex digits (32 random bytes)" % SHARE_HEX)
    try:
        bytes.fromhex(share)
    except ValueError:
        raise DealError("a share is hex digits only") from None
    return share.lower()


def digest(*parts):
    """sha256 over the parts, each a hex string, joined by '|' (no part holds one)."""
    return hashlib.sha256("|".join(parts).encode()).hexdigest()


def secret_commit(secret):
    """What the table publishes when it is made: the server's secret cannot change after."""
    return digest("secret", secret)


def game_seed(secret, shares):
    """The game's seed: the server's secret and every seat's share, in seat order."""
    return digest("seed", secret, *shares)


def seed_commit(seed):
    """What the table publishes once every share is in, before the first card."""
    return digest("commit", seed)


def shuffle(seed, deal_no):
    """The 52 cards (rank * 4 + suit) of deal `deal_no` (0: the cut for the first dealer), top first.

    Fisher-Yates with each draw from sha256(seed, deal, step, try): the whole 256-bit seed counts, so
    the cards a seat holds do not narrow the deck down to a search (a 30-bit board seed would)."""
    deck = list(range(52))
    for i in range(51, 0, -1):
        n = i + 1
        limit = (1 << 32) - (1 << 32) % n
        k = 0
        while True:
            v = int(digest("deal", seed, "%d" % deal_no, "%d" % i, "%d" % k)[:8], 16)
            if v < limit:
                break
            k += 1
        j = v % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def first_dealer(seed, seats=2):
    """The cut for the first deal: seats 0..seats-1 cut in turn from deck 0, a card each; the lowest
    rank alone deals, a tie for the lowest cuts again (every seat, from the next cards)."""
    deck = shuffle(seed, 0)
    for k in range(0, 52 - seats + 1, seats):
        ranks = [c >> 2 for c in deck[k : k + seats]]
        low = min(ranks)
        if ranks.count(low) == 1:
            return ranks.index(low)
    return 0  # every cut tied: two seats cannot (13 ranks in 26 pairs of distinct cards), kept total


def shape(form):
    """(seats, cards dealt each, cards each throws, cards from the deck to the crib) of a table's form,
    from the core's own forms (cribbage.deal.FORM_DEAL, cribbage.forms.FORMS): the crib is four cards."""
    seats, each = FORM_DEAL[form]
    throw = each - FORMS[form][3]
    return seats, each, throw, 4 - seats * throw


def dealt(seed, deal_no, dealer, form="six"):
    """(hands, to_crib, starter) of a deal of `form`: its cards each, one at a time from the top, the
    seat on the dealer's left first; then the deck's card for the crib (three-handed), then the starter
    (a random cut of the rest is no different)."""
    seats, each, _throw, extra = shape(form)
    deck = shuffle(seed, deal_no)
    hands = [[] for _ in range(seats)]
    for k in range(seats * each):
        hands[(dealer + 1 + k) % seats].append(deck[k])
    k = seats * each
    return hands, deck[k : k + extra], deck[k + extra]


def deal(seed, deal_no, dealer, form="six"):
    """(hands, starter) of a deal (dealt): in the two-player game six each, the non-dealer first."""
    hands, _to_crib, starter = dealt(seed, deal_no, dealer, form)
    return hands, starter


def verify(proof, seat, share, seen, form=None):
    """Check a finished table's `proof` from the side of `seat`, which sent `share`; `seen` is every
    card the seat was shown: a list of {"deal", "dealer", "hand" (its cards dealt), "starter", "shown"
    ({seat: four kept} at the show), "crib"}. `form` is the table's (the proof says it; six when it
    does not). Returns the number of cards checked; DealError says the first that does not match."""
    form = form or proof.get("form") or "six"
    try:
        seats = shape(form)[0]
    except KeyError:
        raise DealError("no table form %r" % (form,)) from None
    secret = proof.get("secret")
    shares = list(proof.get("shares") or [])
    if not isinstance(secret, str) or not hmac.compare_digest(
        secret_commit(secret), proof.get("secret_commit", "")
    ):
        raise DealError("the revealed secret does not match the commitment the table published first")
    if len(shares) != seats:
        raise DealError("a %s table has %d shares, not %d" % (form, seats, len(shares)))
    if seat >= len(shares) or shares[seat] != share:
        raise DealError("seat %d's share is not the one it sent" % seat)
    seed = game_seed(secret, shares)
    if not hmac.compare_digest(seed_commit(seed), proof.get("seed_commit", "")):
        raise DealError("the seed does not match the commitment published before the first card")
    if proof.get("seed") not in (None, seed):
        raise DealError("the revealed seed is not the one the secret and shares make")
    if proof.get("first_dealer") is not None and proof["first_dealer"] != first_dealer(seed, seats):
        raise DealError("the first dealer is not the one the cut gives")
    checked = 0
    for d in seen:
        hands, to_crib, starter = dealt(seed, d["deal"], d["dealer"], form)
        if list(d["hand"]) != hands[seat]:
            raise DealError("deal %d: the hand seat %d was dealt is not the seed's" % (d["deal"], seat))
        checked += len(d["hand"])
        if d.get("starter") is not None:
            if d["starter"] != starter:
                raise DealError("deal %d: the starter is not the seed's" % d["deal"])
            checked += 1
        for other, kept in (d.get("shown") or {}).items():
            if not set(kept) <= set(hands[int(other)]):
                raise DealError("deal %d: seat %s showed cards it was not dealt" % (d["deal"], other))
            checked += len(kept)
        crib = d.get("crib")
        if crib is not None:
            cards = set(to_crib)
            for h in hands:
                cards |= set(h)
            kept_all = set()
            for kept in (d.get("shown") or {}).values():
                kept_all |= set(kept)
            if (
                not set(crib) <= cards
                or set(crib) & kept_all
                or not set(to_crib) <= set(crib)
                or len(set(crib)) != 4
            ):
                raise DealError("deal %d: the crib is not the four cards the seats threw" % d["deal"])
            checked += len(crib)
    return checked


def collect(views):
    """The cards a seat was shown, from the views it received (oldest first), as verify reads them."""
    deals = {}
    for v in views:
        if v.get("deal") and v.get("dealt"):
            d = deals.setdefault(
                v["deal"], {"deal": v["deal"], "dealer": v["dealer"], "hand": list(v["dealt"])}
            )
            if v.get("starter") is not None:
                d["starter"] = v["starter"]
        for s in v.get("shows") or ():
            d = deals.setdefault(s["deal"], {"deal": s["deal"], "dealer": s["dealer"], "hand": None})
            d.update(
                starter=s["starter"],
                shown={"%d" % k: kept for k, kept in enumerate(s["kept"])},
                crib=s["crib"],
            )
    return [deals[k] for k in sorted(deals) if deals[k]["hand"] is not None]
