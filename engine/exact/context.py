"""One search thread's working memory: the scratch arrays and the memo table the kernels take
(Context), the kernels' counters summed over threads (Counters), and the default thread count."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass

import numpy as np

from . import kernels

CORES, CORE_SIZE = 256, 64  # the infeasible sets a thread remembers (kernels.USE_CORES), and their largest size


CGROUP = "/sys/fs/cgroup"  # where the cgroup files are read (tests point it elsewhere)
MEMO_SHARE = 4  # the memos of all threads together take at most 1/MEMO_SHARE of the memory the process may use


def _read(path: str) -> str | None:
    try:
        with open(path) as f:
            return f.read(4096).strip()  # a cgroup file holds a line
    except (OSError, ValueError):
        return None


def cpu_quota() -> float | None:
    """The CPUs the cgroup lets this process use (quota / period), None if unlimited or unknown:
    cgroup v2 `cpu.max` ("max 100000" or "200000 100000"), else v1 `cpu.cfs_quota_us` (-1 for
    none) over `cpu.cfs_period_us`."""
    text = _read(f"{CGROUP}/cpu.max")
    if text is not None:
        quota, _, period = text.partition(" ")
        if quota == "max":
            return None
        try:
            return int(quota) / int(period or 100000)
        except (ValueError, ZeroDivisionError):
            return None
    for folder in (f"{CGROUP}/cpu", f"{CGROUP}/cpu,cpuacct", CGROUP):
        quota, period = _read(f"{folder}/cpu.cfs_quota_us"), _read(f"{folder}/cpu.cfs_period_us")
        if quota is not None and period is not None:
            try:
                q, p = int(quota), int(period)
            except ValueError:
                return None
            return q / p if q > 0 and p > 0 else None
    return None


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity), cut to the cgroup's CPU quota."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    quota = cpu_quota()
    if quota is not None:
        cores = min(cores, int(quota))  # a quota of 1.5 CPUs keeps one thread busy all the time
    return max(1, cores)


def default_threads() -> int:
    """Worker threads when none are asked for: every core the process may use."""
    return usable_cores()


def usable_memory() -> int | None:
    """Bytes this process may use: the physical memory, cut to the cgroup's limit (v2 memory.max,
    v1 memory.limit_in_bytes); None if unknown."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        total = None
    for path in (f"{CGROUP}/memory.max", f"{CGROUP}/memory/memory.limit_in_bytes"):
        text = _read(path)
        if text and text.isdigit():
            total = int(text) if total is None else min(total, int(text))
    return total


def memo_mb_per_thread(memo_mb: int, threads: int) -> int:
    """Each thread's memo cap: `memo_mb`, or less when `threads` memos of that size would take
    more than 1/MEMO_SHARE of the memory the process may use (a memo that fills is cleared, which
    costs time only). At least 16 MB."""
    memory = usable_memory()
    if memory is None:
        return memo_mb
    return max(16, min(memo_mb, memory // MEMO_SHARE // max(1, threads) // 2**20))


def memo_table(memo_mb: int, n_answers: int, depths: int, state_size: int, rng, shared: bool = False) -> kernels.Memo:
    """A memo table of about `memo_mb` MB, as the kernels take it (kernels._memo_store says how
    it is read and written); `shared`: one table for every thread (SharedMemo)."""
    # ~30 bytes an entry plus 4 bytes per stored answer; the pool gets two thirds
    budget = memo_mb * 2**20
    entries = 1 << max(10, int(np.log2(max(1, budget / 3 / 30))))
    pool = max(n_answers, int(budget * 2 / 3 / 4))
    counters = np.zeros(4, np.int64)
    counters[kernels.MEMO_SHARED] = int(shared)
    return kernels.Memo(
        keys=np.zeros(entries, np.uint64),
        depth=np.zeros(entries, np.int16),
        offset=np.zeros(entries, np.int64),
        size=np.zeros(entries, np.int32),
        payload=np.zeros(entries, np.uint64),
        pool=np.zeros(pool, np.int32),
        counters=counters,
        set_keys=rng.integers(1, 2**63, n_answers, dtype=np.uint64),
        depth_keys=rng.integers(1, 2**63, depths, dtype=np.uint64),
        state_keys=rng.integers(1, 2**63, state_size, dtype=np.uint64) | np.uint64(1),  # odd
    )


class SharedMemo:
    """One memo for every thread of a search, so that what one thread proves another reuses:
    with a memo each, the threads of a split search prove the same sets again, since the sets
    below sibling guesses overlap (on one thread, jobs dealt round-robin to 16 memos took 2.2
    times the CPU of one memo for TARSE's build: docs/performance.md).

    Two tables of half the memory: searches start on the current one (`use`); once it is full
    (the kernels stop adding to it and say so), the next search to start switches to the other,
    and the full one is cleared as soon as no search that started on it is still running. A
    search whose table fills goes on without storing more until it ends."""

    def __init__(self, memo_mb: int, n_answers: int, depths: int, state_size: int, seed: int = 12345):
        rng = np.random.default_rng(seed)
        first = memo_table(memo_mb // 2, n_answers, depths, state_size, rng, shared=True)
        # the same keys for both tables (a set's hash is the same in either)
        second = memo_table(memo_mb // 2, n_answers, depths, state_size, rng, shared=True)._replace(
            set_keys=first.set_keys, depth_keys=first.depth_keys, state_keys=first.state_keys)
        self.tables = [first, second]
        self.users = [0, 0]  # searches running on each table
        self.current = 0
        self.clears = 0
        self._lock = threading.Lock()

    def acquire(self) -> int:
        """The table a search starting now uses (give it back with `release`)."""
        with self._lock:
            table = self.tables[self.current]
            other = 1 - self.current
            if (table.counters[kernels.MEMO_FULL] and self.users[other] == 0
                    and not self.tables[other].counters[kernels.MEMO_FULL]):
                self.current = other
                if self.users[1 - other] == 0:
                    self._clear(1 - other)
            self.users[self.current] += 1
            return self.current

    def release(self, index: int) -> None:
        with self._lock:
            self.users[index] -= 1
            if index != self.current and self.users[index] == 0 and self.tables[index].counters[kernels.MEMO_FULL]:
                self._clear(index)

    def _clear(self, index: int) -> None:
        keys, counters = self.tables[index].keys, self.tables[index].counters
        keys[:] = 0
        counters[kernels.MEMO_ENTRIES] = counters[kernels.MEMO_POOL] = counters[kernels.MEMO_FULL] = 0
        self.clears += 1

    def use(self):
        """`with memo.use() as table:` the table for one search."""
        return _Using(self)


class _Using:
    __slots__ = ("memo", "index")

    def __init__(self, memo: SharedMemo):
        self.memo = memo

    def __enter__(self) -> kernels.Memo:
        self.index = self.memo.acquire()
        return self.memo.tables[self.index]

    def __exit__(self, *exc) -> None:
        self.memo.release(self.index)


class Context:
    """One thread's scratch arrays and memo table, as the kernels take them: a kernels.Scratch
    (its fields say what each array holds) and a kernels.Memo.

    `memo_mb` caps the memo's memory; when it fills up it is cleared, which costs time only.
    `depths`: how many depths the memo keys (one more than the deepest cap, plus one)."""

    def __init__(self, n_guesses: int, n_answers: int, n_codes: int, levels: int, state_size: int,
                 class_bounds: np.ndarray, depths: int, memo_mb: int = 160, seed: int = 12345,
                 code_dtype=np.uint8, green_bounds: np.ndarray | None = None, code_greens: np.ndarray | None = None):
        rng = np.random.default_rng(seed)
        self.levels = levels
        dedupe_size = 1 << int(np.ceil(np.log2(max(4, 2 * n_guesses))))
        self.scratch = kernels.Scratch(
            lbs=np.zeros((levels, n_guesses), np.int32),
            scores=np.zeros((levels, n_guesses), np.int64),
            cls=np.zeros((levels, n_answers), np.int32),
            cls_pos=np.zeros((levels, n_answers), np.int32),
            class_start=np.zeros((levels, n_codes + 1), np.int64),
            class_size=np.zeros((levels, n_codes + 1), np.int64),
            class_code=np.zeros((levels, n_codes + 1), np.int64),
            stamp=np.zeros(n_codes, np.int64),
            cnt=np.zeros(n_codes, np.int64),
            epoch=np.zeros(1, np.int64),
            dedupe_key=np.zeros(dedupe_size, np.uint64),
            dedupe_val=np.zeros(dedupe_size, np.int32),
            dedupe_stamp=np.zeros(dedupe_size, np.int64),
            position_keys=rng.integers(1, 2**63, n_answers, dtype=np.uint64) | np.uint64(1),
            identity=np.arange(n_answers, dtype=np.int32),
            best_out=np.full(levels + 1, -1, np.int32),
            stats=np.zeros(8, np.int64),
            req=np.zeros((levels + 1, state_size), np.int32),
            # shared, read only: the class bounds as one row, or in hard mode by greens (Solver.green_bounds)
            green_bounds=class_bounds[None] if green_bounds is None else green_bounds,
            code_greens=np.zeros(n_codes, np.int64) if code_greens is None else code_greens,
            level_greens=np.zeros(levels + 1, np.int64),
            last_step=np.full((levels + 1, 2), -1, np.int64),
            cores=np.zeros((CORES, CORE_SIZE), np.int32),
            core_len=np.zeros(CORES, np.int64),
            core_count=np.zeros(1, np.int64),
            mark=np.zeros(n_answers, np.int64),
            pair_bytes=np.zeros((4, n_guesses), np.uint8),
            pair_words=np.zeros((4, n_guesses), np.uint16),
            top_codes=np.zeros(0, code_dtype),  # none until a search keeps its top (keeping_top)
            top_ids=np.zeros(n_guesses, np.int32),
            top_win=np.zeros(n_answers, np.int32),
            top_info=np.full(1, -1, np.int64),
        )
        self.memo = memo_table(memo_mb, n_answers, depths, state_size, rng)

    def keeping_top(self, rows: int, n: int) -> kernels.Scratch:
        """The scratch for a search whose top node keeps its scan (kernels.KEEP_TOP) of up to `rows`
        guesses over `n` answers: a fresh buffer for its matrix, and none kept yet."""
        self.scratch.top_info[0] = -1
        return self.scratch._replace(top_codes=np.empty(rows * n, self.scratch.top_codes.dtype))

    @property
    def stats(self) -> np.ndarray:
        return self.scratch.stats

    @property
    def best_out(self) -> np.ndarray:
        return self.scratch.best_out

    @property
    def root_constraint(self) -> np.ndarray:
        return self.scratch.req[0]


@dataclass
class Counters:
    nodes: int = 0
    memo_hits: int = 0
    memo_stores: int = 0
    memo_clears: int = 0
    guesses_evaluated: int = 0

    def add(self, stats: np.ndarray) -> None:
        self.nodes += int(stats[kernels.ST_NODES])
        self.memo_hits += int(stats[kernels.ST_MEMO_HITS])
        self.memo_stores += int(stats[kernels.ST_MEMO_STORES])
        self.memo_clears += int(stats[kernels.ST_MEMO_CLEARS])
        self.guesses_evaluated += int(stats[kernels.ST_GUESSES_EVALUATED])
