"""The fewest guesses that always beat Absurdle, proven by exhaustive search, and the openers that
achieve it, each with its winning line.

The player wins by guessing the one answer the adversary has left, so a win in w guesses is
w - 1 guesses that corner the adversary (leave it one answer) and the last one. `corner_guess(S,
k)` finds a guess after which every bucket the adversary may keep is cornered within k - 1 more
guesses. Sound prunes, each switchable (`Board.prunes`) so that tests check the values do not change:

- counting: a guess tells apart at most as many answers as it has codes on a superset of the set
  (kernels._separator's stop, `bound`); a bucket larger than any guess's codes on it cannot be
  cornered with one guess;
- idle guesses: a guess whose bucket is the whole set (it tells nothing) is never needed, as the
  same set is then searched with one guess fewer.

The top of the search (every opener, each bucket's second guess) is the costly part: the openers
are handed to threads in turn, each finished opener kept in the checkpoint, and a bucket that
several openers leave (anagrams leave the same all-grey bucket) is searched once.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor, wait, FIRST_COMPLETED
from dataclasses import dataclass, field

import numpy as np

from . import kernels
from .rule import RULES, Rule, code_rank


@dataclass
class Board:
    """What the kernels read: the game's matrix, the adversary's order and rule."""

    game: object
    rule: Rule
    matrix: np.ndarray
    rank: np.ndarray
    stats: np.ndarray = field(default_factory=lambda: np.zeros(2, np.int64))
    prunes: bool = True  # the prunes above (False: none, for the tests)

    @classmethod
    def of(cls, game, rule: Rule, matrix=None):
        if matrix is None:
            from ..wordle.patterns import pattern_matrix

            matrix = pattern_matrix(game).matrix
        return cls(game, rule, matrix, code_rank(game.length))

    @property
    def ties(self) -> int:
        return kernels.TIES_FIXED if self.rule.fixed else kernels.TIES_ANY

    def all_answers(self) -> np.ndarray:
        return np.arange(self.matrix.shape[1], dtype=np.int32)

    def replies(self, S: np.ndarray, g: int) -> list[tuple[int, np.ndarray]]:
        """(code, bucket) for each bucket the adversary may keep after guess g on S."""
        codes = self.matrix[g, S]
        counts = np.bincount(codes, minlength=self.rank.size)
        size = counts.max()
        largest = np.flatnonzero(counts == size)
        largest = largest[np.argsort(self.rank[largest], kind="stable")]
        win = self.rank.size - 1
        if not self.rule.fixed and largest.size > 1:
            largest = largest[largest != win]  # the adversary never answers a win while it can go on
        chosen = largest[:1] if self.rule.fixed else largest
        return [(int(c), S[codes == c]) for c in chosen]

    def separator(self, S: np.ndarray) -> int:
        """A guess that gives every answer of S its own code (-1: none), plain numpy."""
        if S.size == 1:
            return -1
        block = np.sort(self.matrix[:, S], axis=1)
        ok = np.flatnonzero((np.diff(block.astype(np.int64), axis=1) != 0).all(axis=1))
        return int(ok[0]) if ok.size else -1

    def corner_guess(self, S: np.ndarray, k: int) -> int:
        """A guess after which every bucket the adversary may keep of S has one answer within
        k - 1 more guesses; -1 if none (S of one answer needs none: -1 too, check first)."""
        if k <= 0 or S.size <= 1:
            return -1
        if k == 1:
            return self.separator(S)
        if k == 2:
            return int(kernels._second_guess(self.matrix, S, self.rank, self.ties, int(self.prunes), self.stats))
        for g in range(self.matrix.shape[0]):
            options = self.replies(S, g)
            if options[0][1].size == S.size and self.prunes:
                continue
            if all(bucket.size == 1 or self.corner_guess(bucket, k - 1) >= 0 for _, bucket in options):
                return g
        return -1

    def corners_within(self, S: np.ndarray, k: int) -> bool:
        return S.size == 1 or self.corner_guess(S, k) >= 0

    def line(self, S: np.ndarray, k: int, first: int | None = None) -> dict:
        """The winning strategy from S within k cornering guesses, as a tree: {"guess": g,
        "next": {pattern: subtree}}; a set of one answer is {"guess": answer}."""
        game = self.game
        if S.size == 1:
            return {"guess": game.answers[int(S[0])]}
        g = self.corner_guess(S, k) if first is None else first
        if g < 0:
            raise ValueError("no winning line within the guesses given")
        return {"guess": game.guesses[g],
                "next": {game.pattern_text(code): self.line(bucket, k - 1) for code, bucket in self.replies(S, g)}}


def fewest_corner(board: Board, S: np.ndarray, most: int = 8) -> int:
    """The fewest cornering guesses from S (0 for one answer), by iterative deepening; -1 above
    `most`."""
    for k in range(0, most + 1):
        if board.corners_within(S, k):
            return k
    return -1


@dataclass
class OpenerSweep:
    """Every opener's verdict with k cornering guesses after it (a win in k + 2 guesses): its
    winning line, or None where none exists."""

    k: int
    lines: dict[str, dict | None]
    seconds: float
    stats: dict


def opener_depth_bound(board: Board) -> int:
    """A proven lower bound on the cornering guesses needed after the opener, by counting: 0;
    1 where no guess has as many codes on the answers as there are answers (no opener corners
    them alone); 2 where every opener leaves a bucket larger than any guess has codes on all the
    answers (no guess after the opener can tell that bucket apart)."""
    if not board.prunes:
        return 0
    A = board.all_answers()
    seen = np.zeros(board.rank.size, np.int64)
    bound, _ = kernels._distinct(board.matrix, A, seen, 0)
    sizes = kernels._first_replies(board.matrix, A, board.rank, board.ties)
    if sizes.min() > bound.max():
        return 2
    return 1 if A.size > bound.max() else 0


def sweep_openers(board: Board, k: int, openers: list[int], *, threads: int = 1, done: dict | None = None,
                  on_done=None, progress=None) -> OpenerSweep:
    """For each opener, whether every bucket the adversary may keep is cornered within k more
    guesses (a win in k + 2), with the line that does it. `done`: verdicts already known (a checkpoint's), kept;
    `on_done(name, line)` after each opener; `progress` a bar updated per opener."""
    A = board.all_answers()
    lines = dict(done or {})
    todo = [g for g in openers if board.game.guesses[g] not in lines]
    started = time.monotonic()
    known: dict[bytes, dict | None] = {}  # a bucket's line (None: none within k), as openers share buckets

    def bucket_line(bucket: np.ndarray) -> dict | None:
        key = bucket.tobytes()
        if key not in known:
            if bucket.size == 1:
                known[key] = {"guess": board.game.answers[int(bucket[0])]}
            else:
                h = board.corner_guess(bucket, k)
                known[key] = board.line(bucket, k, h) if h >= 0 else None
        return known[key]

    def verdict(g: int):
        options = board.replies(A, g)
        if options[0][1].size == A.size and A.size > 1 and board.prunes:
            return None
        below = {}
        for code, bucket in options:
            line = bucket_line(bucket)
            if line is None:
                return None
            below[board.game.pattern_text(code)] = line
        return {"guess": board.game.guesses[g], "next": below}

    with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
        pending = {}
        queue = iter(todo)
        try:
            for g in queue:
                pending[pool.submit(verdict, g)] = g
                if len(pending) >= 2 * max(1, threads):
                    break
            while pending:
                finished, _ = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
                for future in finished:
                    g = pending.pop(future)
                    name = board.game.guesses[g]
                    lines[name] = future.result()
                    if on_done:
                        on_done(name, lines[name])
                    if progress is not None:
                        progress.update(1)
                    nxt = next(queue, None)
                    if nxt is not None:
                        pending[pool.submit(verdict, nxt)] = nxt
        except BaseException:
            for future in pending:
                future.cancel()
            raise
    return OpenerSweep(k, lines, time.monotonic() - started,
                       {"guesses_tried": int(board.stats[0]), "buckets_searched": int(board.stats[1])})


def usable_threads(threads: int | None) -> int:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(threads or cores, cores))


def rule_named(name: str) -> Rule:
    return RULES[name]
