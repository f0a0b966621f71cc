"""Mastermind: P pegs, C colours, repeats allowed; codes written with the digits 1..C (`1122`).

Feedback counts black pegs (right colour, right place) and white pegs (right colour, wrong
place); its code is black * (P + 1) + white and its text `2B1W` (codebreaker.py).
"""

from __future__ import annotations

import re
from itertools import product

from ..errors import GameOptionOutOfRange, UserError
from .codebreaker import MAX_CODES, CodeBreaker, canonical_first_guesses, generated_list

MAX_PEGS = 9  # keeps every count one digit, so a pattern like "21" is unambiguous
LIST_PATTERN = re.compile(r"mastermind-(\d+)x(\d+) codes")

__all__ = ["Mastermind", "mastermind_game", "canonical_first_guesses"]


class Mastermind(CodeBreaker):
    kind = "mastermind"
    score_letters = "bw"
    position_name = "pegs"
    symbol_name = "colour"

    def __init__(self, pegs: int = 4, colours: int = 6):
        if not 1 <= pegs <= MAX_PEGS:
            raise GameOptionOutOfRange("mastermind", "pegs", pegs, f"between 1 and {MAX_PEGS}")
        if not 2 <= colours <= 9:
            raise GameOptionOutOfRange("mastermind", "colours", colours, "between 2 and 9 (codes use the digits 1..C)")
        if colours**pegs > MAX_CODES:
            raise UserError(f"mastermind {pegs}x{colours} has {colours**pegs} codes; wordtree handles {MAX_CODES} at most")
        self.name = "mastermind"
        self.pegs, self.colours = pegs, colours
        self.symbols = "123456789"[:colours]
        self._set_codes(("".join(p) for p in product(self.symbols, repeat=pegs)), pegs)
        self.default_first = "1123" if (pegs, colours) == (4, 6) else None

    @property
    def list_name(self) -> str:
        return f"mastermind-{self.pegs}x{self.colours} codes"

    def parameters(self) -> dict:
        return {"pegs": self.pegs, "colours": self.colours}


def mastermind_game(answers: str | None = None, guesses: str | None = None, pegs: int | None = None,
                    colours: int | None = None) -> Mastermind:
    """The game for `pegs`/`colours`; the codes are generated, so list files are refused, except
    the generated list's own name (what a tree file records), which gives the parameters."""
    if answers is not None:
        match = generated_list(answers, guesses, LIST_PATTERN, "mastermind")
        named = int(match.group(1)), int(match.group(2))
        if (pegs or named[0], colours or named[1]) != named:
            raise UserError(f"the codes are mastermind {named[0]}x{named[1]}, not the "
                            f"{pegs or named[0]}x{colours or named[1]} asked for")
        pegs, colours = named
    return Mastermind(pegs or 4, colours or 6)
