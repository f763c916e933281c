# Helpers for the game tests: build matches and move scores without repeating boilerplate.
from cribbage import events as E
from cribbage.game import Match
from cribbage.play import reasons_for_lay


def points_for_lay(cards):
    """Points the last of `cards` (the current count, in order) scores, without go or last card."""
    return sum(p for _reason, p in reasons_for_lay(cards))


def new_match(form="six", fmt="acc", dealer=0, **kw):
    """A match whose first dealer is `dealer` (named, not cut)."""
    m = Match(E.setup(form=form, fmt=fmt, **kw))
    if dealer is not None:
        m.apply(E.dealer(dealer))
    return m


def bring(m, side, score, why="manual"):
    """Peg side up to exactly `score` with manual pegs of at most 29."""
    while m.front[side] < score:
        m.apply(E.peg(side, min(29, score - m.front[side]), why))


def finish_game(m, winner, loser_score):
    """Bring the loser(s) to loser_score, then peg the winner out."""
    for s in range(m.sides):
        if s != winner:
            bring(m, s, loser_score)
    bring(m, winner, m.target)


def state(m):
    """The derived state that undo must restore exactly."""
    return (
        list(m.front),
        list(m.back),
        m.dealer,
        m.deal_no,
        m.game_no,
        m.starter,
        m.heels,
        m.next_show(),
        m.phase(),
        m.game_over,
        m.winner,
        list(m.skunk),
        list(m.match_points),
        list(m.wins),
        len(m.results),
        m.match_over,
        m.match_winner,
        m.last_show,
        m.muggins_due,
        None if m.play is None else (m.play.count, list(m.play.current), m.play.turn, m.play.over),
        m.count,
        list(m.active),
        list(m.out),
    )
