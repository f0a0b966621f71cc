"""The crossword fill search driver: Luby restarts around the kernel search, then the quality
loop.

After a first fill (common words tried first) the filler wants fewer rare entries than its best
k: whole-grid searches with a budget of k - 1 rare entries (enforced by propagation; a search
that runs out proves k minimal) alternate with neighbourhood searches that keep most of the fill
as pre-filled letters and re-fill a few slots around a rare entry with fewer rare words.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

import numpy as np

from ..numba_cache import compile_seconds
from .crossword_grid import Slot, filled_rows
from .crossword_index import WordIndex
from .crossword_problem import Problem, Searcher, build_problem


def luby(i: int) -> int:
    """The i-th term (from 1) of the Luby restart sequence 1 1 2 1 1 2 4 ...: restarts that are
    within a log factor of the best fixed schedule without knowing it."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while True:
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1


@dataclass
class FillResult:
    status: str  # "filled", "impossible" or "timeout"
    words: dict[int, str]  # slot position -> word (a partial fill on timeout)
    reason: str = ""
    seconds: float = 0.0
    first_fill_seconds: float | None = None
    nodes: int = 0
    restarts: int = 0
    optimal: bool = False  # the count of rarer entries is proven minimal
    history: list = field(default_factory=list)  # (seconds, common entries, by what) at each improvement
    compile_seconds: float = 0.0  # compiling the kernel first (the first run only): not in `seconds`


RESTART_UNIT = 32  # nodes per Luby unit, on top of two per slot
CHUNK = 256  # nodes between clock checks
NOISE = 1.5  # random spread added to the log-scale value ordering on restarts


def _restarts(searcher: Searcher, budget: int, seed: int, prefer_common: bool, deadline: float, counter: list,
              max_nodes: int | None = None) -> int:
    """Restarted searches under a budget until one finds a fill (FOUND), one runs out its tree
    (EXHAUSTED: a proof), or the deadline or node allowance passes (PAUSED)."""
    K = searcher.K
    if not searcher.set_budget(budget):
        return K.EXHAUSTED
    total = 0
    i = 0
    while True:
        i += 1
        counter[0] += 1
        searcher.restart(seed * 1_000_003 + counter[0], NOISE, prefer_common)
        limit = luby(i) * (RESTART_UNIT + 2 * searcher.n_slots)  # a fill takes at least one node per slot
        spent = 0
        while spent < limit:
            step = min(CHUNK, limit - spent)
            before = searcher.nodes
            status = searcher.run(step)
            spent += step
            counter[1] += searcher.nodes - before
            total += searcher.nodes - before
            if status != K.PAUSED:
                return status
            if time.perf_counter() >= deadline or (max_nodes is not None and total >= max_nodes):
                return K.PAUSED


def fill(problem: Problem, seed: int = 0, timeout: float = 10.0, optimize: bool = True) -> FillResult:
    """A fill of the problem: the first one found, or (optimize) the one with the fewest
    entries outside the common words found within the timeout. Improvement alternates a
    whole-grid search under a budget of rare entries (which can prove the count minimal) with
    neighbourhood searches that re-fill a few slots around a rare entry with fewer rare ones."""
    if problem.impossible:
        return FillResult("impossible", dict(problem.fixed), problem.impossible)
    if not problem.variables:
        return FillResult("filled", dict(problem.fixed), optimal=True)
    compiled = compile_seconds()
    searcher = Searcher(problem)
    K = searcher.K
    searcher.set_budget(len(problem.variables))  # loads (or compiles) the kernel before the clock starts
    start = time.perf_counter()
    compiled = compile_seconds() - compiled
    deadline = start + timeout
    counter = [0, 0]
    status = _restarts(searcher, len(problem.variables), seed, optimize, deadline, counter)
    if status == K.EXHAUSTED:
        return FillResult("impossible", dict(problem.fixed), "the search was exhaustive: no fill exists",
                          time.perf_counter() - start, nodes=counter[1], restarts=counter[0], compile_seconds=compiled)
    if status == K.PAUSED:
        return FillResult("timeout", _words(problem, searcher.best_partial), "no complete fill within the timeout",
                          time.perf_counter() - start, nodes=counter[1], restarts=counter[0], compile_seconds=compiled)
    best = words = _words(problem, searcher.solutions[0])
    result = FillResult("filled", words, first_fill_seconds=time.perf_counter() - start, compile_seconds=compiled)
    result.history.append((result.first_fill_seconds, _common_entries(problem, words), "first fill"))
    neighbours = _crossing_graph(problem.slots)
    rng = random.Random(seed)
    whole_grid_slice = WHOLE_GRID_SLICE[0]
    progress = time.perf_counter()  # when the current fill (`words`) last improved
    while optimize and time.perf_counter() < deadline:
        rare = _rare(problem, best)
        if rare == 0:
            result.optimal = True
            break
        until = min(deadline, time.perf_counter() + whole_grid_slice)
        status = _restarts(searcher, rare - 1, seed, True, until, counter)
        if status == K.FOUND:
            best = words = _words(problem, searcher.solutions[0])
            progress = time.perf_counter()
            result.history.append((progress - start, _common_entries(problem, best), "whole grid"))
        elif status == K.EXHAUSTED:
            result.optimal = True
            break
        else:
            whole_grid_slice = min(whole_grid_slice * 1.3, WHOLE_GRID_SLICE[1])
        until = min(deadline, time.perf_counter() + NEIGHBOURHOOD_SLICE)
        while time.perf_counter() < until and _rare(problem, words):
            better = _refill_neighbourhood(problem, words, neighbours, rng, until, counter)
            if better is None:
                continue
            if _rare(problem, better) < _rare(problem, words):
                progress = time.perf_counter()
            words = better
            if _rare(problem, words) < _rare(problem, best):
                best = words
                result.history.append((time.perf_counter() - start, _common_entries(problem, best), "neighbourhood"))
        if time.perf_counter() - progress > STALL and time.perf_counter() < deadline:
            # stuck in a local optimum: carry on from the best fill with a large region of it
            # re-filled as rare as before (a kick), else from a fresh fill; the best stays the best
            kicked = None
            until = min(deadline, time.perf_counter() + KICK_SECONDS)
            while KICK_SLOTS and kicked is None and time.perf_counter() < until:
                kicked = _refill_neighbourhood(problem, best, neighbours, rng, until, counter, kick=True)
            if kicked is not None:
                words = kicked
            elif _restarts(searcher, len(problem.variables), seed, True, deadline, counter) == K.FOUND:
                words = _words(problem, searcher.solutions[0])
            progress = time.perf_counter()
    words = best
    result.words = words
    result.seconds = time.perf_counter() - start
    result.nodes, result.restarts = counter[1], counter[0]
    return result


WHOLE_GRID_SLICE = (0.1, 0.25)  # seconds of the first whole-grid search per round, and its cap: the
# neighbourhood searches make most of the progress, so they get most of the time
NEIGHBOURHOOD_SLOTS = (6, 20)  # how many slots one neighbourhood frees
NEIGHBOURHOOD_NODES = 1000  # search allowance per neighbourhood (most improvements take a few hundred)
NEIGHBOURHOOD_SLICE = 1.0  # seconds of neighbourhood searches between whole-grid attempts
STALL = 2.5  # seconds without progress after which the neighbourhood search starts from a fresh fill
KICK_SLOTS = (20, 35)  # ... or rather from the best fill with this many slots re-filled (() : never)
KICK_SECONDS = 0.5  # time allowed for finding such a kick
SIDEWAYS = 0.3  # share of neighbourhoods that may keep the rare count if the total score rises


def _crossing_graph(slots: list[Slot]) -> list[list[int]]:
    by_cell: dict[tuple[int, int], list[int]] = {}
    for k, slot in enumerate(slots):
        for cell in slot.cells:
            by_cell.setdefault(cell, []).append(k)
    neighbours: list[set[int]] = [set() for _ in slots]
    for ks in by_cell.values():
        for a in ks:
            neighbours[a].update(b for b in ks if b != a)
    return [sorted(n) for n in neighbours]


def _refill_neighbourhood(problem: Problem, words: dict[int, str], neighbours, rng: random.Random,
                          deadline: float, counter: list, kick: bool = False) -> dict[int, str] | None:
    """Free a rare entry and a random connected group of slots around it, keep every other
    word as pre-filled letters, and search that small grid for fewer rare entries. A `kick`
    frees a larger group (KICK_SLOTS) and takes any re-fill with no more rare entries."""
    rare = [k for k in problem.variables if not _is_common(problem.index, words[k])]
    region = {rng.choice(rare)}
    frontier = list(region)
    size = rng.randint(*(KICK_SLOTS if kick else NEIGHBOURHOOD_SLOTS))
    while frontier and len(region) < size:
        k = frontier.pop(rng.randrange(len(frontier)))
        for j in neighbours[k]:
            if j not in region and j not in problem.fixed and len(region) < size:
                region.add(j)
                frontier.append(j)
    kept = {k: w for k, w in words.items() if k not in region}
    sub = build_problem(filled_rows(problem.rows, problem.slots, kept), problem.slots, problem.index)
    rare_here = sum(not _is_common(problem.index, words[k]) for k in sub.variables)
    if sub.impossible or rare_here == 0:
        return None
    sideways = kick or rng.random() < SIDEWAYS
    searcher = Searcher(sub)
    status = _restarts(searcher, rare_here if sideways else rare_here - 1, rng.randrange(1 << 30), True,
                       deadline, counter, max_nodes=NEIGHBOURHOOD_NODES * (3 if kick else 1))
    if status != searcher.K.FOUND:
        return None
    refilled = {**words, **_words(sub, searcher.solutions[0])}
    if sideways and not kick and _total_score(problem.index, refilled) <= _total_score(problem.index, words):
        return None
    return refilled


def _total_score(index: WordIndex, words: dict[int, str]) -> float:
    ranks = {w: index.rank(w) for w in words.values()}
    return sum(float(index.scores[len(w)][i]) for w, i in ranks.items() if i is not None)


def _is_common(index: WordIndex, word: str) -> bool:
    i = index.rank(word)
    return i is not None and i < index.n_common[len(word)]


def _rare(problem: Problem, words: dict[int, str]) -> int:
    """Slots to fill whose word is not common."""
    return sum(not _is_common(problem.index, words[k]) for k in problem.variables)


def _common_entries(problem: Problem, words: dict[int, str]) -> int:
    return sum(_is_common(problem.index, w) for w in words.values())


def _words(problem: Problem, assignment: np.ndarray) -> dict[int, str]:
    words = dict(problem.fixed)
    for v, k in enumerate(problem.variables):
        if assignment[v] >= 0:
            words[k] = problem.index.word(problem.slots[k].length, int(assignment[v]))
    return words


def all_fills(problem: Problem, limit: int = 100_000) -> tuple[str, list[dict[int, str]]]:
    """Every fill (up to `limit`), by one exhaustive search without noise: for tests."""
    if problem.impossible:
        return "impossible", []
    if not problem.variables:
        return "exhaustive", [dict(problem.fixed)]
    searcher = Searcher(problem, max_solutions=limit)
    K = searcher.K
    if not searcher.set_budget(len(problem.variables)):
        return "exhaustive", []
    searcher.restart(0, 0.0, False)
    status = searcher.run(1 << 62)
    count = int(searcher.ctl[K.C_SOLUTIONS])
    fills = [_words(problem, searcher.solutions[j]) for j in range(count)]
    return ("exhaustive" if status == K.EXHAUSTED else "limit"), fills

