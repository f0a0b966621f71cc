"""What the code-breaking games (Mastermind, Bulls and Cows) share: every code is both a guess
and an answer, made of the game's symbols, and a guess is scored by its exact matches and its
symbols in common but misplaced (black and white pegs, bulls and cows). The code of a score is
first * (P + 1) + second for P positions, its text `2B1W` or `1A2B` (the game's two letters).
"""

from __future__ import annotations

import re
from collections import Counter

from ..errors import GeneratedCodesError, UserError
from ..words import canonical_sha256
from .base import Game
from .symmetry import orbit_representatives

MAX_CODES = 10_000  # a 10000 x 10000 matrix is 100 MB: the most this machine should hold


def black_white(guess: str, answer: str) -> tuple[int, int]:
    """(exact matches, symbols in common but misplaced), in plain Python."""
    black = sum(g == a for g, a in zip(guess, answer))
    common = sum((Counter(guess) & Counter(answer)).values())
    return black, common - black


def parse_score(text: str, pegs: int, letters: str, places: str) -> tuple[int, int]:
    """A typed score as (first count, second count). Accepted, case-insensitive, blanks ignored:
    `2B1W` (either part may be left out when it is 0: `2B`, `1W`; `0B0W` or `-` for nothing),
    or two bare digits `21` = 2 of the first kind, 1 of the second (unambiguous since P <= 9).
    `letters` are the game's two letters, e.g. "bw" or "ab"; `places` names its positions."""
    cleaned = re.sub(r"\s+", "", text).lower()
    first, second = letters
    if cleaned in ("-", ""):
        x = y = None if cleaned == "" else 0
    elif re.fullmatch(r"\d\d", cleaned):
        x, y = int(cleaned[0]), int(cleaned[1])
    else:
        match = re.fullmatch(rf"(?:(\d+){first})?(?:(\d+){second})?", cleaned)
        x = y = None
        if match and (match.group(1) or match.group(2)):
            x, y = int(match.group(1) or 0), int(match.group(2) or 0)
    example = f"1{first.upper()}2{second.upper()}"
    if x is None:
        raise UserError(f"bad pattern {text!r}: expected counts like {example}, {example.lower()} or 12")
    if x + y > pegs or (x == pegs - 1 and y == 1):
        raise UserError(f"bad pattern {text!r}: {x}{first.upper()}{y}{second.upper()} cannot occur with {pegs} {places}")
    return x, y


def canonical_first_guesses(game) -> list[int]:
    """One opener per class of openers equivalent under the game's symmetries, as guess ids (the
    first code of each class in list order). Openers in one class have the same optimal cost,
    with or without a cap (see engine/games/symmetry.py): `1123` stands for every code with one
    repeated symbol and two others."""
    return [int(g) for g in orbit_representatives(game, [])]


class CodeBreaker(Game):
    """Base of the code-breaking games. A subclass sets `score_letters` (e.g. "bw"),
    `position_name` (e.g. "pegs") and `symbols`, calls `_set_codes`, and says in `parameters`
    what its identity adds (the options that generate its codes)."""

    score_letters = ""
    position_name = ""
    symbol_name = ""  # what one symbol is called: "colour", "digit"
    one_orbit = False  # every code is the image of every other under the symmetries (symmetry.py)

    def _set_codes(self, codes, positions: int) -> None:
        self.positions = positions
        self.codes = tuple(codes)
        self.answers = self.guesses = self.codes
        self.n_codes = (positions + 1) ** 2
        self.win_code = positions * (positions + 1)

    @property
    def list_name(self) -> str:
        raise NotImplementedError

    def proven_first(self, mode: str) -> str | None:
        """`default_first` was proven in normal mode. In ultra mode every code may open too, and
        the symmetries keep the rule (engine/exact/symmetric.py, uses_symmetry), so where every
        code is one orbit any opener is a best one; otherwise none is recorded (a build ranks
        the openers)."""
        if mode == "normal":
            return self.default_first
        return self.codes[0] if self.one_orbit and mode == "ultra" else None

    def parameters(self) -> dict:
        raise NotImplementedError

    def parse_guess(self, word: str) -> str:
        """Normalize a typed code; one that is not a code of this game is a UserError that says
        what is wrong with it (its length, a symbol out of range, a repeat)."""
        code = word.strip().lower()
        if code in self.guess_index:
            return code
        raise UserError(f"{word!r} is not an allowed guess in {self.name}: {self.guess_problem(code)}")

    def guess_problem(self, code: str) -> str:
        """Why `code` is not a code of this game, in words."""
        name = self.symbol_name
        symbols = f"{name}s are {self.symbols[0]} to {self.symbols[-1]}"
        for ch in code:
            if ch not in self.symbols and ch.isascii() and ch.isdigit():
                return f"{name} {ch} is out of range: {symbols}"
            if ch not in self.symbols:
                return f"{ch!r} is not a {name}: {symbols}"
        if len(code) != self.positions:
            return f"it has {len(code)} {self.position_name}, the codes have {self.positions}"
        return f"the codes are {self.positions} {self.position_name}, {symbols}"

    def feedback(self, guess: str, answer: str) -> int:
        first, second = black_white(guess, answer)
        return first * (self.positions + 1) + second

    def pattern_text(self, code: int) -> str:
        first, second = divmod(code, self.positions + 1)
        return f"{first}{self.score_letters[0].upper()}{second}{self.score_letters[1].upper()}"

    def parse_pattern(self, text: str) -> int:
        first, second = parse_score(text, self.positions, self.score_letters, self.position_name)
        return first * (self.positions + 1) + second

    def identity(self) -> dict:
        sha = canonical_sha256(self.codes)
        return {
            "name": self.name,
            "word_length": self.positions,
            "answers": self.list_name,
            "answers_sha256": sha,
            "answers_count": len(self.codes),
            "guesses": self.list_name,
            "guesses_sha256": sha,
            "guesses_count": len(self.codes),
            **self.parameters(),
        }

    def _compute_matrix(self):
        from .codebreaker_kernels import codebreaker_matrix

        return codebreaker_matrix(self.guesses, self.answers, len(self.symbols), int(self.symbols[0]), self.code_dtype)


def generated_list(answers: str, guesses: str, pattern: re.Pattern, game: str) -> re.Match:
    """The match of `pattern` on the list name both arguments give (a bare name or a path to it)."""
    names = {str(x).replace("\\", "/").rsplit("/", 1)[-1] for x in (answers, guesses)}
    match = pattern.fullmatch(names.pop()) if len(names) == 1 else None
    if match is None:
        raise GeneratedCodesError(game)
    return match
