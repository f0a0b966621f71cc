"""One large set's search split across threads: the guesses the kernel would try at the top of
(S, d), each valued as a job of its own, with the same value, best guess and tie-break as the
kernel's own loop (`_solve` in kernels.py).

The kernel tries the guesses at a node in the order of their score (then their place in the
guess list), each against the best total found so far, and keeps the first of equal totals. Here
the same guesses, in the same order, are valued by several threads at once, each against the
best total known when it starts. A guess started before a better one finished only prunes less;
a guess that answers "at least the budget" with a budget equal to the final best could tie it,
so those of them ahead of the winner in the order are valued again with one more (rarely any).
So the value and the guess are the kernel's whatever the schedule.

`root_candidates` replicates the kernel's scan of the node (legal guesses, useless ones dropped,
one guess per partition in normal mode, class bounds and scores) in numpy. Where the kernel
would settle the node by a shortcut, none is returned and the kernel is asked instead.
"""

from __future__ import annotations

import threading

import numpy as np
from numba import njit

from . import kernels

# The pair counts (kernels.PAIR_LIMIT) settle sets of this size and less by another order: those
# stay whole. The split pays off only on sets whose search takes seconds anyway.
SPLIT_MIN = kernels.PAIR_LIMIT + 1
NEEDED_RULES = kernels.USE_BOUNDS | kernels.USE_SHORTCUTS | kernels.USE_FILTER


def can_split(solver, n: int, d: int) -> bool:
    """Whether a set of n answers with d guesses left is split (else one kernel call)."""
    return (n >= SPLIT_MIN and d >= 3 and solver.mode in ("normal", "hard") and not solver.symmetric
            and solver.rules & NEEDED_RULES == NEEDED_RULES)


def root_candidates(solver, S: np.ndarray, d: int, beta: int, req: np.ndarray):
    """(the guesses the kernel keeps at (S, d) under `req`, by id; the order it tries them in, as
    indices into those; their class bounds in that order), or None where the kernel settles the
    node another way (a shortcut, a bound at least beta)."""
    n = len(S)
    bounds = solver.class_bounds
    if d < 3 or beta <= int(bounds[d][n]) or beta <= 2 * n:
        return None
    ids = solver.all_guesses
    if solver.mode == "hard":
        length = solver.game.length
        ok = np.all(solver.counts >= req[length:], axis=1)
        for i in range(length):
            if req[i] >= 0:
                ok &= solver.letters[:, i] == req[i]
        ids = ids[ok]
    n_codes, win = solver.game.n_codes, solver.game.win_code
    child = bounds[d - 1].astype(np.int64)
    if int(child[n]) != 2 * n - 1 or n_codes > 0xFFFF:  # few codes: the class bounds grow faster (not replicated)
        return None
    S = np.ascontiguousarray(S, dtype=np.int32)
    ids = np.ascontiguousarray(ids, dtype=np.int32)
    labels = np.empty((len(ids), n), np.uint16)
    stats = np.empty((len(ids), 4), np.int64)
    keys = np.random.default_rng(n).integers(1, 2**62, n, dtype=np.int64)
    _scan(solver.matrix, ids, S, win, n_codes, keys, labels, stats)
    k, in_s, squares = stats[:, 0], stats[:, 1], stats[:, 2]
    if np.any(k >= n - 1):  # a splitter into singletons, or a candidate leaving one pair: the kernel's shortcuts
        return None
    keep = ~((k == 1) & (in_s == 0))  # a guess leaving S whole only wastes a turn
    if solver.mode == "normal":  # one guess per partition: the first in the list (equal labels, equal partitions)
        _, first, group = np.unique(stats[:, 3], return_index=True, return_inverse=True)
        later = np.flatnonzero(first[group] != np.arange(len(ids)))  # a row hashed like an earlier one
        same = np.all(labels[later] == labels[first[group[later]]], axis=1)  # (a collision keeps both)
        keep[later[same]] = False
    ids, k, in_s, squares = ids[keep], k[keep], in_s[keep], squares[keep]
    if not np.all(np.isin(solver.answer_gid[S], ids)):  # each answer's own guess is kept (its win tells it apart)
        return None
    lbs = 3 * n - k - in_s
    order = np.lexsort((ids, 2 * squares + n * lbs))
    return ids, order, lbs[order]


@njit(cache=True, nogil=True)
def _scan(matrix, ids, S, win, n_codes, keys, labels, stats):
    """Each guess's codes over S relabelled by first appearance (the winning code kept apart), as
    the kernel's scan does, and its class count, in-S flag, sum of squared class sizes and a hash
    of the labels (`keys`: one random key per position)."""
    stamp = np.full(n_codes, -1, np.int64)
    label = np.zeros(n_codes, np.int64)
    count = np.zeros(n_codes, np.int64)
    for r in range(ids.size):
        row = matrix[ids[r]]
        k = 0
        others = 0
        in_s = 0
        squares = 0
        h = 0
        for i in range(S.size):
            c = row[S[i]]
            if stamp[c] != r:
                stamp[c] = r
                count[c] = 1
                k += 1
                if c == win:
                    label[c] = 0xFFFF
                else:
                    label[c] = others
                    others += 1
            else:
                count[c] += 1
            squares += 2 * count[c] - 1
            if c == win:
                in_s = 1
            labels[r, i] = label[c]
            h += keys[i] * (label[c] + 1)
        stats[r, 0] = k
        stats[r, 1] = in_s
        stats[r, 2] = squares
        stats[r, 3] = h


class SplitSearch:
    """V(S, d) below beta (else a bound at least beta) and the kernel's best guess, its guesses
    valued as separate jobs (`take`). `done(value, guess, worker)` is called once, by the thread
    that finishes last; `worker` ran the winning guess, so its memo holds the guess's classes."""

    def __init__(self, solver, S: np.ndarray, d: int, beta: int, req: np.ndarray, kept: np.ndarray,
                 order: np.ndarray, lbs: np.ndarray, done):
        self.solver, self.S, self.d, self.beta, self.req = solver, np.ascontiguousarray(S, np.int32), d, beta, req
        self.rows, self.guesses, self.lbs, self.done = order, kept[order], lbs, done
        # What the kernel's node hands its children: the kept guesses' codes over S (a local
        # matrix, by answers too where the children count pairs), and each answer's own row.
        self.L = np.ascontiguousarray(solver.matrix[np.ix_(kept, self.S)])
        pairs = d > 3 and solver.mode == "normal" and solver.rules & kernels.USE_PAIRS
        self.LT = np.ascontiguousarray(self.L.T) if pairs else np.empty((0, 0), self.L.dtype)
        self.L_ids = np.ascontiguousarray(kept, np.int32)
        self.win_row = np.searchsorted(kept, solver.answer_gid[self.S]).astype(solver.answer_gid.dtype)
        self.pos = np.arange(len(self.S), dtype=np.int32)
        self.results = [None] * len(order)  # (value, exact, worker)
        self.best = beta  # the least exact value so far (or beta)
        self.next = 0  # the next guess to hand out
        self.running = 0
        self.finished = False  # _finish called (once)
        self.lock = threading.Lock()

    def take(self):
        """A job valuing the next guess, or None: none left, or the first still running (it sets
        the budget that prunes the rest, as in the kernel)."""
        last = None
        with self.lock:
            # a guess whose class bound reaches the best so far cannot win: passed over here, as
            # the kernel's loop does, without a job
            while self.next > 0 and self.next < len(self.lbs) and self.lbs[self.next] >= self.best:
                self.results[self.next] = (int(self.lbs[self.next]), False, -1)
                self.next += 1
            if self.next >= len(self.lbs):
                if self.running or self.finished:
                    return None
                self.finished = True  # every guess passed over since the last job ended
                last = True
            elif self.next == 1 and self.running:
                return None
            else:
                i = self.next
                self.next += 1
                self.running += 1
        if last:
            return lambda worker: self._finish(worker)
        return lambda worker: self._value(i, worker)

    def _value(self, i: int, worker: int) -> None:
        with self.lock:
            budget = self.best
        lb = int(self.lbs[i])
        if lb >= budget:
            value, exact = lb, False
        else:
            value = self._evaluate(int(self.rows[i]), budget)
            exact = value < budget
        with self.lock:
            self.results[i] = (value, exact, worker)
            if exact and value < self.best:
                self.best = value
            self.running -= 1
            last = self.running == 0 and self.next >= len(self.lbs) and not self.finished
            self.finished = self.finished or last
        if last:
            self._finish(worker)

    def _evaluate(self, row: int, budget: int) -> int:
        """The cost of the guess in `row` of the local matrix (exact below budget), as the kernel's
        loop values it: its classes solved smallest first, each on the local matrix."""
        solver = self.solver
        ctx = solver.context()
        ctx.root_constraint[:] = self.req
        return int(kernels._solve(self.S, self.pos, self.d, budget, 0, self.L, self.LT, self.L_ids, len(self.L_ids),
                                  self.win_row, row, solver.answer_gid, solver.game.win_code, solver.rules,
                                  ctx.scratch, ctx.memo, solver.letters, solver.counts))

    def _finish(self, worker: int) -> None:
        best = min((v for v, e, _ in self.results if e), default=None)
        if best is None:  # nothing below beta: the least bound proven
            self.done(min((v for v, _, _ in self.results), default=kernels.INF), -1, worker)
            return
        for i, (value, exact, at) in enumerate(self.results):
            if exact and value == best:
                self.done(best, int(self.guesses[i]), at)
                return
            if not exact and value == best:  # refuted against a budget of `best`: a tie is possible
                again = self._evaluate(int(self.rows[i]), best + 1)
                if again == best:
                    self.done(best, int(self.guesses[i]), worker)
                    return


class Workers:
    """`threads` daemon threads running jobs (callables taking the worker's number): first the
    jobs pinned to that worker (`pin`), then the first job any of `sources` (in order) hands out
    (`source.take()`, None when it has none now). A job's exception goes to `on_error`. Each
    job's CPU seconds are kept in `job_seconds` (what bench/scaling.py shows)."""

    def __init__(self, threads: int, sources: list, on_error):
        self.cond = threading.Condition()
        self.sources, self.on_error = sources, on_error
        self.pinned = [[] for _ in range(threads)]
        self.stopped = False
        self.job_seconds: list[float] = []

    def start(self) -> Workers:
        for w in range(len(self.pinned)):
            threading.Thread(target=self._run, args=(w,), daemon=True, name=f"build-{w}").start()
        return self

    def pin(self, worker: int, job) -> None:
        with self.cond:
            self.pinned[worker].append(job)
            self.cond.notify_all()

    def stop(self) -> None:
        """No job starts after this (those running finish in the background)."""
        with self.cond:
            self.stopped = True
            self.cond.notify_all()

    def _take(self, worker: int):
        if self.pinned[worker]:
            return self.pinned[worker].pop(0)
        for source in self.sources:
            job = source.take()
            if job is not None:
                return job
        return None

    def _run(self, worker: int) -> None:
        import time

        while True:
            with self.cond:
                job = None
                while not self.stopped and job is None:
                    job = self._take(worker)
                    if job is None:
                        self.cond.wait(1.0)
                if self.stopped:
                    return
            start = time.thread_time()
            try:
                job(worker)
            except BaseException as error:  # noqa: BLE001 - handed to the caller's thread
                self.on_error(error)
            self.job_seconds.append(time.thread_time() - start)
            with self.cond:
                self.cond.notify_all()
