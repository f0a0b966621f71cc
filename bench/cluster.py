"""Dask benchmark: `rank --limit N` of the original Wordle on a LocalCluster of 1, then 2, worker
processes, with the workers' CPU time (the machine may be shared: CPU / wall shows how much of a
core each worker really got) and peak memory, and the speed-up of 2 workers over 1: in wall time,
and as it would be with a core per worker (the busiest worker's CPU time is then the wall time).

    python bench/cluster.py [--limit 4] [--top 10] [--runs 1]

With --top at least --limit no budget ever prunes, so both runs do the same work (every first
guess solved exactly) and the ratio is the speed-up alone; the reference is the same run on one
worker. Each run gets a fresh cluster (a worker's memo would remember the previous run), started
and warmed (game, pattern matrix and kernels loaded on every worker) before the clock starts, as
a long-running cluster would be.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _worker_usage() -> tuple[float, float]:
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def run(workers: int, limit: int, top: int, runs: int) -> dict:
    from distributed import Client, LocalCluster

    from wordtree.exact import cluster
    from wordtree.games import get_game
    from wordtree.wordle.patterns import pattern_matrix

    game = get_game("wordle")
    matrix = pattern_matrix(game).matrix
    spec = cluster.game_spec(game, name="wordle", max_guesses=6, mode="normal")
    walls, cpus, slowest, peak = [], [], [], 0.0
    for _ in range(runs):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as lc, \
                Client(lc) as client:
            # warm-up: a budget of 0 stops at once, after loading everything the jobs need
            client.gather([client.submit(cluster.solve_first_guesses, spec, [0], [0], 1, pure=False, workers=[w])
                           for w in client.nthreads()])
            before = client.run(_worker_usage)
            start = time.perf_counter()
            result = cluster.rank_on_cluster(lc.scheduler_address, spec, game, matrix, top=top, limit=limit,
                                             progress=False)
            walls.append(time.perf_counter() - start)
            after = client.run(_worker_usage)
            cpus.append(sum(after[w][0] - before[w][0] for w in after))
            slowest.append(max(after[w][0] - before[w][0] for w in after))
            peak = max(peak, *(mb for _, mb in after.values()))
    best = result.ordered()[:3]
    return {"wall": statistics.median(walls), "cpu": statistics.median(cpus), "slowest": statistics.median(slowest),
            "peak_mb": peak,
            "best": " ".join(f"{w}={v}" for w, v, _ in best), "walls": walls}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=4)
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--runs", type=int, default=1)
    opts = parser.parse_args()
    figures = {}
    for workers in (1, 2):
        f = figures[workers] = run(workers, opts.limit, opts.top, opts.runs)
        print(f"{workers} worker(s): rank --limit {opts.limit} --top {opts.top}: wall {f['wall']:.1f} s "
              f"(runs {', '.join(f'{w:.1f}' for w in f['walls'])}), workers' CPU {f['cpu']:.1f} s "
              f"= {f['cpu'] / f['wall']:.2f} cores busy, peak worker RSS {f['peak_mb']:.0f} MB; best {f['best']}",
              flush=True)
    print(f"speed-up 2 workers / 1 worker: {figures[1]['wall'] / figures[2]['wall']:.2f}x wall; "
          f"{figures[1]['cpu'] / figures[2]['slowest']:.2f}x on a core per worker (1 worker's CPU / the busiest "
          f"of 2 workers' CPU); CPU per first guess {figures[1]['cpu'] / opts.limit:.1f} s (1 worker), "
          f"{figures[2]['cpu'] / opts.limit:.1f} s (2 workers)")


if __name__ == "__main__":
    main()
