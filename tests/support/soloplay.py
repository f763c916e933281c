# A player against the board for tests: the beginner's choices for player 0, and a solo match played through.
from cribbage import events, opponent, solo
from cribbage.game import Match
from cribbage.show import score_show

KEY = b"the board's key."  # a board's sealing key (16 bytes)


def new_match(seed, level="top", form="six", muggins=False, games=1, fmt="games", salt=4242, key=KEY):
    """A solo match of `seed` (registered: the match knows its cards, as on the board that sealed it)."""
    return Match(
        events.setup(form=form, fmt=fmt, games=games, muggins=muggins, solo=solo.make(level, seed, key, salt))
    )


def player_move(m, claim=None):
    """Player 0's next event by the beginner's choices (the board must not be the one to move). At a
    show, with muggins on, the player claims `claim` (None: the true count)."""
    phase = m.phase()
    if phase == "starter":
        hand = list(solo.dealt(m)[0][0])
        cards = opponent.discard("beginner", hand, m.dealer == 0, m.front[0], m.front[1], m.target, m.form)
        return solo.throw(0, [hand.index(c) for c in cards])
    if phase == "play":
        play = m.play
        c = opponent.lay(
            "beginner",
            solo.held(m, 0),
            list(play.current),
            play.count,
            [c for _s, c in play.laid],
            [],
            m.front[0],
            m.front[1],
            m.target,
            m.hand_size,
        )
        return events.lay(0, c)
    if phase == "show":
        side, kind = m.next_show()
        cards = solo.crib(m) if kind == "crib" else solo.kept(m, 0)
        ev = events.show(side, kind, cards)
        if m.muggins:
            n = score_show(cards, m.starter, kind == "crib", m.five).total
            ev["claim"] = n if claim is None else claim
        return ev
    if phase == "deal":
        return events.next_deal()
    if phase == "game over":
        return events.next_game()
    raise AssertionError("the player has no move in phase %r" % (phase,))


def play(m, apply=None, stop=None, claim=None):
    """Play solo match m on (the board's moves and the player's) through apply (default m.apply) until
    the match is over and its last game's seed told, or stop(m) is true; -> the completed events."""
    apply = apply or m.apply
    done = []
    while not (m.match_over and solo.told(m)):
        if stop is not None and stop(m):
            break
        ev = solo.next_move(m)
        if ev is None:
            ev = player_move(m, claim)
        done.append(apply(ev))
    return done
