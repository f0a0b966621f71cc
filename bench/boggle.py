"""Benchmark of the word-grid solver: random 4x4 boards (standard dice, ENABLE2K) scored per second
by the numba kernel on all threads and on one, against the plain recursive reference solver of
the tests; plus the trie build and cache-load times and the peak memory.

    python bench/boggle.py [--boards N] [--runs R]

Times are medians of R runs (the first call, which compiles, is not timed). On a shared machine
the wall-clock rate understates the kernel, so the rate per CPU-second (process time, summed over
threads) is printed too: times the number of cores, it is what idle cores would do. Peak memory
is the process's maximum resident set, read before the reference solver builds its prefix set.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import numpy as np  # noqa: E402
from numba import get_num_threads, set_num_threads  # noqa: E402

import reference_boggle as ref  # noqa: E402
from wordtree.puzzles import boggle  # noqa: E402
from timing import median_seconds  # noqa: E402  (bench/ is on the path when run as a script)

WORDS = ROOT / "wordlists" / "enable2k.txt"


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--reference-boards", type=int, default=200)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as cache:
        build = median_seconds(lambda: boggle.load_trie(WORDS, cache, use_cache=False), 3)
        boggle.load_trie(WORDS, cache)
        load = median_seconds(lambda: boggle.load_trie(WORDS, cache), args.runs)
        trie = boggle.load_trie(WORDS, cache)
    print(f"trie of {WORDS.name}: {trie.n_words} words, {len(trie.mask)} nodes, "
          f"{sum(getattr(trie, a).nbytes for a in boggle.Trie.ARRAYS) / 2**20:.1f} MB")
    print(f"  build {build * 1000:.0f} ms, load from cache {load * 1000:.1f} ms (medians)")

    boggle.random_boards(np.random.default_rng(1), 100, 4, 4, trie)  # compile
    roll = median_seconds(lambda: boggle.random_boards(np.random.default_rng(0), args.boards, 4, 4, trie), args.runs)
    boards = boggle.random_boards(np.random.default_rng(0), args.boards, 4, 4, trie)
    print(f"rolling the dice: {args.boards} boards in {roll * 1000:.0f} ms (median of {args.runs})")
    boggle.score_boards(boards[:100], trie, 4, 4)  # compile
    threads = get_num_threads()
    rates, cpu_rates = {}, {}
    for n in sorted({threads, 1}, reverse=True):
        set_num_threads(n)
        seconds = median_seconds(lambda: boggle.score_boards(boards, trie, 4, 4), args.runs)
        cpu = median_seconds(lambda: boggle.score_boards(boards, trie, 4, 4), args.runs, time.process_time)
        rates[n], cpu_rates[n] = args.boards / seconds, args.boards / cpu
        print(f"numba kernel, {n} thread{'s' if n > 1 else ''}: {args.boards} boards in {seconds:.3f} s "
              f"= {rates[n]:,.0f} boards/s (median of {args.runs}); {args.boards / cpu:,.0f} per CPU-second")
    set_num_threads(threads)
    print(f"  on {threads} idle cores that is about {cpu_rates[threads] * threads:,.0f} boards/s "
          f"(rate per CPU-second x cores; load average now {os.getloadavg()[0]:.2f})")
    scores, _ = boggle.score_boards(boards, trie, 4, 4)
    print(f"  mean score {scores.mean():.2f}, best {scores.max()}")
    fast_peak = peak_mb()

    dictionary = ref.Dictionary(ref.read_words(WORDS))
    cells = [boggle.cells_of(b, trie) for b in boards[: args.reference_boards]]
    seconds = median_seconds(lambda: [ref.solve(c, 4, 4, dictionary) for c in cells], 3)
    cpu = median_seconds(lambda: [ref.solve(c, 4, 4, dictionary) for c in cells], 1, time.process_time)
    ref_rate = len(cells) / seconds
    print(f"reference (plain recursion, prefix set): {ref_rate:,.0f} boards/s (median of 3 x {len(cells)} boards); "
          f"{len(cells) / cpu:,.0f} per CPU-second")
    print(f"ratio: {rates[threads] / ref_rate:,.0f}x on {threads} threads, {rates[1] / ref_rate:,.0f}x on 1")
    print(f"peak memory: {fast_peak:.0f} MB before the reference, {peak_mb():.0f} MB after")


if __name__ == "__main__":
    main()
