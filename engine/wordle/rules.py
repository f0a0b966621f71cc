"""The verifier's game rules, written independently of engine.games: a game's name maps (`RULES`)
to its feedback as pattern text and, optionally, its hard-mode rule and, for games whose codes are
generated rather than read from files (Mastermind, Bulls and Cows), the generator of its code
list. The verifier (verify.py) replays trees with them and reads the lists a tree names through
tree.py; tree.py asks them only whether a game generates its codes. Kept apart from both, so that
neither of those two imports the other.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable


def wordle_text(guess: str, answer: str) -> str:
    """Wordle colours as text: G for the right letter in place, then Y for each other guess
    letter while the answer still has an unclaimed copy of it (left to right), else B."""
    colours = ["G" if g == a else "" for g, a in zip(guess, answer)]
    unclaimed = Counter(a for a, c in zip(answer, colours) if not c)
    for i, letter in enumerate(guess):
        if colours[i]:
            continue
        if unclaimed[letter]:
            unclaimed[letter] -= 1
            colours[i] = "Y"
        else:
            colours[i] = "B"
    return "".join(colours)


def wordle_hard_violation(guess: str, history: list[tuple[str, str]]) -> str | None:
    """The NYT hard-mode rule: a green letter stays in place, and a letter revealed (green or
    yellow) n times in one feedback appears at least n times in every later guess."""
    for earlier, pattern in history:
        for i, (letter, colour) in enumerate(zip(earlier, pattern)):
            if colour == "G" and guess[i] != letter:
                return f"hard mode: {guess!r} must keep {letter.upper()} in position {i + 1} (from {earlier}:{pattern})"
        revealed = Counter(letter for letter, colour in zip(earlier, pattern) if colour in "GY")
        for letter, n in sorted(revealed.items()):
            if guess.count(letter) < n:
                return f"hard mode: {guess!r} must contain {letter.upper()} at least {n} time(s) (from {earlier}:{pattern})"
    return None


def exact_and_misplaced(guess: str, answer: str) -> tuple[int, int]:
    """Code-breaking score: symbols in place, then each other guess symbol that finds a still
    unclaimed equal symbol elsewhere in the answer (left to right) counts as misplaced."""
    in_place = [g == a for g, a in zip(guess, answer)]
    unclaimed = [a for a, hit in zip(answer, in_place) if not hit]
    misplaced = 0
    for symbol, hit in zip(guess, in_place):
        if not hit and symbol in unclaimed:
            unclaimed.remove(symbol)
            misplaced += 1
    return sum(in_place), misplaced


def mastermind_text(guess: str, answer: str) -> str:
    """Mastermind pegs as text: `2B1W` (black: right colour in place; white: elsewhere)."""
    black, white = exact_and_misplaced(guess, answer)
    return f"{black}B{white}W"


def bulls_cows_text(guess: str, answer: str) -> str:
    """Bulls and Cows as text: `1A2B` (A: right digit in place; B: elsewhere)."""
    bulls, cows = exact_and_misplaced(guess, answer)
    return f"{bulls}A{cows}B"


def _small_int(game: dict, key: str, low: int, high: int) -> int:
    value = game.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"game.{key} must be an integer from {low} to {high}, not {value!r}")
    return value


def mastermind_codes(game: dict) -> list[str]:
    """Every code of the tree's Mastermind: `pegs` digits from 1..`colours`, repeats allowed."""
    pegs, colours = _small_int(game, "pegs", 1, 9), _small_int(game, "colours", 2, 9)
    if colours**pegs > 10_000:
        raise ValueError(f"mastermind {pegs}x{colours} is larger than any wordtree builds")
    codes = [""]
    for _ in range(pegs):
        codes = [code + str(colour) for code in codes for colour in range(1, colours + 1)]
    return codes


def bulls_cows_codes(game: dict) -> list[str]:
    """Every code of the tree's Bulls and Cows: `digits` digits 0-9, distinct unless `repeats`."""
    digits, repeats = _small_int(game, "digits", 1, 4), game.get("repeats")
    if not isinstance(repeats, bool):
        raise ValueError(f"game.repeats must be true or false, not {repeats!r}")
    codes = [str(n).zfill(digits) for n in range(10**digits)]
    return codes if repeats else [code for code in codes if len(set(code)) == digits]


@dataclass(frozen=True)
class Rules:
    feedback: Callable[[str, str], str]
    hard_violation: Callable[[str, list], str | None] | None = None
    codes: Callable[[dict], list[str]] | None = None  # games whose answers (= guesses) are generated


WORDLE_RULES = Rules(wordle_text, wordle_hard_violation)
RULES: dict[str, Rules] = {
    "wordle": WORDLE_RULES, "wordle-nyt": WORDLE_RULES, "wordle-nyt2023": WORDLE_RULES,
    "mastermind": Rules(mastermind_text, codes=mastermind_codes),
    "bulls-cows": Rules(bulls_cows_text, codes=bulls_cows_codes),
}
