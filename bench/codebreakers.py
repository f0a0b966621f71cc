"""Mastermind and Bulls and Cows benchmark: the pattern-matrix kernel against plain-Python
feedback, and the time to prove exact optima (every first guess valued, the best exactly, the
others shown to be no better: what `build` does with no --first), with the peak memory.

    python bench/codebreakers.py [--runs 3] [--prove 3x4,4x4,4x6,b2,b3] [--cap N]

A proof target is PxC for Mastermind, bD for Bulls and Cows (bDr with repeats); the cap is each
game's own (6, and 7 for Bulls and Cows) unless --cap says otherwise. 4x6 takes about a second
on this machine; b4 (`--prove b4 --runs 1`) under a minute and a half. Uses the default numba cache:
run once before to warm it.
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


from wordtree.games.bulls_cows import BullsCows  # noqa: E402
from wordtree.games.mastermind import Mastermind  # noqa: E402
from wordtree.exact.rank import rank  # noqa: E402
from wordtree.exact.solver import INF  # noqa: E402
from timing import median_seconds  # noqa: E402  (bench/ is on the path when run as a script)


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
    """The optimum as `build` finds it with no --first: every first guess valued exactly or shown
    no better than the best (rank --top 1, both cores): (total, best opener, seconds)."""
    start = time.perf_counter()
    matrix = game._compute_matrix()
    result = rank(game, matrix, top=1, max_guesses=cap, progress=False)
    first, total, _ = result.ordered()[0]
    if total >= INF:
        return total, "none (infeasible within the cap)", time.perf_counter() - start
    return total, first, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per median")
    parser.add_argument("--prove", default="3x4,4x4,4x6,b2,b3", help="proof targets, comma-separated")
    parser.add_argument("--cap", default=None, help="guess cap for the proofs (a number or none; default: the game's)")
    args = parser.parse_args()

    print("pattern matrices (median of runs):")
    for game in (Mastermind(4, 6), BullsCows(4), BullsCows(4, repeats=True)):
        matrix_figures(game, args.runs)
    print("exact optima (proof = every first guess valued or bounded, rank --top 1):")
    prove(Mastermind(3, 3), 6)  # compile or load the search kernels
    for target in args.prove.split(","):
        game = parse_target(target)
        cap = game.default_cap if args.cap is None else None if args.cap == "none" else int(args.cap)
        times, result = [], None
        for _ in range(args.runs):
            total, first, seconds = prove(game, cap)
            times.append(seconds)
            assert result in (None, (total, first))
            result = (total, first)
        print(f"  {game.list_name}, cap {cap or 'none'}: total {total}  mean {total / len(game.answers):.4f}  first {first}  "
              f"{statistics.median(times):.2f} s")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory: {peak:.0f} MB")


if __name__ == "__main__":
    main()
