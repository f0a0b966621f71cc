"""How the exact search scales with threads, with whole classes (what 1 and 2 threads take,
SplitPolicy.split_min_threads), the split of the top and the deeper split (what 3 threads and more
take, SplitPolicy.deep_min_threads): a build below a fixed opener and a `rank --top K --limit N`, each on 1, 2
(and every core, if more) threads and with each split forced, with wall and CPU seconds and the
spread of the jobs' CPU seconds; then a simulation of more workers.

    python bench/scaling.py                       # wordle-nyt2023 --first tarse; rank wordle --limit 100
    python bench/scaling.py --quick               # wordle --first salet, rank --limit 30 (a minute or two)
    python bench/scaling.py --rank-game wordle-nyt2023   # the rank on the build's lists (much longer)
    python bench/scaling.py --build wordle:crate --rank-limit 300 --threads 1,2,4,8,16
    python bench/scaling.py --no-simulation       # only the measured tables
    python bench/scaling.py --shipped --threads 1,2,4,8,16 --no-simulation   # plain runs only
    python bench/scaling.py --only rank --rank-limit 0 --threads 16 --shipped  # every opener

Run it on a quiet machine (no other search running: `uptime` shows the load it starts at), from
the repository's root with the project installed (`pip install -e .`), numba's cache warm (any
build first). Each run is its own process, so its CPU seconds are the process's own, every
thread counted. "whole" solves each class below the opener as one job (a rank's openers one job
each), "top" is the split of 2026-11-26 (a class of 111 answers and more split at its top only),
"deep" the deeper split (classes below a class's first guess as jobs, recursively from 40
answers; the first openers of a rank class by class): the rows force one of them
(a split.SplitPolicy with split_min_threads and deep_min_threads 1, or above any thread count),
whatever a plain run on that many threads would take; "shipped" (`--shipped`) forces nothing.
",own" and ",shared" (`--memo`) force a memo per thread or one shared by all (its shared_min_threads);
`--deep-min N` sets the deeper split's least set (its deep_min) in every row. The job columns are the CPU seconds of
the jobs the pool ran (jobs.Workers): their count, median, 90th percentile and largest.

The simulation is only that. A one-thread run that splits its work as a many-thread run does
(its `alone`) records each job's CPU seconds and the jobs it had to wait for (a split search's
first guess before the rest, a tree after its value, a rank's budgeted openers after the first
ones: jobs.py); those jobs are then scheduled onto 4, 8 and 16 workers (each free worker takes
the ready job made first), for each split. The critical path is the longest chain of jobs that
wait for one another: no number of workers beats it. The simulation keeps each job's measured
CPU seconds, although a job started earlier or later would meet another budget (more CPU with
more workers, as the measured rows show), and it ignores memory bandwidth and the memo each
thread builds alone.
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
    `flags`, comma-separated: "alone" (split on one thread too), "whole" (no class split), "top"
    (the split of the top only) or "deep" (the deeper split), on any number of threads."""
    from wordtree.exact import split
    from wordtree.exact.build import build
    from wordtree.exact.rank import rank
    from wordtree.games import get_game
    from wordtree.wordle.patterns import pattern_matrix

    flags = set(flags.split(","))
    policy = {"alone": "alone" in flags}
    if "whole" in flags:
        policy.update(split_min_threads=1 << 30, deep_min_threads=1 << 30)
    if "top" in flags:
        policy.update(split_min_threads=1, deep_min_threads=1 << 30)
    if "deep" in flags:
        policy.update(split_min_threads=1, deep_min_threads=1)
    if "own" in flags:
        policy.update(shared_min_threads=1 << 30)
    if "shared" in flags:
        policy.update(shared_min_threads=1)
    for flag in flags:
        if flag.startswith("deepmin="):
            policy.update(deep_min=int(flag.split("=")[1]))
    policy = split.SplitPolicy(**policy)
    game = get_game(game_name)
    matrix = pattern_matrix(game).matrix
    start = time.perf_counter()
    if kind == "build":
        result = build(game, matrix, first=arg, threads=threads, progress=False, policy=policy)
        return {"wall": time.perf_counter() - start, "value": result.total, "trace": result.job_trace}
    result = rank(game, matrix, top=top, limit=int(arg) or None, threads=threads, progress=False, policy=policy)
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


def spread(row: dict) -> str:
    """The jobs' CPU seconds: count, median, 90th percentile, largest."""
    jobs = sorted(seconds for _, seconds, _ in row["trace"] if seconds > 0)
    if not jobs:
        return "no jobs recorded"
    cut = lambda q: jobs[min(len(jobs) - 1, int(q * len(jobs)))]  # noqa: E731
    return f"{len(jobs):>6} {cut(0.5):>8.3f} {cut(0.9):>8.3f} {jobs[-1]:>8.2f}"


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


def table(title: str, kind: str, game_name: str, arg: str, counts: list[int], top: int, splits: tuple) -> dict:
    """Each thread count with each of `splits` forced, measured (speedup and CPU against the first
    split's first thread count)."""
    print(f"\n{title}")
    print(f"{'split':>24} {'threads':>7} {'wall s':>8} {'CPU s':>8} {'speedup':>8} {'CPU / 1 thread':>15} "
          f"{'jobs':>6} {'median':>8} {'p90':>8} {'largest':>8}  result")
    rows = {}
    for threads in counts:
        for flags in splits:
            row = rows[flags, threads] = measure(kind, game_name, arg, threads, top, flags)
            base = rows[splits[0], counts[0]]
            value = row["value"] if kind == "build" else ",".join(row["value"][:3]) + ",..."
            print(f"{flags:>24} {threads:>7} {row['wall']:>8.2f} {row['cpu']:>8.2f} {base['wall'] / row['wall']:>8.2f} "
                  f"{row['cpu'] / base['cpu']:>15.2f} {spread(row)}  {value}", flush=True)
    if len({json.dumps(r["value"]) for r in rows.values()}) > 1:
        print("  RESULTS DIFFER between runs")
    return rows


def main() -> None:
    from wordtree.exact import split
    from wordtree.exact.context import default_threads

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", default="wordle-nyt2023:tarse", metavar="GAME:OPENER")
    p.add_argument("--rank-limit", type=int, default=100, metavar="N", help="openers the rank values (0: all)")
    p.add_argument("--rank-game", default="wordle", metavar="GAME",
                   help="the rank's game (default wordle: a rank of the NYT lists' openers takes over 20 "
                        "minutes on 2 cores)")
    p.add_argument("--top", type=int, default=10)
    p.add_argument("--threads", default="", metavar="LIST", help="thread counts (default 1, 2 and every core)")
    p.add_argument("--quick", action="store_true", help="wordle:salet and --rank-limit 30")
    p.add_argument("--no-simulation", action="store_true", help="only the measured tables")
    p.add_argument("--shipped", action="store_true",
                   help="one row per thread count, split as a plain run on that many threads splits")
    p.add_argument("--only", choices=("build", "rank"), help="only this table (and its simulation)")
    p.add_argument("--deep-min", type=int, metavar="N",
                   help=f"the deeper split's least set (SplitPolicy.deep_min, default {split.SHIPPED.deep_min})")
    p.add_argument("--memo", choices=("own", "shared", "both"),
                   help="force a memo per thread or one shared by all (both: a row each; default: as shipped)")
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
    print(f"{cores} usable cores; load average {os.getloadavg()[0]:.2f}; as shipped a build splits classes "
          f"from {split.SHIPPED.split_min_threads} threads on, deeper from {split.SHIPPED.deep_min_threads}")
    game_name, opener = args.build.split(":")
    limit = args.rank_limit or "all"
    memos = {None: ("",), "own": (",own",), "shared": (",shared",), "both": (",own", ",shared")}[args.memo]
    extra = f",deepmin={args.deep_min}" if args.deep_min else ""
    rows = lambda splits: tuple(f + m + extra for f in (("shipped",) if args.shipped else splits)  # noqa: E731
                                for m in memos)
    if args.only != "rank":
        table(f"build {game_name} --first {opener}", "build", game_name, opener, counts, args.top,
              rows(("whole", "top", "deep")))
    if args.only != "build":
        table(f"rank {args.rank_game} --top {args.top} --limit {limit} (a rank's openers stay whole without "
              "the deeper split)", "rank", args.rank_game, str(args.rank_limit), counts, args.top,
              rows(("whole", "deep")))
    if args.no_simulation:
        return
    print("\nSIMULATION from one-thread runs split as many threads split (see the docstring)")
    for flags in ("top", "deep") if args.only != "rank" else ():
        simulated(f"build {game_name} --first {opener}, {flags} split",
                  measure("build", game_name, opener, 1, args.top, "alone," + flags + extra))
    for flags in ("top", "deep") if args.only != "build" else ():
        simulated(f"rank {args.rank_game} --top {args.top} --limit {limit}, {flags} split",
                  measure("rank", args.rank_game, str(args.rank_limit), 1, args.top, "alone," + flags + extra))


if __name__ == "__main__":
    main()
