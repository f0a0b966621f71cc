"""The exact Dordle search's root on a Dask distributed cluster: root.py's root_search, its openers
spread over machines.

The client computes the root's openers and their order as root_search does (root.root_plan),
keeps the checkpoint in root.py's format (so a run started on a cluster can be resumed in one
process, or the reverse), and submits one job per opener in that order, each carrying its budget
at submission (root.RootLedger.budget: the best exact totals known then). Only a few jobs per
worker thread are in flight at once, so a job submitted later carries the tighter budget proven
meanwhile. Submitting stops at the first opener solve's break rule refutes (its bound reaches its
budget); the in-flight jobs finish, and the ledger's best is solve_game's value and opener. The
tree is then built on the client (tree.build_document with `solved=`).

A worker process rebuilds the game from its description (exact.cluster.GameSpec) and keeps one
DordleSearch (and so its memo) and the root's plan for every job of that game, cap and rules. The
threads of a worker share that search: every memo entry is a proven value or bound, so an entry
one thread overwrites with another's loses only time. A job is a pure function of its arguments:
when a worker dies the scheduler reruns its jobs elsewhere, and finished results are already
recorded on the client.
"""

from __future__ import annotations

import threading
import time
from contextlib import ExitStack
from dataclasses import dataclass

from ..errors import UserError
from ..exact.cluster import JOBS_PER_THREAD, RETRIES, THREADS_EVERY, GameSpec, _connect, game_of, game_spec
from ..files import ThrottledSave
from .root import SAVE_EVERY, RootResult, open_ledger, read_saved, root_plan, root_result
from .search import ALL_RULES, DordleSearch


@dataclass(frozen=True)
class DordleSpec:
    """What a worker needs to rebuild the client's search: the game (its max_guesses is the cap,
    its memo_mb the single-board solver's) and the search's rules."""

    game: GameSpec
    rules: int


def dordle_spec(game, *, name: str | None = None, answers: str | None = None, guesses: str | None = None,
                cache_dir: str | None = None, cap: int = 7, rules: int = ALL_RULES, memo_mb: int = 160) -> DordleSpec:
    """The spec of the Dordle search on `game` (which games.get_game(name, answers, guesses)
    built) with guess cap `cap`, for the workers."""
    return DordleSpec(game_spec(game, name=name, answers=answers, guesses=guesses, cache_dir=cache_dir,
                                max_guesses=cap, memo_mb=memo_mb), rules)


# --- on the workers ---
_worker_search: dict[DordleSpec, tuple] = {}  # one search per worker process: its memo is most of its memory
_worker_lock = threading.Lock()


def _search_for(spec: DordleSpec):
    """(the worker's DordleSearch for `spec`, its root plan), built on first use and kept."""
    with _worker_lock:
        found = _worker_search.get(spec)
        if found is None:
            game, matrix = game_of(spec.game)
            search = DordleSearch(game, matrix, spec.game.max_guesses, rules=spec.rules, memo_mb=spec.game.memo_mb)
            _worker_search.clear()
            found = _worker_search[spec] = (search, root_plan(search))
        return found


def evaluate_opener(spec: DordleSpec, guess: int, budget: int) -> tuple[int, int, bool]:
    """(guess, value, exact?): the total of opening the whole game with `guess`, exact if below
    `budget`, else a proven bound >= budget (DordleSearch.evaluate at the root, as root_search
    calls it)."""
    search, plan = _search_for(spec)
    value = int(search.evaluate(plan.S1, plan.S2, plan.ident, plan.d, guess, budget, plan.G))
    return guess, value, value < budget


# --- on the client ---


def search_on_cluster(scheduler: str, spec: DordleSpec, search, workers: int | None = None, checkpoint=None,
                      resume: bool = False, progress=None, max_openers: int | None = None,
                      save_every: float = SAVE_EVERY) -> RootResult:
    """root.root_search on a Dask cluster (`scheduler` = "tcp://host:port", or "local" for a
    LocalCluster of `workers` processes): the same value and opener, and the same checkpoint
    format. `search` is the client's DordleSearch (the spec's game, cap and rules); the tree is
    built from it afterwards. `max_openers`: submit at most that many (unfinished; for tests).
    Ctrl-C stops it with every finished opener in the checkpoint; a job that kills its workers
    in turn is a one-line error."""
    if (search.cap, search.rules, search.game.cache_key) != (spec.game.max_guesses, spec.rules, spec.game.cache_key):
        raise ValueError("the spec describes another search than the client's")  # a caller's mistake
    t0 = time.perf_counter()
    saved = read_saved(search, checkpoint, resume)  # before the plan: a file of another run refused first
    plan = root_plan(search)
    ledger, earlier = open_ledger(search, plan, saved)
    order = plan.order
    state = {"next": 0, "stopped": plan.settled, "submitted": 0, "evaluated": 0, "finished": plan.settled}
    save = ThrottledSave(checkpoint, lambda: ledger.snapshot(
        search, state["finished"], earlier + time.perf_counter() - t0)) if checkpoint else None
    interrupted = False
    shown = ledger.done()
    bar = progress(len(order), shown) if progress else None
    with ExitStack() as stack:
        if bar is not None:
            stack.callback(bar.close)
            bar.set_postfix_str(ledger.postfix(state["finished"]))
        try:
            if not state["stopped"]:
                _run_jobs(stack, scheduler, workers, spec, ledger, state, bar, shown, max_openers, save, save_every)
            elif save is not None:
                save(last=True)
        except KeyboardInterrupt:
            interrupted = True
    return root_result(search, plan, ledger, state["finished"], state["evaluated"], time.perf_counter() - t0,
                       interrupted, save)


def _run_jobs(stack: ExitStack, scheduler, workers, spec, ledger, state: dict, bar, shown: int,
              max_openers: int | None, save, save_every: float) -> None:
    """Submit the openers in order while the break rule lets them through, a few per worker thread
    in flight, and record each result as it comes (counted in state["evaluated"]). Sets
    state["finished"] when every opener is settled."""
    client = _connect(stack, scheduler, workers)
    if save is not None:
        stack.callback(save, last=True)  # once connected, whatever stops the run
    from distributed import KilledWorker, as_completed

    order_size = len(ledger.plan.order)
    in_flight = as_completed(with_results=True)
    threads = [0, -float("inf")]  # the workers' threads, and when last counted (each count is a round trip)

    def submit_more() -> None:
        if time.monotonic() - threads[1] > THREADS_EVERY:
            threads[:] = [sum(client.nthreads().values()), time.monotonic()]
        while not state["stopped"] and in_flight.count() < JOBS_PER_THREAD * max(1, threads[0]):
            while state["next"] < order_size and ledger.has(state["next"]):
                state["next"] += 1
            position = state["next"]
            if position >= order_size or ledger.refuted(position):
                state["stopped"] = True  # every opener from here on is settled, by its result or its bound
                return
            if max_openers is not None and state["submitted"] >= max_openers:
                return
            in_flight.add(client.submit(evaluate_opener, spec, ledger.plan.guess(position), ledger.budget(position),
                                        retries=RETRIES, pure=False))
            state["next"] += 1
            state["submitted"] += 1

    try:
        submit_more()
        for _, (guess, value, exact) in in_flight:
            ledger.record(guess, value, exact)
            state["evaluated"] += 1
            if bar is not None:
                bar.update(1)
            submit_more()
            if bar is not None:
                bar.set_postfix_str(ledger.postfix())
            if save is not None:
                save(save_every)
    except KilledWorker as exc:
        raise UserError(f"a Dordle opener's job killed {exc.allowed_failures + 1} workers in turn "
                        "(out of memory?); see the worker logs") from None
    if state["stopped"]:
        state["finished"] = True
        if bar is not None:
            bar.update(order_size - shown - state["evaluated"])
            bar.set_postfix_str(ledger.postfix(True))
