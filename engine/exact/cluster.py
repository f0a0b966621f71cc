"""Rank first guesses on a Dask distributed cluster: the algorithm of rank.py, spread over machines.

The client keeps what rank.py keeps (the heuristic order, the budget = the K-th best exact value so
far, the checkpoint); each job is a first guess (with its anagrams, which share most subproblems)
and the best exact values known when it was submitted, which set its budget. Only a few jobs per
worker thread are in flight at once, so a job submitted later carries the tighter budget proven
meanwhile and prunes harder. A worker process rebuilds the game from its description and loads
its pattern matrix once, then keeps one Solver (and so its memo) for every job of that game. A
job is a pure function of its arguments: when a worker dies the scheduler reruns its jobs
elsewhere, and finished results are already checkpointed on the client.
"""

from __future__ import annotations

import bisect
import logging
import threading
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import NoDistributed, TooFewWorkers, TopTooSmall, UserError
from ..files import ThrottledSave
from ..games import OPTIONS
from .checkpoint import checkpoint_bytes
from .rank import RankResult, merge, plan
from .solver import INF, Solver

GAME_OPTIONS = tuple(OPTIONS)  # every game option of the registry (games.PRESETS), as a spec carries them
JOBS_PER_THREAD = 2  # in flight per worker thread: enough to hide the round trip, few enough to keep budgets fresh
RETRIES = 2  # reruns of a job that raised (a worker dying is rescheduled by the scheduler itself)
CONNECT_TIMEOUT = "10s"
SAVE_EVERY = 5.0  # seconds between checkpoints, as in rank.py
THREADS_EVERY = 5.0  # seconds between counts of the workers' threads (workers may come and go)


@dataclass(frozen=True)
class GameSpec:
    """What a worker needs to rebuild the client's game and solver: the preset, the lists (absolute
    paths, or names of shipped lists), options, and the game's cache key to check it got the same lists."""

    name: str | None
    answers: str | None
    guesses: str | None
    options: tuple[tuple[str, object], ...]
    cache_key: str
    cache_dir: str | None
    max_guesses: int | None
    mode: str
    memo_mb: int


def _absolute(path: str | None) -> str | None:
    """A path that exists here, made absolute (workers run elsewhere); otherwise a shipped list's name."""
    return str(Path(path).resolve()) if path and Path(path).exists() else path


def game_spec(game, *, name: str | None = None, answers: str | None = None, guesses: str | None = None,
              options: dict | None = None, cache_dir: str | None = None, max_guesses: int | None = 6,
              mode: str = "normal", memo_mb: int = 160) -> GameSpec:
    """The spec of `game`, which games.get_game(name, answers, guesses, **options) built (options:
    those of GAME_OPTIONS; None and False ones are left out), for the workers. `max_guesses`:
    None for no cap."""
    options = options or {}
    kept = tuple((key, options[key]) for key in GAME_OPTIONS if options.get(key) not in (None, False))
    return GameSpec(name, _absolute(answers), _absolute(guesses), kept, game.cache_key, _absolute(cache_dir),
                    max_guesses, mode, memo_mb)


# --- on the workers ---
_worker_solver: dict[GameSpec, Solver] = {}  # one game per worker process: its memo is most of its memory
_worker_lock = threading.Lock()


def game_of(spec: GameSpec):
    """(game, pattern matrix) rebuilt on a worker from `spec`, refused when its lists differ from
    the client's (by the game's cache key)."""
    from ..games import get_game
    from ..wordle.patterns import pattern_matrix

    game = get_game(spec.name, spec.answers, spec.guesses, **dict(spec.options))
    if game.cache_key != spec.cache_key:
        import socket

        raise UserError(f"worker on {socket.gethostname()}: its copy of the word lists differs "
                        "from the client's")
    return game, pattern_matrix(game, spec.cache_dir).matrix


def _solver_for(spec: GameSpec) -> Solver:
    with _worker_lock:
        solver = _worker_solver.get(spec)
        if solver is None:
            game, matrix = game_of(spec)
            _worker_solver.clear()
            solver = _worker_solver[spec] = Solver(game, matrix, spec.max_guesses, memo_mb=spec.memo_mb, mode=spec.mode)
        return solver


def solve_first_guesses(spec: GameSpec, guesses: list[int], best: list[int], top: int) -> list[tuple[int, int, bool]]:
    """(guess, value, exact?) for each guess: the cost of opening with it, exact if below the budget,
    else a bound >= the budget. The budget is the top-th of `best` (the client's best exact values
    when it sent the job) and of the job's own exact values so far: a top-th of fewer values is
    never below the final one, so a bound proven against it stays a proof."""
    solver = _solver_for(spec)
    S = np.arange(len(solver.game.answers), dtype=np.int32)
    best = sorted(best)[:top]
    out = []
    for g in guesses:
        beta = best[top - 1] if len(best) >= top else INF
        value = solver.evaluate_opener(S, g, beta)
        out.append((g, value, value < beta))
        if value < beta:
            bisect.insort(best, value)
            del best[top:]
    return out


def anagram_jobs(game, guesses: list[int]) -> list[list[int]]:
    """The guesses in order, each with its later anagrams pulled forward into the same job:
    anagrams split the answers into many of the same classes, so one worker solving them in a row
    finds most of the second in its memo (TRACE cold 28 s, CRATE after it 0.3 s)."""
    jobs: dict[str, list[int]] = {}
    for g in guesses:
        jobs.setdefault("".join(sorted(game.guesses[g])), []).append(g)
    return list(jobs.values())


# --- on the client ---


def _connect(stack: ExitStack, scheduler: str, workers: int | None):
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise NoDistributed() from None
    if scheduler == "local":
        n = 2 if workers is None else workers
        if n < 1:
            raise TooFewWorkers(n)
        cluster = stack.enter_context(LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                                   dashboard_address=None, silence_logs=logging.ERROR))
        return stack.enter_context(Client(cluster))
    try:
        return stack.enter_context(Client(scheduler, timeout=CONNECT_TIMEOUT))
    except (OSError, ValueError, TypeError) as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise UserError(f"cannot reach the Dask scheduler {scheduler!r} (want tcp://HOST:PORT or local): "
                        f"{reason}") from None


def rank_on_cluster(scheduler: str, spec: GameSpec, game, matrix: np.ndarray, workers: int | None = None,
                    top: int = 10, limit: int | None = None, progress: bool = True, checkpoint: str | None = None,
                    resume: bool = False) -> RankResult:
    """rank.rank on a Dask cluster (`scheduler` = "tcp://host:port", or "local" for a LocalCluster
    of `workers` processes). Same results: exact top values and proofs for the rest."""
    from ..progress import progress_bar

    if top < 1:
        raise TopTooSmall()
    start = time.perf_counter()
    cap = Solver(game, matrix, spec.max_guesses, mode=spec.mode).cap  # validates cap and mode here, not on a worker
    order, values, exact_sorted, todo, others, earlier_doc, notes = plan(
        game, matrix, cap, spec.mode, limit, checkpoint, resume, top=top)
    earlier = earlier_doc.get("seconds", 0.0)
    save = ThrottledSave(checkpoint, lambda: checkpoint_bytes(
        game, cap, spec.mode, {**others, **values}, seconds=earlier + time.perf_counter() - start, top=top, limit=limit))
    pending = iter(anagram_jobs(game, todo))
    interrupted = False
    with ExitStack() as stack:
        client = _connect(stack, scheduler, workers)
        from distributed import KilledWorker, as_completed

        bar = stack.enter_context(progress_bar(len(order), initial=len(order) - len(todo), desc="first guesses",
                                               unit="words", show=progress, leave=True))
        in_flight = as_completed(with_results=True)
        threads = [0, -INF]  # the workers' threads, and when last counted (each count is a round trip)

        def submit_more() -> None:
            if time.monotonic() - threads[1] > THREADS_EVERY:
                threads[:] = [sum(client.nthreads().values()), time.monotonic()]
            while in_flight.count() < JOBS_PER_THREAD * max(1, threads[0]):
                job = next(pending, None)
                if job is None:
                    return
                in_flight.add(client.submit(solve_first_guesses, spec, job, exact_sorted[:top], top, retries=RETRIES,
                                            pure=False))

        try:
            submit_more()
            for _, results in in_flight:
                for g, value, exact in results:
                    merge(values, game.guesses[g], value, exact)
                    if exact:
                        bisect.insort(exact_sorted, value)
                bar.update(len(results))
                best = sorted((v, w) for w, (v, e) in values.items() if e)[:3]
                bar.set_postfix_str(" ".join(f"{w}={v}" for v, w in best))
                submit_more()
                if checkpoint:
                    save(SAVE_EVERY)
        except KeyboardInterrupt:
            interrupted = True
        except KilledWorker as exc:
            raise UserError(f"a first-guess job killed {exc.allowed_failures + 1} workers in turn "
                            "(out of memory?); see the worker logs") from None
        finally:
            if checkpoint:
                save(last=True)
    return RankResult(values, top, len(order), time.perf_counter() - start, interrupted, notes=notes,
                      earlier_seconds=earlier, checkpoint_error=save.error if checkpoint else None)
