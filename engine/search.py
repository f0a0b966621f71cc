"""Orchestration of the exact search: contexts (scratch + memo per thread), the root split over
both cores, tree extraction, progress, and the public entry points used by the CLI.

The value computed everywhere is the total number of guesses over all answers (each answer pays
every guess up to and including the winning one) under a cap on guesses per answer.
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field

import numpy as np
import orjson

from . import kernels
from .errors import UserError

INF = kernels.INF
NO_CAP = 32  # "no cap": deeper than any optimal tree of these games can go
BUILD_CHECKPOINT_FORMAT = "wordtree-build-checkpoint/1"
CHECKPOINT_EVERY = 60.0  # seconds between saves of a build's progress inside a subtree (symmetric games)
PROGRESS_EVERY = 1.0  # seconds between updates of a build's count of proven sets (symmetric games)
SOLVE_FIRST_FRACTION = 16  # symmetric openers: classes of at most 1/16 of the codes are solved before the shares
CORES, CORE_SIZE = 256, 64  # the infeasible sets a thread remembers (kernels.USE_CORES), and their largest size


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


def default_threads() -> int:
    return max(1, min(2, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1))


class Context:
    """One thread's scratch arrays and memo table (numpy arrays handed to the kernels).

    `memo_mb` caps the memo's memory; when it fills up it is cleared, which costs time only."""

    def __init__(self, n_guesses: int, n_answers: int, n_codes: int, levels: int, state_size: int,
                 class_bounds: np.ndarray, memo_mb: int = 160, seed: int = 12345):
        rng = np.random.default_rng(seed)
        self.levels = levels
        dedupe_size = 1 << int(np.ceil(np.log2(max(4, 2 * n_guesses))))
        self.scratch = (
            np.zeros((levels, n_guesses), np.int32),  # lbs: each kept guess's class bound
            np.zeros((levels, n_guesses), np.int64),  # scores: its ordering score
            np.zeros((levels, n_answers), np.int32),  # cls: the classes of the guess tried at each level
            np.zeros((levels, n_answers), np.int32),  # cls_pos: their columns in the level's matrix
            np.zeros((levels, n_codes + 1), np.int64),  # class_start
            np.zeros((levels, n_codes + 1), np.int64),  # class_size
            np.zeros((levels, n_codes + 1), np.int64),  # class_code
            np.zeros(n_codes, np.int64),  # stamp
            np.zeros(n_codes, np.int64),  # cnt
            np.zeros(1, np.int64),  # epoch
            np.zeros(dedupe_size, np.uint64),  # dedupe_key
            np.zeros(dedupe_size, np.int32),  # dedupe_val
            np.zeros(dedupe_size, np.int64),  # dedupe_stamp
            rng.integers(1, 2**63, n_answers, dtype=np.uint64) | np.uint64(1),  # position_keys
            np.arange(n_answers, dtype=np.int32),  # identity: a node's own columns
            np.full(levels + 1, -1, np.int32),  # best_out
            np.zeros(8, np.int64),  # stats
            np.zeros((levels + 1, state_size), np.int32),  # req: hard/ultra-mode constraint at each level
            class_bounds,  # least cost of c answers with d guesses left (shared, read only)
            np.full((levels + 1, 2), -1, np.int64),  # last_step: ultra mode's latest (guess, code) at each level
            np.zeros((CORES, CORE_SIZE), np.int32),  # cores: recent sets no guess splits into singletons
            np.zeros(CORES, np.int64),  # their sizes
            np.zeros(1, np.int64),  # how many were recorded (a ring: the latest CORES are kept)
            np.zeros(n_answers, np.int64),  # mark: a node's answers, by epoch
            np.zeros((4, n_guesses), np.uint8),  # pair counts: pairs, repeats, has_win, one answer's flags
            np.zeros((4, n_guesses), np.uint16),  # the same for sets past kernels.PAIR_BYTES answers
        )
        # memo: ~34 bytes an entry plus 4 bytes per stored answer; the pool gets two thirds
        budget = memo_mb * 2**20
        entries = 1 << max(10, int(np.log2(budget / 3 / 34)))
        pool = max(n_answers, int(budget * 2 / 3 / 4))
        self.memo = (
            np.zeros(entries, np.uint64),  # keys (0 = empty)
            np.zeros(entries, np.int16),  # guesses left
            np.zeros(entries, np.int64),  # offset of the set in the pool
            np.zeros(entries, np.int32),  # set size
            np.zeros(entries, np.int64),  # value or lower bound
            np.zeros(entries, np.bool_),  # exact?
            np.zeros(entries, np.int32),  # best guess (exact entries)
            np.zeros(pool, np.int32),  # pool of stored sets
            np.zeros(2, np.int64),  # entries used, pool used
            rng.integers(1, 2**63, n_answers, dtype=np.uint64),  # a random key per answer
            rng.integers(1, 2**63, NO_CAP + 2, dtype=np.uint64),  # a random key per depth
            rng.integers(1, 2**63, state_size, dtype=np.uint64) | np.uint64(1),  # per constraint entry (odd)
        )

    @property
    def stats(self) -> np.ndarray:
        return self.scratch[16]

    @property
    def best_out(self) -> np.ndarray:
        return self.scratch[15]

    @property
    def root_constraint(self) -> np.ndarray:
        return self.scratch[17][0]


@dataclass
class Counters:
    nodes: int = 0
    memo_hits: int = 0
    memo_stores: int = 0
    memo_clears: int = 0
    guesses_evaluated: int = 0

    def add(self, stats: np.ndarray) -> None:
        self.nodes += int(stats[kernels.ST_NODES])
        self.memo_hits += int(stats[kernels.ST_MEMO_HITS])
        self.memo_stores += int(stats[kernels.ST_MEMO_STORES])
        self.memo_clears += int(stats[kernels.ST_MEMO_CLEARS])
        self.guesses_evaluated += int(stats[kernels.ST_GUESSES_EVALUATED])


MODES = ("normal", "hard", "ultra")


def proven_key(S: np.ndarray, d: int) -> tuple[int, bytes]:
    """The key of Solver.proven for the set S (sorted answer ids) with d guesses left."""
    return d, np.ascontiguousarray(S, dtype=np.int32).tobytes()


class Solver:
    """Exact values and trees for one game, one cap and one mode, over its full guess list."""

    def __init__(self, game, matrix: np.ndarray, max_guesses: int | None = 6, rules: int = kernels.ALL_RULES,
                 memo_mb: int = 160, mode: str = "normal"):
        self.game = game
        self.matrix = np.ascontiguousarray(matrix)
        self.cap = NO_CAP if max_guesses is None else int(max_guesses)
        if not 1 <= self.cap <= NO_CAP:
            raise UserError(f"--max-guesses must be between 1 and {NO_CAP}, or none")
        if mode not in MODES:
            raise UserError(f"unknown mode {mode!r}; known: {', '.join(MODES)}")
        self.mode = mode
        # codes closed under position and symbol maps: one guess per orbit near the top (symmetry.py)
        self.symmetric = game.symmetric and mode == "normal"
        self.rules = rules | {"normal": 0, "hard": kernels.HARD_MODE, "ultra": kernels.ULTRA_MODE}[mode]
        if mode != "normal":
            if game.kind != "wordle":
                raise UserError(f"{mode} mode is a Wordle rule")
            from .games.wordle import letters_array

            self.letters = letters_array(game.guesses, game.length)
            # hard: the greens and the least count of each letter; ultra: the history itself
            self.state_size = game.length + 26 if mode == "hard" else self.cap
        else:
            self.letters = np.zeros((len(game.guesses), 1), np.uint8)
            self.state_size = 1
        self.counts = np.zeros((len(game.guesses), 26), np.uint8)
        for i in range(self.game.length if mode == "hard" else 0):
            np.add.at(self.counts, (np.arange(len(game.guesses)), self.letters[:, i]), 1)
        self.memo_mb = memo_mb
        present = kernels._codes_present(self.matrix, game.n_codes)
        branching = int(present.sum()) - int(present[game.win_code])
        self.class_bounds = kernels.class_bounds(self.cap, self.matrix.shape[1], max(branching, 1))
        self.answer_gid = game.answer_guess_ids
        self.all_guesses = np.arange(len(game.guesses), dtype=np.int32)
        # the matrix by answers, which the kernel reads to settle small sets from pair counts
        # (normal mode: elsewhere legality, not the partition alone, decides)
        by_answer = mode == "normal" and rules & kernels.USE_PAIRS
        self.columns = np.empty(self.matrix.shape[::-1] if by_answer else (0, 0), self.matrix.dtype)
        if by_answer:
            kernels._transpose(self.matrix, self.columns)
        self._local = threading.local()
        self._orbits: dict[tuple[int, ...], np.ndarray] = {}  # symmetric games: history -> one guess per orbit
        # symmetric games: what solve_symmetric proved, by (guesses left, set): (value, exact, guess)
        self.proven: dict[tuple[int, bytes], tuple[int, bool, int]] = {}
        self.on_proven = None  # called after each new entry (a build saves its checkpoint from it)
        self._contexts: list[Context] = []
        self._lock = threading.Lock()
        self._orbit_pool: ThreadPoolExecutor | None = None

    def search_orbits_in_parallel(self, threads: int) -> None:
        """From now on, solve_symmetric tries the second guesses below each class of an opener on
        `threads` threads, each against the best value known when it starts (the answer, and the
        first guess among equal values, are those of the plain loop). A build's or a rank's last, largest
        class would otherwise keep one core busy for hours while the others idle."""
        if threads > 1 and self.symmetric:
            self._orbit_pool = _orbit_pool(threads)

    # --- per-thread contexts ---
    def context(self) -> Context:
        ctx = getattr(self._local, "ctx", None)
        if ctx is None:
            m = self.matrix
            ctx = Context(m.shape[0], m.shape[1], self.game.n_codes, self.cap + 2, self.state_size, self.class_bounds,
                          self.memo_mb)
            self._local.ctx = ctx
            with self._lock:
                self._contexts.append(ctx)
        return ctx

    def counters(self) -> Counters:
        total = Counters()
        for ctx in self._contexts:
            total.add(ctx.stats)
        return total

    # --- kernels ---
    # --- hard- and ultra-mode constraints (empty in normal mode) ---
    def empty_constraint(self) -> np.ndarray:
        req = np.zeros(self.state_size, np.int32)
        if self.mode == "hard":
            req[: self.game.length] = -1
        elif self.mode == "ultra":
            req[:] = kernels.NO_STEP
        return req

    def constrain(self, req: np.ndarray, guess: int, code: int) -> np.ndarray:
        """The constraint after `guess` got `code` (unchanged in normal mode)."""
        if self.mode == "normal":
            return req
        out = np.empty_like(req)
        if self.mode == "hard":
            kernels._constrain(req, out, self.letters[guess], code, self.game.length)
        else:
            kernels._record_step(req, out, guess * self.game.n_codes + code)
        return out

    def legal(self, req: np.ndarray, guess: int) -> bool:
        if self.mode == "normal":
            return True
        if self.mode == "ultra":
            return bool(kernels._consistent(guess, req, self.letters, self.game.n_codes))
        n = self.game.length
        greens_ok = all(req[i] < 0 or self.letters[guess, i] == req[i] for i in range(n))
        return greens_ok and bool(np.all(self.counts[guess] >= req[n:]))

    # --- kernels ---
    def _run(self, S: np.ndarray, d: int, beta: int, forced: int, req: np.ndarray | None) -> int:
        ctx = self.context()
        ctx.root_constraint[:] = self.empty_constraint() if req is None else req
        S = np.ascontiguousarray(S, dtype=np.int32)
        return int(kernels._solve(S, S.copy(), d, beta, 0, self.matrix, self.columns, self.all_guesses,
                                  self.matrix.shape[0],
                                  self.answer_gid, forced, self.answer_gid, self.game.win_code, self.rules,
                                  ctx.scratch, ctx.memo, self.letters, self.counts))

    def solve(self, S: np.ndarray, d: int, beta: int = INF, req: np.ndarray | None = None) -> tuple[int, int]:
        """(V(S, d) if below beta else a bound >= beta, best guess or -1), under constraint `req`."""
        value = self._run(S, d, beta, -1, req)
        return value, int(self.context().best_out[0])

    def evaluate(self, S: np.ndarray, guess: int, d: int, beta: int = INF, req: np.ndarray | None = None) -> int:
        """The cost of opening `S` with `guess`: exact if below beta, else a bound >= beta."""
        if req is not None and not self.legal(req, guess):
            raise UserError(f"{self.game.guesses[guess]!r} breaks the {self.mode}-mode rule here")
        return self._run(S, d, beta, guess, req)

    def evaluate_opener(self, S: np.ndarray, guess: int, beta: int = INF) -> int:
        """The cost of opening the whole game with `guess` (exact if below beta, else a bound >=
        beta): class by class (see `sum_of_classes`), each by the kernel, or in a symmetric game
        with one guess per orbit for the next levels.

        In a symmetric game the classes of at most 1/16 of the codes are solved in full before
        any class is asked for its share of the slack. Their values stand well above their
        bounds, and they are cheap, whereas a share of the largest class is a search of hours:
        Bulls and Cows with repeats refutes the opener 0001 against 0123's 55632 in under a
        minute this way (its classes of 435 codes and fewer rise 317 above their bounds), after
        hours of the shares alone without the proof."""
        if self.symmetric:
            return self.evaluate_symmetric(S, guess, self.cap, [guess], beta, self.game.symmetric_levels,
                                           len(S) // SOLVE_FIRST_FRACTION)
        if beta >= INF:
            return self.evaluate(S, guess, self.cap, beta)
        start = self.empty_constraint()
        return self.sum_of_classes(
            len(S), self.classes(S, guess), self.cap - 1, beta,
            lambda code, part, budget: self.solve(part, self.cap - 1, budget, self.constrain(start, guess, code))[0])

    def sum_of_classes(self, n: int, classes: list[tuple[int, np.ndarray]], d: int, beta: int, solve_part,
                       bound_part=None, solve_first: int = 0) -> int:
        """n + the sum of the values of the parts (code, part) with d guesses left: exact if
        below beta, else a proven bound >= beta. `solve_part(code, part, budget)` answers as
        `solve` does; `bound_part(part)`, if given, is a lower bound on a part's value at least
        its class bound.

        The running sum starts from the parts' bounds and only ever replaces a bound by a
        larger proven one, so it is a lower bound throughout. With a finite beta, each part of
        three or more answers is first asked only for its share of the slack, in proportion to
        its size: a losing guess usually loses a little in every large part, which a shallow
        search proves, whereas the exact pass below solves the first parts under a loose budget
        (below the opener `bribe` a part of 172 answers took 16 s to solve exactly, every one of
        its guesses refuted in turn, against a fraction of a second for its share). Then the
        parts smallest first, each against what the others' bounds leave, as the kernel does;
        a part that answers below its budget is exact, so a sum below beta is exact.

        Parts of at most `solve_first` answers are taken that way before the shares (see
        evaluate_opener for why)."""
        bounds = self.class_bounds[d]
        classes = sorted(classes, key=lambda item: len(item[1]))
        parts = [part for _, part in classes]
        lower = [int(bounds[len(part)]) if bound_part is None else bound_part(part) for part in parts]
        running = n + sum(lower)
        # a part of 1 answer costs 1, of 2 answers 3 (guess one of them): exactly the class bound
        open_parts = [i for i, part in enumerate(parts) if len(part) > 2 or (len(part) == 2 and d < 2)]
        exact = set()
        stages = ("small", "shares", "rest") if beta < INF else ("rest",)
        for stage in stages:
            gap, size = beta - running, sum(len(parts[i]) for i in open_parts if i not in exact)
            for i in open_parts:
                if running >= beta:
                    return running
                if i in exact or (stage == "small" and len(parts[i]) > solve_first):
                    continue
                budget = beta - (running - lower[i])
                if stage == "shares":
                    budget = min(budget, lower[i] + max(1, gap * len(parts[i]) // size))
                value = solve_part(classes[i][0], parts[i], budget)
                if value > lower[i]:
                    running += value - lower[i]
                    lower[i] = value
                if value < budget:
                    exact.add(i)
        return running

    # --- symmetric games: one guess per orbit near the top, the kernel below ---
    def solve_symmetric(self, S: np.ndarray, d: int, history: list[int], beta: int = INF,
                        levels: int = 1) -> tuple[int, int]:
        """`solve` in a symmetric game (engine/games/symmetry.py): the guesses tried here are one
        per orbit of the maps fixing `history` (guess ids), and so on for `levels` levels, each
        level's guess added to the history; then the kernel. The most promising first (least
        class bound), each bounded by the best so far."""
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

        def attempt(i: int) -> None:
            # guesses start in order, so one that finds the best value under way has a higher
            # index than every guess still searching: an earlier guess that ties it takes its place
            with lock:
                budget = state[0]
                if lower[i] >= budget:
                    state[2] = min(state[2], lower[i])
                    return
            value = self.evaluate_symmetric(S, guesses[i], d, history + [guesses[i]], budget, levels - 1)
            with lock:
                if value < budget and (state[1] < 0 or (value, i) < (state[0], state[1])):
                    state[0], state[1] = value, i
                elif value >= budget:
                    state[2] = min(state[2], value)

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
                           levels: int = 1, solve_first: int = 0) -> int:
        """`evaluate` in a symmetric game: `history` ends with `guess`; each class below it is
        solved by `solve_symmetric` with `levels` levels, as `sum_of_classes` orders them (with
        its `solve_first`)."""
        if levels == 0:
            return self.evaluate(S, guess, d, beta)
        return self.sum_of_classes(len(S), self.classes(S, guess), d - 1, beta,
                                   lambda _, part, budget: self.solve_symmetric(part, d - 1, history, budget, levels)[0],
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
            from .games.symmetry import orbit_representatives

            guesses = self._orbits[key] = orbit_representatives(self.game, history)
        n_codes = self.game.n_codes
        codes = self.matrix[np.ix_(guesses, S)].astype(np.int64)
        sizes = np.bincount((np.arange(len(guesses))[:, None] * n_codes + codes).ravel(),
                            minlength=len(guesses) * n_codes).reshape(len(guesses), n_codes)
        sizes[:, self.game.win_code] = 0
        bound = len(S) + self.class_bounds[d - 1][sizes].sum(axis=1)
        order = np.lexsort((guesses, (sizes * sizes).sum(axis=1), bound))
        return [int(g) for g in guesses[order]], [int(b) for b in bound[order]]

    def classes(self, S: np.ndarray, guess: int) -> list[tuple[int, np.ndarray]]:
        """The non-winning classes of S under `guess`, as (code, sorted answer ids), by code."""
        codes = self.matrix[guess, S]
        order = np.argsort(codes, kind="stable")
        S_sorted, codes_sorted = S[order], codes[order]
        bounds = np.flatnonzero(np.diff(codes_sorted)) + 1
        out = []
        for part, code_part in zip(np.split(S_sorted, bounds), np.split(codes_sorted, bounds)):
            if len(part) and int(code_part[0]) != self.game.win_code:
                out.append((int(code_part[0]), np.sort(part)))
        return out

    def tree(self, S: np.ndarray, d: int, req: np.ndarray | None = None, guess: int | None = None) -> dict:
        """The optimal tree below (S, d) under constraint `req` as nested {"guess", "next"}
        nodes; `guess` fixes the opener. Every node is asked for its exact value, which the memo
        usually already has.

        Ties in total go to the smaller worst case: once a tree of depth w is built, an optimal
        tree of depth w - 1 exists exactly when V(S, w - 1) = V(S, d), which a search bounded
        by V + 1 decides; if it does, the tree is rebuilt within w - 1 guesses. Ties beyond
        that: the search's fixed order."""
        req = self.empty_constraint() if req is None else req
        if guess is not None:
            return self._tree_with(S, d, req, guess)
        value, guess = self.solve(S, d, req=req)
        if value >= INF:
            raise UserError("no tree exists within the guess cap")
        node = self._tree_with(S, d, req, guess)
        return self.shallowest(S, req, value, node, lambda g, cap: self._tree_with(S, cap, req, g))

    def shallowest(self, S: np.ndarray, req: np.ndarray, value: int, node: dict, rebuild, solve=None) -> dict:
        """`node` (an optimal tree for S), or an optimal one of smaller depth: `rebuild(guess,
        cap)` makes the tree opening with `guess` within `cap` guesses; `solve(cap, beta)` is the
        bounded search (default: over every guess)."""
        solve = solve or (lambda cap, beta: self.solve(S, cap, beta, req))
        depth = tree_depth(node)
        while depth > 1 and self.class_bounds[depth - 1, len(S)] <= value:
            lower, guess = solve(depth - 1, value + 1)
            if lower != value:
                break
            node = rebuild(guess, depth - 1)
            depth = tree_depth(node)
        return node

    def _tree_with(self, S: np.ndarray, d: int, req: np.ndarray, guess: int) -> dict:
        node = {"guess": self.game.guesses[guess]}
        classes = self.classes(S, guess)
        if classes:
            node["next"] = {self.game.pattern_text(code): self.tree(part, d - 1, self.constrain(req, guess, code))
                            for code, part in classes}
        return node


def tree_depth(node: dict) -> int:
    """The worst case of a tree: the guesses its deepest answer takes."""
    return 1 + max((tree_depth(child) for child in node.get("next", {}).values()), default=0)


@dataclass
class BuildResult:
    root: dict
    total: int
    seconds: float
    counters: Counters
    first: str
    n_answers: int
    extra: dict = field(default_factory=dict)
    earlier_seconds: float = 0.0  # spent by the runs before a resume (from the checkpoint)


class ProvenProgress:
    """What a build or a rank does each time a symmetric level proves a set (Solver.on_proven):
    keep it in the checkpoint (`save`, at most once a minute) and show how many sets are proven
    beside the bar's own figures (`text`), at most every PROGRESS_EVERY seconds, so that a bar
    waiting hours on one class or one opener still moves."""

    def __init__(self, solver: Solver, save=None):
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


def candidate_ids(game, history: list[tuple[str, int]]) -> np.ndarray:
    """Answers consistent with a history of (guess, code) pairs, by the game's own feedback rule."""
    ids = [i for i, a in enumerate(game.answers) if all(game.feedback(g, a) == code for g, code in history)]
    return np.array(ids, dtype=np.int32)


def parse_state(game, text: str | None) -> list[tuple[str, int]]:
    """'salet:BBYBB,crony:BGYBB' -> [(guess, code), ...]."""
    history = []
    if not text:
        return history
    for step, item in enumerate(text.replace(" ", ",").split(","), 1):
        if not item:
            continue
        if ":" not in item:
            raise UserError(f"--from step {step}: expected GUESS:PATTERN, got {item!r}")
        word, pattern = item.split(":", 1)
        history.append((game.parse_guess(word), game.parse_pattern(pattern)))
    return history


def build_checkpoint_header(game, cap: int, mode: str, history: list[tuple[str, int]]) -> dict:
    """What a build checkpoint must match to serve a build: the game, its cap, mode and history."""
    return {"format": BUILD_CHECKPOINT_FORMAT, "game": game.identity(), "max_guesses": cap, "mode": mode,
            "history": [[word, game.pattern_text(code)] for word, code in history]}


def _whole_game_openers(game, doc: dict, cap: int):
    """(word, guess id, {code: {"value", "tree"}}) for each opener whose subtrees a build
    checkpoint holds with the whole cap (keys "WORD/guesses left")."""
    for key, finished in doc.get("subtrees", {}).items():
        word, _, depth = key.rpartition("/")
        g = game.guess_index.get(word)
        if g is not None and depth == str(cap):
            yield word, g, finished


def finished_openers(game, matrix: np.ndarray, checkpoint, max_guesses: int | None, mode: str) -> dict[str, int]:
    """The exact totals of the openers whose every class a build checkpoint (of the whole game)
    holds: the answers plus the saved values of the classes, each an exact optimum. A rank can
    take them as they are instead of solving those openers again (`build --first WORD
    --checkpoint F`, then `build --checkpoint F --resume` ranks the other openers against it)."""
    from .files import read_checkpoint

    cap = NO_CAP if max_guesses is None else max_guesses
    doc = read_checkpoint(checkpoint, build_checkpoint_header(game, cap, mode, []), "build") or {}
    n = len(game.answers)
    totals = {}
    for word, g, finished in _whole_game_openers(game, doc, cap):
        codes = {int(c) for c in np.unique(matrix[g])} - {game.win_code}
        if codes <= {int(c) for c in finished}:
            totals[word] = n + sum(item["value"] for item in finished.values())
    return totals


def checkpoint_status(game, matrix: np.ndarray, checkpoint, max_guesses: int | None, mode: str) -> list[str]:
    """What a build checkpoint proves so far, as lines of text: for each opener it holds, each
    class's exact value or a proven lower bound, and so a lower bound on the opener's total that
    only rises as the build goes on. A long class shows how far it has got: in a symmetric game,
    a class is solved by trying one second guess per orbit, and each orbit's bound is |class| plus
    what is proven of its parts (their saved values, else the bounds the search refutes with,
    Solver.set_bound); the class costs at least the least of these, and it is settled once no
    orbit's bound is below the best orbit whose every part is exact.

    A build with the opener found exactly ranks the openers first, in FILE.rank: in a symmetric
    game each opener orbit is then shown too, with its exact total, or a lower bound (its classes'
    as above), and whether that bound already puts it no better than the best exact total."""
    from .rank import load_checkpoint, load_proven
    from .files import read_checkpoint

    solver = Solver(game, matrix, max_guesses, mode=mode)
    doc = read_checkpoint(checkpoint, build_checkpoint_header(game, solver.cap, mode, []), "build")
    if doc is None:
        raise UserError(f"{checkpoint}: no such checkpoint")
    solver.load_proven(doc.get("proven", []))
    rank_file = f"{checkpoint}.rank"
    ranked = load_checkpoint(rank_file, game, solver.cap, mode) if os.path.exists(rank_file) else {}
    if ranked:
        solver.load_proven(load_proven(rank_file, game, solver.cap, mode))

    def known(part: np.ndarray, d: int, history: list[int]) -> tuple[int, bool]:
        """(what is proven of V(part, d), whether it is exact), with the bound one guess deeper
        that the search itself refutes guesses with (Solver.set_bound)."""
        value, exact = solver.proven_bound(part, d)
        if exact or not solver.symmetric:
            return value, exact
        return solver.set_bound(part, d, history), False

    S = np.arange(len(game.answers), dtype=np.int32)
    lines = [f"{checkpoint}: {len(solver.proven)} proven values of sets "
             f"({sum(e for _, e, _ in solver.proven.values())} exact)"]
    for word, g, finished in _whole_game_openers(game, doc, solver.cap):
        d = solver.cap - 1
        rows, total, done = [], len(S), 0
        classes = sorted(solver.classes(S, g), key=lambda item: -len(item[1]))
        width = max((len(game.pattern_text(code)) for code, _ in classes), default=0)
        for code, part in classes:
            label = f"  {game.pattern_text(code):<{width}} {len(part):6} answers:"
            if str(code) in finished:
                value, exact, detail = finished[str(code)]["value"], True, " (subtree saved)"
            else:
                value, exact = known(part, d, [g])
                detail = ""
                if not exact and solver.symmetric and len(part) > 2:
                    orbits = []
                    for g2 in solver._orbit_bounds(part, d, [g])[0]:
                        parts = [known(p, d - 1, [g, g2]) for _, p in solver.classes(part, g2)]
                        orbits.append((len(part) + sum(v for v, _ in parts), all(e for _, e in parts)))
                    best = min((v for v, e in orbits if e), default=None)
                    least = min(v for v, _ in orbits)
                    if best is not None and least >= best:
                        value, exact = best, True
                    else:
                        value = max(value, least)
                        still = sum(1 for v, e in orbits if not e and (best is None or v < best))
                        so_far = f"best second guess so far {best}; " if best is not None else ""
                        detail = f" ({so_far}{still} of {len(orbits)} second-guess orbits still open)"
            rows.append(f"{label} {'exact' if exact else 'at least'} {value}{detail}")
            done += exact
            total += value
        state = "exact" if done == len(classes) else "at least"
        lines.append(f"opener {word}: {done} of {len(classes)} classes exact; total {state} {total} "
                     f"(mean {state} {total / len(S):.4f})")
        lines += rows
    if ranked and solver.symmetric:
        from .games.symmetry import orbit_representatives

        best = min((v for v, exact in ranked.values() if exact), default=INF)
        lines.append(f"{rank_file}: the first guesses, one per orbit")
        for o in orbit_representatives(game, []):
            word = game.guesses[o]
            value, exact = ranked.get(word, (None, False))
            if value is None:
                value = len(S) + sum(known(part, solver.cap - 1, [int(o)])[0] for _, part in solver.classes(S, o))
            verdict = "exact" if exact else "at least"
            refuted = " (no better than the best)" if not exact and value >= best else ""
            lines.append(f"  {word}: {verdict} {value}{refuted}")
    return lines


def build(game, matrix: np.ndarray, first: str | None = None, max_guesses: int | None = 6,
          history: list[tuple[str, int]] | None = None, threads: int | None = None, progress: bool = True,
          rules: int = kernels.ALL_RULES, memo_mb: int = 160, mode: str = "normal", checkpoint: str | None = None,
          resume: bool = False, proven: list | None = None) -> BuildResult:
    """The exact optimal tree from a position (the start, or after `history`), opening with
    `first` (None: the proven best opener, found by searching every guess). With `checkpoint`,
    each finished subtree of the opener is saved there as it comes (atomically), and `resume`
    starts from the ones a stopped build saved. `proven`: rows of Solver.proven_entries() from a
    search of the same game, cap and mode (the rank that chose `first`, whose classes it has
    often solved already)."""
    from tqdm import tqdm

    from .files import ThrottledSave, read_checkpoint

    start = time.perf_counter()
    solver = Solver(game, matrix, max_guesses, rules, memo_mb, mode)
    solver.search_orbits_in_parallel(threads or default_threads())
    history = history or []
    req = solver.empty_constraint()
    for word, code in history:
        g_played = game.guess_index[word]
        if not solver.legal(req, g_played):
            raise UserError(f"{word!r} breaks the {mode}-mode rule at that point of --from")
        req = solver.constrain(req, g_played, code)
    S = candidate_ids(game, history)
    if len(S) == 0:
        raise UserError("no answer is consistent with that history")
    d = solver.cap - len(history)
    if d < 1:
        raise UserError(f"the history already uses {len(history)} guesses of {solver.cap}")
    played = [game.guess_index[word] for word, _ in history]
    symmetric = solver.symmetric
    header = build_checkpoint_header(game, solver.cap, mode, history)
    doc = (read_checkpoint(checkpoint, header, "build") if resume else None) or {}
    saved = doc.get("subtrees", {})
    earlier = float(doc.get("seconds", 0.0))
    solver.load_proven(doc.get("proven", []))
    solver.load_proven(proven or [])
    # the finished subtrees and, in symmetric games, what the symmetric levels proved so far: a
    # build stopped in the middle of a long subtree resumes inside it too
    save = ThrottledSave(checkpoint, lambda: orjson.dumps({
        **header, "seconds": round(earlier + time.perf_counter() - start, 3), "subtrees": saved,
        "proven": solver.proven_entries()}))
    shown = ProvenProgress(solver, save if checkpoint else None)

    def solve_here(cap: int, beta: int) -> tuple[int, int]:
        """The bounded search at the position itself."""
        if symmetric:
            return solver.solve_symmetric(S, cap, played, beta, game.symmetric_levels + 1)
        return solver.solve(S, cap, beta, req)

    if first is None:
        value, g = solve_here(d, INF)
        if value >= INF:
            raise Infeasible(solver.cap)
    else:
        g = game.guess_index.get(first)
        if g is None:
            raise UserError(f"{first!r} is not an allowed guess in {game.name}")
        if not solver.legal(req, g):
            raise UserError(f"{first!r} breaks the {mode}-mode rule here")

    def assemble(g: int, d: int) -> tuple[dict, int]:
        """The tree opening with g: below it every class is an independent exact problem,
        solved on all cores, largest first so the threads finish together. In a symmetric game
        (normal mode) each class tries one guess per orbit of the maps fixing the history and g,
        for the game's `symmetric_levels` levels (engine/games/symmetry.py)."""
        jobs = sorted(solver.classes(S, g), key=lambda item: -len(item[1]))
        results: dict[int, dict] = {}
        total = len(S)
        finished = saved.setdefault(f"{game.guesses[g]}/{d}", {})  # code -> {"value", "tree"}
        for code_text, item in finished.items():
            results[int(code_text)] = item["tree"]
            total += item["value"]
        todo = [item for item in jobs if str(item[0]) not in finished]
        bar = tqdm(total=len(jobs), initial=len(jobs) - len(todo), desc=f"subtrees of {game.guesses[g]}",
                   unit="class", disable=not progress or None, leave=False)
        shown.bar, shown.text = bar, f"total={total}"

        def job(item):
            code, part = item
            child_req = solver.constrain(req, g, code)
            if symmetric:
                value, second = solver.solve_symmetric(part, d - 1, played + [g], INF, game.symmetric_levels)
                if value >= INF:
                    return code, value, None
                return code, value, solver.tree_symmetric(part, d - 1, played + [g], game.symmetric_levels, (value, second))
            value, _ = solver.solve(part, d - 1, req=child_req)
            if value >= INF:
                return code, value, None
            return code, value, solver.tree(part, d - 1, child_req)

        pool = ThreadPoolExecutor(threads or default_threads())
        try:
            for future in as_completed([pool.submit(job, item) for item in todo]):
                code, value, subtree = future.result()
                if subtree is None:
                    raise Infeasible(solver.cap, game.guesses[g])
                results[code] = subtree
                total += value
                if checkpoint:
                    with save.lock:
                        finished[str(code)] = {"value": value, "tree": subtree}
                    save()
                bar.update(1)
                shown.text = f"total={total}"
                shown.show()
        except KeyboardInterrupt:
            if checkpoint:
                save()
            raise
        finally:
            shown.bar = None
            bar.close()
            pool.shutdown(wait=False, cancel_futures=True)  # on an error or Ctrl-C, do not wait for the rest
        root = {"guess": game.guesses[g]}
        if results:
            root["next"] = {game.pattern_text(code): results[code] for code in sorted(results)}
        return root, total

    root, total = assemble(g, d)
    if first is None:
        root = solver.shallowest(S, req, total, root, lambda guess, cap: assemble(guess, cap)[0], solve_here)
        g = game.guess_index[root["guess"]]
    return BuildResult(root, total, time.perf_counter() - start, solver.counters(), game.guesses[g], len(S),
                       earlier_seconds=earlier)


class Infeasible(UserError):
    """No tree solves every answer within the cap (a proven result, exit status 3)."""

    exit_code = 3

    def __init__(self, cap: int, first: str | None = None):
        self.cap = cap
        opener = f" opening with {first}" if first else ""
        super().__init__(f"impossible: no tree{opener} solves every answer within {cap} guesses (proven)")


def best_guess(game, candidate_ids_: list[int], guesses_left: int | None = None, mode: str = "normal",
               matrix: np.ndarray | None = None) -> tuple[str, int]:
    """The exact best guess for a set of candidate answers (by answer index) and its total."""
    if matrix is None:
        from .patterns import pattern_matrix

        matrix = pattern_matrix(game).matrix
    if mode != "normal":
        raise UserError(f"the live exact answer needs the game's history in {mode} mode; use build --from")
    solver = Solver(game, matrix, guesses_left, memo_mb=32, mode=mode)
    value, g = solver.solve(np.sort(np.asarray(candidate_ids_, dtype=np.int32)), solver.cap)
    if value >= INF:
        raise Infeasible(solver.cap)
    return game.guesses[g], value
