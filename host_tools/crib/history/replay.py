# Replays a board's stored events with the core's Match: games and scores for the database, and flags.
import json

from crib.history.coach import discard_of
from crib.store import db
from cribbage import solo
from cribbage.cards import format_card, format_cards
from cribbage.errors import CribError
from cribbage.game import Match


class Game:
    """One game as the replay saw it (rows of its scores, and what disagreed with the board)."""

    def __init__(self, board, match_no, game_no, first_seq, match):
        self.board = board
        self.match_no = match_no
        self.game_no = game_no
        self.first_seq = first_seq
        self.last_seq = first_seq
        self.form = match.form
        self.target = match.target
        self.names = list(match.names)
        # against the board: its level; '' for a game between players; "table TAG" for a game at a remote
        # table (between players too, its other seat named in the set-up: cribbage/table.py; the tag tells
        # it from the table's record of it, crib.store.db.table_tag)
        solo = match.setup.get("solo") or [""]
        self.solo = "table %d" % solo[1] if solo[0] == "table" else solo[0]
        self.final = [0] * match.sides
        self.winner = None
        self.skunk = [""] * match.sides
        self.over = False
        self.deals = 0
        self.flags = []
        self.scores = []  # (seq, deal_no, side, kind, points, front, cards, items)
        self.deal_info = {}  # deal_no -> (dealer side, starter card or None): the score sheet's heading
        self.discards = []  # the coach: coach.discard_of dicts with deal and side, in deal order


class _Entry:
    __slots__ = ("seq", "game_no", "rows", "coached")

    def __init__(self, seq, game_no, rows, coached=None):
        self.seq = seq
        self.game_no = game_no
        self.rows = rows
        self.coached = coached  # what _coach did for this event, so an undo takes it back


def _plain(v):
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def _show_text(last_show):
    side, kind, cards, starter, n, claim = last_show
    return "%s | %s" % (format_cards(cards), format_card(starter) if starter is not None else "?")


def _apply(m, seq, ev, flags):
    """Apply one stored event as the core sees it; returns True if it is now in force."""
    t = ev.get("t") if isinstance(ev, dict) else None
    try:
        m.apply(ev)
        return True
    except CribError as e:
        if t != "show":
            flags.append("seq %d (%s) refused by the core: %s" % (seq, t, e))
            return False
        why = str(e)
    # The board's count of a show disagrees with its cards: keep the board's count so the game
    # goes on as it was played, and flag the game.
    try:
        m.apply(ev, trusted=True)
    except CribError as e:
        flags.append("seq %d (show) refused by the core: %s" % (seq, e))
        return False
    flags.append("seq %d: the board pegged %s for a %s, but %s" % (seq, ev.get("n"), ev.get("k"), why))
    return True


def _tell_seeds(setup_solo, items):
    """Against the board: tell the core each game's seed its seed event reveals, before the replay, so
    that the replay checks every deal of those games against the cards the seed deals (a starter, a
    lay or a show not the deal's is refused and flagged). A game whose seed is not told yet (still
    being played) replays blind, as the board's own boot does."""
    game_no = 1
    for _seq, ev in items[1:]:
        t = ev.get("t") if isinstance(ev, dict) else None
        if t == "game":
            game_no += 1
        elif t == "seed" and type(ev.get("n")) is int:
            solo.revealed(setup_solo, game_no, ev["n"])


def replay_match(board, match_no, items):
    """Games of one match from its [(seq, event)], the set-up first. Returns (games, match or None)."""
    seq0, setup = items[0]
    try:
        m = Match(setup)
    except CribError as e:
        g = Game(board, match_no, 1, seq0, Match())
        g.flags.append("seq %d: the set-up is refused by the core: %s" % (seq0, e))
        g.last_seq = items[-1][0]
        return [g], None
    if "solo" in m.setup:
        _tell_seeds(m.setup["solo"], items)
    stack = []  # events in force: undo pops the last one, as the core does
    flags = {}  # game_no -> reasons
    deal_info = {}  # game_no -> {deal_no: (dealer side, starter)}
    dealt = {}  # (game_no, deal_no, player) -> (cards keyed for advice, as dealer)
    discards = {}  # game_no -> [discard dicts]
    for seq, ev in items[1:]:
        game_before = m.game_no
        if isinstance(ev, dict) and ev.get("t") == "undo":
            try:
                m.apply(ev)
                if stack:
                    _uncoach(stack.pop().coached, dealt, discards)
            except CribError as e:
                flags.setdefault(game_before, []).append("seq %d (undo) refused by the core: %s" % (seq, e))
            continue
        problems = []
        t = ev.get("t") if isinstance(ev, dict) else None
        lay_before = _LayBefore(m) if t == "lay" else None
        if not _apply(m, seq, ev, problems):
            flags.setdefault(game_before, []).extend(problems)
            continue
        if problems:
            flags.setdefault(m.game_no, []).extend(problems)
        rows = []
        for side, points, why in m.last_pegs:
            cards = items_json = ""
            if ev.get("t") == "show" and m.last_show is not None and why in ("hand", "crib"):
                cards = _show_text(m.last_show)
                try:
                    items_json = json.dumps(_plain(m.show_items()))
                except Exception:  # an itemiser missing or failing loses the detail, not the game
                    items_json = ""
            elif t == "lay" and lay_before is not None:
                cards = format_card(ev["c"]) if isinstance(ev.get("c"), int) else ""
                items_json = json.dumps(lay_before.items(ev, points))
            elif t == "go":
                items_json = json.dumps([["go", points]])
            elif why == "heels":
                items_json = json.dumps([["his heels", points]])
                cards = format_card(m.starter) if m.starter is not None else ""
            rows.append((seq, m.deal_no, side, why, points, m.front[side], cards, items_json or "[]"))
        if m.dealer is not None:
            deal_info.setdefault(m.game_no, {})[m.deal_no] = (m.dealer_side, m.starter)
        coached = _coach(m, ev, dealt, discards)
        if ev.get("t") == "show" and not m.last_pegs and m.last_show is not None:
            # A zero hand ("nineteen") pegs nothing but is still a hand counted; so is a hand claimed
            # as 0 under muggins, whose count is its items (they were lost: a 2 missed read as 0).
            side, kind = m.last_show[0], m.last_show[1]
            try:
                items_json = json.dumps(_plain(m.show_items()))
            except Exception:
                items_json = "[]"
            rows.append((seq, m.deal_no, side, kind, 0, m.front[side], _show_text(m.last_show), items_json))
        stack.append(_Entry(seq, m.game_no, rows, coached))
    if len(stack) != m.count:
        flags.setdefault(m.game_no, []).append(
            "replay kept %d events but the core holds %d: undo history not understood" % (len(stack), m.count)
        )
    games = _games(board, match_no, seq0, items, stack, flags, m)
    for g in games:
        g.deal_info = deal_info.get(g.game_no, {})
        g.discards = discards.get(g.game_no, [])
    return games, m


def _coach(m, ev, dealt, discards):
    """The coach: the cards a player keyed for advice, then their hand at the show: the
    discard between them, against the best. (Partners: a side has two hands, no discard is known.)
    -> (key, what dealt held there before, the discard added or None) for _uncoach, or None."""
    t = ev.get("t")
    if "solo" in m.setup:
        return _coach_solo(m, ev, dealt, discards)
    if t == "advice" and m.dealer is not None:
        p = ev["p"]
        key = (m.game_no, m.deal_no, p)
        before = dealt.get(key)
        dealt[key] = (list(ev["cards"]), p % m.sides == m.dealer_side)
        return key, before, None
    if t == "show" and m.last_show is not None and m.last_show[1] == "hand" and m.players == m.sides:
        key = (m.game_no, m.deal_no, m.last_show[0])
        got = dealt.pop(key, None)
        if got is not None:
            d = discard_of(m.form, got[0], list(m.last_show[2]), got[1])
            if d is not None:
                d.update(deal=m.deal_no, side=m.last_show[0], dealt=format_cards(got[0]))
                discards.setdefault(m.game_no, []).append(d)
            return key, got, d
    return None


def _coach_solo(m, ev, dealt, discards):
    """The coach against the board: the player's hand at each show is kept until the game's seed is
    told (its end), which deals each deal of the game again: the discard from the cards dealt. (No
    undo against the board: nothing to take back.)"""
    t = ev.get("t")
    if m.setup["solo"][0] == "table":
        # At a remote table the table deals: the player's six come in as a hand event (cribbage/table.py),
        # so the discard is graded at the player's own show, from the six and the hand kept.
        if t == "hand" and ev.get("p") == 0 and type(ev.get("cards")) is list:
            dealt[(m.game_no, m.deal_no, 0)] = list(ev["cards"])
        elif t == "show" and m.last_show is not None and m.last_show[1] == "hand" and m.last_show[0] == 0:
            cards = dealt.pop((m.game_no, m.deal_no, 0), None)
            d = discard_of(m.form, cards, list(m.last_show[2]), m.dealer == 0) if cards else None
            if d is not None:
                d.update(deal=m.deal_no, side=0, dealt=format_cards(cards))
                discards.setdefault(m.game_no, []).append(d)
        return None
    if t == "show" and m.last_show is not None and m.last_show[1] == "hand" and m.last_show[0] == 0:
        dealt[(m.game_no, m.deal_no, 0)] = (list(m.last_show[2]), m.dealer)
    elif t == "seed" and type(ev.get("n")) is int:
        for key in sorted(k for k in dealt if k[0] == m.game_no):
            hand, dealer = dealt.pop(key)
            cards = list(solo.deal_of(ev["n"], key[1], m.form, dealer)[0][0])
            d = discard_of(m.form, cards, hand, dealer == 0)
            if d is not None:
                d.update(deal=key[1], side=0, dealt=format_cards(cards))
                discards.setdefault(m.game_no, []).append(d)
    return None


def _uncoach(coached, dealt, discards):
    """Undo what _coach did for an event an undo took back: the keyed cards and the discard go too."""
    if coached is None:
        return
    key, before, d = coached
    if before is None:
        dealt.pop(key, None)
    else:
        dealt[key] = before
    if d is not None:
        discards[key[0]].remove(d)


class _LayBefore:
    """The play before a lay (a copy the core rebuilds, read before the lay changes it): the lay tried
    on it gives the core's own awards, so a last card is called "last card" and a go "go" (both are a
    lone point, which the fold pegs under one why, "go")."""

    def __init__(self, m):
        play = m.play
        self.play = m.rebuilt_play() if play is not None and not play.over else None
        self.seats = list(m.play_seats) if self.play is not None else []

    def items(self, ev, n):
        try:
            awards = self.play.lay(self.seats.index(ev["p"]), ev["c"]) if self.play is not None else []
            reasons = [[r, p] for _s, r, p in awards]
        except (CribError, KeyError, TypeError, ValueError, AttributeError):
            reasons = []
        rest = n - sum(p for _r, p in reasons)
        if rest > 0:  # the board pegged more than the core finds: say so
            reasons.append(["pegged", rest])
        return reasons


def _games(board, match_no, seq0, items, stack, flags, m):
    games = []
    for g_no in range(1, m.game_no + 1):
        entries = [e for e in stack if e.game_no == g_no]
        first = seq0 if g_no == 1 else (entries[0].seq if entries else None)
        if first is None:
            continue
        g = Game(board, match_no, g_no, first, m)
        g.last_seq = max([first] + [e.seq for e in entries])
        for e in entries:
            g.scores.extend(e.rows)
        g.deals = max([1] + [r[1] for r in g.scores])
        if g_no <= len(m.results):
            winner, _out, _gains, skunk, fronts = m.results[g_no - 1]
            g.winner, g.skunk, g.final, g.over = winner, list(skunk), list(fronts), True
        else:
            g.final = list(m.front)
        g.flags = flags.get(g_no, [])
        games.append(g)
    if not games:
        games.append(Game(board, match_no, 1, seq0, m))
    games[-1].last_seq = max(games[-1].last_seq, items[-1][0])
    return games


def split_matches(events):
    """[(seq, event)] -> (orphans before the first set-up, [[(seq, event)] per match])."""
    orphans = []
    matches = []
    for seq, ev in events:
        if isinstance(ev, dict) and ev.get("t") == "setup":
            matches.append([(seq, ev)])
        elif matches:
            matches[-1].append((seq, ev))
        else:
            orphans.append(seq)
    return orphans, matches


def replay_board(board, events):
    """All games of a board from its [(seq, event)] in seq order; returns (games, orphan seqs, last Match)."""
    orphans, matches = split_matches(events)
    games = []
    m = None
    for i, items in enumerate(matches):
        got, m = replay_match(board, i + 1, items)
        games.extend(got)
    return games, orphans, m


def rebuild(con, board, since=0):
    """Replay `board` from the database and rewrite its games; returns (games, orphan seqs, last Match).

    `since`: the lowest seq stored or doubted since the last replay: only the matches from the one
    it falls in are replayed and rewritten (a match is one fold of its events), with the games a
    replay has not yet seen (an earlier sync cut off before its replay); the games before stay as
    they are. None: nothing changed, nothing replayed (apart from games not yet replayed). The
    games returned are those replayed; orphans are counted on the whole history either way."""
    since = db.replay_from(con, board, since)
    if since is None:
        return [], db.orphans(con, board), None
    match_no = db.matches_before(con, board, since)
    games, orphans, m = replay_board(board, list(db.events(con, board, since)))
    for g in games:
        g.match_no += match_no
    flag_doubts(games, db.served_again(con, board), db.quarantined(con, board))
    db.store_games(con, board, games, since)
    return games, orphans if since == 0 else db.orphans(con, board), m


def flag_doubts(games, again, quarantined):
    """Flag the game each doubtful seq falls in: served again with other content, or an intact record
    the board set aside (kept in quarantine): the history of that game may not be the board's."""
    doubts = [(seq, "seq %d was served again with other content (both kept)" % seq) for seq, _ in again]
    doubts += [
        (q["seq"], "seq %d was set aside by the board's journal (kept as quarantined)" % q["seq"])
        for q in quarantined
        if q["valid"]
    ]
    for seq, why in sorted(doubts):
        hit = None
        for g in games:
            if g.first_seq <= seq:
                hit = g  # the last game that started at or before seq
        if hit is not None and why not in hit.flags:
            hit.flags.append(why)
