"""Rank first guesses: the exact values of the best K, and a proof that every other first guess
costs at least the K-th value.

Each first guess is an independent exact problem, solved with a budget equal to the K-th best
value found so far: below it the value is exact, otherwise the search stops as soon as it has
proven "at least the budget" (class by class, each first asked for its share of the slack:
Solver.sum_of_classes). Budgets only shrink, so a bound proven earlier stays a proof. The
first guesses are tried in the order of a cheap heuristic, so the budget is tight early: only
the first `top` start before the top-th value is known, and each starts against the best budget
known then, so many threads prune about as much as two. The threads share the work and each
keeps its memo across the guesses it solves.
"""

from __future__ import annotations

import bisect
import queue as queues
import threading
import time
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ..errors import TopTooSmall
from ..games.symmetry import opener_representative, orbit_representatives
from ..progress import progress_bar
from .checkpoint import checkpoint_bytes, rank_checkpoint, read_rank
from .context import default_threads, memo_mb_per_thread
from .heuristics import heuristic_order
from .jobs import Job, Mark, Workers, next_outcome, trace_rows
from . import split
from .solver import INF, Solver
from .symmetric import ProvenProgress, uses_symmetry


@dataclass
class RankResult:
    values: dict[str, tuple[int, bool]]  # word -> (value or lower bound, exact?)
    top: int
    considered: int
    seconds: float
    interrupted: bool = False
    notes: list[str] = field(default_factory=list)
    earlier_seconds: float = 0.0  # spent by the runs before a resume (from the checkpoint)
    proven: list = field(default_factory=list)  # symmetric games: Solver.proven_entries(), for the build after
    checkpoint_error: str | None = None  # why the checkpoint could not be saved at the end (None: it was)
    job_seconds: list = field(default_factory=list)  # (word, CPU seconds) of each opener valued
    job_trace: list = field(default_factory=list)  # the jobs run and what each waited for (jobs.trace_rows)

    def ordered(self) -> list[tuple[str, int, bool]]:
        """Best first: by value, exact values before bounds of the same size, then by word."""
        return sorted(((w, v, e) for w, (v, e) in self.values.items()), key=lambda t: (t[1], not t[2], t[0]))

    def kth_value(self) -> int:
        exact = sorted(v for v, e in self.values.values() if e)
        return exact[self.top - 1] if len(exact) >= self.top else INF


class Plan(NamedTuple):
    """What a rank (in process or on a cluster) starts from."""

    order: np.ndarray  # the first guesses considered, in heuristic order
    values: dict[str, tuple[int, bool]]  # of those: what is known already (exact value, or lower bound)
    exact_sorted: list[int]  # the exact values among them, sorted
    todo: list[int]  # the guesses still to value: unknown, or bounded below the K-th exact value known
    others: dict[str, tuple[int, bool]]  # the checkpoint's results for guesses not considered: kept, not shown
    earlier: dict  # the checkpoint resumed (rank.read_rank), {} if none
    notes: list[str]  # what a resume with other parameters than the checkpoint's does about them


def plan(game, matrix: np.ndarray, cap: int, mode: str, limit: int | None, checkpoint: str | None,
         resume: bool, known: dict[str, int] | None = None, top: int = 1, earlier: dict | None = None) -> Plan:
    """The first guesses in heuristic order (the first `limit`), with the values a resumed
    checkpoint already holds and the exact values `known` (e.g. of openers a build finished).
    `earlier`: the checkpoint as read_rank read it (None: read here, before the heuristic order,
    so that a checkpoint of another run is refused before any work).

    The checkpoint's results prove what they say whatever `top` and `limit` the run that saved
    them had, so a resume with other ones checks them against its own: only the considered
    guesses are shown (the others stay in the checkpoint), and a guess only bounded below, by less
    than the `top`-th exact value among the considered ones, is valued again, so a larger `top`
    gets the exact values it lacks and every bound shown stays at least the `top`-th value."""
    if earlier is None:
        earlier = read_rank(checkpoint, game, cap, mode) if resume and checkpoint else {}
    order = heuristic_order(game, matrix, np.arange(len(game.answers), dtype=np.int32))
    symmetric = uses_symmetry(game, mode)
    if symmetric:  # one opener per orbit: the others cost the same
        keep = np.zeros(len(game.guesses), dtype=bool)
        keep[orbit_representatives(game, [])] = True
        order = order[keep[order]]
    if limit is not None:
        order = order[:limit]
    considered = {game.guesses[g] for g in order}
    saved = dict(earlier.get("results", {}))
    for word, value in (known or {}).items():
        if symmetric:  # the value of its orbit, which the rank knows by its representative
            word = game.guesses[opener_representative(game, game.guess_index[word])]
        saved[word] = (value, True)
    values = {w: v for w, v in saved.items() if w in considered}
    others = {w: v for w, v in saved.items() if w not in considered}
    exact_sorted = sorted(v for v, e in values.values() if e)
    kth = exact_sorted[top - 1] if len(exact_sorted) >= top else INF
    redo = {int(g) for g in order if game.guesses[g] in values and not values[game.guesses[g]][1]
            and values[game.guesses[g]][0] < kth}
    todo = [int(g) for g in order if game.guesses[g] not in values or int(g) in redo]
    notes = []
    if earlier and earlier.get("top") not in (None, top) and redo:
        notes.append(f"{checkpoint} was saved by a rank valuing the best {earlier['top']} exactly: "
                     f"{len(redo)} first guess(es) it only bounds are valued again for the best {top}")
    elif redo:
        notes.append(f"{checkpoint}: {len(redo)} first guess(es) it only bounds are valued again for the best {top}")
    if others:
        notes.append(f"{checkpoint} also holds {len(others)} first guess(es) outside the {len(order)} ranked now: "
                     "kept there, left out here")
    return Plan(order, values, exact_sorted, todo, others, earlier, notes)


def merge(values: dict[str, tuple[int, bool]], word: str, value: int, exact: bool) -> None:
    """Record a guess's new result: an exact value, or the larger of two lower bounds."""
    old = values.get(word)
    if not exact and old is not None and not old[1]:
        value = max(value, old[0])
    values[word] = (value, exact)


def rank(game, matrix: np.ndarray, top: int = 10, limit: int | None = None, max_guesses: int | None = 6,
         threads: int | None = None, progress: bool = True, checkpoint: str | None = None, resume: bool = False,
         mode: str = "normal", memo_mb: int = 160, known: dict[str, int] | None = None,
         policy: split.SplitPolicy = split.SHIPPED) -> RankResult:
    """Rank the first guesses (the first `limit` in heuristic order, or all), starting from the
    exact values `known` of some of them. Ctrl-C stops early: the result then holds what is
    proven so far and says so.

    In a symmetric game the checkpoint also keeps what the symmetric levels proved inside the
    openers still under way (as a build's does), saved as it comes, at most once a minute: a
    single opener of Bulls and Cows with repeats takes hours to refute, and a resume would
    otherwise start it again from nothing. `policy`: when and how far the search splits across the
    threads (split.SplitPolicy; as shipped by default)."""
    if top < 1:
        raise TopTooSmall()
    kept = rank_checkpoint(checkpoint, game, max_guesses, mode)
    earlier_doc = read_rank(checkpoint, game, max_guesses, mode) if resume and checkpoint else {}  # before any work
    start = time.perf_counter()
    threads = threads or default_threads()
    solver = Solver(game, matrix, max_guesses, memo_mb=memo_mb_per_thread(memo_mb, threads), mode=mode)
    solver.search_orbits_in_parallel(threads)
    if policy.shared_for(threads):
        solver.share_memo(threads)
    S = np.arange(len(game.answers), dtype=np.int32)
    order, values, exact_sorted, todo, others, earlier_doc, notes = plan(
        game, matrix, solver.cap, mode, limit, checkpoint, resume, known, top, earlier_doc)
    earlier = earlier_doc.get("seconds", 0.0)
    lock = threading.Lock()

    def snapshot() -> bytes:
        with lock:
            done = {**others, **values}
        return checkpoint_bytes(game, solver.cap, mode, done, solver.proven_entries() if solver.symmetric else None,
                                earlier + time.perf_counter() - start, top, limit)

    save = kept.saver(snapshot)
    if checkpoint and solver.symmetric and resume:
        solver.load_proven(earlier_doc.get("proven", []))
    shown = ProvenProgress(solver, save if checkpoint else None)

    def budget() -> int:
        with lock:
            return exact_sorted[top - 1] if len(exact_sorted) >= top else INF

    bar = progress_bar(total=len(order), initial=len(order) - len(todo), desc="first guesses", unit="words",
                       show=progress)
    shown.bar = bar
    interrupted = False
    outcomes: queues.Queue = queues.Queue()
    workers = Workers(threads, [], outcomes.put)
    source = _Openers(solver, S, todo, lambda: top - len(exact_sorted), budget, values, workers.lock, outcomes.put,
                      threads, deep=policy.deep_for(threads), policy=policy)  # the one switch: openers whole, or class by class
    workers.sources = [source]
    workers.start()
    try:
        for _ in todo:
            outcome = next_outcome(outcomes)
            if isinstance(outcome, BaseException):
                raise outcome
            word, value, exact = outcome
            with lock:
                merge(values, word, value, exact)
                if exact:
                    bisect.insort(exact_sorted, value)
            source.valued(word)
            workers.wake()
            bar.update(1)
            best = sorted((v, w) for w, (v, e) in values.items() if e)[:3]
            kth = budget()
            shown.text = (f"top{top}<={kth} " if kth < INF else "") + " ".join(f"{w}={v}" for v, w in best)
            shown.show()
            if checkpoint:
                save(5.0)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        workers.stop()  # on Ctrl-C or an error, do not wait for the jobs running
        shown.bar = None
        bar.close()
        if checkpoint:
            save(last=True)
    seconds: dict[str, float] = {}
    for job in workers.ran:
        if job.tag is not None:
            seconds[job.tag] = seconds.get(job.tag, 0.0) + job.seconds
    return RankResult(values, top, len(order), time.perf_counter() - start, interrupted, notes=notes,
                      proven=solver.proven_entries() if solver.symmetric else [], earlier_seconds=earlier,
                      checkpoint_error=save.error if checkpoint else None,
                      job_seconds=list(seconds.items()), job_trace=trace_rows(workers.ran))


class _Openers:
    """The rank's openers as a source of jobs (jobs.Workers), in heuristic order. Until the
    `needed`-th exact value is known (the budget), only as many openers as values are missing
    start (an opener proven infeasible lets the next one start); then each opener is one job,
    against the budget known when it starts. `put((word, value, exact))` gives each result, and
    `valued(word)` is called once the caller has counted it.

    With `deep` (SplitPolicy.deep_for: many threads) the openers valued without a budget go class by
    class (split.GuessSplit: large classes split at their top too), every thread on the first of
    them, then the next: a thread that started one of them whole would hold it to the end while
    the others wait for the budget. On one or two threads that costs more than it gains, and
    each is one job too."""

    def __init__(self, solver, S, todo: list[int], missing, budget, values, lock, put, threads: int,
                 deep: bool = False, policy: split.SplitPolicy = split.SHIPPED):
        self.solver, self.S, self.todo, self.budget, self.values = solver, S, todo, budget, values
        self.policy = policy
        self.lock, self.put = lock, put  # lock: the workers' (take() is called holding it)
        self.missing = missing  # how many exact values the budget still waits for
        self.next = 0
        # openers started without a budget whose value the caller has not counted yet (so that
        # none more starts between a value and its count)
        self.open: set[str] = set()
        self.splits: list[split.GuessSplit] = []
        self.whole: list[Job] = []  # the openers valued whole without a budget
        self.by_classes = deep and not solver.symmetric
        # one thread: no split search below a class (unless the policy's `alone` asks for the jobs of many)
        self.split_min = None if threads > 1 or policy.alone else len(S) + 1
        self.budgeted: Mark | None = None  # every job before the budget was known

    def take(self):
        for part in self.splits:
            job = part.take()
            if job is not None:
                return job
        if self.next >= len(self.todo):
            return None
        g = int(self.todo[self.next])
        word = self.solver.game.guesses[g]
        if self.budget() >= INF:
            if len(self.open) >= self.missing():
                return None
            self.next += 1
            self.open.add(word)
            if self.by_classes:
                start = self.solver.empty_constraint()
                part = split.GuessSplit(self.solver, self.S, self.solver.cap, start, g, lambda: INF,
                                  lambda value, exact, split: self._done(word, value, value < INF), self.lock,
                                  (), self.split_min, word, self.policy)
                self.splits.append(part)
                return part.take()
            job = Job(lambda worker: self._done(word, *self._whole(g, INF)), (), word)
            self.whole.append(job)
            return job
        if self.budgeted is None:
            self.budgeted = Mark([p.mark for p in self.splits if p.mark is not None] + self.whole)
        self.next += 1
        return Job(lambda worker: self._opener(g, word), (self.budgeted,), word)

    def _whole(self, g: int, beta: int, live=None) -> tuple[int, bool]:
        """(value, exact) of opener g against `beta`, and against the budget as it falls
        meanwhile with `live` (Solver.sum_of_classes): exact below the least budget read."""
        value = self.solver.evaluate_opener(self.S, g, beta, live)
        return value, value < (beta if live is None else min(beta, live()))

    def _opener(self, g: int, word: str) -> None:
        beta = self.budget()
        known_bound = self.values.get(word, (0, False))[0]  # a guess valued again: proven at least this
        if known_bound >= beta:  # the budget has fallen to its bound meanwhile
            self.put((word, known_bound, False))
            return
        # read again before each class, one above the K-th best: an opener that cannot beat it
        # is stopped sooner, while one that ties it is valued as it would be from its start
        # budget alone (the top's ties do not depend on which thread finished first)
        self.put((word, *self._whole(g, beta, lambda: self.budget() + 1)))

    def _done(self, word: str, value: int, exact: bool) -> None:
        self.put((word, value, exact))

    def valued(self, word: str) -> None:
        """The caller has counted `word`'s value (in `missing` too)."""
        with self.lock:
            self.open.discard(word)
