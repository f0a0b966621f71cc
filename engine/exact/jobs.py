"""The worker threads of a parallel search and the record of what they ran.

A search hands out its work as jobs (callables taking the worker's number) through sources
(objects whose `take()` returns a job or None); `Workers` runs them on a fixed number of threads.
Each job is a `Job`, which also says which jobs had to finish before it could exist (`after`);
with the CPU seconds each job took, that is the graph bench/scaling.py schedules onto more
workers than the machine has (`simulate`). `Mark` stands for "all of these finished" (a job of
no work), so that a long list of dependencies is written once.
"""

from __future__ import annotations

import heapq
import itertools
import queue
import threading
import time

_sequence = itertools.count()  # creation order: a job is made after every job it depends on
_local = threading.local()


def current_worker() -> int:
    """The number of the worker running the calling thread's job (-1 outside Workers)."""
    return getattr(_local, "worker", -1)


class Job:
    """A job: `run(worker)`, run once, after the jobs and marks in `after`; `tag` names what it
    belongs to (a rank's opener); `seconds`: its CPU seconds once run."""

    __slots__ = ("run", "after", "tag", "seconds", "seq")

    def __init__(self, run, after=(), tag=None):
        self.run, self.after, self.tag = run, tuple(after), tag
        self.seconds = None
        self.seq = next(_sequence)

    def __call__(self, worker: int) -> None:
        self.run(worker)


class Mark(Job):
    """The moment every job in `after` had finished (no work of its own)."""

    def __init__(self, after=()):
        super().__init__(None, after)
        self.seconds = 0.0


def as_job(job) -> Job:
    return job if isinstance(job, Job) else Job(job)


class Workers:
    """`threads` daemon threads running jobs: first the jobs pinned to that worker (`pin`), then
    the first job any of `sources` (in order) hands out (`source.take()`, None when it has none
    now). A job's exception goes to `on_error`. `lock` (an RLock, also the condition the idle
    threads wait on) is the one lock of the sources' bookkeeping: `take()` is called holding it.
    Each job run is kept in `ran` and its CPU seconds in `job_seconds`."""

    def __init__(self, threads: int, sources: list, on_error):
        self.lock = threading.RLock()
        self.cond = threading.Condition(self.lock)
        self.sources, self.on_error = sources, on_error
        self.pinned = [[] for _ in range(threads)]
        self.stopped = False
        self.job_seconds: list[float] = []
        self.ran: list[Job] = []

    def start(self) -> Workers:
        for w in range(len(self.pinned)):
            threading.Thread(target=self._run, args=(w,), daemon=True, name=f"build-{w}").start()
        return self

    def pin(self, worker: int, job) -> None:
        with self.cond:
            self.pinned[worker].append(as_job(job))
            self.cond.notify_all()

    def wake(self) -> None:
        """Sources have new jobs (handed out by `take()` from now on)."""
        with self.cond:
            self.cond.notify_all()

    def stop(self) -> None:
        """No job starts after this (those running finish in the background)."""
        with self.cond:
            self.stopped = True
            self.cond.notify_all()

    def _take(self, worker: int):
        if self.pinned[worker]:
            return self.pinned[worker].pop(0)
        for source in self.sources:
            job = source.take()
            if job is not None:
                return as_job(job)
        return None

    def _run(self, worker: int) -> None:
        _local.worker = worker
        while True:
            with self.cond:
                job = None
                while not self.stopped and job is None:
                    job = self._take(worker)
                    if job is None:
                        self.cond.wait(1.0)
                if self.stopped:
                    return
            start = time.thread_time()
            try:
                job(worker)
            except BaseException as error:  # noqa: BLE001 - handed to the caller's thread
                self.on_error(error)
            job.seconds = time.thread_time() - start
            with self.cond:
                self.job_seconds.append(job.seconds)
                self.ran.append(job)
                self.cond.notify_all()


def next_outcome(outcomes: queue.Queue):
    """The next outcome a search's jobs put in `outcomes`, waiting in short steps so that Ctrl-C
    reaches the main thread (a wait without a timeout would hold it until the outcome comes)."""
    while True:
        try:
            return outcomes.get(timeout=0.5)
        except queue.Empty:
            continue


def trace_rows(jobs: list[Job]) -> list[tuple[int, float, list[int]]]:
    """(sequence number, CPU seconds, the sequence numbers it waited for) of each job run and each
    mark they depend on, in creation order: the graph `simulate` schedules (JSON-friendly)."""
    seen: dict[int, Job] = {}
    stack = [job for job in jobs if job.seconds is not None]
    while stack:
        job = stack.pop()
        if job.seq in seen:
            continue
        seen[job.seq] = job
        stack.extend(a for a in job.after if a.seconds is not None)
    return [(seq, float(job.seconds), sorted(a.seq for a in job.after if a.seq in seen or a.seconds is not None))
            for seq, job in sorted(seen.items())]


def simulate(rows: list[tuple[int, float, list[int]]], workers: int) -> tuple[float, float]:
    """(makespan on `workers` workers, critical path) of the recorded jobs: each job becomes ready
    when every job it waited for has finished, and a free worker takes the ready job made first
    (as the sources hand them out, roughly); marks take no worker and no time. A simulation: it
    keeps each job's measured CPU seconds, although a job started at another moment would meet
    another budget."""
    seconds = {seq: s for seq, s, _ in rows}
    after = {seq: [a for a in deps if a in seconds] for seq, _, deps in rows}
    marks = {seq for seq, s, deps in rows if s == 0.0 and deps}  # (a job of 0 s would run as a mark: the same)
    longest: dict[int, float] = {}
    for seq, s, _ in rows:  # creation order is a topological order
        longest[seq] = s + max((longest[a] for a in after[seq]), default=0.0)
    critical = max(longest.values(), default=0.0)
    waiting = {seq: len(after[seq]) for seq in seconds}
    children: dict[int, list[int]] = {seq: [] for seq in seconds}
    for seq, deps in after.items():
        for a in deps:
            children[a].append(seq)
    ready = [seq for seq, n in waiting.items() if n == 0]
    heapq.heapify(ready)
    running: list[tuple[float, int]] = []  # (end, seq)
    now, free = 0.0, workers

    def finished(seq: int, at: float) -> None:
        for c in children[seq]:
            waiting[c] -= 1
            if waiting[c] == 0:
                if c in marks:
                    finished(c, at)
                else:
                    heapq.heappush(ready, c)

    for seq in [s for s in ready if s in marks]:
        ready.remove(seq)
        heapq.heapify(ready)
        finished(seq, 0.0)
    while ready or running:
        while ready and free:
            seq = heapq.heappop(ready)
            heapq.heappush(running, (now + seconds[seq], seq))
            free -= 1
        end, seq = heapq.heappop(running)
        now, free = end, free + 1
        finished(seq, now)
    return now, critical
