"""Absurdle positions: the adversary's replies to the guesses played so far, and the best next
guess (next, play).

A position is the set of answers the adversary still has after the guesses played. The next
guess comes from a proof's line where the game follows one (exact: the line wins in the least
number of guesses), else from the exact search where it is cheap (cornering within two more
guesses, search.Board.corner_guess), else from a labelled heuristic: the guess whose largest
bucket is smallest.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import UserError
from .rule import RULES, replies
from .search import Board

EXACT_CORNERING = 2  # cornering guesses searched exactly off a line (three: a sweep of minutes)


@dataclass
class Advice:
    guess: str
    wins_in: int | None  # guesses from now that always win with it (None: heuristic, not known)
    source: str  # "line", "search", "heuristic" or "won"
    left: list[str]

    def as_json(self) -> dict:
        return {"guess": self.guess, "wins_in": self.wins_in, "source": self.source,
                "candidates": len(self.left), "candidate_words": self.left[:50]}


class AbsurdleGame:
    """A game against the adversary: `history` of (guess, reply), the answers it has left, and
    the proof document whose lines the advice follows (None: none)."""

    def __init__(self, game, rule: str = "qntm", doc: dict | None = None, board: Board | None = None):
        if rule not in RULES:
            raise UserError(f"unknown Absurdle rule {rule!r}; known: {', '.join(RULES)}")
        self.game, self.rule, self.doc = game, RULES[rule], doc
        self._board = board
        self.history: list[tuple[str, str]] = []
        self.left: list[str] = list(game.answers)

    @property
    def board(self) -> Board:
        if self._board is None:
            self._board = Board.of(self.game, self.rule)
        return self._board

    @property
    def won(self) -> bool:
        return bool(self.history) and self.history[-1][1] == "G" * self.game.length

    def play(self, guess: str, reply: str | None = None) -> str:
        """Play `guess`; the adversary's reply (under a rule with ties, `reply` picks among the
        replies it may give, and must be one of them). Returns the reply."""
        if self.won:
            raise UserError("the game is won already")
        guess = self.game.parse_guess(guess)
        if self.left == [guess]:
            options = [("G" * self.game.length, [guess])]
        else:
            options = replies(self.rule, guess, self.left)
        chosen = dict(options)
        if reply is None:
            if len(options) > 1:
                raise UserError(f"the adversary may answer {guess} with {' or '.join(chosen)}: "
                                f"give the one it gave, as {guess}:PATTERN")
            reply = options[0][0]
        else:
            reply = self.game.pattern_text(self.game.parse_pattern(reply))
            if reply not in chosen:
                raise UserError(f"Absurdle ({self.rule.name} rule) answers {guess} with {' or '.join(chosen)}, "
                                f"not {reply}")
        self.history.append((guess, reply))
        self.left = chosen[reply]
        return reply

    def _line_node(self) -> dict | None:
        if not self.doc or not self.history:
            return None
        node = self.doc["lines"].get(self.history[0][0])
        for guess, reply in self.history:
            if node is None or node.get("guess") != guess:
                return None
            node = (node.get("next") or {}).get(reply)
        return node

    def advice(self) -> Advice:
        """The best next guess from here."""
        if self.won:
            return Advice(self.history[-1][0], 0, "won", [])
        if len(self.left) == 1:
            return Advice(self.left[0], 1, "search", self.left)
        if not self.history and self.doc and self.doc["lines"]:
            opener, line = next(iter(self.doc["lines"].items()))
            return Advice(opener, self.doc["fewest"], "line", self.left)
        node = self._line_node()
        if node is not None:
            from .document import depth

            return Advice(node["guess"], depth(node), "line", self.left)
        board = self.board
        index = self.game.answer_index
        S = np.array(sorted(index[a] for a in self.left), dtype=np.int32)
        for k in range(1, EXACT_CORNERING + 1):
            g = board.corner_guess(S, k)
            if g >= 0:
                return Advice(self.game.guesses[g], k + 1, "search", self.left)
        from . import kernels

        sizes = kernels._first_replies(board.matrix, S, board.rank, board.ties)
        best = int(np.argmin(sizes))
        return Advice(self.game.guesses[best], None, "heuristic", self.left)


def advice_line(advice: Advice) -> str:
    if advice.source == "won":
        return "won"
    left = f"{len(advice.left)} answer{'s' if len(advice.left) != 1 else ''} left"
    if advice.wins_in is None:
        return (f"next: {advice.guess}  ({left}; heuristic: the smallest largest bucket, as no win within "
                f"{EXACT_CORNERING + 1} more guesses was found by the exact search)")
    how = "from the proof's line" if advice.source == "line" else "exact search"
    return f"next: {advice.guess}  (always wins in {advice.wins_in} more guess{'es' if advice.wins_in != 1 else ''}, " \
           f"the fewest; {how}; {left})"
