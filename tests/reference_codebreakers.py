"""Slow, obviously-correct twins for the code-breaking games (Mastermind, Bulls and Cows)."""

from __future__ import annotations

from itertools import permutations, product


def score(guess: str, answer: str) -> tuple[int, int]:
    """(in place, misplaced) by the rule as players state it: exact matches first; then the
    misplaced count is the largest number of disjoint pairs (guess position, answer position),
    both not exact matches, holding the same symbol -- found by trying every way to pair them."""
    exact = [i for i in range(len(guess)) if guess[i] == answer[i]]
    rest_g = [guess[i] for i in range(len(guess)) if i not in exact]
    rest_a = [answer[i] for i in range(len(answer)) if i not in exact]
    best = 0
    for order in permutations(range(len(rest_a))):
        best = max(best, sum(rest_g[i] == rest_a[order[i]] for i in range(len(rest_g))))
    return len(exact), best


def all_codes(symbols: str, length: int, distinct: bool) -> list[str]:
    codes = ["".join(p) for p in product(symbols, repeat=length)]
    return [c for c in codes if len(set(c)) == length] if distinct else codes



def ultra_optimal_total(codes: list[str], cap: int, literal: bool = True) -> float:
    """The least total number of guesses over `codes` (each both a guess and an answer) when
    every guess must be consistent with all the feedback so far (ultra mode), with at most `cap`
    guesses per code: plain recursion over every code at every position, with only a cache of
    solved positions. `literal`: the rule is checked against the history itself (the guess, were
    it the answer, would have got every score so far), and a position is (candidates, guesses
    left, history); otherwise the guesses are the candidates left and a position is
    (candidates, guesses left): the same thing, faster, which the literal twin checks on the
    smallest games (tests/test_codebreaker_ultra.py)."""
    from functools import lru_cache

    n = len(codes[0])
    win = (n, 0)
    scores = {(g, a): score(g, a) for g in codes for a in codes}

    @lru_cache(maxsize=None)
    def value(S: frozenset, d: int, history: frozenset) -> float:
        if d == 0:
            return float("inf")
        best = float("inf")
        for g in codes if literal else sorted(S):
            if literal and any(scores[earlier, g] != got for earlier, got in history):
                continue
            classes: dict[tuple[int, int], list[str]] = {}
            for a in S:
                classes.setdefault(scores[g, a], []).append(a)
            cost = len(S)
            for got, part in classes.items():
                if got != win:
                    cost += value(frozenset(part), d - 1, history | {(g, got)} if literal else history)
            best = min(best, cost)
        return best

    return value(frozenset(codes), cap, frozenset())
