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


def hard_mode_allows(guess: str, history) -> bool:
    """NYT hard mode, literally: every green letter in place, and every letter shown green or
    yellow n times in one feedback present at least n times."""
    for previous, text in history:
        for i, colour in enumerate(text):
            if colour == "G" and guess[i] != previous[i]:
                return False
        shown = {}
        for ch, colour in zip(previous, text):
            if colour in "GY":
                shown[ch] = shown.get(ch, 0) + 1
        if any(guess.count(ch) < n for ch, n in shown.items()):
            return False
    return True


def ultra_mode_allows(guess: str, history) -> bool:
    """Ultra mode, literally: the guess would have got every pattern so far, were it the answer."""
    return all(wordle_feedback(earlier, guess) == pattern for earlier, pattern in history)


def optimal_total(game, answers, max_guesses, guesses=None, hard=False, ultra=False):
    """The exact optimal total by plain exhaustive recursion over every guess at every node, with
    only a cache of solved positions (no bounds, no shortcuts): the oracle for the search. In
    hard and ultra modes a position is the candidate set and the history (its constraint)."""
    from functools import lru_cache

    guesses = list(game.guesses if guesses is None else guesses)
    answers = list(answers)
    codes = {g: {a: game.feedback(g, a) for a in answers} for g in guesses}
    win = game.win_code

    @lru_cache(maxsize=None)
    def value(S, d, history):
        if d == 0:
            return float("inf")
        best = float("inf")
        for g in guesses:
            if hard and not hard_mode_allows(g, history):
                continue
            if ultra and not ultra_mode_allows(g, history):
                continue
            classes = {}
            for a in S:
                classes.setdefault(codes[g][a], []).append(a)
            if len(classes) == 1 and win not in classes:
                continue  # learns nothing and cannot win: never part of an optimal tree
            cost = len(S)
            for code, part in classes.items():
                if code != win:
                    after = tuple(sorted(set(history) | {(g, game.pattern_text(code))})) if hard or ultra else ()
                    cost += value(frozenset(part), d - 1, after)
            best = min(best, cost)
        return best

    return value(frozenset(answers), max_guesses, ())


def optimal_total_and_worst(game, answers, max_guesses):
    """(total, worst case) of the tree that minimizes the total and, among those, the worst case,
    by plain exhaustive recursion: the oracle for the search's tie-break."""
    from functools import lru_cache

    guesses = list(game.guesses)
    answers = list(answers)
    codes = {g: {a: game.feedback(g, a) for a in answers} for g in guesses}
    win = game.win_code

    @lru_cache(maxsize=None)
    def value(S, d):
        if d == 0:
            return (float("inf"), float("inf"))
        best = (float("inf"), float("inf"))
        for g in guesses:
            classes = {}
            for a in S:
                classes.setdefault(codes[g][a], []).append(a)
            total, worst = len(S), 1
            for code, part in classes.items():
                if code != win:
                    child_total, child_worst = value(frozenset(part), d - 1)
                    total += child_total
                    worst = max(worst, 1 + child_worst)
            best = min(best, (total, worst))
        return best

    return value(frozenset(answers), max_guesses)
