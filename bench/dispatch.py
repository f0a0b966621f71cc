"""What one call of the exact search's kernel costs from Python: through numba's dispatcher
(which types every argument on each call, the 30-array Scratch and the 10-array Memo among them)
and through the compiled function the solver keeps (jit.Entries), on a one-answer set, where the
kernel's own work is nearly nothing.

    python bench/dispatch.py [--calls 20000] [--rounds 5]

It builds SALET's tree once to find how many times a build calls the kernel, keeps one of those
calls' arguments with a set of one answer, and times it both ways (median of the rounds).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    from wordtree.exact import kernels
    from wordtree.exact.build import build
    from wordtree.games import get_game
    from wordtree.jit import Entries
    from wordtree.wordle.patterns import pattern_matrix

    game = get_game("wordle")
    matrix = pattern_matrix(game).matrix
    build(game, matrix, first="salet", threads=1, progress=False)  # compiled and loaded
    seen = []
    keep = Entries.__call__

    def counting(self, site, *call):
        seen.append(call)
        return keep(self, site, *call)

    Entries.__call__ = counting
    try:
        build(game, matrix, first="salet", threads=1, progress=False)
    finally:
        Entries.__call__ = keep
    call = list(seen[len(seen) // 2])
    call[0] = call[0][:1].copy()
    call[1] = call[0].copy()
    entry = Entries(kernels._solve)
    entry("bench", *call)

    def timed(fn) -> float:
        rounds = []
        for _ in range(args.rounds):
            start = time.perf_counter()
            for _ in range(args.calls):
                fn(*call)
            rounds.append((time.perf_counter() - start) / args.calls * 1e6)
        return statistics.median(rounds)

    through_dispatcher = timed(kernels._solve)
    through_entry = timed(lambda *a: entry("bench", *a))
    print(f"kernel calls in a SALET build: {len(seen)}")
    print(f"one call on a one-answer set: {through_dispatcher:.1f} us through numba's dispatcher, "
          f"{through_entry:.1f} us through jit.Entries")
    print(f"a SALET build's calls: {len(seen) * through_dispatcher / 1e3:.1f} ms against "
          f"{len(seen) * through_entry / 1e3:.1f} ms")


if __name__ == "__main__":
    main()
