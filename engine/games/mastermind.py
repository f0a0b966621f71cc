"""Mastermind: P pegs, C colours, repeats allowed; codes written with the digits 1..C (`1122`).

Feedback counts black pegs (right colour, right place) and white pegs (right colour, wrong
place); its code is black * (P + 1) + white and its text `2B1W`. The helpers shared with Bulls
and Cows (the same scoring, other letters) live here too.
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import product

from ..errors import UserError
from ..words import canonical_sha256
from . import Game
from .symmetry import orbit_representatives

MAX_CODES = 10_000  # a 10000 x 10000 matrix is 100 MB: the most this machine should hold
MAX_PEGS = 9  # keeps every count one digit, so a pattern like "21" is unambiguous
LIST_PATTERN = re.compile(r"mastermind-(\d+)x(\d+) codes")


def black_white(guess: str, answer: str) -> tuple[int, int]:
    """(exact matches, symbols in common but misplaced), in plain Python."""
    black = sum(g == a for g, a in zip(guess, answer))
    common = sum((Counter(guess) & Counter(answer)).values())
    return black, common - black


def parse_score(text: str, pegs: int, letters: str) -> tuple[int, int]:
    """A typed score as (first count, second count). Accepted, case-insensitive, blanks ignored:
    `2B1W` (either part may be left out when it is 0: `2B`, `1W`; `0B0W` or `-` for nothing),
    or two bare digits `21` = 2 of the first kind, 1 of the second (unambiguous since P <= 9).
    `letters` are the game's two letters, e.g. "bw" or "ab"."""
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
        places = "digits" if letters == "ab" else "pegs"
        raise UserError(f"bad pattern {text!r}: {x}{first.upper()}{y}{second.upper()} cannot occur with {pegs} {places}")
    return x, y


def canonical_first_guesses(game) -> list[int]:
    """One opener per class of openers equivalent under the game's symmetries, as guess ids (the
    first code of each class in list order). Openers in one class have the same optimal cost,
    with or without a cap (see engine/games/symmetry.py): `1123` stands for every code with one
    repeated symbol and two others."""
    return [int(g) for g in orbit_representatives(game, [])]


class Mastermind(Game):
    kind = "mastermind"

    def __init__(self, pegs: int = 4, colours: int = 6):
        if not 1 <= pegs <= MAX_PEGS:
            raise UserError(f"--pegs must be between 1 and {MAX_PEGS}, not {pegs}")
        if not 2 <= colours <= 9:
            raise UserError(f"--colours must be between 2 and 9 (codes use the digits 1..C), not {colours}")
        if colours**pegs > MAX_CODES:
            raise UserError(f"mastermind {pegs}x{colours} has {colours**pegs} codes; wordtree handles {MAX_CODES} at most")
        self.name = "mastermind"
        self.pegs, self.colours = pegs, colours
        self.symbols = "123456789"[:colours]
        self.codes = tuple("".join(p) for p in product(self.symbols, repeat=pegs))
        self.answers = self.guesses = self.codes
        self.n_codes = (pegs + 1) ** 2
        self.win_code = pegs * (pegs + 1)
        self.default_first = "1123" if (pegs, colours) == (4, 6) else None

    @property
    def list_name(self) -> str:
        return f"mastermind-{self.pegs}x{self.colours} codes"

    def feedback(self, guess: str, answer: str) -> int:
        black, white = black_white(guess, answer)
        return black * (self.pegs + 1) + white

    def pattern_text(self, code: int) -> str:
        black, white = divmod(code, self.pegs + 1)
        return f"{black}B{white}W"

    def parse_pattern(self, text: str) -> int:
        black, white = parse_score(text, self.pegs, "bw")
        return black * (self.pegs + 1) + white

    def identity(self) -> dict:
        sha = canonical_sha256(self.codes)
        return {
            "name": self.name,
            "word_length": self.pegs,
            "answers": self.list_name,
            "answers_sha256": sha,
            "answers_count": len(self.codes),
            "guesses": self.list_name,
            "guesses_sha256": sha,
            "guesses_count": len(self.codes),
            "pegs": self.pegs,
            "colours": self.colours,
        }

    def _compute_matrix(self):
        from .codebreaker_kernels import codebreaker_matrix

        return codebreaker_matrix(self.guesses, self.answers, self.colours, 1, self.code_dtype)


def mastermind_game(answers: str | None = None, guesses: str | None = None, pegs: int | None = None,
                    colours: int | None = None) -> Mastermind:
    """The game for `--pegs/--colours`; the codes are generated, so list files are refused, except
    the generated list's own name (what a tree file records), which gives the parameters."""
    if answers is not None:
        match = generated_list(answers, guesses, LIST_PATTERN, "mastermind")
        named = int(match.group(1)), int(match.group(2))
        if (pegs or named[0], colours or named[1]) != named:
            raise UserError(f"the codes are mastermind {named[0]}x{named[1]}, not the "
                            f"{pegs or named[0]}x{colours or named[1]} that --pegs/--colours ask for")
        pegs, colours = named
    return Mastermind(pegs or 4, colours or 6)


def generated_list(answers: str, guesses: str, pattern: re.Pattern, game: str) -> re.Match:
    """The match of `pattern` on the list name both arguments give (a bare name or a path to it)."""
    names = {str(x).replace("\\", "/").rsplit("/", 1)[-1] for x in (answers, guesses)}
    match = pattern.fullmatch(names.pop()) if len(names) == 1 else None
    if match is None:
        raise UserError(f"{game} generates its codes: --answers/--guesses do not apply")
    return match
