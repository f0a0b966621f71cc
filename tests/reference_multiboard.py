"""Multi-board games by brute force, in plain Python and apart from engine/multiboard: every
tuple of different answers listed, the optimum found by trying every guess on every set of
tuples, no memo, no symmetry, no pruning; and the answers a board can still have, by listing
the tuples that fit."""

from __future__ import annotations

import itertools

INF = float("inf")


def colours(guess: str, answer: str) -> str:
    out = ["B"] * len(guess)
    rest = list(answer)
    for i, (g, a) in enumerate(zip(guess, answer)):
        if g == a:
            out[i] = "G"
            rest[i] = None
    for i, g in enumerate(guess):
        if out[i] == "B" and g in rest:
            out[i] = "Y"
            rest[rest.index(g)] = None
    return "".join(out)


def tuples(answers, k: int) -> list[tuple[str, ...]]:
    return list(itertools.permutations(answers, k))


def optimum(answers, guesses, k: int, cap: int) -> float:
    """The least total guesses over every K-tuple (a tuple's game: until its last board is
    solved), among strategies finishing every tuple within `cap`; INF if none does."""

    def total(games: list[tuple[tuple[str, ...], frozenset]], d: int) -> float:
        # games: (answers, boards solved so far)
        if d == 0:
            return INF
        best = INF
        for g in guesses:
            groups: dict[tuple, list] = {}
            for answer, solved in games:
                key = tuple("=" if b in solved else colours(g, a) for b, a in enumerate(answer))
                now = solved | {b for b, a in enumerate(answer) if a == g}
                groups.setdefault(key, []).append((answer, frozenset(now)))
            cost = len(games)
            for group in groups.values():
                if len(group[0][1]) < k:
                    cost += total(group, d - 1)
            best = min(best, cost)
        return best

    return total([(t, frozenset()) for t in tuples(answers, k)], cap)


def possible(answers, k: int, steps) -> list[set[str]]:
    """Each board's answers that some tuple fitting the steps (guess, patterns with '=====' for
    a board solved before) has."""
    out = [set() for _ in range(k)]
    for t in tuples(answers, k):
        solved = set()
        fits = True
        for guess, patterns in steps:
            for b, p in enumerate(patterns):
                want = "=" * len(guess) if b in solved else colours(guess, t[b])
                if p != want:
                    fits = False
            solved |= {b for b in range(k) if t[b] == guess}
            if not fits:
                break
        if fits:
            for b in range(k):
                out[b].add(t[b])
    return out
