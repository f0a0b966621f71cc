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

Rule 1 is sound by itself: a board with one answer left is solved by guessing it, and no guess
solves more than one board (the answers differ). Nothing here proves the whole strategy optimal
or within the cap: sample.py measures it.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

SHORTLIST = 100  # allowed guesses beside the answers, best on the whole list
CACHE_MIN = 24  # a board of at least this many answers keeps its score vector (the first guesses' boards)
CACHE_SIZE = 4096


class Inconsistent(Exception):
    """No K-tuple of different answers fits the boards."""


def _matching(lists: list[list[int]]) -> dict[int, int] | None:
    """A matching of every board to a different answer of its list (word -> board), None if none
    exists (Kuhn's augmenting paths; boards with few answers first)."""
    owner: dict[int, int] = {}
    for b in sorted(range(len(lists)), key=lambda b: len(lists[b])):
        free = next((w for w in lists[b] if w not in owner), None)
        if free is not None:
            owner[free] = b
            continue
        seen: set[int] = set()

        def augment(board: int) -> bool:
            for w in lists[board]:
                if w in seen:
                    continue
                seen.add(w)
                if w not in owner or augment(owner[w]):
                    owner[w] = board
                    return True
            return False

        if not augment(b):
            return None
    return owner


def narrow(sets: list[np.ndarray]) -> list[np.ndarray]:
    """Each board's answers that some K-tuple of different answers, one from each board's set,
    uses (sorted arrays); Inconsistent if no such tuple exists.

    Exact: with a matching M of the boards to different words, board i can take word w of its
    set iff w is free in M, or w = M(i), or w = M(j) and board j can move on along an
    alternating path, ending at a free word or at M(i) (which i gives up). Where every set has at
    least K answers, every answer stays (any board can take any of its answers and the others
    each keep K - 1 to choose from: Hall's condition holds)."""
    k = len(sets)
    if min(len(s) for s in sets) >= k:
        return sets
    lists = [s.tolist() for s in sets]
    owner = _matching(lists)
    if owner is None:
        raise Inconsistent
    word_of = {b: w for w, b in owner.items()}
    matched = np.array(sorted(owner), dtype=sets[0].dtype)
    has_free = [len(s) > int(np.isin(s, matched, assume_unique=True).sum()) for s in sets]
    members = [set(lst) if len(lst) < 4 * k else None for lst in lists]

    def holds(b: int, w: int) -> bool:
        if members[b] is not None:
            return w in members[b]
        i = int(np.searchsorted(sets[b], w))
        return i < len(sets[b]) and int(sets[b][i]) == w

    # moves[j]: boards j' whose word board j can take (j -> j' in the alternating graph)
    moves = [[j2 for j2 in range(k) if j2 != j and holds(j, word_of[j2])] for j in range(k)]
    # good: boards that can reach, moving along, a board with a free word
    good = set(b for b in range(k) if has_free[b])
    changed = True
    while changed:
        changed = False
        for j in range(k):
            if j not in good and any(j2 in good for j2 in moves[j]):
                good.add(j)
                changed = True

    def reaches(start: int, target: int) -> bool:
        seen, todo = {start}, [start]
        while todo:
            j = todo.pop()
            for j2 in moves[j]:
                if j2 == target:
                    return True
                if j2 not in seen:
                    seen.add(j2)
                    todo.append(j2)
        return False

    out = []
    for i, s in enumerate(sets):
        drop = [word_of[j] for j in range(k) if j != i and holds(i, word_of[j])
                and j not in good and not reaches(j, i)]
        out.append(s if not drop else s[~np.isin(s, np.array(drop, dtype=s.dtype))])
    return out


class Player:
    """The heuristic player of one game's lists (see the module's rules)."""

    def __init__(self, game, matrix: np.ndarray, shortlist: int = SHORTLIST):
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

    def board_score(self, S: np.ndarray) -> np.ndarray:
        """Expected answers left on a board of answers S after each shortlist guess."""
        key = S.tobytes() if len(S) >= CACHE_MIN else None
        if key is not None:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                return hit
        hits = np.isin(self.Ga, S)
        sumsq, _ = _classes(self.M[:, S])
        score = (sumsq - hits) / len(S)
        if key is not None:
            self._cache[key] = score
            if len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        return score

    def choose(self, sets: list[np.ndarray], open_boards: list[int], guesses_left: int) -> int:
        """The guess id to play on the narrowed `sets`, `open_boards` being the unsolved ones."""
        single = [b for b in open_boards if len(sets[b]) == 1]
        if single:
            return int(self.game.guess_index[self.game.answers[int(sets[single[0]][0])]])
        total = sum(self.board_score(sets[b]) for b in open_boards)
        if guesses_left - len(open_boards) <= 1:  # tight: only a guess that may solve a board
            may = np.isin(self.Ga, np.concatenate([sets[b] for b in open_boards]))
            total = np.where(may, total, np.inf)
        return int(self.G[int(np.argmin(total))])


def _sumsq(codes: np.ndarray, columns) -> np.ndarray:
    """Each row's sum of squared class sizes (the classes: equal codes in the row)."""
    return _classes(codes if columns is None else codes[:, columns])[0]


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
