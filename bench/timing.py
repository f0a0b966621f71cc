"""What every benchmark here shares: the median time of a few runs (the machine is shared and
noisy, so one run proves little)."""

from __future__ import annotations

import statistics
import time


def median_seconds(fn, runs: int, clock=time.perf_counter) -> float:
    """The median over `runs` calls of fn() of the time `clock` measures (wall by default)."""
    times = []
    for _ in range(runs):
        start = clock()
        fn()
        times.append(clock() - start)
    return statistics.median(times)
