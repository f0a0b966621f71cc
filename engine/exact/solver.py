"""The exact search of one game, cap and mode: V(S, d), the least total number of guesses over
the answers S (each answer pays every guess up to and including the winning one) with at most d
guesses per answer, its best guess, the cost of a given guess, and the optimal tree.

The kernels (kernels.py) do the search; a Solver holds the game's matrices, the per-thread
contexts (context.py), the hard- and ultra-mode constraints, the class-by-class sum that ranks
openers against a budget, and, for the symmetric games, the orbit-level search (symmetric.py).
"""

from __future__ import annotations

import threading
from contextlib import nullcontext
from dataclasses import dataclass

import numpy as np

from ..errors import CapOutOfRange, UserError
from ..jit import Entries
from . import kernels
from .context import Context, Counters, SharedMemo, usable_cores
from .symmetric import SOLVE_FIRST_FRACTION, OrbitSearch, uses_symmetry

INF = kernels.INF
NO_CAP = 32  # the cap a Solver uses for "no cap" (None): deeper than any optimal tree of these games can go
MODES = ("normal", "hard", "ultra")
KEEP_TOP_MIN = kernels.PAIR_BYTES + 1  # smaller sets search from pair counts, not a scan to keep
KEEP_TOP_MAX = 1024  # a kept scan holds guesses x answers bytes (13 MB at most for Wordle's 12972)
TRANSPOSE_PARTS = 8  # threads that fill the matrix by answers at most (its first writes to fresh memory dominate)


class Infeasible(UserError):
    """No tree solves every answer within the cap (a proven result, exit status 3)."""

    exit_code = 3

    def __init__(self, cap: int, first: str | None = None):
        self.cap = cap
        opener = f" opening with {first}" if first else ""
        super().__init__(f"impossible: no tree{opener} solves every answer within {cap} guesses (proven)")


class _Background:
    """fn(*args) for each args of `calls`, each on a daemon thread of its own (a kernel that
    releases the GIL runs beside the caller); wait() returns once all are done, and raises what
    one of them raised."""

    def __init__(self, fn, calls):
        self._error: BaseException | None = None
        self._threads = [threading.Thread(target=self._call, args=(fn, args), daemon=True) for args in calls]
        for thread in self._threads:
            thread.start()

    def _call(self, fn, args) -> None:
        try:
            fn(*args)
        except BaseException as exc:  # noqa: BLE001 (handed to whoever waits)
            self._error = exc

    def wait(self) -> None:
        for thread in self._threads:
            thread.join()
        if self._error is not None:
            raise self._error


class Solver(OrbitSearch):
    """Exact values and trees for one game, one cap and one mode, over its full guess list.
    `max_guesses`: the cap on guesses per answer, None for no cap."""

    def __init__(self, game, matrix: np.ndarray, max_guesses: int | None = 6, rules: int = kernels.ALL_RULES,
                 memo_mb: int = 160, mode: str = "normal"):
        self.game = game
        self.matrix = np.ascontiguousarray(matrix)
        self.kernel = Entries(kernels._solve)  # _solve by its compiled function, a call site each
        self.cap = NO_CAP if max_guesses is None else int(max_guesses)
        if not 1 <= self.cap <= NO_CAP:
            raise CapOutOfRange(self.cap, NO_CAP)
        if mode not in MODES:
            raise UserError(f"unknown mode {mode!r}; known: {', '.join(MODES)}")
        self.mode = mode
        # codes closed under position and symbol maps: one guess per orbit near the top (symmetry.py)
        self.symmetric = uses_symmetry(game, mode)
        # ultra mode where the guesses are the answers (the code-breaking games): a consistent
        # guess is exactly a candidate left, so the kernel guesses only its own answers
        self.candidate_guesses = candidate_guesses(game, mode)
        self.rules = rules | {"normal": 0, "hard": kernels.HARD_MODE, "ultra": kernels.ULTRA_MODE}[mode]
        if self.candidate_guesses:
            self.rules = rules | kernels.CANDIDATE_GUESSES
            self.letters = np.zeros((len(game.guesses), 1), np.uint8)
            self.state_size = self.cap  # the history, for `legal` (the kernel does not read it)
        elif mode != "normal":
            if game.kind != "wordle":
                raise UserError(f"{mode} mode is a Wordle rule")
            from ..games.wordle import letters_array

            self.letters = letters_array(game.guesses, game.length, game.alphabet)
            # hard: the greens and the least count of each letter; ultra: the history itself
            self.state_size = game.length + len(game.alphabet) if mode == "hard" else self.cap
        else:
            self.letters = np.zeros((len(game.guesses), 1), np.uint8)
            self.state_size = 1
        self.counts = np.zeros((len(game.guesses), len(getattr(game, "alphabet", "")) or 26), np.uint8)
        for i in range(self.game.length if mode == "hard" else 0):
            np.add.at(self.counts, (np.arange(len(game.guesses)), self.letters[:, i]), 1)
        self.memo_mb = memo_mb
        self.answer_gid = game.answer_guess_ids
        self.all_guesses = np.arange(len(game.guesses), dtype=np.int32)
        # the matrix by answers, which the kernel reads to settle small sets from pair counts
        # (normal mode: elsewhere legality, not the partition alone, decides)
        by_answer = mode == "normal" and rules & kernels.USE_PAIRS
        self.columns = np.empty(self.matrix.shape[::-1] if by_answer else (0, 0), self.matrix.dtype)
        self._class_bounds: np.ndarray | None = None  # (class_bounds)
        self._green_bounds: np.ndarray | None = None  # (green_bounds)
        # hard mode: the greens of each code, whose class bounds then count them (kernels.USE_GREENS)
        self.by_greens = mode == "hard" and bool(rules & kernels.USE_GREENS)
        # sum_of_classes: the passes of shares (each a divisor of the share), the largest part's least divisor
        self.share_passes, self.largest_share = ((4, 2, 1), 2) if mode == "hard" else ((1,), 1)
        self.code_greens = (kernels.code_greens(game.n_codes, game.length) if self.by_greens
                            else np.zeros(game.n_codes, np.int64))
        if by_answer:
            # filled in parts, on a thread each, while the setup goes on (tens of ms on a build's
            # start, most of it the first writes to fresh memory), each part also noting the codes
            # it moves; every search waits for it (_columns_ready), and so do the class bounds
            parts = _parts(self.matrix.shape[0])
            space = _code_space(self.matrix)  # each part's row apart from the others' cache lines (+ 128 bytes)
            self._present = np.zeros((len(parts), space + 128), np.bool_)[:, :space]
            self._transposing = _Background(kernels._transpose, [(self.matrix, self.columns, start, stop, present)
                                                                 for (start, stop), present in zip(parts, self._present)])
        else:
            self._transposing = None
            self._set_class_bounds(kernels._codes_present(self.matrix, _code_space(self.matrix)))
        self._local = threading.local()
        self._contexts: list[Context] = []
        self._tops: dict[tuple[bytes, bytes], _KeptTop] = {}  # (set, constraint) -> its kept scan (solve, tree)
        self._no_columns = np.empty((0, 0), self.matrix.dtype)
        self.shared_memo: SharedMemo | None = None  # share_memo
        self._lock = threading.Lock()
        self._init_orbit_search()  # symmetric games: the orbits and the proven values (symmetric.py)

    # --- per-thread contexts, and the memo ---
    def share_memo(self, threads: int) -> None:
        """From now on every thread's searches read and fill one memo, of `threads` times
        `memo_mb` (context.SharedMemo), instead of a memo each."""
        if self.shared_memo is None:
            self.shared_memo = SharedMemo(self.memo_mb * threads, self.matrix.shape[1], NO_CAP + 2, self.state_size)

    def memo(self, ctx: Context):
        """`with solver.memo(ctx) as memo:` the memo table one search on this thread uses."""
        return nullcontext(ctx.memo) if self.shared_memo is None else self.shared_memo.use()

    def context(self) -> Context:
        ctx = getattr(self._local, "ctx", None)
        if ctx is None:
            m = self.matrix
            ctx = Context(m.shape[0], m.shape[1], self.game.n_codes, self.cap + 2, self.state_size, self.class_bounds,
                          NO_CAP + 2, 1 if self.shared_memo is not None else self.memo_mb, code_dtype=m.dtype,
                          green_bounds=self.green_bounds, code_greens=self.code_greens)
            self._local.ctx = ctx
            with self._lock:
                self._contexts.append(ctx)
        return ctx

    def counters(self) -> Counters:
        total = Counters()
        for ctx in self._contexts:
            total.add(ctx.stats)
        if self.shared_memo is not None:
            total.memo_clears += self.shared_memo.clears
        return total

    # --- hard- and ultra-mode constraints (empty in normal mode) ---
    def empty_constraint(self) -> np.ndarray:
        req = np.zeros(self.state_size, np.int32)
        if self.mode == "hard":
            req[: self.game.length] = -1
        elif self.mode == "ultra":
            req[:] = kernels.NO_STEP
        return req

    def constrain(self, req: np.ndarray, guess: int, code: int) -> np.ndarray:
        """The constraint after `guess` got `code` (unchanged in normal mode)."""
        if self.mode == "normal":
            return req
        out = np.empty_like(req)
        if self.mode == "hard":
            kernels._constrain(req, out, self.letters[guess], code, self.game.length)
        else:
            kernels._record_step(req, out, guess * self.game.n_codes + code)
        return out

    def legal(self, req: np.ndarray, guess: int) -> bool:
        if self.mode == "normal":
            return True
        if self.candidate_guesses:  # would the guess, as the answer, have got every code so far?
            steps = req[req != kernels.NO_STEP].astype(np.int64)
            n_codes = self.game.n_codes
            return bool(np.all(self.matrix[steps // n_codes, self.answer_gid[guess]] == steps % n_codes))
        if self.mode == "ultra":
            return bool(kernels._consistent(guess, req, self.letters, self.game.n_codes))
        n = self.game.length
        greens_ok = all(req[i] < 0 or self.letters[guess, i] == req[i] for i in range(n))
        return greens_ok and bool(np.all(self.counts[guess] >= req[n:]))

    @property
    def class_bounds(self) -> np.ndarray:
        """bounds[d, c]: a lower bound on the cost of c answers with d guesses left
        (kernels.class_bounds, from the number of codes the matrix holds besides the win);
        where the transposition notes those codes, once it is done."""
        if self._class_bounds is None:
            self._columns_ready()
        return self._class_bounds

    @property
    def green_bounds(self) -> np.ndarray:
        """bounds[k, d, c]: the class bounds of a set that showed k greens (hard mode with
        kernels.USE_GREENS: kernels.green_class_bounds); elsewhere the class bounds as one row."""
        if self._green_bounds is None:
            plain = self.class_bounds  # (also sets the game's branching, which the bounds by greens cap)
            if self.by_greens:
                self._green_bounds = kernels.green_class_bounds(self.cap, self.matrix.shape[1], self.game.length,
                                                                self._branching)
            else:
                self._green_bounds = plain[None]
        return self._green_bounds

    def part_bound(self, code: int, size: int, d: int) -> int:
        """The class bound of the class of `size` answers that got `code`, with d guesses left."""
        return int(self.green_bounds[self.code_greens[code], d, size])

    def _set_class_bounds(self, present: np.ndarray) -> None:
        """The class bounds, from which codes the matrix holds (`present`, over every value its
        dtype can hold: a code the game cannot have is refused, not written past an array)."""
        if present[self.game.n_codes:].any():
            raise UserError(f"the pattern matrix holds codes past the game's {self.game.n_codes}: a damaged pattern "
                            "cache? (`wordtree info` names its folder; a file deleted there is built again)")
        branching = int(present.sum()) - int(present[self.game.win_code])
        self._branching = max(branching, 1)
        self._class_bounds = kernels.class_bounds(self.cap, self.matrix.shape[1], self._branching)

    def _columns_ready(self) -> None:
        """Wait for the matrix by answers, and set the class bounds from the codes it moved."""
        transposing = self._transposing  # read once: another thread may set it to None meanwhile
        if transposing is not None:
            transposing.wait()
            if self._class_bounds is None:
                self._set_class_bounds(self._present.any(axis=0))
            self._transposing = None

    # --- kernels ---
    def _run(self, S: np.ndarray, d: int, beta: int, forced: int, req: np.ndarray | None, keep: bool = False) -> int:
        self._columns_ready()
        ctx = self.context()
        ctx.root_constraint[:] = self.empty_constraint() if req is None else req
        S = np.ascontiguousarray(S, dtype=np.int32)
        scratch = ctx.keeping_top(self.matrix.shape[0], len(S)) if keep else ctx.scratch
        with self.memo(ctx) as memo:
            value = int(self.kernel("run", S, S.copy(), d, beta, 0, self.matrix, self.columns, self.all_guesses,
                                    self.matrix.shape[0],
                                    self.answer_gid, forced, self.answer_gid, self.game.win_code,
                                    self.rules | (kernels.KEEP_TOP if keep else 0), scratch, memo, self.letters,
                                    self.counts))
        if keep and value < INF:  # (a tree is built only then)
            self._keep_top(S, d, ctx, scratch)
        return value

    def solve(self, S: np.ndarray, d: int, beta: int = INF, req: np.ndarray | None = None,
              keep_top: bool = False) -> tuple[int, int]:
        """(V(S, d) if below beta else a bound >= beta, best guess or -1), under constraint `req`.
        `keep_top`: keep what the top node's scan found, for the tie-break of `tree(S, d, req)`
        (normal and hard mode; sets of KEEP_TOP_MIN to KEEP_TOP_MAX answers)."""
        keep = keep_top and self._keeps_top(len(S))
        value = self._run(S, d, beta, -1, req, keep)
        return value, int(self.context().best_out[0])

    # --- the tie-break's search from the first search's scan ---
    def same_top_scan(self, n: int, d: int, other: int) -> bool:
        """Whether the top node of a search of n answers scans its guesses the same with `d` and
        with `other` guesses left: from d = 3 on, where the class bound of n answers is 2n - 1
        below both (the guesses' bounds and order then do not depend on the cap). The scan uses
        these bounds in hard mode too: the bounds by greens enter only later (kernels.USE_GREENS)."""
        bounds = self.class_bounds
        return d >= 3 and bounds[d - 1, n] == 2 * n - 1 == bounds[other - 1, n]

    def _keeps_top(self, n: int) -> bool:
        return (self.rules & kernels.USE_KEPT_TOP != 0 and self.mode != "ultra" and not self.candidate_guesses
                and KEEP_TOP_MIN <= n <= KEEP_TOP_MAX)

    def _keep_top(self, S: np.ndarray, d: int, ctx: Context, scratch: kernels.Scratch) -> None:
        m, n = int(scratch.top_info[0]), len(S)
        if m < 0:  # the top node found its guess before or without a scan: nothing to keep
            return
        self._tops[_top_key(S, ctx.root_constraint)] = _KeptTop(
            d, scratch.top_codes[:m * n].reshape(m, n), scratch.top_ids[:m].copy(), scratch.top_win[:n].copy(),
            scratch.lbs[0, :m].copy(), scratch.scores[0, :m].copy())

    def _solve_from(self, kept: _KeptTop, S: np.ndarray, d: int, beta: int, req: np.ndarray) -> tuple[int, int]:
        """`solve(S, d, beta, req)`, its top node starting from `kept` (the scan of a search of S
        with kept.d guesses left, kernels.GIVEN_TOP) where its guesses' bounds are the same with d
        guesses left (the class bound of n answers is 2n - 1 both below d and below kept.d):
        the same guesses, in the same order, with the same bounds as its own scan would give."""
        n = len(S)
        if not self.same_top_scan(n, d, kept.d):
            return self.solve(S, d, beta, req)
        ctx = self.context()
        ctx.root_constraint[:] = req
        m = len(kept.ids)
        ctx.scratch.lbs[0, :m] = kept.lbs
        ctx.scratch.scores[0, :m] = kept.scores
        S = np.ascontiguousarray(S, dtype=np.int32)
        with self.memo(ctx) as memo:
            value = int(self.kernel("top", S, np.arange(n, dtype=np.int32), d, beta, 0, kept.codes, self._no_columns,
                                    kept.ids, m, kept.win, -1, self.answer_gid, self.game.win_code,
                                    self.rules | kernels.GIVEN_TOP, ctx.scratch, memo, self.letters, self.counts))
        return value, int(ctx.best_out[0])

    def evaluate(self, S: np.ndarray, guess: int, d: int, beta: int = INF, req: np.ndarray | None = None) -> int:
        """The cost of opening `S` with `guess`: exact if below beta, else a bound >= beta."""
        if req is not None and not self.legal(req, guess):
            raise UserError(f"{self.game.guesses[guess]!r} breaks the {self.mode}-mode rule here")
        return self._run(S, d, beta, guess, req)

    def evaluate_opener(self, S: np.ndarray, guess: int, beta: int = INF, live=None) -> int:
        """The cost of opening the whole game with `guess` (exact if below beta, else a bound >=
        beta): class by class (see `sum_of_classes`), each by the kernel, or in a symmetric game
        with one guess per orbit for the next levels. `live()`, if given, is a budget that may
        fall meanwhile (a rank's K-th best), read before each class (not in a symmetric game):
        the result is then exact if below the least budget read, which is at least
        `min(beta, live())` read afterwards.

        In a symmetric game the classes of at most 1/16 of the codes are solved in full before
        any class is asked for its share of the slack. Their values stand well above their
        bounds, and they are cheap, whereas a share of the largest class is a search of hours:
        Bulls and Cows with repeats refutes the opener 0001 against 0123's 55632 in under a
        minute this way (its classes of 435 codes and fewer rise 317 above their bounds), after
        hours of the shares alone without the proof."""
        if self.symmetric:
            return self.evaluate_symmetric(S, guess, self.cap, [guess], beta, self.game.symmetric_levels,
                                           len(S) // SOLVE_FIRST_FRACTION)
        if beta >= INF:
            return self.evaluate(S, guess, self.cap, beta)
        start = self.empty_constraint()
        return self.sum_of_classes(
            len(S), self.classes(S, guess), self.cap - 1, beta,
            lambda code, part, budget: self.solve(part, self.cap - 1, budget, self.constrain(start, guess, code))[0],
            live=live)

    def sum_of_classes(self, n: int, classes: list[tuple[int, np.ndarray]], d: int, beta: int, solve_part,
                       bound_part=None, solve_first: int = 0, live=None) -> int:
        """n + the sum of the values of the parts (code, part) with d guesses left: exact if
        below beta, else a proven bound >= beta. `solve_part(code, part, budget)` answers as
        `solve` does; `bound_part(part)`, if given, is a lower bound on a part's value at least
        its class bound.

        The running sum starts from the parts' bounds and only ever replaces a bound by a
        larger proven one, so it is a lower bound throughout. With a finite beta, each part of
        three or more answers is first asked only for its share of the slack, in proportion to
        its size: a losing guess usually loses a little in every large part, which a shallow
        search proves, whereas the exact pass below solves the first parts under a loose budget
        (below the opener `bribe` a part of 172 answers took 16 s to solve exactly, every one of
        its guesses refuted in turn, against a fraction of a second for its share). Then the
        parts smallest first, each against what the others' bounds leave, as the kernel does;
        a part that answers below its budget is exact, so a sum below beta is exact.

        In hard mode the shares come in passes (`share_passes`): a quarter of each part's share,
        then a half, then the whole, the largest part's never past a half (`largest_share`). A
        losing opener's classes in hard mode rise far above their bounds, and a share near a
        large class's value costs nearly its exact search, so small shares first refute most
        openers at a fraction of the cost; elsewhere the passes do not pay, and there is one pass
        of whole shares (docs/algorithm.md, "Passes of shares in hard mode").

        Parts of at most `solve_first` answers are taken that way before the shares (see
        evaluate_opener for why).

        `live()`, if given, is a budget that may fall while the parts are solved (a rank's K-th
        best, as other threads find better openers): beta becomes the least of it and beta
        before each part. That is the budget the search would have had if it started later, so
        the sum is still exact below the last beta, and a proven bound at least it otherwise: a
        part refuted against its budget lifts the sum to the beta of that moment, at least any
        later one."""
        classes = sorted(classes, key=lambda item: len(item[1]))
        parts = [part for _, part in classes]
        lower = [self.part_bound(code, len(part), d) if bound_part is None else bound_part(part)
                 for code, part in classes]
        running = n + sum(lower)
        # a part of 1 answer costs 1, of 2 answers 3 (guess one of them): exactly the class bound
        open_parts = [i for i, part in enumerate(parts) if len(part) > 2 or (len(part) == 2 and d < 2)]
        exact = set()
        largest = open_parts[-1] if open_parts else -1
        passes = [("small", 1)] + [("shares", part) for part in self.share_passes] if beta < INF else []
        for stage, divisor in passes + [("rest", 1)]:
            gap, size = beta - running, sum(len(parts[i]) for i in open_parts if i not in exact)
            for i in open_parts:
                if live is not None:
                    beta = min(beta, live())
                if running >= beta:
                    return running
                if i in exact or (stage == "small" and len(parts[i]) > solve_first):
                    continue
                budget = beta - (running - lower[i])
                if stage == "shares":
                    cut = max(divisor, self.largest_share) if i == largest else divisor
                    budget = min(budget, lower[i] + max(1, gap * len(parts[i]) // size // cut))
                value = solve_part(classes[i][0], parts[i], budget)
                if value > lower[i]:
                    running += value - lower[i]
                    lower[i] = value
                if value < budget:
                    exact.add(i)
        return running

    def classes(self, S: np.ndarray, guess: int) -> list[tuple[int, np.ndarray]]:
        """The non-winning classes of S under `guess`, as (code, sorted answer ids), by code."""
        if len(S) == 0:
            return []
        codes = self.matrix[guess, S]
        order = np.lexsort((S, codes))  # by code, then by answer
        S_sorted, codes_sorted = S[order], codes[order]
        cuts = (np.flatnonzero(codes_sorted[1:] != codes_sorted[:-1]) + 1).tolist()
        starts, ends = [0, *cuts], [*cuts, len(S_sorted)]
        win = self.game.win_code
        return [(code, S_sorted[a:b]) for code, a, b in zip(codes_sorted[starts].tolist(), starts, ends) if code != win]

    def tree(self, S: np.ndarray, d: int, req: np.ndarray | None = None, guess: int | None = None) -> dict:
        """The optimal tree below (S, d) under constraint `req` as nested {"guess", "next"}
        nodes; `guess` fixes the opener. Every node is asked for its exact value, which the memo
        usually already has.

        Ties in total go to the smaller worst case: once a tree of depth w is built, an optimal
        tree of depth w - 1 exists exactly when V(S, w - 1) = V(S, d), which a search bounded
        by V + 1 decides; if it does, the tree is rebuilt within w - 1 guesses. Ties beyond
        that: the search's fixed order."""
        req = self.empty_constraint() if req is None else req
        if guess is not None:
            return self._tree_with(S, d, req, guess)
        value, guess = self.solve(S, d, req=req)
        if value >= INF:
            raise UserError("no tree exists within the guess cap")
        node = self._tree_with(S, d, req, guess)
        # the search with one guess fewer starts from the first search's scan, if it was kept
        kept = self._tops.pop(_top_key(S, req), None)
        solve = None if kept is None else (lambda cap, beta: self._solve_from(kept, S, cap, beta, req))
        return self.shallowest(S, req, value, node, lambda g, cap: self._tree_with(S, cap, req, g), solve)

    def shallowest(self, S: np.ndarray, req: np.ndarray, value: int, node: dict, rebuild, solve=None) -> dict:
        """`node` (an optimal tree for S), or an optimal one of smaller depth: `rebuild(guess,
        cap)` makes the tree opening with `guess` within `cap` guesses; `solve(cap, beta)` is the
        bounded search (default: over every guess)."""
        solve = solve or (lambda cap, beta: self.solve(S, cap, beta, req))
        depth = tree_depth(node)
        while depth > 1 and self.class_bounds[depth - 1, len(S)] <= value:
            lower, guess = solve(depth - 1, value + 1)
            if lower != value:
                break
            node = rebuild(guess, depth - 1)
            depth = tree_depth(node)
        return node

    def _tree_with(self, S: np.ndarray, d: int, req: np.ndarray, guess: int) -> dict:
        node = {"guess": self.game.guesses[guess]}
        classes = self.classes(S, guess)
        if classes:
            node["next"] = {self.game.pattern_text(code): self.tree(part, d - 1, self.constrain(req, guess, code))
                            for code, part in classes}
        return node


def _top_key(S: np.ndarray, req: np.ndarray) -> tuple[bytes, bytes]:
    """The key of a kept scan: the set (as the kernel takes it) and its constraint."""
    return np.ascontiguousarray(S, dtype=np.int32).tobytes(), req.tobytes()


@dataclass
class _KeptTop:
    """What a search's top node found by its scan (kernels.KEEP_TOP), for another search of the
    same set: its guesses left, the codes of the guesses it kept over its answers (relabelled in
    normal mode), their ids, each answer's own row, and the guesses' class bounds and ordering
    scores."""

    d: int
    codes: np.ndarray
    ids: np.ndarray
    win: np.ndarray
    lbs: np.ndarray
    scores: np.ndarray


def _code_space(matrix: np.ndarray) -> int:
    """How many values a code in `matrix` can take (its dtype's: 256 for uint8)."""
    return int(np.iinfo(matrix.dtype).max) + 1


def _parts(rows: int, tile: int = 64) -> list[tuple[int, int]]:
    """The rows cut in up to TRANSPOSE_PARTS runs of whole tiles (at most one per usable core)."""
    parts = max(1, min(TRANSPOSE_PARTS, usable_cores(), rows // tile))
    cuts = [rows * i // parts // tile * tile for i in range(parts)] + [rows]
    return list(zip(cuts[:-1], cuts[1:]))


def candidate_guesses(game, mode: str) -> bool:
    """Whether `mode` is ultra mode in a game whose guesses are its answers (the code-breaking
    games): a guess consistent with all the feedback so far is then exactly a candidate left,
    and the search guesses only those (kernels.CANDIDATE_GUESSES)."""
    return mode == "ultra" and game.kind != "wordle" and tuple(game.guesses) == tuple(game.answers)


def tree_depth(node: dict) -> int:
    """The worst case of a tree: the guesses its deepest answer takes."""
    return 1 + max((tree_depth(child) for child in node.get("next", {}).values()), default=0)


def best_guess(game, candidate_ids_: list[int], guesses_left: int | None = None, mode: str = "normal",
               matrix: np.ndarray | None = None) -> tuple[str, int]:
    """The exact best guess for a set of candidate answers (by answer index) and its total, with
    `guesses_left` (None: no cap). Normal mode, and ultra mode where the guesses are the answers
    (the candidates are then the legal guesses); the other modes need the history itself."""
    if matrix is None:
        from ..wordle.patterns import pattern_matrix

        matrix = pattern_matrix(game).matrix
    if mode != "normal" and not candidate_guesses(game, mode):
        raise UserError(f"the live exact answer needs the game's history in {mode} mode")
    solver = Solver(game, matrix, guesses_left, memo_mb=32, mode=mode)
    value, g = solver.solve(np.sort(np.asarray(candidate_ids_, dtype=np.int32)), solver.cap)
    if value >= INF:
        raise Infeasible(solver.cap)
    return game.guesses[g], value
