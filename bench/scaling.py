"""How the exact search scales with threads: a build below a fixed opener and a `rank --top K
--limit N`, each on 1, 2 and every core, with wall and CPU seconds, the speedup over 1 thread
and the CPU spent against 1 thread's; then the spread of the per-job CPU seconds (the build's
jobs below the opener, the rank's openers) and a simulation of more workers.

    python bench/scaling.py                       # wordle-nyt2023 --first tarse, rank --limit 100
    python bench/scaling.py --quick               # wordle --first salet, rank --limit 30 (a 2-core machine)
    python bench/scaling.py --build wordle:crate --rank-limit 300 --threads 1,2,4,8,16

Each run is its own process (the numba cache warm), so its CPU seconds are the process's own,
every thread counted. The simulation is only that: the recorded jobs, longest first, each given
to the worker free first (greedy list scheduling) on 4, 8 and 16 workers. It ignores that a job
started earlier or later gets another budget (so another CPU time), and that some of a build's
jobs wait for others (a class's first guess before the rest, its tree after), so it is a guide to
the makespan, not a measurement.
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def child(kind: str, game_name: str, arg: str, threads: int, top: int) -> dict:
    """One run in this process: a build opening with `arg`, or a rank of the first `arg` openers."""
    from wordtree.exact.build import build
    from wordtree.exact.rank import rank
    from wordtree.games import get_game
    from wordtree.patterns import pattern_matrix

    game = get_game(game_name)
    matrix = pattern_matrix(game).matrix
    start = time.perf_counter()
    if kind == "build":
        result = build(game, matrix, first=arg, threads=threads, progress=False)
        return {"wall": time.perf_counter() - start, "value": result.total, "jobs": result.job_seconds}
    result = rank(game, matrix, top=top, limit=int(arg), threads=threads, progress=False)
    return {"wall": time.perf_counter() - start, "value": [w for w, _, _ in result.ordered()[:top]],
            "jobs": [seconds for _, seconds in result.job_seconds]}


def measure(kind: str, game_name: str, arg: str, threads: int, top: int) -> dict:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([sys.executable, __file__, "--child", kind, game_name, arg, str(threads), str(top)],
                         check=True, capture_output=True, text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    row = json.loads(out.strip().splitlines()[-1])
    row["cpu"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return row


def makespan(jobs: list[float], workers: int) -> float:
    """Greedy list scheduling, longest job first, each to the worker free first."""
    free = [0.0] * workers
    for seconds in sorted(jobs, reverse=True):
        heapq.heappush(free, heapq.heappop(free) + seconds)
    return max(free)


def spread(label: str, jobs: list[float]) -> None:
    if not jobs:
        print(f"{label}: no jobs recorded")
        return
    ordered = sorted(jobs)
    q = lambda f: ordered[min(len(ordered) - 1, int(f * len(ordered)))]  # noqa: E731
    print(f"{label}: {len(jobs)} jobs, {sum(jobs):.2f} s of CPU; min {ordered[0]:.4f}, median {q(0.5):.4f}, "
          f"90 % {q(0.9):.4f}, max {ordered[-1]:.2f} s; the largest five {', '.join(f'{s:.2f}' for s in ordered[-5:][::-1])}")
    total = sum(jobs)
    cells = [f"{w} workers {makespan(jobs, w):.2f} s (ideal {total / w:.2f})" for w in (4, 8, 16)]
    print(f"  simulated makespan of these jobs (not a measurement): {'; '.join(cells)}")


def table(title: str, kind: str, game_name: str, arg: str, counts: list[int], top: int) -> dict:
    print(f"\n{title}")
    print(f"{'threads':>7} {'wall s':>8} {'CPU s':>8} {'speedup':>8} {'CPU / 1 thread':>15}  result")
    rows = {}
    for threads in counts:
        row = rows[threads] = measure(kind, game_name, arg, threads, top)
        base = rows[counts[0]]
        value = row["value"] if kind == "build" else ",".join(row["value"][:3]) + ",..."
        print(f"{threads:>7} {row['wall']:>8.2f} {row['cpu']:>8.2f} {base['wall'] / row['wall']:>8.2f} "
              f"{row['cpu'] / base['cpu']:>15.2f}  {value}", flush=True)
    if len({json.dumps(r["value"]) for r in rows.values()}) > 1:
        print("  RESULTS DIFFER between thread counts")
    return rows


def main() -> None:
    from wordtree.exact.context import default_threads

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", default="wordle-nyt2023:tarse", metavar="GAME:OPENER")
    p.add_argument("--rank-limit", type=int, default=100, metavar="N")
    p.add_argument("--top", type=int, default=10)
    p.add_argument("--threads", default="", metavar="LIST", help="thread counts (default 1, 2 and every core)")
    p.add_argument("--quick", action="store_true", help="wordle:salet and --rank-limit 30")
    p.add_argument("--child", nargs=5, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        kind, game_name, arg, threads, top = args.child
        print(json.dumps(child(kind, game_name, arg, int(threads), int(top))))
        return
    if args.quick:
        args.build, args.rank_limit = "wordle:salet", 30
    cores = default_threads()
    counts = [int(t) for t in args.threads.split(",")] if args.threads else sorted({1, 2, cores})
    print(f"{cores} usable cores; load average {os.getloadavg()[0]:.2f}")
    game_name, opener = args.build.split(":")
    built = table(f"build {game_name} --first {opener}", "build", game_name, opener, counts, args.top)
    ranked = table(f"rank {game_name} --top {args.top} --limit {args.rank_limit}", "rank", game_name,
                   str(args.rank_limit), counts, args.top)
    print()
    for threads in counts:
        spread(f"build jobs on {threads} thread(s)", built[threads]["jobs"])
    for threads in counts:
        spread(f"rank jobs (openers) on {threads} thread(s)", ranked[threads]["jobs"])


if __name__ == "__main__":
    main()
