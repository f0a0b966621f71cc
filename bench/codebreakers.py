"""Mastermind and Bulls and Cows benchmark: the pattern-matrix kernel against plain-Python
feedback, and the time to prove exact optima (every canonical opener valued, the best exactly,
the others shown to be no better), with the peak memory.

    python bench/codebreakers.py [--runs 3] [--prove 3x4,4x4,b2] [--cap 6]

A proof target is PxC for Mastermind, bD for Bulls and Cows (bDr with repeats); 4x6 takes
minutes on this machine with the current search, and b4 far longer (see the issue #6 report).
Uses the default numba cache: run once before to warm it.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from engine.games.bulls_cows import BullsCows  # noqa: E402
from engine.games.mastermind import Mastermind, canonical_first_guesses  # noqa: E402
from engine.search import INF, Solver  # noqa: E402


def median_seconds(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def matrix_figures(game, runs: int) -> None:
    """Kernel time for the full matrix; plain Python timed on a sample and scaled to all pairs."""
    game._compute_matrix()  # compile or load
    kernel = median_seconds(game._compute_matrix, runs)
    rng = random.Random(0)
    pairs = [(rng.choice(game.guesses), rng.choice(game.answers)) for _ in range(20000)]
    python = median_seconds(lambda: [game.feedback(g, a) for g, a in pairs], runs)
    python *= len(game.guesses) * len(game.answers) / len(pairs)
    print(f"  matrix {game.list_name}: {len(game.guesses)}x{len(game.answers)}  kernel {kernel * 1000:8.1f} ms  "
          f"plain Python (scaled) {python:7.1f} s  ratio {python / kernel:7.0f}x")


def parse_target(text: str):
    if text.startswith("b"):
        return BullsCows(int(text[1:].rstrip("r")), repeats=text.endswith("r"))
    pegs, colours = text.split("x")
    return Mastermind(int(pegs), int(colours))


def prove(game, cap) -> tuple[int, str, float]:
    """The optimum over canonical openers (best-first by a quick partition score, each later one
    only needing a bound): (total, best opener, seconds)."""
    start = time.perf_counter()
    matrix = game._compute_matrix()
    solver = Solver(game, matrix, cap)
    S = np.arange(len(game.answers), dtype=np.int32)

    def spread(g):
        return np.bincount(matrix[g], minlength=game.n_codes).astype(np.int64) @ np.bincount(matrix[g], minlength=game.n_codes)

    best, best_g = INF, -1
    for g in sorted(canonical_first_guesses(game), key=spread):
        value = solver.evaluate(S, g, solver.cap, best)
        if value < best:
            best, best_g = value, g
    return best, game.guesses[best_g] if best_g >= 0 else "none (infeasible within the cap)", time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per median")
    parser.add_argument("--prove", default="3x4,4x4,b2", help="proof targets, comma-separated")
    parser.add_argument("--cap", default="6", help="guess cap for the proofs (a number or none)")
    args = parser.parse_args()
    cap = None if args.cap == "none" else int(args.cap)

    print("pattern matrices (median of runs):")
    for game in (Mastermind(4, 6), BullsCows(4), BullsCows(4, repeats=True)):
        matrix_figures(game, args.runs)
    print(f"exact optima (cap {args.cap}; proof = every canonical opener valued or bounded):")
    prove(Mastermind(3, 3), cap)  # compile or load the search kernels
    for target in args.prove.split(","):
        game = parse_target(target)
        times, result = [], None
        for _ in range(args.runs):
            total, first, seconds = prove(game, cap)
            times.append(seconds)
            assert result in (None, (total, first))
            result = (total, first)
        print(f"  {game.list_name}: total {total}  mean {total / len(game.answers):.4f}  first {first}  "
              f"{statistics.median(times):.2f} s")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory: {peak:.0f} MB")


if __name__ == "__main__":
    main()
