"""The multi-board player: a heuristic (not proven optimal) that plays every board at once.

The state is each board's answers left, narrowed by the rule that the boards' answers all differ
(`narrow`: an answer stays on a board only if the other boards can still take different answers;
a solved board holds its answer alone). Each guess:

1. a board with one answer left is solved now: its answer is guessed (the lowest such board);
2. else the guess that leaves the fewest answers expected over the open boards, summed (each
   board's expected answers left after the guess: the sum of its classes' squared sizes over its
   size, a board the guess solves leaving none), among a shortlist: every answer and the
   SHORTLIST allowed guesses that split the whole answer list best by that measure;
3. when the open boards are as many as the guesses left (or one fewer), only a guess that may
   solve a board is played: the best of the open boards' answers by that measure.

Rule 1 is optimal (endgame.py, E1: playing a known answer first makes no game longer). Version 2
of the player (the default; version 1 is the above alone) adds, after rule 1:

4. the exact endgame: with one or two boards open (at most endgame.SINGLE_EXACT answers on a lone
   board; at most endgame.PAIR_EXACT pairs of at most endgame.SET_EXACT answers each) and at
   most 16 guesses left, the guess of least expected guesses among the strategies that finish
   every tuple left within the guesses left (the single-board solver, the Dordle search), where
   one exists;
5. the guard: once the open boards leave at most GUARD_SLACK spare guesses, the best of the
   TRY_GUESSES best guesses by rules 2 and 3 that is proven safe (every feedback it can get
   leaves a state proven finishable within the guesses then left, endgame.feasible), else the
   witness of a proof that the state itself is finishable, else rule 2 or 3's guess.

From a state proven finishable (rule 4 with a finite value, or rule 5 with a proof) the player
wins every game: every guess it plays from there is proven safe, so every state it reaches is
proven finishable in turn, and the last board is solved within the cap. Nothing proves the whole
strategy optimal, nor every game within the cap from the opening: sample.py measures it.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

SHORTLIST = 100  # allowed guesses beside the answers, best on the whole list
CACHE_MIN = 24  # a board of at least this many answers keeps its score vector (the first guesses' boards)
CACHE_SIZE = 4096
GUARD_SLACK = 2  # spare guesses (guesses left minus open boards) from which the guard checks its guess
TRY_GUESSES = 4  # guesses the guard tries, best first
VERSION = 2


class Player:
    """The heuristic player of one game's lists (see the module's rules)."""

    def __init__(self, game, matrix: np.ndarray, shortlist: int = SHORTLIST, version: int = VERSION):
        if version not in (1, 2):
            raise ValueError(f"no player version {version}")
        self.version = version
        self.game = game
        self.matrix = matrix
        n_guesses, n_answers = matrix.shape
        answer_guess = np.array([game.guess_index[w] for w in game.answers], dtype=np.int64)
        self.answer_of_guess = np.full(n_guesses, -1, dtype=np.int64)
        self.answer_of_guess[answer_guess] = np.arange(n_answers)
        self.win = game.win_code
        full = np.arange(n_answers)
        others = np.setdiff1d(np.arange(n_guesses), answer_guess)
        extra = others[np.argsort(_sumsq(matrix[others], full), kind="stable")[:shortlist]] if len(others) else others
        self.G = np.concatenate([answer_guess, np.sort(extra)])  # shortlist: guess ids
        self.M = np.ascontiguousarray(matrix[self.G])
        self.Ga = self.answer_of_guess[self.G]  # each shortlist guess's answer index, -1 if none
        self._cache: OrderedDict[bytes, np.ndarray] = OrderedDict()
        self._endgame = None
        self.proven = False  # whether this game reached a state proven finishable (version 2)
        self.last_exact: tuple[int, int] | None = None

    @property
    def endgame(self):
        if self._endgame is None:
            from .endgame import Endgame

            self._endgame = Endgame(self.game, self.matrix, self.ranked)
        return self._endgame

    def new_game(self) -> None:
        """Forget the proofs of the game before (the next game's guesses depend on its own states only)."""
        self.proven = False
        if self._endgame is not None:
            self._endgame.new_game()

    def board_score(self, S: np.ndarray) -> np.ndarray:
        """Expected answers left on a board of answers S after each shortlist guess."""
        key = S.tobytes() if len(S) >= CACHE_MIN else None
        if key is not None:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                return hit
        hits = np.isin(self.Ga, S)
        sumsq = _sumsq(self.M, S) if len(S) > 16 else _classes(self.M[:, S])[0]
        score = (sumsq - hits) / len(S)
        if key is not None:
            self._cache[key] = score
            if len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        return score

    def choose(self, sets: list[np.ndarray], open_boards: list[int], guesses_left: int) -> int:
        """The guess id to play on the narrowed `sets`, `open_boards` being the unsolved ones."""
        return self.decide_any(sets, open_boards, guesses_left)[0]

    def decide_any(self, sets: list[np.ndarray], open_boards: list[int], guesses_left: int) -> tuple[int, str]:
        """choose's guess id and the rule that chose it: "forced" (rule 1), else decide's (version
        2) or "heuristic" (version 1)."""
        single = [b for b in open_boards if len(sets[b]) == 1]
        if single:
            return int(self.game.guess_index[self.game.answers[int(sets[single[0]][0])]]), "forced"
        open_sets = [sets[b] for b in open_boards]
        if self.version == 1:
            return int(self._ranked(open_sets, guesses_left)[0]), "heuristic"
        return self.decide(open_sets, guesses_left)

    def decide(self, open_sets: list[np.ndarray], d: int) -> tuple[int, str]:
        """Version 2's guess on the open boards' sets with d guesses left (no board with one answer
        left) and the rule that chose it: "exact", "safe" (the guard), "witness" or "heuristic"."""
        endgame = self.endgame
        if endgame.applies(open_sets, d):
            value, g, count = endgame.exact(open_sets, d)
            if g >= 0:
                self.proven = True
                self.last_exact = (value, count)  # the least total over the state's tuples, their count
                return g, "exact"
        ranked = self._ranked(open_sets, d)
        if d - len(open_sets) <= GUARD_SLACK and d >= len(open_sets):
            endgame.begin()
            for g in ranked[:TRY_GUESSES].tolist():
                if endgame.safe(open_sets, d, g):
                    self.proven = True
                    return int(g), "safe"
            if endgame.feasible(open_sets, d):
                self.proven = True
                return int(endgame.witness(open_sets, d)), "witness"
        return int(ranked[0]), "heuristic"

    def _ranked(self, open_sets: list[np.ndarray], guesses_left: int) -> np.ndarray:
        """The shortlist's guess ids by rules 2 and 3, best first (ties by shortlist order)."""
        total = sum(self.board_score(S) for S in open_sets)
        if guesses_left - len(open_sets) <= 1:  # tight: only a guess that may solve a board
            may = np.isin(self.Ga, np.concatenate(open_sets))
            total = np.where(may, total, np.inf)
        return self.G[np.argsort(total, kind="stable")]

    def ranked(self, open_sets: list[np.ndarray], among: np.ndarray | None = None) -> np.ndarray:
        """The shortlist's guess ids (those of `among` only, if given) in the order the proofs try
        them: by rule 2's score and by the sum over the open boards of the largest class a guess
        leaves (ties by the score), taken in turn, each guess once."""
        total = sum(self.board_score(S) for S in open_sets)
        by_score = np.argsort(total, kind="stable")
        worst = sum(_largest(self.M[:, S]) for S in open_sets)
        by_worst = np.lexsort((total, worst))
        both = np.empty(2 * len(by_score), dtype=np.int64)
        both[0::2], both[1::2] = by_score, by_worst
        _, first = np.unique(both, return_index=True)
        order = self.G[both[np.sort(first)]]
        return order if among is None else order[np.isin(order, among)]


def _sumsq(codes: np.ndarray, columns, block: int = 512) -> np.ndarray:
    """Each row's sum of squared class sizes (the classes: equal codes in the row), by counting
    each row's codes (a block of rows at a time): _classes's first result, without its sort."""
    c = codes if columns is None else codes[:, columns]
    rows, n = c.shape
    out = np.zeros(rows)
    if n == 0 or rows == 0:
        return out
    base = int(c.max()) + 1
    for start in range(0, rows, block):
        part = c[start:start + block].astype(np.int32)
        m = len(part)
        counts = np.bincount((part + base * np.arange(m, dtype=np.int32)[:, None]).ravel(), minlength=m * base)
        out[start:start + m] = (counts * counts).reshape(m, base).sum(axis=1)
    return out


def _largest(codes: np.ndarray) -> np.ndarray:
    """Each row's largest class (the classes: equal codes in the row)."""
    rows, n = codes.shape
    if n == 0:
        return np.zeros(rows, dtype=np.int64)
    s = np.sort(codes, axis=1)
    new = np.ones((rows, n), dtype=bool)
    new[:, 1:] = s[:, 1:] != s[:, :-1]
    starts = np.flatnonzero(new)
    sizes = np.diff(np.append(starts, rows * n))
    out = np.zeros(rows, dtype=np.int64)
    np.maximum.at(out, starts // n, sizes)
    return out


def _classes(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's sum of squared class sizes and its number of classes of one (the classes:
    equal codes in the row)."""
    rows, n = codes.shape
    if n == 0:
        return np.zeros(rows), np.zeros(rows)
    if n <= 16:  # pairs compared: no sort
        same = (codes[:, :, None] == codes[:, None, :]).sum(axis=2)
        return same.sum(axis=1).astype(np.float64), (same == 1).sum(axis=1).astype(np.float64)
    s = np.sort(codes, axis=1)
    new = np.ones((rows, n + 1), dtype=bool)
    new[:, 1:n] = s[:, 1:] != s[:, :-1]
    idx = np.broadcast_to(np.arange(n), (rows, n))
    start = np.maximum.accumulate(np.where(new[:, :n], idx, 0), axis=1)
    sumsq = (2 * (idx - start) + 1).sum(axis=1).astype(np.float64)
    singles = (new[:, :n] & new[:, 1:]).sum(axis=1).astype(np.float64)
    return sumsq, singles
