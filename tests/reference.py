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
