"""Rank first guesses: the exact values of the best K, and a proof that every other first guess
costs at least the K-th value.

Each first guess is an independent exact problem, solved with a budget equal to the K-th best
value found so far: below it the value is exact, otherwise the search stops as soon as it has
proven "at least the budget" (class by class, each first asked for its share of the slack:
Solver.sum_of_classes). Budgets only shrink, so a bound proven earlier stays a proof. The
first guesses are tried in the order of a cheap heuristic, so the budget is tight early; two
threads share the work and each keeps its memo across the guesses it solves.
"""

from __future__ import annotations

import bisect
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field

import numpy as np

from ..errors import TopTooSmall
from ..files import ThrottledSave
from ..games.symmetry import opener_representative, orbit_representatives
from .checkpoint import checkpoint_bytes, checkpoint_seconds, load_checkpoint, load_proven
from .context import default_threads
from .heuristics import heuristic_order
from .solver import INF, Solver
from .symmetric import ProvenProgress


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

    def ordered(self) -> list[tuple[str, int, bool]]:
        """Best first: by value, exact values before bounds of the same size, then by word."""
        return sorted(((w, v, e) for w, (v, e) in self.values.items()), key=lambda t: (t[1], not t[2], t[0]))

    def kth_value(self) -> int:
        exact = sorted(v for v, e in self.values.values() if e)
        return exact[self.top - 1] if len(exact) >= self.top else INF


def plan(game, matrix: np.ndarray, cap: int, mode: str, limit: int | None, checkpoint: str | None,
         resume: bool, known: dict[str, int] | None = None,
         ) -> tuple[np.ndarray, dict[str, tuple[int, bool]], list[int], list[int]]:
    """What a rank (in process or on a cluster) starts from: the first guesses in heuristic
    order, the values a resumed checkpoint already holds and the exact values `known` (e.g. of
    openers a build finished), their exact values sorted, and the guesses still to do."""
    order = heuristic_order(game, matrix, np.arange(len(game.answers), dtype=np.int32))
    symmetric = game.symmetric and mode == "normal"
    if symmetric:  # one opener per orbit: the others cost the same
        keep = np.zeros(len(game.guesses), dtype=bool)
        keep[orbit_representatives(game, [])] = True
        order = order[keep[order]]
    if limit is not None:
        order = order[:limit]
    values: dict[str, tuple[int, bool]] = {}
    if resume and checkpoint:
        values = load_checkpoint(checkpoint, game, cap, mode)
    for word, value in (known or {}).items():
        if symmetric:  # the value of its orbit, which the rank knows by its representative
            word = game.guesses[opener_representative(game, game.guess_index[word])]
        values[word] = (value, True)
    exact_sorted = sorted(v for v, e in values.values() if e)
    todo = [int(g) for g in order if game.guesses[g] not in values]
    return order, values, exact_sorted, todo


def rank(game, matrix: np.ndarray, top: int = 10, limit: int | None = None, max_guesses: int | None = 6,
         threads: int | None = None, progress: bool = True, checkpoint: str | None = None, resume: bool = False,
         mode: str = "normal", memo_mb: int = 160, known: dict[str, int] | None = None) -> RankResult:
    """Rank the first guesses (the first `limit` in heuristic order, or all), starting from the
    exact values `known` of some of them. Ctrl-C stops early: the result then holds what is
    proven so far and says so.

    In a symmetric game the checkpoint also keeps what the symmetric levels proved inside the
    openers still under way (as a build's does), saved as it comes, at most once a minute: a
    single opener of Bulls and Cows with repeats takes hours to refute, and a resume would
    otherwise start it again from nothing."""
    from tqdm import tqdm

    if top < 1:
        raise TopTooSmall()
    start = time.perf_counter()
    solver = Solver(game, matrix, max_guesses, memo_mb=memo_mb, mode=mode)
    solver.search_orbits_in_parallel(threads or default_threads())
    S = np.arange(len(game.answers), dtype=np.int32)
    order, values, exact_sorted, todo = plan(game, matrix, solver.cap, mode, limit, checkpoint, resume, known)
    earlier = checkpoint_seconds(checkpoint, game, solver.cap, mode) if checkpoint and resume else 0.0
    lock = threading.Lock()

    def snapshot() -> bytes:
        with lock:
            done = dict(values)
        return checkpoint_bytes(game, solver.cap, mode, done, solver.proven_entries() if solver.symmetric else None,
                                earlier + time.perf_counter() - start)

    save = ThrottledSave(checkpoint, snapshot)
    if checkpoint and solver.symmetric and resume:
        solver.load_proven(load_proven(checkpoint, game, solver.cap, mode))
    shown = ProvenProgress(solver, save if checkpoint else None)

    def budget() -> int:
        with lock:
            return exact_sorted[top - 1] if len(exact_sorted) >= top else INF

    def job(g: int) -> tuple[str, int, bool]:
        beta = budget()
        value = solver.evaluate_opener(S, g, beta)
        return game.guesses[g], value, value < beta

    bar = tqdm(total=len(order), initial=len(order) - len(todo), desc="first guesses", unit="word",
               disable=not progress or None)
    shown.bar = bar
    interrupted = False
    pool = ThreadPoolExecutor(threads or default_threads())
    try:
        pending = set()
        queue = iter(todo)
        for g in queue:
            pending.add(pool.submit(job, g))
            if len(pending) >= 2 * pool._max_workers:
                break
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                word, value, exact = future.result()
                with lock:
                    values[word] = (value, exact)
                    if exact:
                        bisect.insort(exact_sorted, value)
                bar.update(1)
                best = sorted((v, w) for w, (v, e) in values.items() if e)[:3]
                shown.text = " ".join(f"{w}={v}" for v, w in best)
                shown.show()
                g = next(queue, None)
                if g is not None:
                    pending.add(pool.submit(job, g))
            if checkpoint:
                save(5.0)
    except KeyboardInterrupt:
        interrupted = True
        pool.shutdown(wait=False, cancel_futures=True)
    finally:
        shown.bar = None
        bar.close()
        if checkpoint:
            save()
    if not interrupted:
        pool.shutdown(wait=True)
    return RankResult(values, top, len(order), time.perf_counter() - start, interrupted,
                      proven=solver.proven_entries() if solver.symmetric else [], earlier_seconds=earlier)
