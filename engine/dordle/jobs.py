"""The exact Dordle proof split into independent jobs, kept in a compact text checkpoint that a
kill -9 costs at most the jobs in flight, run in one process or on Dask.

Two proofs, each a list of jobs whose results are facts that hold whatever order they come in:

  the opener proof (`opener` set): the exact total of opening the whole game (A, A, D) with one
  guess g. By the recurrence (search.py) that total is
      m + sum over the single-board classes C of V1(C, D-1) + sum over child states s of W(s, D-1),
  a sum: each child state with pairs is one job (its exact W, DordleSearch.solve with no budget),
  the single boards are valued in process (the single-board engine, milliseconds a class), and
  the opener's total is the sum, exact once every job is done. Jobs are independent, so they can
  run anywhere in any order.

  the root proof (`opener` None): for every opener of the root's plan (root.root_plan: the same
  pruned guesses, bounds and order as DordleSearch.solve), either its exact total or a proof that
  it cannot beat the best, one job an opener. The jobs carry budgets (root.RootLedger.budget:
  the best exact totals known when the job starts), and an opener is refuted unevaluated once its
  bound reaches its budget (RootLedger.refuted: the openers are sorted by bound), exactly as
  root.root_search does; RootLedger's budgets hold for results recorded in any order, so a run
  on Dask, or resumed, finds solve_game's value and opener.

The checkpoint (wordtree-dordle-jobs/1) is text: a header line, the canonical JSON of what the
proof is bound to (the lists' sha256, the cap, the rules, the objective, the opener or null for
the root proof), then one line per finished job,

    KEY <TAB> =VALUE or >=VALUE <TAB> NODES <TAB> SECONDS <TAB> CHECK

KEY the child state's two patterns (opener proof, e.g. BBYBB/GBBBB) or the opener (root proof),
=VALUE an exact value, >=VALUE a proven lower bound (a refuted opener), `inf` for no strategy
within the cap, NODES and SECONDS what the job took, CHECK the first 16 hex digits of the sha256
of this run's header line, a newline and the line's first four fields: a line edited, or copied
from the checkpoint of other lists, cap, rules or opener, is refused (line number named). The
header is written atomically (files.write_atomic) when the file is made; each finished job is
then appended as one whole line in one write and flushed to the operating system at once
(fsync'd at most every SYNC_EVERY seconds, and at the end), so a kill -9 loses only the jobs in
flight, and a machine that goes down loses at most the last second's lines. A last line without
its newline (a write cut short by a crash) is dropped, and the file cut back to the last whole
line before the run appends; every other line must check. The file is held as every checkpoint
is (files.Checkpoint.held: locked, an existing one refused without resume or overwrite, its
header checked before any work).
"""

from __future__ import annotations

import hashlib
import math
import os
import threading
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import orjson

from ..errors import CheckpointMismatch, NoCheckpoint, Stopped, UserError
from ..files import Checkpoint, header_differences, write_atomic
from ..jit import INF64
from . import bounds
from .root import RootLedger, RootPlan, RootResult, _trivial_root, root_plan, root_result
from .search import ALL_RULES, Child, DordleSearch

FORMAT = "wordtree-dordle-jobs/1"
WHAT = "Dordle jobs"
MAX_BYTES = 64 << 20  # a checkpoint larger than this is refused unread (the root proof of the full lists: ~1 MB)
MAX_LINE = 200  # bytes of a job line at most
MAX_DIGITS = 16  # of a value or a node count
SYNC_EVERY = 1.0  # seconds between fsyncs at most


def jobs_header(game, cap: int, rules: int, opener: str | None, split: int | None = None) -> dict:
    """What a jobs checkpoint is bound to: the lists, the cap, the rules, the objective, the
    opener of an opener proof (None: the root proof over every opener), and, for an opener proof
    whose large child states are split (`split`: their least number of pairs), that threshold."""
    identity = game.identity()
    header = {"format": FORMAT, "answers_sha256": identity["answers_sha256"],
              "guesses_sha256": identity["guesses_sha256"], "max_guesses": int(cap), "rules": int(rules),
              "objective": "total", "opener": opener}
    return header if split is None else {**header, "split": int(split)}


def header_bytes(header: dict) -> bytes:
    return orjson.dumps(header, option=orjson.OPT_SORT_KEYS)


@dataclass(frozen=True)
class JobLine:
    """A finished job: `value` exact, or (exact False) a proven lower bound; INF64: no strategy."""

    key: str
    value: int
    exact: bool
    nodes: int
    seconds: float


def _value_text(value: int, exact: bool) -> str:
    return ("=" if exact else ">=") + ("inf" if value >= INF64 else str(int(value)))


def _check(head: bytes, body: bytes) -> str:
    return hashlib.sha256(head + b"\n" + body).hexdigest()[:16]


def line_bytes(head: bytes, job: JobLine) -> bytes:
    """The checkpoint line of `job` under the header line `head`, with its newline."""
    if "\t" in job.key or "\n" in job.key:
        raise ValueError("a job key holds no tab or newline")  # a caller's mistake
    body = f"{job.key}\t{_value_text(job.value, job.exact)}\t{int(job.nodes)}\t{job.seconds:.3f}".encode()
    return body + b"\t" + _check(head, body).encode() + b"\n"


@dataclass
class Journal:
    """A jobs checkpoint read: its lines in file order, the header's opener, and `keep`, the length
    of its whole lines (a torn last line is dropped there)."""

    lines: list[JobLine]
    opener: str | None
    keep: int
    split: int | None = None


def _whole_number(text: str, what: str, where: str) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > MAX_DIGITS:
        raise UserError(f"{where}: {what} {text[:20]!r} is not a whole number")
    return int(text)


def parse_line(path, number: int, raw: bytes, head: bytes) -> JobLine:
    """One job line (without its newline), checked: its check digits first, then each field."""
    where = f"{path}: line {number}"
    if len(raw) > MAX_LINE:
        raise UserError(f"{where}: longer than {MAX_LINE} bytes")
    body, _, check = raw.rpartition(b"\t")
    if not body or check.decode("ascii", "replace") != _check(head, body):
        raise UserError(f"{where}: its check digits do not match (an edited line, or one of another checkpoint)")
    try:
        fields = body.decode("ascii").split("\t")
    except UnicodeDecodeError:
        raise UserError(f"{where}: not ASCII") from None
    if len(fields) != 4:
        raise UserError(f"{where}: {len(fields)} fields, not 5")
    key, value_text, nodes_text, seconds_text = fields
    if not key:
        raise UserError(f"{where}: no key")
    exact = value_text.startswith("=")
    if not exact and not value_text.startswith(">="):
        raise UserError(f"{where}: value {value_text[:20]!r} is neither =N nor >=N")
    number_text = value_text[1:] if exact else value_text[2:]
    value = INF64 if number_text == "inf" else min(INF64, _whole_number(number_text, "value", where))
    nodes = _whole_number(nodes_text, "node count", where)
    try:
        seconds = float(seconds_text)
    except ValueError:
        seconds = -1.0
    if not math.isfinite(seconds) or seconds < 0:
        raise UserError(f"{where}: seconds {seconds_text[:20]!r} is not a time")
    return JobLine(key, value, exact, nodes, seconds)


def read_journal(path, header: dict | None, resuming: bool = True) -> Journal | None:
    """The jobs checkpoint at `path` (None: no file), its header line checked against `header` (an
    opener of "": whichever the file names, to show it) and every line checked."""
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > MAX_BYTES:
                raise UserError(f"{path}: {size} bytes, more than a {WHAT} checkpoint holds ({MAX_BYTES})")
            data = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise UserError(f"{path}: a folder, not a {WHAT} checkpoint") from None
    except OSError as exc:
        raise UserError(f"{path}: not a readable {WHAT} checkpoint ({exc.strerror or exc})") from None
    keep = data.rfind(b"\n") + 1  # whole lines only: a torn last line is dropped
    rows = data[:keep].split(b"\n")[:-1]
    if not rows:
        raise UserError(f"{path}: not a {WHAT} checkpoint (no header line)")
    try:
        saved = orjson.loads(rows[0])
    except orjson.JSONDecodeError:
        saved = None
    if not isinstance(saved, dict) or saved.get("format") != FORMAT:
        raise UserError(f"{path}: not a {WHAT} checkpoint (no {FORMAT} header line)")
    opener = saved.get("opener")
    if opener is not None and (not isinstance(opener, str) or len(opener) > 64):
        raise UserError(f"{path}: malformed {WHAT} checkpoint ('opener')")
    split = saved.get("split")
    if split is not None and (not isinstance(split, int) or isinstance(split, bool) or not 3 <= split < 1 << 62):
        raise UserError(f"{path}: malformed {WHAT} checkpoint ('split')")
    if header.get("opener") == "":
        header = {k: v for k, v in {**header, "opener": opener, "split": split}.items()
                  if k != "split" or v is not None}
    differences = header_differences(saved, header)
    if not differences and split != header.get("split"):
        differences = [f"split {split if split is not None else 'none'} there, "
                       f"{header.get('split', 'none')} here"]
    if differences:
        raise CheckpointMismatch(path, WHAT, differences, resuming)
    head = header_bytes(header)
    lines = [parse_line(path, i, raw, head) for i, raw in enumerate(rows[1:], 2) if raw]
    return Journal(lines, opener, keep, split)


def jobs_checkpoint(path, game, cap: int, rules: int, opener: str | None, split: int | None = None) -> Checkpoint:
    """The files.Checkpoint of a job-split proof (opener "": any opener's, to show it)."""
    header = jobs_header(game, cap, rules, opener, split)
    return Checkpoint(path, WHAT, header, load=lambda path, header, resuming: read_journal(path, header, resuming))


class JobWriter:
    """Appends finished jobs to a jobs checkpoint (see the module's docstring); thread-safe."""

    def __init__(self, path, header: dict, journal: Journal | None):
        self.path, self.head = Path(path), header_bytes(header)
        if journal is None:
            write_atomic(self.path, self.head + b"\n")
        self.file = open(self.path, "r+b")
        if journal is not None:
            self.file.truncate(journal.keep)  # a torn last line, if any, goes
        self.file.seek(0, os.SEEK_END)
        self.lock = threading.Lock()
        self.synced = time.monotonic()
        self.error: str | None = None

    def append(self, job: JobLine) -> None:
        data = line_bytes(self.head, job)
        with self.lock:
            try:
                self.file.write(data)
                self.file.flush()  # one write of the whole line: a kill -9 leaves it or nothing
                if time.monotonic() - self.synced >= SYNC_EVERY:
                    os.fsync(self.file.fileno())
                    self.synced = time.monotonic()
                self.error = None
            except OSError as exc:
                self.error = exc.strerror or str(exc)

    def close(self) -> None:
        with self.lock:
            try:
                self.file.flush()
                os.fsync(self.file.fileno())
            except OSError as exc:
                self.error = exc.strerror or str(exc)
            self.file.close()


# --- the opener proof ---
@dataclass
class OpenerResult:
    value: int  # the opener's exact total when finished (INF64: no strategy), else a proven lower bound
    first: int
    finished: bool
    jobs: int  # child states with pairs
    done: int  # jobs recorded (this run and before)
    evaluated: int  # jobs this run did
    seconds: float  # this run's
    nodes: int  # over every recorded job
    job_seconds: float  # over every recorded job
    interrupted: bool = False
    checkpoint_error: str | None = None


@dataclass
class Split:
    """A child state split into one job per guess tried there (its second guess): W(child) is the
    least of their costs, so the jobs are those of a root proof of the child (root.RootLedger over
    its plan, state_plan: the same order, budgets and refutation by bound as DordleSearch.solve
    at that state), and the child's value is the ledger's best once every guess is settled."""

    child: Child
    plan: RootPlan
    ledger: RootLedger
    next: int = 0  # the first position not yet handed out

    def finished(self) -> bool:
        position = next((p for p in range(len(self.plan.order)) if not self.ledger.has(p)), len(self.plan.order))
        return self.plan.settled or position >= len(self.plan.order) or self.ledger.refuted(position)

    def value(self) -> int:
        """W(child) once finished, else a proven lower bound on it."""
        if self.plan.trivial is not None:
            return min(int(self.plan.trivial[0]), INF64)
        if self.plan.lower >= INF64:
            return INF64
        if self.finished():
            return self.ledger.best()[0]
        return min(self.ledger.lower(False), INF64)


def state_plan(search, S1, S2, ident: bool, d: int) -> RootPlan:
    """root.root_plan of any state (S1, S2, d): the guesses DordleSearch.solve tries there, their
    bounds and order, the state's own bound."""
    m = bounds.pairs(len(S1), len(S2), ident)
    trivial = _trivial_root(search, S1, S2, ident, d, m)
    if trivial is not None:
        G, lbs, order, lower = search.all_guesses[:0], np.zeros(0, np.int64), np.zeros(0, np.int64), trivial[0]
    else:
        G, lbs, scores, lower = search.candidates(S1, S2, ident, d)
        order = search.guess_order(lbs, scores)
    return RootPlan(S1, S2, ident, d, G, lbs, order, int(lower), trivial)


@dataclass
class OpenerPlan:
    """Opening the whole game with `first`: its pairs m, the single boards' exact sum, the child
    states with pairs (search.Child) solved whole, largest first, by key, and those of at least
    `split` pairs split by their second guess (Split), by key."""

    first: int
    m: int
    singles: int
    children: dict[str, Child]
    splits: dict[str, Split]
    split: int | None = None

    @property
    def jobs(self) -> int:
        return len(self.children) + sum(len(sp.plan.order) for sp in self.splits.values())

    def finished(self, done: dict[str, JobLine]) -> bool:
        return len(done) == len(self.children) and all(sp.finished() for sp in self.splits.values())

    def bound(self, search, done: dict[str, JobLine]) -> int:
        """m + singles + each whole child's exact value if done, else its counting bound, + each
        split child's value or proven bound: a proven lower bound on the opener's total, equal to
        it once every job is settled."""
        total = self.m + self.singles
        d = search.cap - 1
        for key, child in self.children.items():
            job = done.get(key)
            total += job.value if job is not None else bounds.child_bound(len(child.S1), len(child.S2), child.ident, d)
        total += sum(min(sp.value(), INF64) for sp in self.splits.values())
        return min(total, INF64)


def opener_plan(search, first: int, split: int | None = None) -> OpenerPlan:
    S1, S2, ident, d = search.root()
    m, singles, children, splits = len(S1) * (len(S1) - 1), 0, {}, {}
    for part in search.parts(S1, S2, ident, first):
        if isinstance(part, Child):
            if split is not None and part.pairs >= split and d - 1 >= 2:
                plan = state_plan(search, part.S1, part.S2, part.ident, d - 1)
                splits[part.key(search.game)] = Split(part, plan, RootLedger(search, plan))
            elif part.pairs:
                children[part.key(search.game)] = part
        else:
            singles = min(INF64, singles + search.v1(part.answers, d - 1))
    ordered = dict(sorted(children.items(), key=lambda item: -item[1].pairs))
    return OpenerPlan(first, m, singles, ordered, dict(sorted(splits.items(), key=lambda item: -item[1].child.pairs)),
                      split)


def solve_child(search, child: Child) -> tuple[int, int, float]:
    """(W(child, cap - 1) exact, the nodes and seconds it took)."""
    nodes, t0 = search.nodes, time.perf_counter()
    value, _ = search.solve(child.S1, child.S2, child.ident, search.cap - 1)
    return min(int(value), INF64), search.nodes - nodes, time.perf_counter() - t0


def second_cost(search, sp: Split, guess: int, budget: int) -> tuple[int, bool, int, float]:
    """(the cost of opening the split child with `guess`, exact if below `budget`, else a proven
    bound >= budget; whether exact; nodes; seconds)."""
    nodes, t0 = search.nodes, time.perf_counter()
    plan = sp.plan
    value = min(INF64, int(search.evaluate(plan.S1, plan.S2, plan.ident, plan.d, guess, budget, plan.G)))
    return value, value < budget, search.nodes - nodes, time.perf_counter() - t0


def opener_done(path, plan: OpenerPlan, journal: Journal | None, game) -> dict[str, JobLine]:
    """The recorded jobs of the checkpoint: each whole child's (a child state of the plan, exact,
    recorded once or each time with the same value), returned; each split child's (KEY WORD, WORD a
    guess of these lists), recorded in its ledger (an exact cost recorded twice must agree)."""
    done: dict[str, JobLine] = {}
    for job in journal.lines if journal else ():
        child_key, _, word = job.key.partition(" ")
        if word:
            sp = plan.splits.get(child_key)
            if sp is None or word not in game.guess_index:
                raise UserError(f"{path}: job {job.key[:30]!r} is not a second guess of a split child state")
            guess = game.guess_index[word]
            old = sp.ledger.results.get(word)
            if old is not None and old[1] and job.exact and old[0] != job.value:
                raise UserError(f"{path}: job {job.key[:30]!r} is recorded twice with different values")
            if old is None or (job.exact and not old[1]) or (not job.exact and not old[1] and job.value > old[0]):
                sp.ledger.record(guess, job.value, job.exact)
            continue
        if job.key not in plan.children:
            raise UserError(f"{path}: job {job.key[:20]!r} is not a child state of this opener")
        if not job.exact:
            raise UserError(f"{path}: job {job.key[:20]!r} records a bound, not the exact value of a child state")
        if job.key in done and done[job.key].value != job.value:
            raise UserError(f"{path}: job {job.key[:20]!r} is recorded twice with different values")
        done[job.key] = job
    return done


def prove_opener(search, first: int, path=None, journal: Journal | None = None, *, progress=None,
                 max_jobs: int | None = None, cluster=None, split: int | None = None) -> OpenerResult:
    """The exact total of opening the whole game with `first`, child state by child state, each
    finished one appended to the checkpoint `path` (held by the caller; `journal`: what it held,
    whose jobs are skipped). `split`: child states of at least that many pairs are split by their
    second guess (Split), the whole ones done first. `cluster` = (scheduler, workers, spec): the
    jobs on Dask. `max_jobs`: stop after handing out that many (unfinished; for tests). Ctrl-C:
    interrupted, every finished job saved."""
    t0 = time.perf_counter()
    game = search.game
    plan = opener_plan(search, first, split)
    done = opener_done(path, plan, journal, game)
    writer = JobWriter(path, jobs_header(game, search.cap, search.rules, game.guesses[first], split),
                       journal) if path is not None else None
    todo = iter([key for key in plan.children if key not in done])
    splits = list(plan.splits.items())
    recorded = len(done) + sum(sp.ledger.done() for sp in plan.splits.values())
    bar = progress(plan.jobs, recorded) if progress else None
    state = {"evaluated": 0, "handed": 0, "interrupted": False, "split": 0}
    lines: list[JobLine] = list(done.values()) + [j for j in (journal.lines if journal else ()) if " " in j.key]

    def record(job: JobLine) -> None:
        child_key, _, word = job.key.partition(" ")
        if word:
            plan.splits[child_key].ledger.record(game.guess_index[word], job.value, job.exact)
        else:
            done[job.key] = job
        lines.append(job)
        state["evaluated"] += 1
        if writer is not None:
            writer.append(job)
        if bar is not None:
            bar.update(1)
            bar.set_postfix_str(f"proven >= {plan.bound(search, done)}")

    def next_job():
        """("child", key) or ("second", key, guess, budget); None when none is left to hand out now."""
        if max_jobs is not None and state["handed"] >= max_jobs:
            return None
        key = next(todo, None)
        if key is not None:
            state["handed"] += 1
            return "child", key
        while state["split"] < len(splits):
            key, sp = splits[state["split"]]
            while sp.next < len(sp.plan.order) and sp.ledger.has(sp.next):
                sp.next += 1
            if sp.plan.settled or sp.next >= len(sp.plan.order) or sp.ledger.refuted(sp.next):
                state["split"] += 1  # the rest of its guesses are settled (by their bound)
                continue
            position = sp.next
            sp.next += 1
            state["handed"] += 1
            return "second", key, sp.plan.guess(position), sp.ledger.budget(position)
        return None

    def run_here(job) -> JobLine:
        if job[0] == "child":
            value, nodes, seconds = solve_child(search, plan.children[job[1]])
            return JobLine(job[1], value, True, nodes, seconds)
        _, key, guess, budget = job
        value, exact, nodes, seconds = second_cost(search, plan.splits[key], guess, budget)
        return JobLine(f"{key} {game.guesses[guess]}", value, exact, nodes, seconds)

    try:
        if cluster is None:
            while (job := next_job()) is not None:
                record(run_here(job))
        else:
            scheduler, workers, spec = cluster

            def submit():
                job = next_job()
                if job is None:
                    return None
                if job[0] == "child":
                    return child_job, spec, first, job[1]
                return second_job, spec, first, split, job[1], job[2], job[3]

            _on_dask(scheduler, workers, submit, lambda out: record(JobLine(*out)))
    except KeyboardInterrupt:
        state["interrupted"] = True
    finally:
        if bar is not None:
            bar.close()
        if writer is not None:
            writer.close()
    return OpenerResult(plan.bound(search, done), first, plan.finished(done), plan.jobs,
                        len(done) + sum(sp.ledger.done() for sp in plan.splits.values()), state["evaluated"],
                        time.perf_counter() - t0, sum(j.nodes for j in lines), sum(j.seconds for j in lines),
                        state["interrupted"], writer.error if writer is not None else None)


# --- the root proof ---
def root_results(path, search, journal: Journal | None) -> dict[str, tuple[int, bool]]:
    """The openers recorded ({word: (value, exact)}), each a guess of the game: an exact total
    recorded twice must agree; of two bounds the larger holds; an exact total beats a bound."""
    results: dict[str, tuple[int, bool]] = {}
    for job in journal.lines if journal else ():
        if job.key not in search.game.guess_index:
            raise UserError(f"{path}: job {job.key[:20]!r} is not a guess of these lists")
        old = results.get(job.key)
        if old is not None and old[1] and job.exact and old[0] != job.value:
            raise UserError(f"{path}: opener {job.key!r} is recorded twice with different totals")
        if old is None or (job.exact and not old[1]) or (not job.exact and not old[1] and job.value > old[0]):
            results[job.key] = (job.value, job.exact)
    return results


def prove_root(search, path=None, journal: Journal | None = None, *, progress=None, max_jobs: int | None = None,
               cluster=None) -> RootResult:
    """root.root_search with each opener a job of the checkpoint `path` (held by the caller;
    `journal`: what it held, whose openers are skipped), in process or with `cluster` =
    (scheduler, workers, spec) on Dask: solve_game's value and opener when finished."""
    t0 = time.perf_counter()
    plan = root_plan(search)
    ledger = RootLedger(search, plan, root_results(path, search, journal))
    writer = JobWriter(path, jobs_header(search.game, search.cap, search.rules, None), journal) \
        if path is not None else None
    order = plan.order
    state = {"position": 0, "finished": plan.settled, "evaluated": 0, "submitted": 0}
    interrupted = False
    shown = ledger.done()
    bar = progress(len(order), shown) if progress else None

    def record(guess: int, value: int, exact: bool, nodes: int, seconds: float) -> None:
        ledger.record(guess, value, exact)
        state["evaluated"] += 1
        if writer is not None:
            writer.append(JobLine(search.game.guesses[guess], min(int(value), INF64), exact, nodes, seconds))
        if bar is not None:
            bar.update(1)
            bar.set_postfix_str(ledger.postfix())

    def next_position() -> int | None:
        """The next opener to evaluate, skipping recorded ones; None when the rest are settled
        (finished set) or the job budget is spent."""
        while state["position"] < len(order) and ledger.has(state["position"]):
            state["position"] += 1
        position = state["position"]
        if position >= len(order) or ledger.refuted(position):
            state["finished"] = True
            return None
        if max_jobs is not None and state["submitted"] >= max_jobs:
            return None
        state["position"] += 1
        state["submitted"] += 1
        return position

    try:
        if not state["finished"]:
            if cluster is None:
                while (position := next_position()) is not None:
                    budget, guess = ledger.budget(position), plan.guess(position)
                    nodes, t1 = search.nodes, time.perf_counter()
                    cost = search.evaluate(plan.S1, plan.S2, plan.ident, plan.d, guess, budget, plan.G)
                    record(guess, cost, cost < budget, search.nodes - nodes, time.perf_counter() - t1)
            else:
                scheduler, workers, spec = cluster

                def submit():
                    position = next_position()
                    if position is None:
                        return None
                    return opener_job, spec, plan.guess(position), ledger.budget(position)

                _on_dask(scheduler, workers, submit, lambda out: record(*out))  # returns once none is in flight
    except KeyboardInterrupt:
        interrupted = True
        if cluster is not None:
            state["finished"] = False
    finally:
        if bar is not None:
            if state["finished"]:
                bar.update(len(order) - shown - state["evaluated"])
            bar.close()
        if writer is not None:
            writer.close()
    return root_result(search, plan, ledger, state["finished"], state["evaluated"], time.perf_counter() - t0,
                       interrupted, writer)


# --- on Dask ---
_worker_openers: dict = {}
_worker_lock = threading.Lock()


def child_job(spec, first: int, key: str) -> tuple[str, int, bool, int, float]:
    """A worker's job of the opener proof: (key, W of that child state exact, True, nodes, seconds)."""
    from .cluster import _search_for

    search, _ = _search_for(spec)
    with _worker_lock:
        plan = _worker_openers.get((spec, first, None))
        if plan is None:
            _worker_openers.clear()
            plan = _worker_openers[(spec, first, None)] = opener_plan(search, first)
    child = plan.children.get(key)
    if child is None:
        raise ValueError(f"{key!r} is not a child state of this opener")  # the client sent it: a bug
    value, nodes, seconds = solve_child(search, child)
    return key, value, True, nodes, seconds


def second_job(spec, first: int, split: int, key: str, guess: int, budget: int) -> tuple[str, int, bool, int, float]:
    """A worker's job of a split child state: (KEY WORD, the cost of opening it with `guess`,
    exact if below `budget` else a proven bound >= budget, whether exact, nodes, seconds)."""
    from .cluster import _search_for

    search, _ = _search_for(spec)
    with _worker_lock:
        plan = _worker_openers.get((spec, first, split))
        if plan is None:
            _worker_openers.clear()
            plan = _worker_openers[(spec, first, split)] = opener_plan(search, first, split)
    sp = plan.splits.get(key)
    if sp is None:
        raise ValueError(f"{key!r} is not a split child state of this opener")  # the client sent it: a bug
    value, exact, nodes, seconds = second_cost(search, sp, guess, budget)
    return f"{key} {search.game.guesses[guess]}", value, exact, nodes, seconds


def opener_job(spec, guess: int, budget: int) -> tuple[int, int, bool, int, float]:
    """A worker's job of the root proof: (guess, its total exact if below `budget`, else a proven
    bound >= budget, whether exact, nodes, seconds), as root_search evaluates an opener."""
    from .cluster import _search_for

    search, plan = _search_for(spec)
    nodes, t0 = search.nodes, time.perf_counter()
    value = min(INF64, int(search.evaluate(plan.S1, plan.S2, plan.ident, plan.d, guess, budget, plan.G)))
    return guess, value, value < budget, search.nodes - nodes, time.perf_counter() - t0


def _on_dask(scheduler: str, workers: int | None, submit, on_result) -> None:
    """Run the jobs `submit()` hands out ((function, *arguments), None when there are no more for
    now) on Dask, a few per worker thread in flight (a job submitted later sees the results in
    before it), `on_result(result)` for each as it comes."""
    from .cluster import JOBS_PER_THREAD, RETRIES, THREADS_EVERY, _connect

    with ExitStack() as stack:
        client = _connect(stack, scheduler, workers)
        from distributed import KilledWorker, as_completed

        in_flight = as_completed(with_results=True)
        threads = [0, -float("inf")]
        more = [True]

        def fill() -> None:
            if time.monotonic() - threads[1] > THREADS_EVERY:
                threads[:] = [sum(client.nthreads().values()), time.monotonic()]
            while more[0] and in_flight.count() < JOBS_PER_THREAD * max(1, threads[0]):
                job = submit()
                if job is None:
                    more[0] = False
                    return
                in_flight.add(client.submit(*job, retries=RETRIES, pure=False))

        try:
            fill()
            for _, result in in_flight:
                on_result(result)
                more[0] = True
                fill()
        except KilledWorker as exc:
            raise UserError(f"a Dordle job killed {exc.allowed_failures + 1} workers in turn (out of memory?); "
                            "see the worker logs") from None


# --- the run a command makes ---
def build_by_jobs(game, matrix, cap: int, path=None, *, first: int | None = None, resume: bool = False,
                  overwrite: bool = False, progress=None, cluster=None, rules: int | None = None,
                  split: int | None = None):
    """(search, result): the job-split proof of the whole game within `cap` (`first` None: the
    root proof, a root.RootResult; else the opener proof of `first`, an OpenerResult), its
    checkpoint `path` held for the run (locked; an existing one refused unless `resume` or
    `overwrite`; with `resume`, its header and every line checked before the search is set up).
    `cluster` = (scheduler, workers, cluster.dordle_spec's other options): on Dask. `split`
    (opener proofs): child states of at least that many pairs split by their second guess.
    Ctrl-C or TERM: Stopped, every finished job saved."""
    rules = ALL_RULES if rules is None else rules
    opener = None if first is None else game.guesses[first]
    held = jobs_checkpoint(path, game, cap, rules, opener, split if first is not None else None)
    with held.held(resume=resume, overwrite=overwrite):
        journal = held.payload
        search = DordleSearch(game, matrix, cap, rules=rules)
        spec_cluster = None
        if cluster is not None:
            from .cluster import dordle_spec

            scheduler, workers, options = cluster
            spec_cluster = (scheduler, workers, dordle_spec(game, cap=search.cap, rules=search.rules, **options))
        if first is None:
            result = prove_root(search, path, journal, progress=progress, cluster=spec_cluster)
        else:
            result = prove_opener(search, first, path, journal, progress=progress, cluster=spec_cluster, split=split)
        if result.interrupted:
            raise Stopped(path, f"after {result.evaluated} jobs this run", result.checkpoint_error)
    return search, result


def jobs_status(game, matrix, cap: int, rules: int, path) -> list[str]:
    """What the jobs checkpoint at `path` proves so far, as lines (the search is set up to plan the
    jobs again: the file's claims are counted against the plan, not taken from it)."""
    journal = jobs_checkpoint(path, game, cap, rules, "").read(resuming=False)
    if journal is None:
        raise NoCheckpoint(path)
    search = DordleSearch(game, matrix, cap, rules=rules)
    n = len(game.answers)
    pairs = n * (n - 1)
    nodes, seconds = sum(j.nodes for j in journal.lines), sum(j.seconds for j in journal.lines)

    def total(value: int) -> str:
        return "none (no strategy within the cap)" if value >= INF64 else f"{value} (mean {value / pairs:.4f})"

    if journal.opener is not None:
        if journal.opener not in game.guess_index:
            raise UserError(f"{path}: its opener {journal.opener[:20]!r} is not a guess of these lists")
        plan = opener_plan(search, game.guess_index[journal.opener], journal.split)
        done = opener_done(path, plan, journal, game)
        value = plan.bound(search, done)
        finished = plan.finished(done)
        whole = f"{len(plan.children)} child states solved whole ({len(done)} done)"
        split = "" if not plan.splits else (
            f", {len(plan.splits)} split by their second guess (at least {plan.split} pairs; "
            f"{sum(sp.finished() for sp in plan.splits.values())} settled, "
            f"{sum(sp.ledger.done() for sp in plan.splits.values())} second guesses done)")
        return [f"{path}: opener proof of {journal.opener}, {'finished: the total is exact' if finished else 'not finished'}",
                f"jobs: {whole}{split}, {nodes} nodes, {seconds:.0f} s of search",
                f"{'total' if finished else 'proven lower bound'}: {total(value)}"]
    plan = root_plan(search)
    ledger = RootLedger(search, plan, root_results(path, search, journal))
    # finished when the first opener not recorded is refuted by its bound (every later one then is)
    position = next((p for p in range(len(plan.order)) if not ledger.has(p)), len(plan.order))
    finished = plan.settled or position >= len(plan.order) or ledger.refuted(position)
    best, guess = ledger.best()
    if finished and plan.trivial is not None:
        best, guess = plan.trivial
    exact = sum(e for _, e in ledger.results.values())
    lower = best if finished else ledger.lower(False)
    shown = "none yet" if best >= INF64 else f"{total(best)}, opening with {game.guesses[guess]}"
    return [f"{path}: root proof over the openers, {'finished: the best is optimal' if finished else 'not finished'}",
            f"openers: {len(plan.order)} ({exact} exact, {ledger.done() - exact} refuted by search, "
            f"{len(plan.order) - ledger.done()} {'refuted by their bound' if finished else 'left'}), "
            f"{nodes} nodes, {seconds:.0f} s of search",
            f"best total so far: {shown}",
            f"proven lower bound: {total(lower)}"]
