"""How the exact search scales with threads: a build below a fixed opener and a `rank --top K
--limit N`, each on 1, 2 and every core, with wall and CPU seconds, the speedup over 1 thread
and the CPU spent against 1 thread's; then a simulation of more workers.

    python bench/scaling.py                       # wordle-nyt2023 --first tarse, rank --limit 100
    python bench/scaling.py --quick               # wordle --first salet, rank --limit 30 (a 2-core machine)
    python bench/scaling.py --build wordle:crate --rank-limit 300 --threads 1,2,4,8,16

Each run is its own process (the numba cache warm), so its CPU seconds are the process's own,
every thread counted. The simulation is only that. A one-thread run that splits its work as a
many-thread run does (split.ALONE) records each job's CPU seconds and the jobs it had to wait for
(a split search's first guess before the rest, a tree after its value: jobs.py); those jobs are
then scheduled onto 4, 8 and 16 workers (each free worker takes the ready job made first), once
with the deeper split (split.DEEP) and once without it (classes of 111 answers and more split at
their top only). The critical path is the longest chain of jobs that wait for one another:
no number of workers beats it. The simulation keeps each job's measured CPU seconds, although a
job started earlier or later would meet another budget (more CPU with more workers, as the
measured rows show), and it ignores memory bandwidth and the memo each thread builds alone.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def child(kind: str, game_name: str, arg: str, threads: int, top: int, flags: str) -> dict:
    """One run in this process: a build opening with `arg`, or a rank of the first `arg` openers;
    `flags`: "alone" (split on one thread too), "flat" (no deeper split), comma-separated."""
    from wordtree.exact import split
    from wordtree.exact.build import build
    from wordtree.exact.rank import rank
    from wordtree.games import get_game
    from wordtree.patterns import pattern_matrix

    split.ALONE = "alone" in flags
    split.DEEP = "flat" not in flags
    game = get_game(game_name)
    matrix = pattern_matrix(game).matrix
    start = time.perf_counter()
    if kind == "build":
        result = build(game, matrix, first=arg, threads=threads, progress=False)
        return {"wall": time.perf_counter() - start, "value": result.total, "trace": result.job_trace}
    result = rank(game, matrix, top=top, limit=int(arg), threads=threads, progress=False)
    return {"wall": time.perf_counter() - start, "value": [w for w, _, _ in result.ordered()[:top]],
            "trace": result.job_trace}


def measure(kind: str, game_name: str, arg: str, threads: int, top: int, flags: str = "") -> dict:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([sys.executable, __file__, "--child", kind, game_name, arg, str(threads), str(top),
                          flags or "-"], check=True, capture_output=True, text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    row = json.loads(out.strip().splitlines()[-1])
    row["cpu"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return row


def simulated(label: str, row: dict) -> None:
    """The jobs of a one-thread run (split as a many-thread run would) scheduled onto more workers."""
    from wordtree.exact.jobs import simulate

    rows = [(seq, seconds, after) for seq, seconds, after in row["trace"]]
    jobs = sorted(seconds for _, seconds, after in rows if seconds > 0)
    if not jobs:
        print(f"{label}: no jobs recorded")
        return
    total = sum(jobs)
    _, critical = simulate(rows, 1)
    print(f"{label}: {len(jobs)} jobs, {total:.2f} s of CPU (the run: {row['wall']:.2f} s wall, "
          f"{row['cpu']:.2f} s CPU); largest {', '.join(f'{s:.2f}' for s in jobs[-5:][::-1])} s; "
          f"critical path {critical:.2f} s")
    cells = []
    for workers in (4, 8, 16):
        span, _ = simulate(rows, workers)
        cells.append(f"{workers}: {span:.2f} s ({total / span:.1f}x)")
    print(f"  SIMULATED wall on more workers (not measured): {'; '.join(cells)}", flush=True)


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
    p.add_argument("--no-simulation", action="store_true", help="only the measured tables")
    p.add_argument("--child", nargs=6, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        kind, game_name, arg, threads, top, flags = args.child
        print(json.dumps(child(kind, game_name, arg, int(threads), int(top), flags)))
        return
    if args.quick:
        args.build, args.rank_limit = "wordle:salet", 30
    cores = default_threads()
    counts = [int(t) for t in args.threads.split(",")] if args.threads else sorted({1, 2, cores})
    print(f"{cores} usable cores; load average {os.getloadavg()[0]:.2f}")
    game_name, opener = args.build.split(":")
    table(f"build {game_name} --first {opener}", "build", game_name, opener, counts, args.top)
    table(f"rank {game_name} --top {args.top} --limit {args.rank_limit}", "rank", game_name,
          str(args.rank_limit), counts, args.top)
    if args.no_simulation:
        return
    print("\nSIMULATION from one-thread runs split as many threads split (see the docstring)")
    for flags, label in (("alone,flat", "split.DEEP off"),
                         ("alone", "split.DEEP on")):
        simulated(f"build {game_name} --first {opener}, {label}",
                  measure("build", game_name, opener, 1, args.top, flags))
    simulated(f"rank --limit {args.rank_limit}, after", measure("rank", game_name, str(args.rank_limit), 1,
                                                                 args.top, "alone"))


if __name__ == "__main__":
    main()
