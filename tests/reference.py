"""Slow, obviously-correct twins of the fast kernels: the oracles the tests compare against."""

from __future__ import annotations


def wordle_feedback(guess: str, answer: str) -> str:
    """B/Y/G text by the game's own rule, written as literally as possible."""
    result = ["B"] * len(guess)
    remaining = list(answer)
    for i, ch in enumerate(guess):
        if answer[i] == ch:
            result[i] = "G"
            remaining[i] = None
    for i, ch in enumerate(guess):
        if result[i] == "B" and ch in remaining:
            result[i] = "Y"
            remaining[remaining.index(ch)] = None
    return "".join(result)


def pattern_matrix(game) -> list[list[int]]:
    """The pattern matrix by calling the game's plain-Python feedback on every pair."""
    return [[game.feedback(g, a) for a in game.answers] for g in game.guesses]


def optimal_total(game, answers, max_guesses, guesses=None):
    """The exact optimal total by plain exhaustive recursion over every guess at every node, with
    only a cache of solved sets (no bounds, no shortcuts): the oracle for the search."""
    from functools import lru_cache

    guesses = list(game.guesses if guesses is None else guesses)
    answers = list(answers)
    codes = {g: {a: game.feedback(g, a) for a in answers} for g in guesses}
    win = game.win_code

    @lru_cache(maxsize=None)
    def value(S, d):
        if d == 0:
            return float("inf")
        best = float("inf")
        for g in guesses:
            classes = {}
            for a in S:
                classes.setdefault(codes[g][a], []).append(a)
            if len(classes) == 1 and win not in classes:
                continue  # learns nothing and cannot win: never part of an optimal tree
            cost = len(S) + sum(value(frozenset(part), d - 1) for code, part in classes.items() if code != win)
            best = min(best, cost)
        return best

    return value(frozenset(answers), max_guesses)
