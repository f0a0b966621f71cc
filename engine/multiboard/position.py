"""A multi-board game in progress: each board's answers left after the steps played, and the
player's next guess.

A step is a guess and the K patterns it got, board 1 first, joined with `/`:
`salet:BBYBB/GBBBB/BBBBB/BYBBB`. A board that an earlier guess solved shows the fixed mark
`=====` (one `=` a letter) from then on; the guess that solves it shows its win pattern. Refused,
as one line: a mark on a board still open, colours on a solved board, a pattern no answer left on
that board gives, feedback that no K-tuple of different answers fits, a step after the win.

The game's shared emoji grid (the boards side by side, two or more a row, blocks of rows one
under another; a solved board's later rows filled with any plain squares, or absent where the
whole block is solved) is read by `grid_feedback` into one feedback a guess, given the guesses.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..errors import UserError
from .boards import Inconsistent, narrow
from .player import Player
from .spec import MultiSpec

MAX_STEPS_TEXT = 4096  # characters of one step
GRID_MAX_BYTES = 1 << 16
SQUARES = {"\u2b1b": "B", "\u2b1c": "B", "\U0001f7e8": "Y", "\U0001f7e6": "Y", "\U0001f7e9": "G",
           "\U0001f7e7": "G", "\U0001f7e5": "R"}


def parse_step(text: str) -> tuple[str, str]:
    """`salet:BBYBB/=====/...` -> ("salet", "BBYBB/=====/...")."""
    if len(text) > MAX_STEPS_TEXT:
        raise UserError(f"a step of {len(text)} characters is too long")
    guess, sep, feedback = text.partition(":")
    if not sep or not guess.strip() or "/" not in feedback:
        raise UserError(f"bad step {text[:80]!r}: expected GUESS:P1/P2/.../PK, e.g. salet:BBYBB/GBBBB/BBBBB/BYBBB "
                        "(===== for a solved board)")
    return guess.strip(), feedback.strip()


@dataclass
class MultiSuggestion:
    guess: str | None  # None once every board is solved
    source: str  # "solved", or the player's rule: "forced" (a board with one answer left), "exact", "safe"
    # (the guard's proven guess), "witness" (a proof's guess) or "heuristic"
    candidates: list[list[str]]  # each open board's answers left ([] once solved)
    solved_at: list[int]
    step: int
    guesses_left: int
    note: str | None = None
    expected: float | None = None  # "exact": the least expected guesses still needed (with the next)

    def as_json(self) -> dict:
        return {"guess": self.guess, "source": self.source, "step": self.step, "guesses_left": self.guesses_left,
                "candidates": [len(c) for c in self.candidates], "candidate_words": self.candidates,
                "solved_at": self.solved_at, "heuristic": self.source in ("heuristic", "forced", "safe"),
                "proven_safe": self.source in ("exact", "safe", "witness"),
                "expected_guesses": self.expected, "note": self.note}


@dataclass
class MultiPosition:
    game: object
    matrix: np.ndarray
    spec: MultiSpec
    player: Player | None = None
    steps: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self):
        n = len(self.game.answers)
        k = self.spec.boards
        if n < k:
            raise UserError(f"{k} boards need {k} different answers: the list has {n}")
        self.sets = [np.arange(n, dtype=np.int64) for _ in range(k)]
        self.solved_at = [0] * k
        self.mark = "=" * self.game.length
        self.history: list[tuple[list[np.ndarray], list[int], int]] = []  # (sets, open boards, guesses left) a step
        self._decided = 0  # states of this game (history, then the current one) the player has decided
        self._last: MultiSuggestion | None = None

    @property
    def won(self) -> bool:
        return all(self.solved_at)

    @property
    def open_boards(self) -> list[int]:
        return [b for b, at in enumerate(self.solved_at) if not at]

    def words(self, board: int) -> list[str]:
        return [] if self.solved_at[board] else [self.game.answers[a] for a in self.sets[board]]

    def play(self, guess: str, feedback: str) -> None:
        n = len(self.steps) + 1
        try:
            self._play(guess, feedback, n)
        except UserError as exc:
            raise UserError(f"step {n} ({guess}:{feedback[:200]}): {exc}") from None

    def _play(self, guess: str, feedback: str, n: int) -> None:
        game, k = self.game, self.spec.boards
        if self.won:
            raise UserError("the game is already won")
        if n > self.spec.cap:
            raise UserError(f"the game allows only {self.spec.cap} guesses")
        texts = feedback.split("/")
        if len(texts) != k:
            raise UserError(f"expected {k} patterns, one a board, as P1/P2/.../P{k}; got {len(texts)}")
        g = game.guess_index[game.parse_guess(guess)]
        codes = []
        for board, text in enumerate(texts):
            text = text.strip()
            if self.solved_at[board]:
                if text != self.mark:
                    raise UserError(f"board {board + 1} was solved at guess {self.solved_at[board]}: "
                                    f"show it as {self.mark}")
                codes.append(None)
            elif text and set(text) == {"="}:
                raise UserError(f"board {board + 1} is not solved: give its colours "
                                f"({self.mark} is for a solved board)")
            else:
                codes.append(game.parse_pattern(text))
        if sum(code == game.win_code for code in codes) > 1:
            raise UserError("one guess cannot solve two boards: their answers differ")
        new = list(self.sets)
        for board, code in enumerate(codes):
            if code is not None:
                S = self.sets[board]
                new[board] = S[self.matrix[g, S] == code]
                if len(new[board]) == 0:
                    raise UserError(f"board {board + 1}: {game.pattern_text(code)} cannot occur here: "
                                    f"no answer left on it gives it")
        try:
            new = narrow(new)
        except Inconsistent:
            raise UserError(f"no {k} different answers, one a board, give that feedback") from None
        self.history.append((self.sets, self.open_boards, self.spec.cap - (n - 1)))
        self.sets = new
        for board, code in enumerate(codes):
            if code == game.win_code:
                self.solved_at[board] = n
        self.steps.append((game.guesses[g], "/".join(self.mark if c is None else game.pattern_text(c)
                                                     for c in codes)))

    def suggest(self) -> MultiSuggestion:
        """The player's guess (version 2, the sampled player's: its fixed size limits, no clock).
        The player decides at each state the game went through first, as a sampled game does
        (its proofs' memo grows over a game), so a game played with these guesses is the
        player's game guess for guess; each state is decided once."""
        n = len(self.steps)
        cands = [self.words(b) for b in range(self.spec.boards)]
        left = self.spec.cap - n
        if self.won:
            return MultiSuggestion(None, "solved", cands, list(self.solved_at), n, left)
        if left < 1:
            raise UserError(f"no guesses left after {n} steps: the game allows {self.spec.cap}")
        if self._last is not None and self._decided == n + 1:
            return self._last
        if self.player is None:
            self.player = Player(self.game, self.matrix)
        player = self.player
        if self._decided == 0:
            player.new_game()
        for sets, open_boards, d in self.history[self._decided:]:
            player.choose(sets, open_boards, d)
        open_boards = self.open_boards
        g, rule = player.decide_any(self.sets, open_boards, left)
        self._decided = n + 1
        word = self.game.guesses[g]
        expected = None
        if len(open_boards) > left:
            note = f"{len(open_boards)} boards open and {left} guesses left: the game cannot be won within the cap"
        else:
            note = NOTES[rule]
        if rule == "exact":
            value, count = player.last_exact
            expected = round(value / count, 6)
        self._last = MultiSuggestion(word, rule, cands, list(self.solved_at), n, left, note, expected)
        return self._last


NOTES = {"forced": None,
         "exact": "exact: the least expected guesses for the boards left (the Dordle engine's)",
         "safe": "a heuristic's guess, proven to keep every board finishable within the cap (not proven optimal)",
         "witness": "a guess proven to keep every board finishable within the cap (the heuristic's own were not "
                    "proven so); not proven optimal",
         "heuristic": "a heuristic's guess (fewest answers expected left over the open boards), not proven optimal"}


def grid_feedback(text: str, boards: int, length: int, guesses: int) -> list[str]:
    """The feedback of each of the `guesses` guesses (as P1/.../PK, `=` marks for a solved board)
    that the shared grid `text` shows for `boards` boards of `length` letters."""
    blocks: list[list[list[str]]] = []  # blocks of rows; a row: the boards' patterns left to right
    current: list[list[str]] | None = None
    for number, line in enumerate(text.splitlines(), 1):
        squares = "".join(SQUARES.get(ch, "") for ch in line)
        if not squares:
            current = None
            continue
        if len(squares) % length:
            raise UserError(f"grid line {number}: {len(squares)} squares, not a whole number of {length}-letter rows")
        row = [squares[i:i + length] for i in range(0, len(squares), length)]
        if current is not None and len(row) != len(current[0]):
            raise UserError(f"grid line {number}: {len(row)} boards side by side, "
                            f"the line above shows {len(current[0])}")
        if current is None:
            current = []
            blocks.append(current)
        current.append(row)
    shown = sum(len(block[0]) for block in blocks)
    if shown != boards:
        raise UserError(f"the grid shows {shown} boards, the game has {boards}")
    out = [[] for _ in range(guesses)]
    board = 0
    for block in blocks:
        for column in range(len(block[0])):
            rows = [row[column] for row in block]
            solved = next((t for t, row in enumerate(rows) if row == "G" * length), None)
            if "R" in "".join(rows[:solved if solved is not None else len(rows)]):
                raise UserError(f"board {board + 1} shows red squares: a board not solved has no colours to read")
            if solved is not None and any(set(row) != {"B"} for row in rows[solved + 1:]):
                raise UserError(f"board {board + 1} shows colours after the row that solved it")
            last = solved if solved is not None else len(rows) - 1
            if last >= guesses:
                raise UserError(f"board {board + 1} shows {last + 1} guesses before it ends; {guesses} were given")
            if solved is None and len(rows) < guesses:
                raise UserError(f"board {board + 1} shows {len(rows)} rows and is not solved; {guesses} guesses "
                                "were given")
            for t in range(guesses):
                out[t].append(rows[t] if solved is None or t <= solved else "=" * length)
            board += 1
    return ["/".join(row) for row in out]
