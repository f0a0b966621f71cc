"""Build the exact optimal tree of a game, from its start or from a position in play.

`build` opens with a given guess, or with the proven best one found by a search over every
guess, and solves each class below the opener as an independent exact problem on all cores;
with a checkpoint each finished class (and, in a symmetric game, what the symmetric levels
proved) is saved as it comes, and a resume starts from there. `exact_tree` is what the `build`
command runs: with no opener given, a rank of the openers (rank.py) chooses it first, and the
build takes what the rank proved; `smallest_cap_tree` finds the least cap any tree meets first
(the worst-case objective). `greedy_build` plays a heuristic rule instead (heuristics.py).
"""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass, field

import numpy as np

from ..errors import HistoryBreaksMode, Stopped, UserError
from ..files import ThrottledSave
from ..progress import progress_bar
from . import kernels
from .context import Counters, default_threads, memo_mb_per_thread
from .solver import INF, NO_CAP, Infeasible, Solver
from . import split
from .jobs import Job, Workers, next_outcome, trace_rows
from .symmetric import ProvenProgress


class BuildInterrupted(Stopped):
    """Ctrl-C or TERM stopped a build (its rank of the openers, or the build itself); `checkpoint`
    (if any) holds what it finished."""

    def __init__(self, checkpoint: str | None, error: str | None = None):
        super().__init__(checkpoint, error=error)


@dataclass
class BuildResult:
    root: dict
    total: int
    seconds: float
    counters: Counters
    first: str
    n_answers: int
    extra: dict = field(default_factory=dict)
    earlier_seconds: float = 0.0  # spent by the runs before a resume (from the checkpoint)
    checkpoint_error: str | None = None  # why the checkpoint could not be saved at the end (None: it was)
    job_seconds: list[float] = field(default_factory=list)  # the CPU seconds of each job below the opener
    depths: list[int] = field(default_factory=list)  # the guesses each answer left takes in root, in id order
    job_trace: list = field(default_factory=list)  # those jobs and what each waited for (jobs.trace_rows)


def candidate_ids(game, history: list[tuple[str, int]]) -> np.ndarray:
    """Answers consistent with a history of (guess, code) pairs, by the game's own feedback rule."""
    ids = [i for i, a in enumerate(game.answers) if all(game.feedback(g, a) == code for g, code in history)]
    return np.array(ids, dtype=np.int32)


def build(game, matrix: np.ndarray, first: str | None = None, max_guesses: int | None = 6,
          history: list[tuple[str, int]] | None = None, threads: int | None = None, progress: bool = True,
          rules: int = kernels.ALL_RULES, memo_mb: int = 160, mode: str = "normal", checkpoint: str | None = None,
          resume: bool = False, proven: list | None = None, policy: split.SplitPolicy = split.SHIPPED) -> BuildResult:
    """The exact optimal tree from a position (the start, or after `history`), opening with
    `first` (None: the proven best opener, found by searching every guess), with at most
    `max_guesses` per answer (None: no cap). With `checkpoint`, each finished subtree of the
    opener is saved there as it comes (atomically), and `resume` starts from the ones a stopped
    build saved. `proven`: rows of Solver.proven_entries() from a search of the same game, cap
    and mode (the rank that chose `first`, whose classes it has often solved already). `policy`:
    when and how far the search splits across the threads (split.SplitPolicy; as shipped by
    default)."""
    start = time.perf_counter()
    kept = None
    if checkpoint:  # read first, to refuse one of another run before any work (imported only here: starts sooner)
        from .checkpoint import build_checkpoint, build_checkpoint_header

        kept = build_checkpoint(checkpoint, build_checkpoint_header(game, max_guesses, mode, history or []))
        kept.payload = kept.read() if resume else None
    threads = threads or default_threads()
    solver = Solver(game, matrix, max_guesses, rules, memo_mb_per_thread(memo_mb, threads), mode)
    solver.search_orbits_in_parallel(threads)
    if policy.shared_for(threads):
        solver.share_memo(threads)
    position = _Build(solver, history or [], threads, progress, kept, proven, start, policy)
    g = position.opener(first)
    root, total = position.assemble(g, position.d)
    if first is None:
        root = solver.shallowest(position.S, position.req, total, root,
                                 lambda guess, cap: position.assemble(guess, cap)[0], position.solve_here)
        g = game.guess_index[root["guess"]]
    if checkpoint:
        position.save(last=True)  # what the last searches proved, and a last try if a save failed on the way
    return BuildResult(root, total, time.perf_counter() - start, solver.counters(), game.guesses[g], len(position.S),
                       earlier_seconds=position.earlier, checkpoint_error=position.save.error if checkpoint else None,
                       job_seconds=position.job_seconds, job_trace=trace_rows(position.ran),
                       depths=answer_depths(game, matrix, root, position.S))


def answer_depths(game, matrix: np.ndarray, root: dict, answers) -> list[int]:
    """The guesses each answer (by id) takes in the tree `root`, read off the tree with the
    pattern matrix: tree.replay's walk without its feedback function, which is most of a
    replay's cost (tests check that both agree). A tree the builder made has every branch; one
    missing is an internal error."""
    texts: dict[int, str] = {}  # code -> pattern text, for the codes met
    index, win = game.guess_index, game.win_code
    depths = []
    for a in answers:
        a, node, depth = int(a), root, 1
        while (code := matrix.item(index[node["guess"]], a)) != win:
            text = texts.get(code)
            if text is None:
                text = texts[code] = game.pattern_text(code)
            node = node.get("next", {}).get(text)
            if node is None:
                raise RuntimeError(f"internal error: the tree has no branch for answer {game.answers[a]!r}")
            depth += 1
        depths.append(depth)
    return depths


class _Build:
    """One build's position (the answers left S, the guesses left d, the mode's constraint) and
    its checkpoint: the finished subtrees by "WORD/guesses left", saved as they come."""

    def __init__(self, solver: Solver, history: list[tuple[str, int]], threads: int, progress: bool,
                 kept, proven: list | None, start: float,
                 policy: split.SplitPolicy = split.SHIPPED):
        game = solver.game
        self.solver, self.game, self.threads, self.progress = solver, game, threads, progress
        self.policy = policy
        self.job_seconds: list[float] = []
        self.ran: list[Job] = []
        self.checkpoint = kept.path if kept is not None else None  # kept: files.Checkpoint, its payload read
        self.req = solver.empty_constraint()
        for word, code in history:
            g_played = game.guess_index[word]
            if not solver.legal(self.req, g_played):
                raise HistoryBreaksMode(word, solver.mode)
            self.req = solver.constrain(self.req, g_played, code)
        self.S = candidate_ids(game, history)
        if len(self.S) == 0:
            raise UserError("no answer is consistent with that history")
        self.d = solver.cap - len(history)
        if self.d < 1:
            raise UserError(f"the history already uses {len(history)} guesses of {solver.cap}")
        self.played = [game.guess_index[word] for word, _ in history]
        doc, make = {}, None
        if kept is not None:
            from .checkpoint import build_checkpoint_bytes

            doc = kept.payload or {}

            # the finished subtrees and, in symmetric games, what the symmetric levels proved so
            # far: a build stopped in the middle of a long subtree resumes inside it too
            def make() -> bytes:
                return build_checkpoint_bytes(kept.header, self.earlier + time.perf_counter() - start, self.saved,
                                              solver.proven_entries())
        self.saved = doc.get("subtrees", {})
        self.earlier = float(doc.get("seconds", 0.0))
        solver.load_proven(doc.get("proven", []))
        solver.load_proven(proven or [])
        self.save = kept.saver(make) if kept is not None else ThrottledSave(None, make)
        self.shown = ProvenProgress(solver, self.save if kept is not None else None)
        self.class_progress: ClassProgress | None = None  # the bar of the classes being solved (assemble)

    def solve_here(self, cap: int, beta: int) -> tuple[int, int]:
        """The bounded search at the position itself."""
        if self.solver.symmetric:
            return self.solver.solve_symmetric(self.S, cap, self.played, beta, self.game.symmetric_levels + 1)
        return self.solver.solve(self.S, cap, beta, self.req)

    def opener(self, first: str | None) -> int:
        """The guess id of `first`, checked; with None, the best opener found by the search."""
        if first is None:
            value, g = self.solve_here(self.d, INF)
            if value >= INF:
                raise Infeasible(self.solver.cap)
            return g
        g = self.game.guess_index.get(first)
        if g is None:
            raise UserError(f"{first!r} is not an allowed guess in {self.game.name}")
        if not self.solver.legal(self.req, g):
            raise UserError(f"{first!r} breaks the {self.solver.mode}-mode rule here")
        return g

    def solve_class(self, g: int, d: int, code: int, part: np.ndarray, on_tried=None) -> tuple[int, int, dict | None]:
        """(code, value, subtree or None if none exists) of the class `part` below g, with d
        guesses left at g. In a symmetric game (normal mode) the class tries one guess per orbit
        of the maps fixing the history and g, for the game's `symmetric_levels` levels
        (engine/games/symmetry.py); `on_tried(share)` then follows its second guesses."""
        solver = self.solver
        if solver.symmetric:
            history, levels = self.played + [g], self.game.symmetric_levels
            value, second = solver.solve_symmetric(part, d - 1, history, INF, levels, on_tried=on_tried)
            if value >= INF:
                return code, value, None
            return code, value, solver.tree_symmetric(part, d - 1, history, levels, (value, second))
        child_req = solver.constrain(self.req, g, code)
        value, _ = solver.solve(part, d - 1, req=child_req, keep_top=True)  # (its tree's tie-break starts from it)
        if value >= INF:
            return code, value, None
        return code, value, solver.tree(part, d - 1, child_req)

    def assemble(self, g: int, d: int) -> tuple[dict, int]:
        """The tree opening with g with d guesses left, and its total: below g every class is an
        independent exact problem, the largest first so the threads finish together, and (from
        the policy's split_min_threads threads on) a large class's own guesses are valued on every idle
        thread too (split.py); the classes the checkpoint holds are taken from it."""
        game, S = self.game, self.S
        jobs = sorted(self.solver.classes(S, g), key=lambda item: -len(item[1]))
        results: dict[int, dict] = {}
        total = len(S)
        finished = self.saved.setdefault(f"{game.guesses[g]}/{d}", {})  # code -> {"value", "tree"}
        for code_text, item in finished.items():
            results[int(code_text)] = item["tree"]
            total += item["value"]
        todo = [item for item in jobs if str(item[0]) not in finished]
        # counted in answers: a class searched for long moves the bar as its guesses are tried
        bar = progress_bar(total=sum(len(part) for _, part in jobs),
                           initial=sum(len(part) for code, part in jobs if str(code) in finished),
                           desc=f"subtrees of {game.guesses[g]}", unit="answers", show=self.progress)
        # the total is at least what is solved plus the class bounds of the classes left
        bounds = self.solver.class_bounds[d - 1]
        sizes = {code: len(part) for code, part in todo}
        self.class_progress = ClassProgress(bar, sizes)
        left = sum(int(bounds[n]) for n in sizes.values())
        done = len(jobs) - len(todo)
        self.shown.bar, self.shown.text = bar, f"classes={done}/{len(jobs)} bound>={total + left} total={total}"
        outcomes: queue.Queue = queue.Queue()
        workers = Workers(self.threads, [], outcomes.put)
        workers.sources = [_ClassSearch(self, g, d, code, part, outcomes.put, workers) for code, part in todo]
        workers.start()
        try:
            for _ in todo:
                outcome = next_outcome(outcomes)
                if isinstance(outcome, BaseException):
                    raise outcome
                code, value, subtree = outcome
                if subtree is None:
                    raise Infeasible(self.solver.cap, game.guesses[g])
                results[code] = subtree
                total += value
                if self.checkpoint:
                    with self.save.lock:
                        finished[str(code)] = {"value": value, "tree": subtree}
                    self.save()
                self.class_progress.finished(code)
                done += 1
                left -= int(bounds[sizes.pop(code)])
                self.shown.text = f"classes={done}/{len(jobs)} bound>={total + left} total={total}"
                self.shown.show()
        except KeyboardInterrupt:
            if self.checkpoint:
                self.save()
            raise
        finally:
            self.shown.bar = None
            bar.close()
            workers.stop()  # on an error or Ctrl-C, do not wait for the rest
        self.job_seconds.extend(workers.job_seconds)
        self.ran.extend(workers.ran)
        root = {"guess": game.guesses[g]}
        if results:
            root["next"] = {game.pattern_text(code): results[code] for code in sorted(results)}
        return root, total


class ClassProgress:
    """The bar of an opener's subtrees, counted in answers: a finished class counts all its
    answers; a class still searched in a symmetric game, the share of its second guesses (one per
    orbit) tried so far, a guess under way by the answers of its classes solved, never all of them. So the bar moves, and its estimate of the time left
    shows, while one long class runs (Bulls and Cows' largest took minutes at "0 of 13")."""

    def __init__(self, bar, sizes: dict[int, int]):
        self.bar, self.sizes = bar, dict(sizes)
        self.credited = {code: 0 for code in sizes}
        self.lock = threading.Lock()

    def tried(self, code: int):
        """The `on_tried(share)` of the class `code` (OrbitSearch.solve_symmetric)."""
        size = self.sizes[code]
        return lambda share: self._credit(code, min(size - 1, int(size * share)))

    def finished(self, code: int) -> None:
        self._credit(code, self.sizes[code])

    def _credit(self, code: int, answers: int) -> None:
        with self.lock:
            more = answers - self.credited[code]
            if more > 0:
                self.credited[code] = answers
                self.bar.update(more)


class _ClassSearch:
    """One class below the opener as a source of jobs (jobs.Workers): one job that solves it whole
    (_Build.solve_class), or, for a large class from the build's policy's split_min_threads
    threads on (SplitPolicy.split_for), a split.SplitTree: its guesses valued as jobs of their
    own, its tree built on the thread that valued the best guess; from its deep_min_threads
    threads on the deeper split too (SplitPolicy.deep_for: the classes of its first guess valued
    as jobs and split in turn,
    its tree built where they were solved). `finish((code, value, subtree or None))` is called
    once at the end."""

    def __init__(self, build: _Build, g: int, d: int, code: int, part: np.ndarray, finish, workers: Workers):
        self.ready: list = []  # jobs any worker may take
        self.tree = None
        solver = build.solver
        policy = build.policy
        deep = policy.deep_for(build.threads)  # the one switch between the split of the top and the deeper split
        if policy.split_for(build.threads) and split.can_split(solver, len(part), d - 1, deep=deep, policy=policy):
            # the split's setup (its scan of every guess, its local matrix) is a job of its own: on a
            # worker, beside other jobs, not on the caller before any job starts
            setup = Job(None)

            def start(worker: int) -> None:
                tree = split.SplitTree(solver, part, d - 1, solver.constrain(build.req, g, code), workers,
                                       lambda value, node, mark: finish((code, value, node)), after=(setup,),
                                       deep=deep, policy=policy)
                with workers.lock:
                    self.tree = tree
                workers.wake()

            setup.run = start
            self.ready.append(setup)
        else:
            tried = build.class_progress.tried(code) if build.class_progress is not None else None
            self.ready.append(Job(lambda worker: finish(build.solve_class(g, d, code, part, on_tried=tried))))

    def take(self):
        if self.ready:
            return self.ready.pop(0)
        return self.tree.take() if self.tree is not None else None


def exact_tree(game, matrix: np.ndarray, first: str | None, max_guesses: int | None,
               history: list[tuple[str, int]] | None = None, *, threads: int | None = None, progress: bool = True,
               mode: str = "normal", checkpoint: str | None = None, resume: bool = False) -> BuildResult:
    """The exact optimal tree within `max_guesses` (None: no cap) opening with `first`; raises
    Infeasible when none exists (proven). With `first` None at the start of a game, the openers
    are ranked first (into `checkpoint`.rank, if a checkpoint is kept) and the build takes the
    best one with what the rank proved; a resume starts the rank from the openers the build
    checkpoint has finished. Ctrl-C or TERM raises BuildInterrupted, once what was finished is
    saved (the rank's in PATH.rank, the build's in PATH)."""
    proven, rank_seconds, rank_error = None, 0.0, None
    if first is None and not history:
        from .rank import rank

        rank_checkpoint = f"{checkpoint}.rank" if checkpoint else None  # a resume does not rank again
        # openers the checkpoint's build finished are known exactly: the rank only has to beat them
        known = {}
        if resume:
            from .checkpoint import finished_openers

            known = finished_openers(game, matrix, checkpoint, max_guesses, mode)
        ranked = rank(game, matrix, top=1, max_guesses=max_guesses, threads=threads, progress=progress,
                      mode=mode, checkpoint=rank_checkpoint, resume=resume, known=known)
        if ranked.interrupted:
            raise BuildInterrupted(checkpoint, ranked.checkpoint_error)
        word, value, _ = ranked.ordered()[0]
        if value >= INF:
            raise Infeasible(NO_CAP if max_guesses is None else max_guesses)
        first, proven, rank_seconds, rank_error = word, ranked.proven, ranked.earlier_seconds, ranked.checkpoint_error
    try:
        result = build(game, matrix, first=first, max_guesses=max_guesses, history=history, threads=threads,
                       progress=progress, mode=mode, checkpoint=checkpoint, resume=resume, proven=proven)
    except KeyboardInterrupt:
        raise BuildInterrupted(checkpoint) from None
    result.earlier_seconds += rank_seconds
    result.checkpoint_error = result.checkpoint_error or rank_error
    return result


def smallest_cap_tree(game, matrix: np.ndarray, first: str | None, max_guesses: int | None,
                      history: list[tuple[str, int]] | None = None, on_infeasible=None, **options) -> BuildResult:
    """The worst-case objective: the exact tree of `exact_tree` (same `options`) within the
    smallest cap any tree meets, up to `max_guesses` (None: no cap), each smaller cap proven
    impossible (`on_infeasible(cap)` is told each)."""
    most = NO_CAP if max_guesses is None else max_guesses
    for d in range(1, most + 1):
        try:
            return exact_tree(game, matrix, first, d, history, **options)
        except Infeasible:
            if on_infeasible is not None:
                on_infeasible(d)
    raise Infeasible(most)


def greedy_build(game, matrix: np.ndarray, strategy: str, history: list[tuple[str, int]] | None = None,
                 first: str | None = None) -> dict:
    """The tree a greedy rule of heuristics.py plays from the position after `history`, opening
    with `first` (None: the rule's own choice)."""
    from .heuristics import greedy_tree

    S = candidate_ids(game, history or [])
    if len(S) == 0:
        raise UserError("no answer is consistent with that history")
    return greedy_tree(game, matrix, S, strategy, None if first is None else game.guess_index[first])
