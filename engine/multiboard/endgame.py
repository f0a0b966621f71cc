"""The multi-board endgame: exact play once one or two boards are left, and proofs that every open
board can still be finished within the guesses left.

A state is the open boards' answer sets (narrowed: player.narrow) and d, the guesses left; its
tuples are the K-tuples of different answers, one from each set (a solved board's answer is in no
open set). The facts used, each argued where it is used:

(E1) Exchange. Where a board has one answer x left, guessing x now is optimal, for the length of
     every tuple's game (so for the mean and for finishing within the cap): any strategy s must
     guess x on every tuple; the strategy that plays x first, then s with its guess of x left out,
     knows everything s knows at each of s's guesses, so it can play them, and it ends on the
     same guess as s (the last guess of s is still its last), so no game gets longer.
(E2) A guess solves at most one board (the answers differ): with more open boards than guesses
     left, some tuple is not finished.
(E3) One board: V1(S, d), the least total over S within d guesses, from the single-board solver
     (exact.Solver through DordleSearch.v1); infinite iff no strategy finishes S within d.
     Two boards: W(S1, S2, d), the exact Dordle search (dordle/search.py); infinite iff no
     strategy finishes every pair within d.
(E4) Sequential play: with t_b the least depth of a single-board strategy on S_b (t_b <= d iff
     V1(S_b, d) is finite), solving the boards one after the other, each with such a strategy,
     finishes every tuple within sum t_b guesses: a board's set only shrinks while the others
     are played (a strategy for a set is one for each subset), and a board solved by chance is
     skipped. So sum t_b <= d proves the state can be finished within d.

`feasible(sets, d)` proves (True) or refutes (False) that every tuple of a state can be finished
within d, or leaves it open (None) when its node budget runs out: True from E1, E3, E4, or a guess
every child of which is proven (tried among the best few in the player's order, `ranked`); False from E2,
E3, or E1 with a child refuted. It never says False from a search that gave up. Each True is
stored with a witness, a guess all of whose children were proven (or that E1, E3 or E4 give), so
a player that plays only proven-safe guesses from a proven state wins every game from there.

The guesses chosen here depend on the state alone, never on what was searched before (the
sampled measurement replays games with a fresh player and must get the same lengths): the Dordle
search's top state is taken out of its memo before it is searched (its best guess is then the
first, in the search's own order of the state, of least value; the memo keeps values only), and
a single board's guess is the first, in a fixed order, whose exact cost is V1. The proofs' memo
is emptied at each new game (`new_game`), and the budget counts nodes, not time.
"""

from __future__ import annotations

import itertools

import numpy as np

from .boards import Inconsistent, narrow

PAIR_EXACT = {2: 400, 3: 400, 4: 40}  # the player solves two boards exactly up to this many pairs, by guesses
PAIR_EXACT_MORE = 10  # left (measured: docs/results.md), this many with more guesses left, ...
SET_EXACT = 60  # ... each board of at most this many answers
SINGLE_EXACT = 60  # answers on a lone board the player solves exactly
DEPTH_LIMIT = 200  # answers on a board whose least depth E4 computes
CHILDREN_LIMIT = 4096  # children of one guess the proof enumerates at most
NODE_BUDGET = 3000  # states one proof may visit
TRY_GUESSES = 6  # guesses a proof tries at a state and leaves unsettled, at most (best first) ...
MOST_GUESSES = 40  # ... among this many (a guess with a child refuted counts only here)
CLIP = 1 << 40  # a class bound past any total (single_guess's sums of them stay in int64)
MEMO_CLEAR = 200_000  # entries of the Dordle search's memos kept before they are emptied (values only)


class Endgame:
    """Exact values and guesses of one or two boards, and feasibility proofs, on one game's lists.
    `score(sets)`, if given, ranks guess ids for the proofs (lowest first): the player's."""

    def __init__(self, game, matrix: np.ndarray, score=None):
        self.game = game
        self.matrix = matrix
        self.win = int(game.win_code)
        self.answer_gid = np.asarray(game.answer_guess_ids, dtype=np.int64)
        self.score = score
        self._search = None
        self.memo: dict = {}
        self.nodes, self.budget = 0, NODE_BUDGET

    @property
    def search(self):
        if self._search is None:
            from ..dordle.search import MAX_CAP, DordleSearch

            self._search = DordleSearch(self.game, self.matrix, MAX_CAP)
        return self._search

    @property
    def max_cap(self) -> int:
        from ..dordle.search import MAX_CAP

        return MAX_CAP

    def new_game(self) -> None:
        self.memo.clear()
        search = self._search
        if search is not None and len(search.memo) + len(search.v1_cache) > MEMO_CLEAR:
            search.memo.clear()
            search.v1_cache.clear()
            search.pending.clear()

    # --- exact values ---------------------------------------------------------------------------

    def applies(self, sets: list[np.ndarray], d: int, pairs: int | None = None, single: int = SINGLE_EXACT,
                each: int = SET_EXACT) -> bool:
        """Whether the exact values apply to the open boards' `sets` with d guesses left, within the
        size limits (by default the player's, which depend on d alone: never on time)."""
        if not 1 <= len(sets) <= 2 or not 1 <= d <= self.max_cap:
            return False
        if len(sets) == 1:
            return len(sets[0]) <= single
        pairs = PAIR_EXACT.get(d, PAIR_EXACT_MORE) if pairs is None else pairs
        return max(len(sets[0]), len(sets[1])) <= each and pair_count(sets[0], sets[1]) <= pairs

    def v1(self, S: np.ndarray, d: int) -> int:
        from ..dordle.kernels import DINF

        if d > self.max_cap + 1:
            raise ValueError("more guesses left than the exact search takes")
        return min(DINF, int(self.search.v1(np.ascontiguousarray(S, dtype=np.int32), d)))

    def exact(self, sets: list[np.ndarray], d: int) -> tuple[int, int, int]:
        """(the least total over the state's tuples within d guesses, a best guess id, the tuple
        count); the total is DINF (and the guess -1) where no strategy finishes every tuple. The
        guess depends on the state alone (see the module)."""
        from ..dordle.kernels import DINF

        if len(sets) == 1:
            S = np.ascontiguousarray(sets[0], dtype=np.int32)
            value = self.v1(S, d)
            return value, (-1 if value >= DINF else self.single_guess(S, d, value)), len(S)
        search = self.search
        S1, S2 = (np.ascontiguousarray(s, dtype=np.int32) for s in sets)
        ident = bool(np.array_equal(S1, S2))
        m = pair_count(S1, S2)
        if ident:
            S2 = S1
        search.memo.pop(search.key(S1, S2, ident, d), None)
        search.pending.clear()
        value, g = search.solve(S1, S2, ident, d)
        value = min(int(value), DINF)
        return value, (-1 if value >= DINF else int(g)), m

    def cost(self, sets: list[np.ndarray], d: int, g: int) -> int:
        """The least total over the state's tuples of opening with guess g (DINF: no finish)."""
        from ..dordle.kernels import DINF

        if len(sets) == 1:
            S = np.ascontiguousarray(sets[0], dtype=np.int32)
            return self._single_cost(S, d, g)
        search = self.search
        S1, S2 = (np.ascontiguousarray(s, dtype=np.int32) for s in sets)
        ident = bool(np.array_equal(S1, S2))
        return min(DINF, int(search.evaluate(S1, S1 if ident else S2, ident, d, int(g))))

    def _single_cost(self, S: np.ndarray, d: int, g: int, limit: int | None = None) -> int:
        from ..dordle.kernels import DINF

        if d < 1:
            return DINF
        codes = self.matrix[g, S]
        total = len(S)
        for code in np.unique(codes):
            if int(code) == self.win:
                continue
            C = S[codes == code]
            total += self.v1(C, d - 1)
            if total >= DINF or (limit is not None and total > limit):
                return min(total, DINF)
        return total

    def single_guess(self, S: np.ndarray, d: int, value: int) -> int:
        """The first guess, in a fixed order, whose cost on S within d is `value` (V1(S, d)): the
        answers of S by index, then every other guess by the least cost its classes' counting
        bounds allow, then its sum of squared class sizes, then its id."""
        for a in S.tolist():
            g = int(self.answer_gid[a])
            if self._single_cost(S, d, g, value) == value:
                return g
        cb = self.search.cb[d - 1]
        each = np.minimum(cb, CLIP).astype(np.float64)  # (a class with no strategy: CLIP, past any total)
        codes = np.sort(self.matrix[:, S], axis=1)
        rows, k = codes.shape
        new = np.ones(codes.shape, dtype=bool)
        new[:, 1:] = codes[:, 1:] != codes[:, :-1]
        starts = np.flatnonzero(new)  # each class's first place in the flattened rows
        sizes = np.diff(np.append(starts, rows * k))
        row = starts // k
        keep = codes.ravel()[starts] != self.win
        bound = len(S) + np.bincount(row, weights=np.where(keep, each[sizes], 0.0), minlength=rows)
        sumsq = np.bincount(row, weights=(sizes * sizes).astype(np.float64), minlength=rows)
        in_S = np.zeros(rows, dtype=bool)
        in_S[self.answer_gid[S]] = True
        order = np.lexsort((np.arange(rows), sumsq, bound))
        for g in order.tolist():
            if bound[g] > value:
                break
            if not in_S[g] and self._single_cost(S, d, g, value) == value:
                return int(g)
        raise AssertionError("no guess reaches V1: the solver and the class bounds disagree")

    # --- proofs ---------------------------------------------------------------------------------

    def children(self, sets: list[np.ndarray], g: int, limit: int = CHILDREN_LIMIT) -> list[list[np.ndarray]] | None:
        """The open boards' sets after guess g, one list a feedback some tuple gives (narrowed; []
        where g finishes the game); None past `limit` feedbacks."""
        groups = []
        size = 1
        for S in sets:
            codes = self.matrix[g, S]
            order = np.argsort(codes, kind="stable")
            cs = codes[order]
            cuts = np.flatnonzero(np.diff(cs)) + 1
            parts = [(int(c[0]), p) for c, p in zip(np.split(cs, cuts), np.split(S[order], cuts))]
            groups.append(parts)
            size *= len(parts)
            if size > limit:
                return None
        out = []
        for combo in itertools.product(*groups):
            wins = sum(code == self.win for code, _ in combo)
            if wins > 1:
                continue
            child = [np.sort(part) for code, part in combo if code != self.win]
            if child:
                try:
                    child = narrow(child)
                except Inconsistent:
                    continue
            out.append(child)
        return out

    def depth(self, S: np.ndarray, d: int) -> int | None:
        """The least depth of a single-board strategy on S if it is at most d (else d + 1); None
        for a board too large to compute it on."""
        from ..dordle.kernels import DINF

        if len(S) == 1:
            return 1
        if len(S) > DEPTH_LIMIT:
            return None
        for t in range(2, min(d, self.max_cap) + 1):
            if self.v1(S, t) < DINF:
                return t
        return d + 1

    @staticmethod
    def key(sets: list[np.ndarray], d: int):
        return tuple(sorted(s.tobytes() for s in sets)), d

    def begin(self, budget: int = NODE_BUDGET) -> None:
        """Start counting the states the proofs visit: from now on they give up (None) past `budget`."""
        self.nodes, self.budget = 0, budget

    def feasible(self, sets: list[np.ndarray], d: int) -> bool | None:
        """Whether every tuple of the state can be finished within d guesses: True (proven), False
        (proven not), None (not settled within the budget of `begin`)."""
        return self._feasible(sets, d)

    def witness(self, sets: list[np.ndarray], d: int) -> int | None:
        """The guess a proof of the state found (all its children proven), None if not proven."""
        entry = self.memo.get(self.key(sets, d))
        return entry[1] if entry is not None and entry[0] is True else None

    def safe(self, sets: list[np.ndarray], d: int, g: int) -> bool | None:
        """Whether every child of guess g can be finished within d - 1 guesses (True: proven; False:
        some child proven not; None: not settled within the budget of `begin`)."""
        return self._safe(sets, d, g)

    def _safe(self, sets, d, g) -> bool | None:
        kids = self.children(sets, g)
        if kids is None:
            return None
        result = True
        for child in sorted(kids, key=lambda c: -sum(len(s) for s in c)):  # the hardest first
            got = self._feasible(child, d - 1)
            if got is False:
                return False
            if got is None:
                result = None
                if self.nodes >= self.budget:
                    return None
        return result

    def _store(self, key, value: bool | None, g: int | None = None) -> bool | None:
        if value is not None:
            self.memo[key] = (value, g)
        return value

    def _feasible(self, sets, d) -> bool | None:
        from ..dordle.kernels import DINF

        o = len(sets)
        if o == 0:
            return True
        if o > d:  # E2
            return False
        key = self.key(sets, d)
        entry = self.memo.get(key)
        if entry is not None:
            return entry[0]
        self.nodes += 1
        if self.nodes > self.budget:
            return None
        single = next((s for s in sets if len(s) == 1), None)
        if single is not None:  # E1: the known answer first, wlog
            g = int(self.answer_gid[int(single[0])])
            return self._store(key, self._safe(sets, d, g), g)
        if self.applies(sets, d):  # E3
            value, g, _ = self.exact(sets, d)
            return self._store(key, value < DINF, None if g < 0 else g)
        depths = [self.depth(s, d) for s in sets]
        if None not in depths and sum(depths) <= d:  # E4
            b = min(range(o), key=lambda i: (-depths[i], sets[i].tobytes()))
            S = np.ascontiguousarray(sets[b], dtype=np.int32)
            t = depths[b]
            return self._store(key, True, self.single_guess(S, t, self.v1(S, t)))
        if o == d:  # each guess must solve a board on every tuple: an answer of some open board
            pool = np.unique(np.concatenate(sets))
            cands = self.answer_gid[pool]
        else:
            cands = None
        open_tries = 0
        for g in self.ranked(sets, cands)[:MOST_GUESSES].tolist():
            got = self._safe(sets, d, int(g))
            if got:
                return self._store(key, True, int(g))
            if self.nodes >= self.budget:
                return None
            open_tries += got is None  # (a guess refuted outright costs little: it is not counted)
            if open_tries >= TRY_GUESSES:
                return None
        return None

    def ranked(self, sets: list[np.ndarray], among: np.ndarray | None = None) -> np.ndarray:
        """Guess ids to try at a state, best first (the player's score, when given; else the open
        boards' answers)."""
        if self.score is not None:
            return self.score(sets, among)
        pool = np.unique(np.concatenate(sets))
        return self.answer_gid[pool] if among is None else np.asarray(among)


def pair_count(S1: np.ndarray, S2: np.ndarray) -> int:
    return len(S1) * len(S2) - len(np.intersect1d(S1, S2))
