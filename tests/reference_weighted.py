"""The weighted exact optimum by brute force, in plain Python: the oracle of engine/exact/weighted.py.

value(S, d) = min over every guess g of W(S) + sum over the non-winning classes C of g on S of
value(C, d - 1), value(S, 0) = infinity, value({a}, d >= 1) = w(a): every guess tried at every
node (no bound, no filter), the feedback from tests/reference.py's literal rule, the memo a dict
keyed by (frozenset, d). In hard mode a position is also its history, and a guess is tried only
where tests/reference.py's literal hard_mode_allows lets it. Only for small lists.
"""

from __future__ import annotations

import math
from functools import lru_cache

from reference import hard_mode_allows, wordle_feedback


def weighted_optimum(answers, guesses, weights: dict[str, int], max_guesses: int, hard: bool = False) -> float:
    """The least weighted total over `answers` (each answer pays w times its guesses) within
    `max_guesses` (NYT hard mode if `hard`); math.inf when no tree exists."""
    guesses = list(dict.fromkeys(list(guesses) + list(answers)))

    @lru_cache(maxsize=None)
    def value(S: frozenset, d: int, history: tuple = ()) -> float:
        if d == 0:
            return math.inf
        if len(S) == 1:
            return weights[next(iter(S))]
        best = math.inf
        W = sum(weights[a] for a in S)
        for g in guesses:
            if hard and not hard_mode_allows(g, history):
                continue
            classes: dict[str, set] = {}
            for a in S:
                classes.setdefault(wordle_feedback(g, a), set()).add(a)
            if len(classes) == 1 and g not in S:
                continue  # (the same set with a guess fewer: never better)
            cost = W + sum(value(frozenset(C), d - 1, tuple(sorted(set(history) | {(g, p)})) if hard else ())
                           for p, C in classes.items() if p != "G" * len(g))
            best = min(best, cost)
        return best

    return value(frozenset(answers), max_guesses)


def weighted_total(tree: dict, answers, weights: dict[str, int]) -> int:
    """A tree's weighted total, walked answer by answer with the literal feedback."""
    total = 0
    for a in answers:
        node, depth = tree, 1
        while True:
            p = wordle_feedback(node["guess"], a)
            if p == "G" * len(a):
                break
            node = node["next"][p]
            depth += 1
        total += weights[a] * depth
    return total
