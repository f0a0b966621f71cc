"""The exact optimum of tiny multi-board games, by plain search: the least total number of
guesses over every K-tuple of different answers (each game ends when its last board is
solved), among the strategies that finish every tuple within the cap.

The state is each open board's answers left (narrowed: the answers differ) and the guesses
left; boards are interchangeable, so the state's key is its sets sorted. Each guess splits the
state's tuples by the patterns every open board shows; a board the guess solves leaves the
state, and its answer (the guess) leaves every other board. The value of a state is its tuple
count (the guess each tuple pays now) plus its children's values, the least over every guess.
For lists of a few answers only (the tuples are counted one by one).
"""

from __future__ import annotations

import itertools
from functools import lru_cache

INF = float("inf")


def tuple_count(sets: tuple[frozenset, ...], used: frozenset = frozenset()) -> int:
    """The tuples of different answers, one from each set (and none in `used`)."""
    if not sets:
        return 1
    first, rest = sets[0], sets[1:]
    return sum(tuple_count(rest, used | {w}) for w in first if w not in used)


def optimum(matrix, win: int, k: int, cap: int) -> tuple[float, int | None]:
    """(total, best first guess id) over every K-tuple of different answers; total INF when no
    strategy finishes every tuple within `cap`."""
    n_guesses, n = matrix.shape
    rows = [tuple(int(x) for x in matrix[g]) for g in range(n_guesses)]

    @lru_cache(maxsize=None)
    def value(sets: tuple[frozenset, ...], d: int) -> tuple[float, int | None]:
        count = tuple_count(sets)
        if d == 0:
            return INF, None
        best, best_g = INF, None
        for g in range(n_guesses):
            row = rows[g]
            total = count
            split = []
            for s in sets:
                classes: dict[int, set] = {}
                for a in s:
                    classes.setdefault(row[a], set()).add(a)
                split.append(list(classes.items()))
            for combo in itertools.product(*split):
                wins = [code == win for code, _ in combo]
                if sum(wins) > 1:
                    continue
                solved = {next(iter(cls)) for (code, cls), w in zip(combo, wins) if w}
                child = tuple(sorted((frozenset(cls - solved) for (code, cls), w in zip(combo, wins) if not w),
                                     key=sorted))
                if not child:
                    continue
                if any(not c for c in child) or tuple_count(child) == 0:
                    continue
                if d == 1:
                    total = INF
                    break
                total += value(child, d - 1)[0]
                if total >= best:
                    break
            if total < best:
                best, best_g = total, g
        return best, best_g

    start = tuple(frozenset(range(n)) for _ in range(k))
    return value(start, cap)
