"""`grade --game quordle` (octordle, sedecordle, duotrigordle, --boards K): each move of a
multi-board game valued against a better one, and the loss.

Two kinds of value, each labelled:

- exact, with one or two boards open (within the endgame's size limits, endgame.Endgame.applies,
  which depend on the guesses left only): with T the tuples of different answers the position
  leaves (uniform, as the game draws them) and d the guesses left, the move played is worth
  cost(g) / |T| and the best move V / |T|, the least totals of the endgame module (the
  single-board solver, the Dordle search), counting the move itself; the loss is the difference.
  None (no finish within the cap) where no strategy opening with the move finishes every tuple.
- an estimate, otherwise: N tuples drawn uniformly from T (seeded: numpy's default_rng([seed,
  move number]), rejection from the boards' sets), and on each of them the game played on by the
  player (player.py, a heuristic, not proven optimal) after the move played, and after the
  player's own move from the same position: the mean number of guesses from the move on to the
  last board solved (games past the cap are played to the end and counted, as sample.py does),
  the games won within the cap, and the loss as the mean of the paired differences (the same
  tuples for both: common random numbers) with its 95 % interval (normal approximation). The
  "best" move is the player's, not an optimal one; a loss below 0 says the move played did
  better than the player's on these tuples.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import UserError
from .boards import narrow
from .player import Player
from .position import MultiPosition

DEFAULT_SAMPLES = 200
DEFAULT_SEED = 1
DRAW_TRIES = 1000  # draws a sampled tuple may take (rejection) on average before the sampling gives up


@dataclass
class GradedMove:
    number: int
    guess: str
    feedback: str
    open: int  # boards open before the move
    method: str  # "exact" or "estimate"
    expected: float | None  # the move's expected guesses from it to the end (None: no finish within the cap)
    best: str | None  # exact: a best move; estimate: the player's own move
    best_expected: float | None
    loss: float | None
    tuples: int | None = None  # exact: the tuples of different answers the position leaves
    samples: int | None = None  # estimate: tuples sampled
    seed: int | None = None
    won: int | None = None  # estimate: sampled games won within the cap after the move played
    best_won: int | None = None
    loss_ci95: list[float] | None = None
    note: str | None = None

    def as_json(self) -> dict:
        out = {"move": self.number, "guess": self.guess, "feedback": self.feedback, "open_boards": self.open,
               "method": self.method, "exact": self.method == "exact", "expected": self.expected,
               "best": self.best, "best_expected": self.best_expected, "loss": self.loss, "note": self.note}
        if self.method == "exact":
            out["tuples"] = self.tuples
        else:
            out.update({"samples": self.samples, "seed": self.seed, "won": self.won, "best_won": self.best_won,
                        "loss_ci95": self.loss_ci95, "best_is": "the player's move (a heuristic, not optimal)"})
        return out


def draw_tuples(sets: list[np.ndarray], samples: int, rng: np.random.Generator) -> np.ndarray:
    """`samples` tuples (rows; one answer index an open board) drawn uniformly from those of
    different answers, one from each of `sets`: each board's answer drawn uniformly from its set,
    the tuple kept if its answers differ (rejection: every such tuple equally likely)."""
    o = len(sets)
    out = np.empty((samples, o), dtype=np.int64)
    got, tries = 0, 0
    while got < samples:
        batch = max(64, 2 * (samples - got))
        tries += batch
        if tries > DRAW_TRIES * samples + 64:
            raise UserError("the tuples of different answers this position leaves are too rare among its boards' "
                            "sets to sample")
        rows = np.stack([S[rng.integers(0, len(S), batch)] for S in sets], axis=1)
        s = np.sort(rows, axis=1)
        keep = rows[(s[:, 1:] != s[:, :-1]).all(axis=1)] if o > 1 else rows
        take = min(len(keep), samples - got)
        out[got:got + take] = keep[:take]
        got += take
    return out


def play_on(player: Player, sets: list[np.ndarray], solved: list[bool], answers: dict[int, int], first: int,
            d: int) -> int:
    """The guesses from `first` (played now, with d guesses left) until every board is solved,
    the player choosing after it; `answers`: each open board's answer index."""
    matrix, win = player.matrix, player.win
    player.new_game()
    sets, solved = list(sets), list(solved)
    k = len(sets)
    played, g = 0, first
    while True:
        played += 1
        row = matrix[g]
        for b in range(k):
            if not solved[b]:
                code = int(row[answers[b]])
                S = sets[b]
                sets[b] = S[row[S] == code]
                if code == win:
                    solved[b] = True
        if all(solved):
            return played
        if played >= 2 * d + 2 * k:
            raise AssertionError(f"the player did not finish after {played} guesses")
        sets = narrow(sets)
        g = player.choose(sets, [b for b in range(k) if not solved[b]], d - played)


class Grader:
    """Grades the moves of one game on one game's lists."""

    def __init__(self, game, matrix: np.ndarray, spec, samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED):
        self.game, self.matrix, self.spec = game, matrix, spec
        self.samples, self.seed = samples, seed
        self.player = Player(game, matrix)

    def check(self, steps: list[tuple[str, str]]) -> None:
        """Every step played on a fresh position first: a bad one is refused before any is graded."""
        position = MultiPosition(self.game, self.matrix, self.spec)
        for guess, feedback in steps:
            position.play(guess, feedback)

    def grade(self, steps: list[tuple[str, str]], on_move=None) -> list[GradedMove]:
        self.check(steps)
        position = MultiPosition(self.game, self.matrix, self.spec)
        moves = []
        for number, (guess, feedback) in enumerate(steps, 1):
            g = self.game.guess_index[self.game.parse_guess(guess)]
            fields = self.value(position, g, number)
            position.play(guess, feedback)
            word, shown = position.steps[-1]
            moves.append(GradedMove(number, word, shown, **fields))
            if on_move is not None:
                on_move(moves[-1])
        return moves

    def value(self, position: MultiPosition, g: int, number: int) -> dict:
        from ..dordle.kernels import DINF

        open_boards = position.open_boards
        d = self.spec.cap - len(position.steps)
        open_sets = [position.sets[b] for b in open_boards]
        endgame = self.player.endgame
        if endgame.applies(open_sets, d):
            best_total, best, m = endgame.exact(open_sets, d)
            total = endgame.cost(open_sets, d, g)
            exp = None if total >= DINF else round(total / m, 6)
            best_exp = None if best_total >= DINF else round(best_total / m, 6)
            note = None
            if best_exp is None:
                note = "no strategy finishes every tuple left within the cap (proven)"
            elif exp is None:
                note = "some tuple left cannot be finished within the cap after this move (proven)"
            return {"open": len(open_boards), "method": "exact", "expected": exp,
                    "best": None if best < 0 else self.game.guesses[best], "best_expected": best_exp,
                    "loss": None if exp is None or best_exp is None else round(exp - best_exp, 6), "tuples": m,
                    "note": note}
        rng = np.random.default_rng([self.seed, number])
        drawn = draw_tuples(open_sets, self.samples, rng)
        self.player.new_game()
        own = self.player.choose(position.sets, open_boards, d)
        solved = [bool(at) for at in position.solved_at]
        played = np.empty(self.samples, dtype=np.int64)
        mine = np.empty(self.samples, dtype=np.int64)
        for i, row in enumerate(drawn):
            answers = dict(zip(open_boards, row.tolist()))
            played[i] = play_on(self.player, position.sets, solved, answers, g, d)
            mine[i] = played[i] if own == g else play_on(self.player, position.sets, solved, answers, own, d)
        diff = (played - mine).astype(np.float64)
        n = self.samples
        half = 1.96 * float(diff.std(ddof=1)) / math.sqrt(n) if n > 1 else 0.0
        loss = float(diff.mean())
        return {"open": len(open_boards), "method": "estimate", "expected": round(float(played.mean()), 6),
                "best": self.game.guesses[own], "best_expected": round(float(mine.mean()), 6),
                "loss": round(loss, 6), "samples": n, "seed": self.seed, "won": int((played <= d).sum()),
                "best_won": int((mine <= d).sum()), "loss_ci95": [round(loss - half, 6), round(loss + half, 6)]}


def header_lines(spec, lists: str, samples: int, seed: int) -> list[str]:
    return [f"{spec.name} ({spec.boards} boards, at most {spec.cap} guesses) on {lists}",
            "values: exact with one or two boards left (the endgame's least expected guesses, counting the move); "
            f"otherwise an estimate: the player (a heuristic, not optimal) playing on after the move and after its "
            f"own move, over the same {samples} sampled tuples of answers, seed {seed}"]


def move_line(mv: GradedMove) -> str:
    head = f"{mv.number}. {mv.guess} {mv.feedback}  ({mv.open} open)"
    played = "no finish within the cap" if mv.expected is None else f"{mv.expected:.4f}"
    if mv.method == "exact":
        best = "none" if mv.best_expected is None else f"{mv.best} {mv.best_expected:.4f}"
        loss = "" if mv.loss is None else f"  loss {mv.loss:.4f}"
        note = f"  ({mv.note})" if mv.note else ""
        return f"{head}  exact over {mv.tuples} tuples: expected {played}  best {best}{loss}{note}"
    lo, hi = mv.loss_ci95
    return (f"{head}  estimate over {mv.samples} sampled tuples (seed {mv.seed}): expected {played}  "
            f"player's {mv.best} {mv.best_expected:.4f}  loss {mv.loss:.4f} (95 % CI {lo:.4f}..{hi:.4f}); "
            f"won {mv.won}/{mv.samples} vs {mv.best_won}/{mv.samples}")


def totals(moves: list[GradedMove]) -> dict:
    graded = [mv for mv in moves if mv.loss is not None]
    exact = [mv for mv in graded if mv.method == "exact"]
    return {"moves": len(moves), "graded": len(graded), "exact_moves": len(exact),
            "estimated_moves": len(graded) - len(exact), "loss": round(sum(mv.loss for mv in graded), 6),
            "exact_loss": round(sum(mv.loss for mv in exact), 6), "exact": len(exact) == len(graded)}


def total_line(moves: list[GradedMove]) -> str:
    t = totals(moves)
    if t["exact"]:
        return f"total loss {t['loss']:.4f} guesses over {t['graded']} graded move(s), exact"
    return (f"total loss {t['loss']:.4f} guesses over {t['graded']} graded move(s): {t['exact_moves']} exact "
            f"({t['exact_loss']:.4f}), {t['estimated_moves']} estimated against the player (not optimal)")
