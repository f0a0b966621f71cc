"""Bulls and Cows: D digits 0-9, distinct unless repeats are allowed (`0123`).

Feedback counts bulls (right digit, right place) and cows (right digit, wrong place): the same
scoring as Mastermind's black and white pegs, so the same code, bulls * (D + 1) + cows, and the
text `1A2B`. With repeated digits a digit is counted at most as often as both codes hold it.
"""

from __future__ import annotations

import re
from itertools import product

from ..errors import GameOptionOutOfRange, UserError
from .codebreaker import MAX_CODES, CodeBreaker, canonical_first_guesses, generated_list

LIST_PATTERN = re.compile(r"bulls-cows-(\d+)(-repeats)? codes")

__all__ = ["BullsCows", "bulls_cows_game", "canonical_first_guesses"]


class BullsCows(CodeBreaker):
    kind = "bulls-cows"
    score_letters = "ab"
    position_name = "digits"
    symbol_name = "digit"

    def __init__(self, digits: int = 4, repeats: bool = False):
        count = 10**digits if repeats else _distinct_count(digits)
        if not 1 <= digits <= 10 or count > MAX_CODES:
            raise GameOptionOutOfRange("bulls-cows", "digits", digits, f"between 1 and 4 (at most {MAX_CODES} codes)")
        self.name = "bulls-cows"
        self.digits, self.repeats = digits, bool(repeats)
        self.symbols = "0123456789"
        codes = ("".join(p) for p in product(self.symbols, repeat=digits))
        self._set_codes((c for c in codes if self.repeats or len(set(c)) == digits), digits)
        # distinct digits: every code is one orbit of the symmetries, so any opener is a best one;
        # 4 digits with repeats: 0123, proven by this engine (README, runs/bulls-cows-repeats.ck)
        self.default_first = "0123" if self.repeats and digits == 4 else None if self.repeats else self.codes[0]
        self.one_orbit = not self.repeats
        # the optimum for 4 distinct digits needs 7 guesses for some codes; with repeats no cap
        # (its optimum needs 8, and none is assumed for other sizes)
        self.default_cap = None if self.repeats else 7
        # the third guess too: 3.3x faster on the 4-digit classes (Mastermind 4x6 is faster with one)
        self.symmetric_levels = 2

    def guess_problem(self, code: str) -> str:
        repeated = next((ch for ch in code if code.count(ch) > 1), None)
        if len(code) == self.digits and code.isdigit() and code.isascii() and repeated and not self.repeats:
            return f"digit {repeated} is repeated: the digits of a code differ in this game"
        return super().guess_problem(code)

    @property
    def list_name(self) -> str:
        return f"bulls-cows-{self.digits}{'-repeats' if self.repeats else ''} codes"

    def parameters(self) -> dict:
        return {"digits": self.digits, "repeats": self.repeats}


def _distinct_count(digits: int) -> int:
    count = 1
    for i in range(max(digits, 0)):
        count *= 10 - i
    return count


def bulls_cows_game(answers: str | None = None, guesses: str | None = None, digits: int | None = None,
                    repeats: bool = False) -> BullsCows:
    """The game for `digits`/`repeats`; list files are refused, except the generated list's own
    name (what a tree file records), which gives the parameters."""
    if answers is not None:
        match = generated_list(answers, guesses, LIST_PATTERN, "bulls-cows")
        named_digits, named_repeats = int(match.group(1)), bool(match.group(2))
        if (digits or named_digits) != named_digits or (repeats and not named_repeats):
            asked = f"bulls-cows-{digits or named_digits}{'-repeats' if repeats or named_repeats else ''} codes"
            raise UserError(f"the codes are {match.group(0)}, not the {asked} asked for")
        digits, repeats = named_digits, named_repeats
    return BullsCows(digits or 4, repeats)
