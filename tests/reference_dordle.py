"""The Dordle oracle: plain exhaustive recursion over every guess at every position, with no
bounds, no shortcuts and no single-board engine, written as literally as the rules read; only a
cache of solved positions (a position's value does not depend on how it was reached), as in
reference.optimal_total.

A position is the tuple of the pairs still unfinished, each (board-1 answer or None when that
board is solved, board-2 answer or None). A guess costs every unfinished pair one; a board whose
answer is the guess is solved; the pairs then split by the two feedbacks they show (a solved
board shows a fixed mark). The only guesses skipped are those that solve nothing and split
nothing: they lead back to the same position with a guess fewer, which never helps.
"""

from __future__ import annotations

from functools import lru_cache

INF = float("inf")
SOLVED = "="


def position_value(game, guesses, position, d):
    """The least total of the guesses still to play over the pairs of `position`, within d."""
    return _value(game, tuple(guesses), frozenset(position), d)


@lru_cache(maxsize=None)
def _value(game, guesses, position, d):
    if not position:
        return 0
    if d == 0:
        return INF
    best = INF
    for g in guesses:
        groups = {}
        changed = False
        for a, b in position:
            key = (SOLVED if a is None else game.feedback(g, a), SOLVED if b is None else game.feedback(g, b))
            after = (None if a is None or a == g else a, None if b is None or b == g else b)
            changed |= after != (a, b)
            if after != (None, None):
                groups.setdefault(key, []).append(after)
        if not changed and len(groups) == 1:
            continue
        cost = len(position) + sum(_value(game, guesses, frozenset(group), d - 1) for group in groups.values())
        best = min(best, cost)
    return best


def state_pairs(S1, S2):
    """The pairs of a state: S1 x S2 without the pairs of equal answers."""
    return tuple((a, b) for a in S1 for b in S2 if a != b)


def dordle_total(game, cap, answers=None, guesses=None):
    """The optimal total over every ordered pair of different answers, within cap guesses."""
    answers = list(game.answers if answers is None else answers)
    guesses = list(game.guesses if guesses is None else guesses)
    return position_value(game, guesses, state_pairs(answers, answers), cap)


def first_guess_total(game, cap, first, answers=None, guesses=None):
    """The optimal total when the first guess is `first`."""
    answers = list(game.answers if answers is None else answers)
    guesses = list(game.guesses if guesses is None else guesses)
    groups = {}
    for a, b in state_pairs(answers, answers):
        key = (game.feedback(first, a), game.feedback(first, b))
        after = (None if a == first else a, None if b == first else b)
        if after != (None, None):
            groups.setdefault(key, []).append(after)
    n = len(answers)
    return n * (n - 1) + sum(position_value(game, guesses, group, cap - 1) for group in groups.values())


def guess_cost(game, guesses, position, g, d):
    """The least total of `position` (pairs as in position_value) when the next guess is g."""
    if d == 0:
        return INF
    groups = {}
    for a, b in position:
        key = (SOLVED if a is None else game.feedback(g, a), SOLVED if b is None else game.feedback(g, b))
        after = (None if a is None or a == g else a, None if b is None or b == g else b)
        if after != (None, None):
            groups.setdefault(key, []).append(after)
    return len(position) + sum(_value(game, tuple(guesses), frozenset(group), d - 1) for group in groups.values())


def worst_total(game, cap, answers=None, guesses=None):
    """The worst objective: (the fewest guesses the worst pair needs, the least total among the
    strategies with that worst case), (INF, INF) when none fits within cap. Found from the Pareto
    frontier of (worst, total) over every strategy, built up child group by child group."""
    answers = list(game.answers if answers is None else answers)
    guesses = tuple(game.guesses if guesses is None else guesses)
    front = _front(game, guesses, frozenset(state_pairs(answers, answers)), cap)
    return min(front) if front else (INF, INF)


def _pareto(points):
    out, least = [], INF
    for w, t in sorted(points):
        if t < least:
            out.append((w, t))
            least = t
    return out


@lru_cache(maxsize=None)
def _front(game, guesses, position, d):
    """Every (worst, total) not dominated by another, over the strategies finishing every pair of
    `position` within d guesses."""
    if not position:
        return ((0, 0),)
    if d == 0:
        return ()
    points = set()
    for g in guesses:
        groups = {}
        changed = False
        for a, b in position:
            key = (SOLVED if a is None else game.feedback(g, a), SOLVED if b is None else game.feedback(g, b))
            after = (None if a is None or a == g else a, None if b is None or b == g else b)
            changed |= after != (a, b)
            if after != (None, None):
                groups.setdefault(key, []).append(after)
        if not changed and len(groups) == 1:
            continue
        combos = [(0, 0)]
        for group in groups.values():
            sub = _front(game, guesses, frozenset(group), d - 1)
            combos = _pareto({(max(w, w2), t + t2) for w, t in combos for w2, t2 in sub})
            if not combos:
                break
        points |= {(1 + w, len(position) + t) for w, t in combos}
    return tuple(_pareto(points))
