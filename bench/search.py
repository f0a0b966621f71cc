"""Exact-search benchmark: wall time, nodes, memo hits and peak memory of proving the optimal
tree below a fixed opener, and the time of a `rank --limit N`, to project a full rank.

    python bench/search.py [--runs 3] [--cases salet,crate,tarse] [--rank-limit 30]

Each case runs in its own process (so peak memory is its own) with the numba cache warm; the
figure is the median of --runs runs, for the first search in the process (what a `build`
command pays) and for a second one in the same process (kernels already loaded). Ratios (of
the first) are against the published single-threaded C++ figures quoted in the project's
issues (measured by others on a machine like this one): SALET 0.8 s, hard-mode SALET 1.6 s,
TARSE on 3158/14855 55 s of CPU.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CASES = {  # game, opener, mode, expected total, the C++ solver's quoted seconds
    "salet": ("wordle", "salet", "normal", 7920, 0.8),
    "crate": ("wordle", "crate", "normal", 7926, None),
    "salet-hard": ("wordle", "salet", "hard", 8122, 1.6),
    "tarse": ("wordle-nyt2023", "tarse", "normal", None, 55.0),
}


def one(case: str, threads: int) -> dict:
    from wordtree.games import get_game
    from wordtree.wordle.patterns import pattern_matrix
    from wordtree.exact.build import build

    game_name, first, mode, _, _ = CASES[case]
    game = get_game(game_name)
    matrix = pattern_matrix(game).matrix
    seconds = []
    for _ in range(2):  # the first search in a process also loads the compiled kernels (about 0.2 s)
        start = time.perf_counter()
        result = build(game, matrix, first=first, threads=threads, progress=False, mode=mode)
        seconds.append(time.perf_counter() - start)
    c = result.counters
    return {"total": result.total, "seconds": seconds[0], "again": seconds[1], "nodes": c.nodes,
            "memo_hits": c.memo_hits, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def rank_one(limit: int, threads: int) -> dict:
    from wordtree.games import get_game
    from wordtree.wordle.patterns import pattern_matrix
    from wordtree.exact.rank import rank

    game = get_game("wordle")
    matrix = pattern_matrix(game).matrix
    start = time.perf_counter()
    result = rank(game, matrix, top=10, limit=limit, threads=threads, progress=False)
    return {"seconds": time.perf_counter() - start, "words": len(result.values),
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def run_child(*args) -> dict:
    out = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cases", default="salet,crate,salet-hard", help="also: tarse (3158/14855, minutes)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rank-limit", type=int, default=0, help="also time rank --limit N (0: skip)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, _, value = args.child.partition(":")
        print(json.dumps(one(value, args.threads) if kind == "case" else rank_one(int(value), args.threads)))
        return

    run_child("--child", "case:salet", "--threads", str(args.threads))  # warm the numba and pattern caches
    print(f"{'case':10} {'total':>6} {'median s':>9} {'2nd run':>8} {'nodes':>9} {'nodes/s':>9} {'memo hits':>10} "
          f"{'peak MB':>8} {'vs C++':>7}")
    for case in args.cases.split(","):
        runs = [run_child("--child", f"case:{case}", "--threads", str(args.threads)) for _ in range(args.runs)]
        seconds = statistics.median(r["seconds"] for r in runs)
        again = statistics.median(r["again"] for r in runs)
        r = runs[0]
        expected = CASES[case][3]
        assert expected is None or r["total"] == expected, (case, r["total"], expected)
        reference = CASES[case][4]
        ratio = f"{reference / seconds:6.2f}x" if reference else "     -"
        print(f"{case:10} {r['total']:6d} {seconds:9.2f} {again:8.2f} {r['nodes']:9d} {r['nodes'] / seconds:9.0f} "
              f"{r['memo_hits']:10d} {max(x['peak_mb'] for x in runs):8.0f} {ratio}")
    if args.rank_limit:
        runs = [run_child("--child", f"rank:{args.rank_limit}", "--threads", str(args.threads)) for _ in range(args.runs)]
        seconds = statistics.median(r["seconds"] for r in runs)
        print(f"rank --limit {args.rank_limit}: median {seconds:.1f} s, {seconds / args.rank_limit:.2f} s a word "
              f"(the first words in heuristic order are the hardest: their budgets are loosest); "
              f"peak {max(r['peak_mb'] for r in runs):.0f} MB")


if __name__ == "__main__":
    main()
