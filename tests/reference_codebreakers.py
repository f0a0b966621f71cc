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
