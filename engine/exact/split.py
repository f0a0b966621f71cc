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
from dataclasses import dataclass

import numpy as np
from ..jit import kernel

from . import kernels
from .jobs import Job, Mark, Workers, current_worker  # noqa: F401 - Workers: the pool these searches feed
from .solver import tree_depth

NEEDED_RULES = kernels.USE_BOUNDS | kernels.USE_SHORTCUTS | kernels.USE_FILTER


@dataclass(frozen=True)
class SplitPolicy:
    """When a build or a rank splits its searches across threads, and how far. The defaults are
    what ships; the tests and bench/scaling.py pass other policies to force a split, or to keep
    one off, on any number of threads.

    - The split of the top (a search with `deep` off): a class below the opener of at least
      `split_min` answers is split at its top, smaller ones stay whole (the pair counts,
      kernels.PAIR_LIMIT, settle them by another order, which root_candidates does not
      replicate; its value and guess are the same).
    - Below `split_min_threads` threads a build splits no class at all (`split_for`): each class
      below the opener is one job, the largest first: on 2 threads the split of the top (a large
      class's guesses valued side by side, each against the budget known when it starts) costs
      more CPU than whole classes for no gain in wall time (docs/log/2026-11-27.md).
      `alone`: split on one thread too (bench/scaling.py: its jobs are then those of a
      many-thread run).
    - The deeper split (`deep` on, from `deep_min_threads` threads on: `deep_for`): classes below
      the opener of at least `deep_min` answers are split too, and the first `deep_guesses`
      guesses of a split search on a set of at least `deep_min` answers are valued class by
      class, a class of at least `deep_min` answers split in turn. Those guesses run before the
      rest can start (they set the budget), so they are the long poles of a split build; the
      later ones run side by side anyway. Its many small jobs cost Python bookkeeping, which on
      2 threads costs more than it gains, and which a smaller `deep_min` multiplies
      (docs/log/2026-12-02-performance-history.md).
    - From `shared_min_threads` threads on, the threads of a build or a rank share one memo
      (context.SharedMemo; `shared_for`), else each has its own."""

    split_min: int = kernels.PAIR_LIMIT + 1
    split_min_threads: int = 3
    deep_min: int = 160
    deep_min_threads: int = 3
    deep_guesses: int = 1
    shared_min_threads: int = 2
    alone: bool = False

    def split_for(self, threads: int) -> bool:
        """Whether a build on `threads` threads splits its large classes (else each is one job)."""
        return self.alone or threads >= self.split_min_threads

    def shared_for(self, threads: int) -> bool:
        """Whether the threads of a build or a rank on `threads` threads share one memo."""
        return threads >= self.shared_min_threads

    def deep_for(self, threads: int) -> bool:
        """Whether a build or a rank on `threads` threads takes the deeper split where it splits
        (else the split of the top only; a rank's openers stay whole)."""
        return threads >= self.deep_min_threads


SHIPPED = SplitPolicy()  # the policy of every build and rank not given another


def can_split(solver, n: int, d: int, least: int | None = None, deep: bool = False,
              policy: SplitPolicy = SHIPPED) -> bool:
    """Whether a set of n answers (at least `least`; by default the policy's split_min, or the
    least of it and deep_min with the deeper split) with d guesses left is split (else one kernel
    call)."""
    if least is None:
        least = min(policy.split_min, policy.deep_min) if deep else policy.split_min
    return (n >= least and d >= 3 and solver.mode in ("normal", "hard") and not solver.symmetric
            and solver.rules & NEEDED_RULES == NEEDED_RULES)


def root_candidates(solver, S: np.ndarray, d: int, beta: int, req: np.ndarray, deep: bool = False):
    """(the guesses the kernel keeps at (S, d) under `req`, by id; the order it tries them in, as
    indices into those; their class bounds in that order), or None where the kernel settles the
    node another way (a shortcut, a bound at least beta), or, without `deep`, where the class
    bounds grow faster than 2c - 1 (the split of the top leaves that node whole)."""
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
    if n_codes > 0xFFFF:
        return None
    # past the game's branching + 1 answers the class bound grows faster than 2c - 1: the kernel then
    # sums it class by class (`tight`), as _scan does too
    tight = int(child[n]) != 2 * n - 1
    if tight and not deep:
        return None
    S = np.ascontiguousarray(S, dtype=np.int32)
    ids = np.ascontiguousarray(ids, dtype=np.int32)
    labels = np.empty((len(ids), n), np.uint16)
    stats = np.empty((len(ids), 5), np.int64)
    keys = np.random.default_rng(n).integers(1, 2**62, n, dtype=np.int64)
    _scan(solver.matrix, ids, S, win, n_codes, keys, labels, stats, child)
    k, in_s, squares = stats[:, 0], stats[:, 1], stats[:, 2]
    if np.any(k >= n - 1):  # a splitter into singletons, or a candidate leaving one pair: the kernel's shortcuts
        return None
    keep = ~((k == 1) & (in_s == 0))  # a guess leaving S whole only wastes a turn
    if solver.mode == "normal":  # one guess per partition: the first in the list (equal labels, equal partitions)
        _, first, group = np.unique(stats[:, 3], return_index=True, return_inverse=True)
        later = np.flatnonzero(first[group] != np.arange(len(ids)))  # a row hashed like an earlier one
        same = np.all(labels[later] == labels[first[group[later]]], axis=1)  # (a collision keeps both)
        keep[later[same]] = False
    ids, k, in_s, squares, sums = ids[keep], k[keep], in_s[keep], squares[keep], stats[keep, 4]
    if not np.all(np.isin(solver.answer_gid[S], ids)):  # each answer's own guess is kept (its win tells it apart)
        return None
    lbs = np.minimum(n + sums, kernels.INF) if tight else 3 * n - k - in_s
    order = np.lexsort((ids, 2 * squares + n * lbs))
    return ids, order, lbs[order]


@kernel(nogil=True)
def _scan(matrix, ids, S, win, n_codes, keys, labels, stats, child_bounds):
    """Each guess's codes over S relabelled by first appearance (the winning code kept apart), as
    the kernel's scan does, and its class count, in-S flag, sum of squared class sizes, a hash
    of the labels (`keys`: one random key per position) and the sum of its classes' bounds
    (`child_bounds`: by class size, the winning class left out)."""
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
        bound_sum = 0
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
            if c != win:
                bound_sum += child_bounds[count[c]] - child_bounds[count[c] - 1]
            if c == win:
                in_s = 1
            labels[r, i] = label[c]
            h += keys[i] * (label[c] + 1)
        stats[r, 0] = k
        stats[r, 1] = in_s
        stats[r, 2] = squares
        stats[r, 3] = h
        stats[r, 4] = bound_sum


class SplitSearch:
    """V(S, d) below beta (else a bound at least beta) and the kernel's best guess, its guesses
    valued as separate jobs (`take`). `done(value, guess, worker)` is called once, by the thread
    that finishes last. Then `result` is (value, guess), `won` says how the best guess was valued
    (a worker's number: that worker's memo holds the guess's classes; or the GuessSplit that
    valued them class by class) and `mark` stands for every job of the search.

    The first guess (the best, usually) runs alone, since its total is the budget of the rest;
    on a set of at least `policy.deep_min` answers it is valued class by class (GuessSplit), each
    class a job or, if large, a split search of its own, so that it does not hold one thread while
    the others wait; only with `deep` (else every guess is one kernel call, the split of the top),
    and so for the first `policy.deep_guesses` guesses. `lock`: the lock of the sources this
    search is part of (an RLock)."""

    def __init__(self, solver, S: np.ndarray, d: int, beta: int, req: np.ndarray, kept: np.ndarray,
                 order: np.ndarray, lbs: np.ndarray, done, lock=None, after=(), tag=None, deep: bool = False,
                 policy: SplitPolicy = SHIPPED):
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
        self.results = [None] * len(order)  # (value, exact, how)
        self.best = beta  # the least exact value so far (or beta)
        self.next = 0  # the next guess to hand out
        self.running = 0
        self.finished = False  # _finish called (once)
        self.lock = lock or threading.RLock()
        self.after, self.tag, self.deep, self.policy = tuple(after), tag, deep, policy
        self.splits: list[GuessSplit] = []  # guesses valued class by class
        self.ran: list[Job] = []  # the jobs (and marks of class-by-class guesses) finished
        self.first: Mark | None = None  # the first guess valued: the rest wait for it
        self.result, self.won, self.mark = None, None, None

    def take(self):
        """A job: of a guess valued class by class, else valuing the next guess; or None: none
        left, or the first still running (it sets the budget that prunes the rest, as in the
        kernel)."""
        with self.lock:
            for part in self.splits:
                job = part.take()
                if job is not None:
                    return job
            # a guess whose class bound reaches the best so far cannot win: passed over here, as
            # the kernel's loop does, without a job
            while self.next > 0 and self.next < len(self.lbs) and self.lbs[self.next] >= self.best:
                self.results[self.next] = (int(self.lbs[self.next]), False, None)
                self.next += 1
            if self.next >= len(self.lbs):
                if self.running or self.finished:
                    return None
                self.finished = True  # every guess passed over since the last job ended
                return Job(lambda worker: self._finish(worker), self.ran, self.tag)
            if self.next == 1 and self.running:
                return None
            i = self.next
            self.next += 1
            self.running += 1
            after = self.after if i == 0 else (self.first,)
            policy = self.policy
            if i < policy.deep_guesses and self.deep and len(self.S) >= policy.deep_min:
                part = GuessSplit(self.solver, self.S, self.d, self.req, int(self.guesses[i]), lambda: self.best,
                                  lambda value, exact, split: self._valued(i, value, exact, split, split.mark),
                                  self.lock, after, policy.deep_min, self.tag, policy)
                self.splits.append(part)
                return part.take()
            job = Job(None, after, self.tag)
            job.run = lambda worker: self._value(i, worker, job)
            return job

    def _value(self, i: int, worker: int, job: Job) -> None:
        with self.lock:
            budget = self.best
        lb = int(self.lbs[i])
        if lb >= budget:
            value, exact = lb, False
        else:
            value = self._evaluate(int(self.rows[i]), budget)
            exact = value < budget
        self._valued(i, value, exact, worker, job)

    def _valued(self, i: int, value: int, exact: bool, how, job: Job) -> None:
        with self.lock:
            self.results[i] = (value, exact, how)
            self.ran.append(job)
            if i == 0:
                self.first = Mark(self.ran)
            if exact and value < self.best:
                self.best = value
            self.running -= 1
            last = self.running == 0 and self.next >= len(self.lbs) and not self.finished
            self.finished = self.finished or last
        if last:
            self._finish(current_worker())

    def _evaluate(self, row: int, budget: int) -> int:
        """The cost of the guess in `row` of the local matrix (exact below budget), as the kernel's
        loop values it: its classes solved smallest first, each on the local matrix."""
        solver = self.solver
        ctx = solver.context()
        ctx.root_constraint[:] = self.req
        with solver.memo(ctx) as memo:
            return int(solver.kernel("split", self.S, self.pos, self.d, budget, 0, self.L, self.LT, self.L_ids,
                                     len(self.L_ids), self.win_row, row, solver.answer_gid, solver.game.win_code,
                                     solver.rules, ctx.scratch, memo, solver.letters, solver.counts))

    def _finish(self, worker: int) -> None:
        best = min((v for v, e, _ in self.results if e), default=None)
        guess, how = -1, None
        if best is None:  # nothing below beta: the least bound proven
            best = min((v for v, _, _ in self.results), default=kernels.INF)
        else:
            for i, (value, exact, at) in enumerate(self.results):
                if exact and value == best:
                    guess, how = int(self.guesses[i]), at
                    break
                if not exact and value == best:  # refuted against a budget of `best`: a tie is possible
                    again = self._evaluate(int(self.rows[i]), best + 1)
                    if again == best:  # valued on this thread: its memo holds the classes
                        guess, how = int(self.guesses[i]), current_worker()
                        break
        if best >= kernels.INF:  # no tree within the cap: reported as the kernel does
            best, guess, how = kernels.INF, -1, None
        with self.lock:
            self.result, self.won, self.mark = (best, guess), how, Mark(self.ran)
        self.done(best, guess, worker)


class GuessSplit:
    """The cost of `guess` at (S, d) (exact below the budget, else a bound at least the budget),
    its classes valued as jobs: each a kernel call, or for a class of at least `split_min`
    answers (None: can_split's default) a SplitSearch of its own. `budget()` is the budget now (it only falls); each class
    starts against what it leaves given what the others are known to cost at least, as in the
    kernel's loop; once the sum of what the classes cost at least reaches the budget, the guess
    is refuted (jobs of it still running are then ignored). `done(value, exact, self)` is called
    once. `records[q]` says how class q was valued (a worker, or its SplitSearch)."""

    def __init__(self, solver, S, d: int, req, guess: int, budget, done, lock, after=(), split_min=None, tag=None,
                 policy: SplitPolicy = SHIPPED):
        self.solver, self.S, self.d, self.req, self.guess = solver, S, d, req, guess
        self.budget, self.done, self.lock, self.after, self.tag = budget, done, lock, tuple(after), tag
        self.split_min = split_min  # None: can_split's default
        self.policy = policy
        self.classes = sorted(solver.classes(S, guess), key=lambda item: len(item[1]))
        bounds = solver.class_bounds[d - 1]
        self.lower = [int(bounds[len(part)]) for _, part in self.classes]
        self.running = len(S) + sum(self.lower)
        # a class of 1 answer costs 1, of 2 answers 3 (guess one of them): exactly its bound
        self.queue = [q for q, (_, part) in enumerate(self.classes) if len(part) > 2 or (len(part) == 2 and d < 3)]
        self.left = len(self.queue)
        self.children: list[SplitSearch] = []
        self.records: dict[int, object] = {}
        self.ran: list[Job] = []
        self.closed = False
        self.mark: Mark | None = None

    def child_req(self, code: int) -> np.ndarray:
        return self.solver.constrain(self.req, self.guess, code)

    def take(self):
        with self.lock:
            if self.closed:
                return None
            for child in self.children:
                job = child.take()
                if job is not None:
                    return job
            if not self.left:  # nothing to value (every class at its bound)
                self.left = -1
                return Job(lambda worker: self._close(worker), self.after, self.tag)
            if not self.queue:
                return None
            q = self.queue.pop(0)
            code, part = self.classes[q]
            budget = self.budget() - (self.running - self.lower[q])
            job = Job(None, self.after, self.tag)
            job.run = lambda worker: self._solve(q, part, budget, self.child_req(code), worker, job)
            return job

    def _solve(self, q: int, part, budget: int, child_req, worker: int, job: Job) -> None:
        """Class q valued against `budget`: by the kernel, or, for a large class, by a split search
        whose jobs follow this one."""
        with self.lock:
            if self.closed:  # refuted meanwhile
                return
        if budget <= self.lower[q]:
            self._valued(q, self.lower[q], False, worker, job)
            return
        if can_split(self.solver, len(part), self.d - 1, self.split_min, deep=True, policy=self.policy):
            found = root_candidates(self.solver, part, self.d - 1, budget, child_req, deep=True)
            if found is not None:
                child = SplitSearch(self.solver, part, self.d - 1, budget, child_req, *found,
                                    lambda value, guess, worker: self._valued(q, value, value < budget,
                                                                              child, child.mark),
                                    self.lock, (job,), self.tag, deep=True, policy=self.policy)
                with self.lock:
                    self.children.append(child)  # its jobs go out once this one returns
                return
        value = self.solver.solve(part, self.d - 1, budget, child_req)[0]
        self._valued(q, value, value < budget, worker, job)

    def _valued(self, q: int, value: int, exact: bool, how, job: Job) -> None:
        with self.lock:
            if self.closed:
                return
            self.ran.append(job)
            self.records[q] = how
            if value > self.lower[q]:
                self.running += value - self.lower[q]
                self.lower[q] = value
            self.left -= 1
            if exact and self.left:
                return
        self._close(-1)

    def _close(self, worker: int) -> None:
        with self.lock:
            if self.closed:
                return
            self.closed = True
            self.mark = Mark(self.ran or self.after)
            value = self.running
            exact = self.left <= 0 and value < self.budget()
        self.done(value, exact, self)


class SplitTree:
    """The optimal tree of (S, d) under `req` and its value, as jobs on `workers`: the value by a
    SplitSearch, then the tree of its best guess built on the threads whose memos hold its
    classes (class by class where the guess was valued so, a large class by a SplitTree of its
    own), then the tie-break on depth (Solver.shallowest) searched the same way. With `found`
    (value, guess, how, mark: a finished search's), the search is skipped. `finish(value, tree or
    None, mark)` is called once, `mark` standing for every job it ran. Without `deep` it is the
    split of the top: the guesses valued as jobs, the tree and the tie-break each on the thread
    that valued the best guess."""

    def __init__(self, solver, S, d: int, req, workers, finish, found=None, after=(), tag=None, deep: bool = False,
                 policy: SplitPolicy = SHIPPED):
        self.solver, self.S, self.d, self.req, self.workers, self.finish = solver, S, d, req, workers, finish
        self.lock, self.tag, self.deep, self.policy = workers.lock, tag, deep, policy
        self.ready: list[Job] = []  # jobs any worker may take
        self.search: SplitSearch | None = None
        self.trees: list[SplitTree] = []
        self.value, self.node, self.mark = kernels.INF, None, None
        self.first_candidates = None  # (cap, root_candidates of the value's search), for the tie-break's
        if found is None:
            self._search(d, kernels.INF, self._solved, after)
        else:
            self._solved(*found)

    def take(self):
        with self.lock:
            if self.ready:
                return self.ready.pop(0)
            for tree in self.trees:
                job = tree.take()
                if job is not None:
                    return job
            return self.search.take() if self.search is not None else None

    def _search(self, cap: int, beta: int, then, after) -> None:
        """V(S, cap) below beta and the kernel's best guess, split if the kernel's scan would be
        (else one kernel call), then `then(value, guess, how, mark)`."""
        solver, S, req = self.solver, self.S, self.req
        found = self._root_candidates(cap, beta)
        with self.lock:
            if found is None:
                job = Job(None, after, self.tag)
                job.run = lambda worker: then(*solver.solve(S, cap, beta, req), worker, job)
                self.search = None
                self.ready.append(job)
            else:
                search = SplitSearch(solver, S, cap, beta, req, *found,
                                     lambda value, guess, worker: then(value, guess, search.won, search.mark),
                                     self.lock, after, self.tag, self.deep, self.policy)
                self.search = search
        self.workers.wake()

    def _root_candidates(self, cap: int, beta: int):
        """root_candidates(S, cap, beta): for the tie-break's search (one guess fewer), those of
        the value's search where they are the same: the class bound of n answers 2n - 1 below both
        caps (the guesses' bounds and order then do not depend on the cap), and neither search
        settled by its bound (root_candidates' own first test). On many threads a large class's
        second scan is a long pole of the split (docs/log/2026-12-02.md)."""
        n, first = len(self.S), self.first_candidates
        if (first is not None and beta > self.solver.class_bounds[cap][n] and beta > 2 * n
                and self.solver.same_top_scan(n, cap, first[0])):
            return first[1]
        found = root_candidates(self.solver, self.S, cap, beta, self.req, self.deep)
        if found is not None and first is None:
            self.first_candidates = (cap, found)
        return found

    def _solved(self, value: int, guess: int, how, mark) -> None:
        self.search = None
        if value >= kernels.INF:
            self.mark = mark
            self.finish(value, None, mark)
            return
        self.value = value
        self._build(guess, self.d, how, mark)

    def _build(self, guess: int, cap: int, how, mark) -> None:
        """The tree opening with `guess` within `cap` guesses, then `_built`."""
        solver, S, req = self.solver, self.S, self.req
        if isinstance(how, int):  # that worker's memo holds the guess's classes
            job = Job(None, (mark,), self.tag)
            job.run = lambda worker: self._built(solver._tree_with(S, cap, req, guess), cap, job)
            self.workers.pin(how, job)
            return
        split = how  # valued class by class: each class's tree where it was valued
        subtrees, parts = {}, []
        waiting = [len(split.classes)]

        def got(code: int, tree: dict, part) -> None:
            with self.lock:
                subtrees[code] = tree
                parts.append(part)
                waiting[0] -= 1
                last = waiting[0] == 0
            if last:
                node = {"guess": solver.game.guesses[guess]}
                node["next"] = {solver.game.pattern_text(c): subtrees[c] for c in sorted(subtrees)}
                self._built(node, cap, Mark(parts))

        for q, (code, part) in enumerate(split.classes):
            record, child_req = split.records.get(q), split.child_req(code)
            if record is None:  # one or two answers: its tree is immediate
                got(code, solver.tree(part, cap - 1, child_req), mark)
            elif isinstance(record, int):
                job = Job(None, (mark,), self.tag)
                job.run = (lambda job, code, part, child_req: lambda worker: got(
                    code, solver.tree(part, cap - 1, child_req), job))(job, code, part, child_req)
                self.workers.pin(record, job)
            else:
                with self.lock:
                    tree = SplitTree(solver, part, cap - 1, child_req, self.workers,
                                     (lambda code: lambda value, node, done: got(code, node, done))(code),
                                     found=(*record.result, record.won, record.mark), tag=self.tag, deep=True,
                                     policy=self.policy)
                    self.trees.append(tree)
        self.workers.wake()

    def _built(self, node: dict, cap: int, mark) -> None:
        self.node = node
        depth = tree_depth(node)
        if depth > 1 and self.solver.class_bounds[depth - 1, len(self.S)] <= self.value:
            self._search(depth - 1, self.value + 1, self._shallower, (mark,))
        else:
            self.mark = mark
            self.finish(self.value, node, mark)

    def _shallower(self, value: int, guess: int, how, mark) -> None:
        """An optimal tree within one guess less exists exactly when the value there is the same."""
        self.search = None
        if value != self.value:
            self.mark = mark
            self.finish(self.value, self.node, mark)
        else:
            self._build(guess, tree_depth(self.node) - 1, how, mark)
