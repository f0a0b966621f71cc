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
from typing import TYPE_CHECKING

import numpy as np

from ..errors import UserError
from .rule import RULES, replies

if TYPE_CHECKING:
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
        if self._board is None:  # (the search and its kernels load only off a proof's line)
            from .search import Board

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


# ------------------------------------------------------------------------------------------------
# challenge mode from a position: the next guess toward making the adversary end on a target
# ------------------------------------------------------------------------------------------------
TARGET_DEPTH = 6  # guesses searched toward a target before it is said to be out of reach


def target_line(game, matrix, S, x: int, most: int = TARGET_DEPTH, deadline: float | None = None):
    """The fewest guesses from the bucket S (answer ids) that leave the qntm adversary the answer x
    alone, as guess ids (then guessing x wins): iterative deepening over every guess, each step
    to a bucket that still holds x and is smaller (a guess that leaves the bucket whole only
    wastes one), a bucket that failed at a depth not tried again at it. None: no line within
    `most` guesses (proven); raises TimeoutError past `deadline` (time.monotonic())."""
    import time

    from .challenge import _kept_all as kept_all
    from .rule import code_rank

    rank = code_rank(game.length)
    S = np.sort(np.asarray(S, dtype=np.int32))
    if x not in set(S.tolist()):
        return None
    if S.size == 1:
        return []
    failed: set[tuple[bytes, int]] = set()

    def line(S, k):
        if deadline is not None and time.monotonic() > deadline:
            raise TimeoutError
        sizes = kept_all(matrix, S, rank, np.int64(x))
        if (sizes == 1).any():
            return [int(np.flatnonzero(sizes == 1)[0])]
        if k == 1:
            return None
        key = (S.tobytes(), k)
        if key in failed:
            return None
        for g in np.flatnonzero((sizes > 1) & (sizes < S.size)):
            codes = matrix[g, S]
            B = S[codes == matrix[g, x]]
            rest = line(B, k - 1)
            if rest is not None:
                return [int(g)] + rest
        failed.add(key)
        return None

    for k in range(1, most + 1):
        found = line(S, k)
        if found is not None:
            return found
    return None


def target_advice(position: AbsurdleGame, target: str, seconds: float | None = 60.0) -> Advice:
    """The next guess toward making the adversary end on `target` (challenge mode, qntm rule):
    the first of a fewest-guess line from the answers it has left (target_line), with the
    guesses still needed, the target's own guess counted."""
    import time

    if position.rule.name != "qntm":
        raise UserError("the challenge mode is played under the qntm rule only")
    game = position.game
    word = game.parse_guess(target)
    if word not in game.answer_index:
        raise UserError(f"{target!r} is not an answer of {game.name}")
    if position.won:
        ended = position.history[-1][0]
        return Advice(ended, 0, "won", []) if ended == word else _unreachable(word, "the game ended on " + ended)
    if word not in position.left:
        return _unreachable(word, "the adversary no longer has it")
    if position.left == [word]:
        return Advice(word, 1, "search", position.left)
    board = position.board
    index = game.answer_index
    deadline = None if seconds is None else time.monotonic() + seconds
    try:
        line = target_line(game, board.matrix, [index[a] for a in position.left], index[word], deadline=deadline)
    except TimeoutError:
        raise UserError(f"no line toward {word} found within {seconds:g} s from {len(position.left)} answers left; "
                        "play a guess or two first") from None
    if line is None:
        return _unreachable(word, f"no {TARGET_DEPTH} guesses from here leave it alone")
    return Advice(game.guesses[line[0]] if line else word, len(line) + 1, "search", position.left)


def target_text(advice: Advice, word: str) -> str:
    """next --target's line: the guess, the guesses still needed to end on `word`, the answers left."""
    if advice.source == "won":
        return f"won: the adversary ended on {advice.guess}"
    left = f"{len(advice.left)} answer{'s' if len(advice.left) != 1 else ''} left"
    return (f"next: {advice.guess}  (ends on {word} in {advice.wins_in} more guess{'es' if advice.wins_in != 1 else ''}, "
            f"the fewest from here; exact search; {left})")


def _unreachable(word: str, why: str):
    raise UserError(f"the adversary cannot be made to end on {word} from here: {why}")
