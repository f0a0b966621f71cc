"""Crossword filling benchmark: time to a first fill (warm, and a fresh process), the best
quality reached within the timeout on each fixture grid, and the engine against the
brute-force reference on a tiny grid (all fills, same answer).

    python bench/crossword.py [--timeout 10] [--runs 5]

Uses the default caches (word index and numba): run once before to warm them.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from wordtree.puzzles import crossword as cw  # noqa: E402
from reference_crossword import reference_fills  # noqa: E402

GRIDS = sorted((ROOT / "tests" / "data").glob("crossword-15x15-*.txt"))


def fresh_process_seconds(grid: Path, runs: int) -> float:
    times = []
    for seed in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, str(ROOT / "cli.py"), "crossword", str(grid), "--any", "--seed", str(seed)],
                       check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def tiny_comparison() -> tuple[float, float, int]:
    """All fills of a 3x3 square from 24 of the 27 words over 'abc': engine vs brute force."""
    rng = random.Random(1)
    words = sorted(rng.sample([a + b + c for a in "abc" for b in "abc" for c in "abc"], 24))
    rows = ["...", "...", "..."]
    with tempfile.TemporaryDirectory() as tmp:
        words_file = Path(tmp) / "w.txt"
        words_file.write_text("".join(w + "\n" for w in words))
        scores_file = Path(tmp) / "s.txt"
        scores_file.write_text("".join(f"{w};1\n" for w in words))
        index = cw.word_index(words_file, scores_file, cache=tmp)
        slots = cw.find_slots(rows)
        cw.all_fills(cw.build_problem(rows, slots, index))  # warm
        engine, reference = [], []
        for _ in range(3):
            start = time.perf_counter()
            _, fills = cw.all_fills(cw.build_problem(rows, slots, index))
            engine.append(time.perf_counter() - start)
            start = time.perf_counter()
            expected = reference_fills(rows, words)
            reference.append(time.perf_counter() - start)
        assert len(fills) == len(expected)
    return statistics.median(engine), statistics.median(reference), len(fills)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=10.0, help="quality search time per grid (s)")
    parser.add_argument("--runs", type=int, default=5, help="runs per median")
    parser.add_argument("--seeds", type=int, default=1, help="quality runs per grid (seeds 0..N-1)")
    args = parser.parse_args()

    start = time.perf_counter()
    index = cw.word_index()
    print(f"word index: {index.source} in {index.seconds * 1000:.1f} ms")
    problems = {g.name: (rows := cw.read_grid(g), slots := cw.find_slots(rows), cw.build_problem(rows, slots, index))
                for g in GRIDS}
    cw.fill(next(iter(problems.values()))[2], seed=0, timeout=60, optimize=False)  # compile or load kernels
    print(f"set-up incl. kernel load/compile: {time.perf_counter() - start:.2f} s")

    print("\nfirst fill, ENABLE, no quality objective (--any), median over seeds 0..runs-1")
    for name, (rows, slots, problem) in problems.items():
        times, nodes = [], []
        for seed in range(args.runs):
            result = cw.fill(problem, seed=seed, timeout=60, optimize=False)
            assert result.status == "filled"
            times.append(result.seconds)
            nodes.append(result.nodes)
        fresh = fresh_process_seconds(GRIDS[[g.name for g in GRIDS].index(name)], max(3, args.runs // 2))
        print(f"  {name}: warm {statistics.median(times) * 1000:.1f} ms (max {max(times) * 1000:.1f} ms, "
              f"median {statistics.median(nodes):.0f} nodes); fresh process (whole CLI run) {fresh:.2f} s")

    print(f"\nbest-quality fill within {args.timeout:g} s")
    for name, (rows, slots, problem) in problems.items():
        for seed in range(args.seeds):
            result = cw.fill(problem, seed=seed, timeout=args.timeout)
            q = cw.quality(slots, result.words, index)
            steps = ", ".join(f"{n}@{t:.1f}s" for t, n, _ in result.history)
            print(f"  {name} seed {seed}: {result.status}, {q['common_entries']}/{q['entries']} common "
                  f"({100 * q['common_share']:.1f} %), mean score {q['mean_score']:.1f}, "
                  f"{'proven fewest rare' if result.optimal else 'not proven optimal'}; "
                  f"{result.nodes} nodes, {result.restarts} restarts; common entries over time: {steps}")

    engine, reference, count = tiny_comparison()
    print(f"\nall {count} fills of a 3x3 square: engine {engine * 1000:.2f} ms, brute-force reference "
          f"{reference * 1000:.2f} ms, ratio {reference / engine:.1f}x")
    print(f"peak memory (max RSS): {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
