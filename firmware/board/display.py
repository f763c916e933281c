# What the 16x8 text display shows in each mode: scores, the prompt, keyed cards, proposals, menus, counts.
# rows(match, settings, c, colours) -> 8 strings of at most 16 characters; the app draws them only when
# they changed. Pure text: the HAL does the glass (framebuf on the Pico, the terminal in the sim).
# The words are made here, where they are shown: the controller's state is codes and objects, read here
# by name (c: the Controller, read only: the fields its contract offers the display).
from board import deal
from board.deal import P_GUARD, P_LINK, P_PEG
from cribbage.cards import RANKS, format_card

COLS = 16
ROWS = 8
SENSOR_FAULTS = ("", "No sensor chain", "Sensor noise", "Sensors silent")  # by edges.FAULT_*


def wrap(text, width=COLS, rows=4):
    """Text cut into display rows at spaces."""
    out = []
    line = ""
    for word in text.split():
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= width:
            line += " " + word
        else:
            out.append(line[:width])
            line = word
    if line:
        out.append(line[:width])
    return out[:rows]


def _fit(s):
    return s[:COLS]


def cards_text(cards):
    return " ".join([format_card(c) for c in cards])


def rows(match, settings, c, colours):
    """The display's rows for the match and the controller c (read only: fault, stuck, menu, pending,
    message, page, entry, num_side, advising, skip, key_names, tracks()); colours: the pegs' colour word
    on each track ("red": the board file's side names)."""
    out = []
    dealer = match.dealer_side
    ctx = deal.context(match, settings, c.skip)
    # The side to move, marked so no one needs the colours to know: the player to lay in a followed
    # play, the hand counting next in the show.
    moving = -1
    if ctx == "lay" and match.play is not None and match.play.turn is not None:
        moving = match.side_of(match.play_seats[match.play.turn])
    elif ctx == "show" and match.next_show() is not None:
        moving = match.next_show()[0]
    for s in range(match.sides):
        # "*Ann       > 45": the dealer's side marked, the name, the side to move marked, the front peg
        name = match.names[s][:9]
        pts = ("> " if s == moving else "") + str(match.front[s])
        out.append(("*" if s == dealer else " ") + name + " " * (COLS - 1 - len(name) - len(pts)) + pts)
    fault = c.fault
    stuck = c.stuck
    if stuck:  # the lasting faults, worded here: a stuck key first, then the sensors
        i = 0
        while not stuck & (1 << i):
            i += 1
        out.append(_fit("!Key %s stuck" % c.key_names[i]))
    elif fault:
        out.append(_fit("!" + (SENSOR_FAULTS[fault] if fault < len(SENSOR_FAULTS) else "Sensor fault")))
    else:
        line = "G%d D%d" % (match.game_no, match.deal_no)
        if match.starter is not None:
            line += " st " + format_card(match.starter)
        mp = "-".join([str(p) for p in match.match_points])
        if len(line) + 1 + len(mp) > COLS:
            line = line.replace(" st ", " ")  # three sides' match points need the room: never cut them
        out.append(line[: COLS - 1 - len(mp)] + " " * max(1, COLS - len(line) - len(mp)) + mp)
    body = []
    paged = None  # lines longer than the display (a count, the ranked discards): page k of them
    k = 0
    hint = prompt(match, ctx)
    p = c.pending
    a = c.advising
    # discard advice (board/controller/advising.py), or the hand it kept for this show: (body, hint) or None
    advice = a.rows(match, c.entry, ctx) if a is not None else None
    if c.menu >= 0:
        from board.controller import menu  # loaded when the menu opened (Controller._open)

        body, hint = menu.rows(match, settings, c.menu, colours)
    elif p is not None and p.ev is not None and p.ev.get("t") == "muggins":
        # A muggins claim: the claim, then the count it fell short of (.hole: the page shown).
        body, n = page(muggins_lines(match, p), ROWS - match.sides - 2, p.hole)
        last = p.hole % n == n - 1
        hint = "OK=yes MENU=more" if n > 1 and not (last and match.sides > 2) else "OK=take MENU=who"
    elif p is not None:
        body = wrap(p.note, COLS, 5)
        if p.aside:  # a laptop's note: beside the board's own words, never instead of them
            body += wrap("(" + p.aside + ")", COLS, 3)
        if p.kind == P_PEG:
            assert p.ev is not None  # a peg's event (asserts are compiled out on the board: -O3)
            to = match.front[p.side] + p.ev["n"]
            body.append("game!" if to >= match.target else "to hole %d" % to)
        hint = "MENU=other" if p.kind == P_GUARD else "OK=yes UNDO=no"
        if p.kind == P_LINK and p.choice:
            hint = "read it, then OK"  # a press came as the laptop's proposal changed: ignored
    elif c.message:
        paged = c.message  # a count longer than the display, paged below
        k = c.page
        if advice and a.on:  # pyright: ignore[reportOptionalMemberAccess] (advice: a is there)
            hint = advice[1] or hint  # an error over the advice's keying, which goes on
    elif advice:
        assert a is not None
        body, h = advice
        hint = h or hint
        if a.rank >= 0 and a.on:
            paged = body  # the ranked discards: one a page, paged as a count is
            k = a.rank
    elif c.entry.active():
        body = _entry(match, c, ctx)
        if c.entry.name is not None:
            hint = body.pop()  # a name being keyed: its own keys
    elif match.game_over or match.match_over:
        body = result_lines(match)
    elif match.phase() == "cut" and colours:
        # Whose pegs are which colour ("P1 red"), said while the players cut: by the track each side uses
        tracks = c.tracks()
        for s in range(match.sides):
            t = tracks[s] if s < len(tracks) else s
            if t < len(colours):
                body.append(_fit("%s %s" % (match.names[s], colours[t])))
    elif match.play is not None and match.phase() == "play":
        body = ["count %d" % match.play.count, cards_text(match.play.current[-4:])]
    elif ctx == "show":
        laid = deal.laid_cards(match)
        if laid:
            body = [
                "laid " + cards_text(laid),
                "OK=score them" if len(laid) == match.hand_size else "OK=key the rest",
            ]
        else:
            body = ["key the cards,", "OK=score; OK", "alone=zero"]
    large = large_print(settings)
    if large is not None:
        return large.rows(match, c, out, body, hint, paged, k)
    if paged is not None:
        body, n = page(paged, ROWS - match.sides - 2, k)
        if n > 1 and not fault and not stuck:
            # The status row says how to turn the page; the prompt keeps saying what comes next.
            out[match.sides] = "MENU=more %d/%d" % (k % n + 1, n)
    rows_left = ROWS - len(out) - 1
    for line in body[:rows_left]:
        out.append(_fit(line))
    while len(out) < ROWS - 1:
        out.append("")
    out.append(_fit(hint))
    return out


def large_print(settings):
    """board.large while the large print setting is on (loaded then: docs/memory.md), else None; and
    None in a heap with no room for it, where the rows stay small."""
    if not settings["large"]:
        return None
    try:
        from board import large

        return large
    except MemoryError:
        return None


def _entry(match, c, ctx):
    e = c.entry
    if e.name is not None:
        from board.controller import menu  # a name being keyed: the menu started it

        return menu.lines(match, c)
    n = e.number()
    if e.claiming:
        return [cards_text(e.cards), "Your count? " + (str(n) if n >= 0 else "_"), "then OK"]
    if e.digits:
        return ["+%d %s" % (n, match.names[c.num_side]), "OK=peg MENU=side"]
    typed = cards_text(e.cards)
    if e.rank >= 0:
        typed += " " + RANKS[e.rank] + "?"
    body = wrap(typed)  # a row ends between cards, never inside one
    if e.numbering():
        body.append("suit=card")
        body.append("OK=+%d %s" % (n, match.names[c.num_side]))
    elif e.rank >= 0:
        body.append("key its suit")
    else:
        what = "cut" if ctx == "cut" else "score"  # at the cut the cards are cut, not scored
        body.append("%d card%s OK=%s" % (len(e.cards), "" if len(e.cards) == 1 else "s", what))
    return body


def not_shown(m, cards):
    """Why the last of cards, keyed for the hand or crib counting next, cannot be in it, or None: one
    card more than it holds, or a card another player laid in the play (the rest is refused at OK)."""
    kind = m.next_show()[1]
    c = cards[-1]
    if len(cards) > (4 if kind == "crib" else m.hand_size):
        return "%d cards a %s: %s not taken" % (len(cards) - 1, kind, format_card(c))
    play = m.play
    for seat, x in play.laid if play else ():
        p = m.play_seats[seat]
        if x == c and (kind == "crib" or p != m.next_shower()):
            return "%s was laid by %s: not taken" % (format_card(c), m.names[m.side_of(p)])
    return None


def prompt(match, ctx):
    """The bottom row: what the keypad does now (ctx: deal.context())."""
    ph = match.phase()
    if ph == "cut":
        return "Cut: a card each"
    if ctx == "starter":
        return "Starter? OK=skip"
    if ctx == "peg":
        return "Peg play OK=show"  # the play pegged on the holes; a keyed card is still the starter
    # A name the player keyed stays whole before the words on the keys are cut: "Sophie lays" (docs/keys.md).
    if ctx == "lay":
        who = match.names[match.side_of(match.play_seats[match.play.turn])]
        text = "%s lays MENU=go" % who
        return text if len(text) <= COLS else who[: COLS - 5] + text[len(who) : len(who) + 5]
    if ctx == "show":
        side, kind = match.next_show()
        who = match.names[side]
        # A hand laid whole in the play: one key counts it (said under the last hand's count too).
        text = "%s %s%s" % (
            who,
            kind,
            " OK=score" if len(deal.laid_cards(match)) == match.hand_size else ": cards",
        )
        return text if len(text) <= COLS else _fit(who[: COLS - 5] + " " + kind)
    if ph == "deal":
        return "OK = next deal"
    if ph == "game over":
        return "OK = next game"
    return "OK = new match"


def ask(match, ev):
    """A laptop's proposed event as the board words it, with where the score would go: "P2 +29 to 55?"."""
    if ev.get("t") in ("peg", "fix"):
        to = match.front[ev["s"]] + ev["n"]
        return "%s %s?" % (describe(match, ev), "game" if to >= match.target else "to %d" % max(to, 0))
    return describe(match, ev) + "?"


def describe(match, ev):
    """A few words for an event, for the undo prompt and a laptop's proposal."""
    if ev is None:
        return "?"
    t = ev.get("t")
    names = match.names
    if t == "peg" or t == "fix":
        n = ev["n"]
        return "%s %s%d" % (names[ev["s"]], "+" if n >= 0 else "", n)
    if t == "show":
        return "%s %s %d" % (names[ev["s"]], ev["k"], ev.get("n", 0))
    if t in ("lay", "starter"):
        return "%s %s" % ("lay" if t == "lay" else t, format_card(ev["c"]))
    if t == "muggins":
        return "%s muggins %d" % (names[ev["s"]], ev.get("n", 0))
    if t == "go" or t == "dealer":
        who = names[match.side_of(ev["p"])]
        return "%s go" % who if t == "go" else "dealer %s" % who
    if t == "name":  # by the set-up's name (P2), which a rename never changes: "P2 is Bob"
        # ([name budget] docs/memory.md: a format string the firmware interns already.)
        return "%s%s is %s" % (match.setup["names"][ev["s"]], "", ev["name"])
    if t == "_new":
        return deal.GUARD_CHOICES[0]  # a laptop's new match (at a table): "new match?" ([name budget])
    return {"deal": "next deal", "game": "next game", "end": "end match"}.get(t, t)


def play_lines(match, player, card, count):
    """What a lay (card) or a go (card -1) at `count` did: who, what, the points and why, the count after."""
    side = match.side_of(player)
    got = 0
    to = side
    for s, n, _why in match.last_pegs:
        got += n
        to = s
    line = "%s %s" % (match.names[side], format_card(card) if card >= 0 else "go")
    if got and to == side:
        line += " +%d" % got
    if match.game_over:
        # The point that won the game: who won, at once (it waited under the play's words for 10 s).
        return [line] + result_lines(match)[:2]
    lines = [line]
    play = match.play
    if got and to != side:
        # A go scores for the last to lay, not for the player saying it (and the count is done).
        lines.append("%s +%d" % (match.names[to], got))
    elif got and card >= 0:
        # Why, in the play's own words, as many to a row as fit: "fifteen, pair", "run of 3", "go",
        # "last card" ("double pair royal" is a column too long).
        for _s, w, _n in play.awards:
            if len(w) > COLS:
                w = "dbl" + w[6:]
            if len(lines) > 1 and len(lines[-1]) + 2 + len(w) <= COLS:
                lines[-1] += ", " + w
            else:
                lines.append(w)
    # (The first hand laid whole in the play: the prompt under this says "P2 hand OK=score".)
    lines.append("play over" if play.over else "new count" if play.count != count else "count %d" % count)
    return lines


def show_lines(match, done):
    """The itemised count of a scored hand or crib: the total, a row a kind (they add up to it), the
    claim if short, then each item with its cards (which cards made each fifteen). Longer than the
    display: page() shows it a page at a time, MENU turns the pages."""
    head = "%s %s %d" % (match.names[done["s"]], done["k"], done["n"])
    rows = []
    try:
        items = match.show_items()
    except Exception:  # the itemiser is a nicety: the total is what was pegged
        items = None
    if items:
        kinds = []
        for kind, pts, cards in items:
            if kinds and kinds[-1][0] == kind:
                g = kinds[-1]
                g[1] += 1
                g[2] += pts
            else:
                kinds.append([kind, 1, pts, len(cards)])
        for kind, n, pts, size in kinds:
            rows.append(_item(_LABEL.get(kind, kind), n, size, pts))
    if not rows and not done["n"]:
        rows.append("nineteen")
    claim = done.get("claim")
    if claim is not None and claim < done["n"]:
        rows.append("claimed %d" % claim)
    if items and len(items) > 1:
        for kind, _pts, cards in items:
            # "15 5H TD", "run 4C 5H 6D", "nobs JS"; a long one without spaces ("flush 3H5H7H9HJH")
            label = "15" if kind == "fifteen" else kind
            text = label + " " + cards_text(cards)
            if len(text) > COLS:
                text = label + " " + "".join([format_card(c) for c in cards])
            rows.append(_fit(text))
    if match.game_over:
        rows.insert(0, result_lines(match)[0])  # the count that won the game: who won, on its first page
    return [_fit(head)] + rows


def page(lines, rows, k):
    """(page k of lines in rows rows, the number of pages): the head line on every page, then that
    page's share of the rest. Counts, muggins and the discard advice: nothing longer is cut off."""
    if len(lines) <= rows or rows < 2:
        return lines[:rows], 1
    per = rows - 1
    n = (len(lines) - 2) // per + 1
    k %= n
    return [lines[0]] + lines[1 + k * per : 1 + (k + 1) * per], n


def muggins_lines(match, p):
    """A muggins claim and what was missed: the claim, then the count it fell short of (its kinds,
    the claim, each item with its cards), so the players see the points, not just their number."""
    lines = [_fit(p.note)]
    last = match.last_show
    if last is not None and last[5] is not None and last[4] - last[5] == p.choice:
        lines += show_lines(match, {"s": last[0], "k": last[1], "n": last[4], "claim": last[5]})
    return lines


def result_lines(match):
    """Who won the game (or the match) and by how much: the margin, the skunk, the match points."""
    names = match.names
    mp = "-".join([str(p) for p in match.match_points])
    if not match.results:
        return ["match points " + mp]
    w, _places, gains, skunk, fronts = match.results[-1]
    second = 0
    worst = ""
    for s in range(match.sides):
        if s != w:
            second = max(second, fronts[s])
            if skunk[s] and worst != "double skunk":
                worst = "double skunk" if skunk[s] == "double" else skunk[s]
    by = "by %d" % (fronts[w] - second)
    who = names[w]
    what = "game %d" % len(match.results)
    if match.match_over:
        who = None if match.match_winner is None else names[match.match_winner]
        what = "match"
    lines = ["match drawn"]
    if who is not None:
        # "Sophie wins game 1"; a longer name stays whole: "Sophie wins" (the status row says the
        # game), a 12-letter one on a row of its own. Never cut: the winner is who players look for.
        line = "%s wins %s" % (who, what)
        lines = [line]
        if len(who) + 5 > COLS:  # a 12-letter name: "wins match" on a row of its own
            lines = [who, line[len(who) + 1 :]]
        elif len(line) > COLS:  # "Sophie wins" (the status row names the game), "match" under it
            lines = [line[: len(who) + 5], what] if match.match_over else [line[: len(who) + 5]]
    if match.match_over:
        lines.append(_fit("match points " + mp))
        by = "last game " + by
    if worst and len(by) + 2 + len(worst) <= COLS:
        lines.append(by + ", " + worst)
    else:
        lines.append(by)
        if worst:
            lines.append(worst)
    if not match.match_over:
        lines.append(_fit("+%d: match %s" % (gains[w], mp)))
    return lines


_LABEL = {"fifteen": "15s", "pair": "pairs", "run": "runs", "flush": "flush", "nobs": "nobs"}


def _item(label, n, size, pts):
    # "15s x8        16", "runs x2 of 3   6", "flush 4       4", "nobs          1"
    if label == "runs":
        text = ("runs x%d of %d" % (n, size)) if n > 1 else "run of %d" % size
    elif label == "flush":
        text = "flush %d" % size
    elif n > 1:
        text = "%s x%d" % (label, n)
    else:
        text = label[:-1] if label in ("15s", "pairs") else label
    p = str(pts)
    return text[: COLS - 1 - len(p)] + " " * max(1, COLS - len(text) - len(p)) + p
