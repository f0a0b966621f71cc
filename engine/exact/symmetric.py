"""The orbit-level search of the symmetric games (Mastermind, Bulls and Cows): near the top of a
tree, one guess per orbit of the code maps that fix the history so far (engine/games/symmetry.py)
instead of every guess, then the kernel below; and the store of what those levels proved
(`Solver.proven`: V(S, d) exact, or a lower bound), which checkpoints keep and resumes reload.

`OrbitSearch` is a part of `Solver` (solver.py), kept here because it is one algorithm: it uses
the solver's `solve`, `evaluate`, `classes`, `sum_of_classes`, `shallowest` and `class_bounds`.
The solver imports this module and not the other way round: what is typed here as a solver is
an `OrbitSearch` (every `Solver` is one).
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..errors import UserError
from .kernels import INF

CHECKPOINT_EVERY = 60.0  # seconds between saves of a build's progress inside a subtree (symmetric games)
PROGRESS_EVERY = 1.0  # seconds between updates of a build's count of proven sets (symmetric games)
SOLVE_FIRST_FRACTION = 16  # symmetric openers: classes of at most 1/16 of the codes are solved before the shares


_ORBIT_POOLS: dict[int, ThreadPoolExecutor] = {}  # by size, shared by every Solver of the process
_ORBIT_POOLS_LOCK = threading.Lock()


def _orbit_pool(threads: int) -> ThreadPoolExecutor:
    """One pool per size for the whole process, so that solvers made one after another (tests, a
    server) do not each leave idle threads behind; its tasks never wait on it, so sharing cannot
    deadlock. A thread's scratch and memo belong to the solver (Solver.context), not the pool."""
    with _ORBIT_POOLS_LOCK:
        if threads not in _ORBIT_POOLS:
            _ORBIT_POOLS[threads] = ThreadPoolExecutor(threads, thread_name_prefix="orbits")
        return _ORBIT_POOLS[threads]


def uses_symmetry(game, mode: str) -> bool:
    """Whether a search of `game` in `mode` tries one guess per orbit near the top.

    Normal mode: engine/games/symmetry.py. Ultra mode (every guess a candidate left, as the
    code-breaking games have it): a map fixing every guess played so far keeps each of their
    scores, so it maps the candidates S onto themselves, and with them the legal guesses (S
    itself; every code at the start). It maps an ultra tree for S opening with g onto an ultra
    tree opening with its image, of equal cost (each node's candidates, and the guess played
    there among them, go to the candidates of the image's history and a guess among those). So
    an orbit lies wholly inside S or outside it, and one guess per orbit inside S is enough
    (`_orbit_bounds`). Hard mode: never (a Wordle rule)."""
    return game.symmetric and mode in ("normal", "ultra")


def proven_key(S: np.ndarray, d: int) -> tuple[int, bytes]:
    """The key of Solver.proven for the set S (sorted answer ids) with d guesses left."""
    return d, np.ascontiguousarray(S, dtype=np.int32).tobytes()


class OrbitSearch:
    """The symmetric levels of `Solver` (see the module's docstring)."""

    def _init_orbit_search(self) -> None:
        self._orbits: dict[tuple[int, ...], np.ndarray] = {}  # history -> one guess per orbit
        # what solve_symmetric proved, by (guesses left, set): (value, exact, guess)
        self.proven: dict[tuple[int, bytes], tuple[int, bool, int]] = {}
        self.on_proven = None  # called after each new entry (a build saves its checkpoint from it)
        self._orbit_pool: ThreadPoolExecutor | None = None

    def search_orbits_in_parallel(self, threads: int) -> None:
        """From now on, solve_symmetric tries the second guesses below each class of an opener on
        `threads` threads, each against the best value known when it starts (the answer, and the
        first guess among equal values, are those of the plain loop). A build's or a rank's last, largest
        class would otherwise keep one core busy for hours while the others idle."""
        if threads > 1 and self.symmetric:
            self._orbit_pool = _orbit_pool(threads)

    def solve_symmetric(self, S: np.ndarray, d: int, history: list[int], beta: int = INF,
                        levels: int = 1, on_tried=None) -> tuple[int, int]:
        """`solve` in a symmetric game (engine/games/symmetry.py): the guesses tried here are one
        per orbit of the maps fixing `history` (guess ids), and so on for `levels` levels, each
        level's guess added to the history; then the kernel. The most promising first (least
        class bound), each bounded by the best so far. `on_tried(share)`, if given, is called with
        the share of this level's guesses done (a guess under way counting the share of its
        classes' answers solved) as it grows, from the thread that moved it: how a build shows its
        progress inside one long class."""
        if levels == 0 or len(S) <= 2:
            return self.solve(S, d, beta)
        key = proven_key(S, d)
        known = self.proven.get(key)
        if known is not None:  # proven before (in this process, or by a stopped build)
            value, exact, guess = known
            if exact:
                return (value, guess) if value < beta else (value, -1)
            if value >= beta:
                return value, -1
        deeper = self._bound_with_more_guesses(key)
        if deeper >= beta:
            return deeper, -1
        guesses, lower = self._orbit_bounds(S, d, history)
        state = [beta, -1, INF]  # the best value (or beta), the index of its guess (or -1), the least bound
        lock = threading.Lock()
        shares = [0.0] * len(guesses)  # of each guess, the share of it done

        def done(i: int, share: float = 1.0) -> None:
            if on_tried is not None:
                with lock:
                    shares[i] = max(shares[i], share)
                    total = sum(shares) / len(shares)
                on_tried(total)

        def attempt(i: int) -> None:
            # guesses start in order, so one that finds the best value under way has a higher
            # index than every guess still searching: an earlier guess that ties it takes its place
            with lock:
                budget = state[0]
                refuted = lower[i] >= budget
                if refuted:
                    state[2] = min(state[2], lower[i])
            if refuted:
                done(i)
                return
            value = self.evaluate_symmetric(S, guesses[i], d, history + [guesses[i]], budget, levels - 1,
                                            on_part=None if on_tried is None else lambda share: done(i, share))
            with lock:
                if value < budget and (state[1] < 0 or (value, i) < (state[0], state[1])):
                    state[0], state[1] = value, i
                elif value >= budget:
                    state[2] = min(state[2], value)
            done(i)

        pool = self._orbit_pool if levels == self.game.symmetric_levels else None
        if pool is None:
            for i in range(len(guesses)):
                attempt(i)
        else:
            for future in [pool.submit(attempt, i) for i in range(len(guesses))]:
                future.result()
        best, at, fail = state
        result = (best, int(guesses[at])) if at >= 0 else (fail, -1)
        self._prove(key, result[0], at >= 0, result[1])
        return result

    def _prove(self, key: tuple[int, bytes], value: int, exact: bool, guess: int) -> None:
        """Keep what solve_symmetric proved: V(S, d) (exact) or V(S, d) >= value. Either holds
        for (S, d) whatever the history that led there (the value is the set's, and the guess a
        real one), so a later search of the same set, or a resumed build, can take it."""
        with self._lock:
            old = self.proven.get(key)
            if old is not None and (old[1] or (not exact and value <= old[0])):
                return
            self.proven[key] = (value, exact, guess)
        if self.on_proven is not None:
            self.on_proven()

    def _bound_with_more_guesses(self, key: tuple[int, bytes]) -> int:
        """The largest value proven of the set with more guesses left than key's (0 if none): a
        lower bound with fewer, since a tree within d guesses is one within any d' > d. The
        tie-break (`shallowest`) asks for an optimal tree within a smaller cap: every second guess
        the uncapped search refuted is refuted again from these, and only the tied ones are
        searched again (below 0123 in Bulls and Cows with repeats, the tie-break of the class of
        3048 codes had run for hours without them)."""
        d, set_bytes = key
        best = 0
        for more in range(d + 1, self.cap + 1):
            row = self.proven.get((more, set_bytes))
            if row is not None:
                best = max(best, row[0])
        return best

    def proven_entries(self) -> list[list[int]]:
        """`proven` as JSON-ready rows [d, value, exact, guess, *set]."""
        with self._lock:
            return [[d, v, int(e), g, *np.frombuffer(S, dtype=np.int32).tolist()]
                    for (d, S), (v, e, g) in self.proven.items()]

    def load_proven(self, rows) -> None:
        """Take rows written by proven_entries (a checkpoint of the same game, cap and mode)."""
        for d, v, e, g, *S in rows:
            self._prove(proven_key(S, int(d)), int(v), bool(e), int(g))

    def evaluate_symmetric(self, S: np.ndarray, guess: int, d: int, history: list[int], beta: int = INF,
                           levels: int = 1, solve_first: int = 0, on_part=None) -> int:
        """`evaluate` in a symmetric game: `history` ends with `guess`; each class below it is
        solved by `solve_symmetric` with `levels` levels, as `sum_of_classes` orders them (with
        its `solve_first`). `on_part(share)`, if given, gets the share of S's answers in the
        classes solved so far, below 1, as it grows: a class under way counting by its own
        progress (solve_symmetric's `on_tried`), down to the last symmetric level."""
        if levels == 0:
            return self.evaluate(S, guess, d, beta)
        solved = [0]

        def solve(_, part, budget):
            before = solved[0]
            inside = None if on_part is None else (  # the class's own progress, below its level
                lambda share: on_part(min((before + len(part) * share) / len(S), 0.999)))
            value = self.solve_symmetric(part, d - 1, history, budget, levels, on_tried=inside)[0]
            if on_part is not None:
                solved[0] += len(part)
                on_part(min(solved[0] / len(S), 0.999))
            return value

        return self.sum_of_classes(len(S), self.classes(S, guess), d - 1, beta, solve,
                                   lambda part: self.set_bound(part, d - 1, history), solve_first)

    def proven_bound(self, S: np.ndarray, d: int) -> tuple[int, bool]:
        """(what is proven of V(S, d), whether it is exact): a value the symmetric levels proved,
        else the largest of a bound they proved, a value proven with more guesses left and the
        class bound, which is exact for one answer, and for two with two guesses left."""
        key = proven_key(S, d)
        row = self.proven.get(key)
        if row is not None and row[1]:
            return row[0], True
        bound = max(int(self.class_bounds[d][len(S)]), self._bound_with_more_guesses(key))
        if row is not None:
            return max(row[0], bound), False
        return bound, len(S) == 1 or (len(S) == 2 and d >= 2)

    def set_bound(self, S: np.ndarray, d: int, history: list[int]) -> int:
        """A lower bound on V(S, d) below `history`, one guess deeper than the class bound: what
        is proven of the set, or the least over the guess orbits of |S| plus their classes' class
        bounds (what solve_symmetric orders its guesses by). Summed over the classes of a guess
        it refutes many guesses before any search: in Bulls and Cows with repeats it puts the
        opener 0000 at 56012 or more, against 54068 from the class bounds, above the 55632 that
        0123 is known to reach."""
        value, exact = self.proven_bound(S, d)
        if exact or value >= INF:
            return value
        return min(INF, max(value, self._orbit_bounds(S, d, history)[1][0]))

    def tree_symmetric(self, S: np.ndarray, d: int, history: list[int], levels: int = 1,
                       best: tuple[int, int] | None = None) -> dict:
        """`tree` in a symmetric game, searched as `solve_symmetric` does (`best`: its answer
        here, if known), ties going to the smaller worst case as in `tree`."""
        if levels == 0 or len(S) <= 2:
            return self.tree(S, d)
        value, guess = best or self.solve_symmetric(S, d, history, INF, levels)
        if value >= INF:
            raise UserError("no tree exists within the guess cap")

        def rebuild(g: int, cap: int) -> dict:
            node = {"guess": self.game.guesses[g]}
            classes = self.classes(S, g)
            if classes:
                node["next"] = {self.game.pattern_text(code): self.tree_symmetric(part, cap - 1, history + [g], levels - 1)
                                for code, part in classes}
            return node

        return self.shallowest(S, self.empty_constraint(), value, rebuild(guess, d), rebuild,
                               lambda cap, beta: self.solve_symmetric(S, cap, history, beta, levels))

    def _orbit_bounds(self, S: np.ndarray, d: int, history: list[int]) -> tuple[list[int], list[int]]:
        """One guess per orbit of the maps fixing `history`, with its class bound (|S| plus each
        non-winning class's least cost), by bound, then sum of squared class sizes, then id."""
        key = tuple(history)
        guesses = self._orbits.get(key)
        if guesses is None:
            from ..games.symmetry import orbit_representatives

            guesses = self._orbits[key] = orbit_representatives(self.game, history)
        if self.candidate_guesses:  # ultra mode: the orbits inside S (see uses_symmetry)
            guesses = guesses[np.isin(guesses, self.answer_gid[S])]
        n_codes = self.game.n_codes
        codes = self.matrix[np.ix_(guesses, S)].astype(np.int64)
        sizes = np.bincount((np.arange(len(guesses))[:, None] * n_codes + codes).ravel(),
                            minlength=len(guesses) * n_codes).reshape(len(guesses), n_codes)
        sizes[:, self.game.win_code] = 0
        bound = len(S) + self.class_bounds[d - 1][sizes].sum(axis=1)
        order = np.lexsort((guesses, (sizes * sizes).sum(axis=1), bound))
        return [int(g) for g in guesses[order]], [int(b) for b in bound[order]]


class ProvenProgress:
    """What a build or a rank does each time a symmetric level proves a set (Solver.on_proven):
    keep it in the checkpoint (`save`, at most once a minute) and show how many sets are proven
    beside the bar's own figures (`text`), at most every PROGRESS_EVERY seconds, so that a bar
    waiting hours on one class or one opener still moves."""

    def __init__(self, solver: OrbitSearch, save=None):
        self.solver, self.save = solver, save
        self.bar, self.text, self.shown_at = None, "", 0.0
        if solver.symmetric:
            solver.on_proven = self

    def show(self) -> None:
        bar = self.bar  # a worker thread may call this while the bar is being closed (then a no-op)
        if bar is not None:
            self.shown_at = time.monotonic()
            proven = f" proven={len(self.solver.proven)}" if self.solver.symmetric else ""
            bar.set_postfix_str(self.text + proven)

    def __call__(self) -> None:
        if self.save is not None:
            self.save(CHECKPOINT_EVERY)
        if time.monotonic() - self.shown_at >= PROGRESS_EVERY:
            self.show()

