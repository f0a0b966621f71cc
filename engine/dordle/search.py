"""The exact Dordle search: W(S1, S2, d), the least total number of guesses over the pairs of a
state (see bounds.py for the notation), with branch and bound, a memo, and every pruning rule
switchable.

Recurrence. For a state (S1, S2, d) with m pairs, both boards unsolved:

    W = min over guesses g of  m + [g in S1] sum over non-winning classes C2 of g on S2 of V1(C2, d-1)
                                 + [g in S2] sum over non-winning classes C1 of g on S1 of V1(C1, d-1)
                                 + sum over pairs of non-winning classes (C1, C2) of W(C1, C2, d-1)

Every pair pays for g; a pair whose board-1 answer is g goes on as a single board, its board-2
answer in its class of g on S2 (answers differ, so that class is not g's winning one), which
the single-board engine solves exactly (exact.Solver, memoised there); and every other pair
moves to the child state of its two patterns, which is the product of two classes minus the
diagonal. W = 0 without pairs, INF64 with pairs and d <= 1 (a guess solves at most one board).

The rules (a bit each in `rules`; none changes a value, which the tests check against the brute
force of tests/reference_dordle.py):
  USE_BOUNDS      the counting bound of every guess (bounds.guess_bound, kernels.guess_bounds):
                  guesses are tried by increasing bound and the loop stops at the first bound
                  that reaches the best total; a node whose least bound reaches its budget stops.
  USE_PROJECTION  the projection bound (bounds.projection_bound) of the node and, while a guess
                  is evaluated, of each of its child states.
  USE_MEMO        a table keyed by the state and d: exact values, and lower bounds proven by
                  searches that stopped at a budget.
  USE_FILTER      a guess in neither set that leaves each board in one class only wastes a turn;
                  it stays useless on every subset, so children inherit the filtered list
                  (kernels.prune_guesses).
  USE_BUDGETS     branch and bound: a child is asked only for its value below what would let
                  the guess beat the best so far, and a guess is dropped as soon as its running
                  sum (bounds replaced by values as the children are solved) reaches the best.
  USE_MIRROR      the memo keys a disjoint state by its two sets in sorted order: swapping the
                  boards maps strategies to strategies of the same total (bounds.py (d)).
  USE_DEDUPE      of the guesses outside S1 and S2 that split their union into the same classes,
                  only the first is tried, here and below (kernels.prune_guesses).
  USE_SHORTCUTS   states of one or two pairs are valued directly (DordleSearch.shortcut).
  USE_SECOND      the counting bound of the best second guess (DordleSearch.second_bound): while a
                  guess is evaluated against a budget, each child state of three pairs or more
                  gets, before any child is searched, the least counting bound over the guesses
                  tried there (and its projection bound), largest child first, so that a guess
                  the children's bounds together refute is dropped without a deep search. Off by
                  default (not in ALL_RULES): it saves nodes but costs time (docs/results.md).
"""

from __future__ import annotations

import queue
import threading
import time
from typing import NamedTuple

import numpy as np

from ..errors import UserError
from ..exact import kernels as single_kernels
from ..exact.solver import Solver
from ..jit import INF64
from . import bounds
from .kernels import DINF, Bounds, Tables, guess_bounds, node_bounds  # noqa: F401 (DINF: the older name, as kernels.py says)

USE_BOUNDS = 1
USE_PROJECTION = 2
USE_MEMO = 4
USE_FILTER = 8
USE_BUDGETS = 16
USE_MIRROR = 32
USE_DEDUPE = 64
USE_SHORTCUTS = 128
USE_SECOND = 256
ALL_RULES = USE_BOUNDS | USE_PROJECTION | USE_MEMO | USE_FILTER | USE_BUDGETS | USE_MIRROR | USE_DEDUPE | USE_SHORTCUTS
RULE_NAMES = {"bounds": USE_BOUNDS, "projection": USE_PROJECTION, "memo": USE_MEMO, "filter": USE_FILTER,
              "budgets": USE_BUDGETS, "mirror": USE_MIRROR, "dedupe": USE_DEDUPE, "shortcuts": USE_SHORTCUTS,
              "second": USE_SECOND}
EXACT_REMOVAL = 12  # ident sets up to this size get sum of V1(S minus {b}) exactly; larger: bounds.removal_bound
MAX_CAP = 16
PENDING = 4096  # second_bound's candidates kept for solve at most (cleared when full)


class NodeLimit(Exception):
    """DordleSearch.solve was asked about more states than its `node_limit` allows. What the memo
    holds stays proven (an entry is stored only when a state's search ends)."""


class SingleBoard(NamedTuple):
    """What a guess leaves of the pairs whose one board it solved: the other `board` (1 or 2) goes
    on alone, its candidates `answers`, the class of the pattern `code` it showed there.

    SingleBoard and Child are immutable records read by field and told apart by isinstance; they
    are named tuples rather than frozen dataclasses because the search makes one per class of
    every guess it evaluates, and a frozen dataclass takes several times as long to make."""

    board: int
    code: int
    answers: np.ndarray

    def key(self, game) -> str:
        """Its branch in a tree file: the win on the solved board, `code` on the open one."""
        win, shown = game.pattern_text(game.win_code), game.pattern_text(self.code)
        return f"{win}/{shown}" if self.board == 2 else f"{shown}/{win}"


class Child(NamedTuple):
    """A child state a guess leaves: the pairs whose patterns were `code1` on board 1 and `code2`
    on board 2, (S1, S2), both boards still open (ident: S2 is S1, the diagonal left out)."""

    code1: int
    code2: int
    S1: np.ndarray
    S2: np.ndarray
    ident: bool
    pairs: int  # bounds.pairs of (S1, S2, ident)

    def key(self, game) -> str:
        """Its branch in a tree file: the two patterns, board 1 first."""
        return f"{game.pattern_text(self.code1)}/{game.pattern_text(self.code2)}"


LONG_V1 = 400  # answers from which DordleSearch.v1 solves in a thread beside the caller's (_Beside)


class _Beside:
    """One daemon thread that runs long kernel calls (the exact one-board search releases the
    GIL) while the calling thread waits for them in short steps, so that a Ctrl-C or TERM is
    raised in the caller at once instead of when the kernel returns; the call under way is then
    left to end in the background (the process is ending). One thread for a search, so that its
    solver's per-thread context is made once."""

    def __init__(self):
        self.jobs: queue.SimpleQueue = queue.SimpleQueue()
        threading.Thread(target=self._serve, name="dordle-v1", daemon=True).start()

    def _serve(self) -> None:
        while True:
            job = self.jobs.get()
            if job is None:  # its search is gone
                return
            work, box, done = job
            try:
                box.append(work())
            except BaseException as exc:  # handed to the waiting caller
                box.append(exc)
            finally:
                done.set()

    def run(self, work):
        box: list = []
        done = threading.Event()
        self.jobs.put((work, box, done))
        while not done.wait(0.2):
            pass
        if isinstance(box[0], BaseException):
            raise box[0]
        return box[0]


_besides: dict[int, _Beside] = {}
_besides_lock = threading.Lock()


def _beside(search) -> _Beside:
    """The search's _Beside (kept apart from the search, which stays a plain object)."""
    import weakref

    with _besides_lock:
        found = _besides.get(id(search))
        if found is None or found.owner() is not search:
            found = _besides[id(search)] = _Beside()
            found.owner = weakref.ref(search)
            weakref.finalize(search, _retire, id(search), found)
        return found


def _retire(key: int, beside: _Beside) -> None:
    with _besides_lock:
        if _besides.get(key) is beside:
            del _besides[key]
    beside.jobs.put(None)


class DordleSearch:
    """Exact Dordle values over a game's full guess list, with at most `max_guesses` guesses.
    `node_limit` (None: none): solve raises NodeLimit once `nodes` reaches it, a limit that does
    not depend on the machine's speed (heuristic.HeuristicStrategy's exact states use it)."""

    node_limit: int | None = None

    def __init__(self, game, matrix: np.ndarray, max_guesses: int = 7, rules: int = ALL_RULES, memo_mb: int = 160):
        if max_guesses is None or not 2 <= int(max_guesses) <= MAX_CAP:
            raise UserError(f"Dordle needs a guess cap from 2 to {MAX_CAP}")
        self.game = game
        self.matrix = np.ascontiguousarray(matrix)
        self.cap = int(max_guesses)
        self.rules = rules
        # one guess more than the cap: the removal bound asks V1(S, d + 1)
        self.solver = Solver(game, self.matrix, self.cap + 1, memo_mb=memo_mb)
        cb = self.solver.class_bounds.astype(np.int64)
        self.cb = np.where(cb >= single_kernels.INF, INF64, cb)
        self.n_answers = len(game.answers)
        self.answer_of_guess = np.full(len(game.guesses), -1, np.int32)
        self.answer_of_guess[game.answer_guess_ids] = np.arange(self.n_answers, dtype=np.int32)
        self.all_guesses = np.arange(len(game.guesses), dtype=np.int32)
        self.win = int(game.win_code)
        self.tables = Tables(self.matrix, int(game.n_codes), self.win, self.all_guesses, self.answer_of_guess,
                             np.ascontiguousarray(game.answer_guess_ids, dtype=np.int32), self.cb)
        self.memo: dict = {}
        self.pending: dict = {}  # (state key, id of its guess list) -> candidates(), from second_bound
        self.v1_cache: dict = {}
        self.nodes = 0
        self.evaluations = 0
        self.memo_hits = 0
        self.seconds = 0.0

    # --- the single board ---
    def v1(self, S: np.ndarray, d: int) -> int:
        """V1(S, d), exact (INF64 when no tree fits)."""
        n = len(S)
        if n == 0:
            return 0
        if d <= 0:
            return INF64
        if n == 1:
            return 1
        if n == 2:
            return 3 if d >= 2 else INF64
        key = (S.tobytes(), d)
        value = self.v1_cache.get(key)
        if value is None:
            if n >= LONG_V1:  # minutes for a whole list: Ctrl-C and TERM are not held by the kernel
                value, _ = _beside(self).run(lambda: self.solver.solve(S, d))
            else:
                value, _ = self.solver.solve(S, d)
            value = INF64 if value >= single_kernels.INF else int(value)
            self.v1_cache[key] = value
        return value

    def removal_sum(self, S: np.ndarray, d: int) -> int:
        """A lower bound on sum over b in S of V1(S minus {b}, d): exact for small S."""
        if len(S) <= EXACT_REMOVAL:
            return min(INF64, sum(self.v1(np.delete(S, i), d) for i in range(len(S))))
        return min(INF64, len(S) * bounds.removal_bound(self.v1(S, d + 1), d))

    def projection(self, S1: np.ndarray, S2: np.ndarray, ident: bool, d: int) -> int:
        """bounds.projection_bound of the state."""
        m = bounds.pairs(len(S1), len(S2), ident)
        if m == 0:
            return 0
        if ident:
            L = self.removal_sum(S1, d)
            return bounds.projection_bound(L, L, m)
        v1, v2 = self.v1(S1, d), self.v1(S2, d)
        L1 = INF64 if v1 >= INF64 else len(S2) * v1
        L2 = INF64 if v2 >= INF64 else len(S1) * v2
        return bounds.projection_bound(L1, L2, m)

    # --- the memo ---
    def key(self, S1: np.ndarray, S2: np.ndarray, ident: bool, d: int):
        if ident:
            return (1, S1.tobytes(), d)
        b1, b2 = S1.tobytes(), S2.tobytes()
        if self.rules & USE_MIRROR and b2 < b1:
            b1, b2 = b2, b1
        return (0, b1, b2, d)

    # --- the search ---
    def classes(self, S: np.ndarray, g: int) -> tuple[list[tuple[int, np.ndarray]], bool]:
        """The non-winning classes of g on S as (code, sorted answers), by code, and whether g is in S."""
        codes = self.matrix[g, S]
        order = np.argsort(codes, kind="stable")
        S_sorted, codes_sorted = S[order], codes[order]
        cuts = np.flatnonzero(np.diff(codes_sorted)) + 1
        out, hit = [], False
        for part, code_part in zip(np.split(S_sorted, cuts), np.split(codes_sorted, cuts)):
            if int(code_part[0]) == self.win:
                hit = True
            else:
                out.append((int(code_part[0]), part))
        return out, hit

    def solve(self, S1: np.ndarray, S2: np.ndarray, ident: bool, d: int, beta: int = INF64,
              guesses: np.ndarray | None = None) -> tuple[int, int]:
        """(W(S1, S2, d) if below beta, else a proven bound >= beta; the best guess, or -1 when
        none was proven below beta). ident: S2 is S1 (pairs minus the diagonal)."""
        m = bounds.pairs(len(S1), len(S2), ident)
        if m == 0:
            return 0, -1
        if d <= 1:
            return INF64, -1
        rules = self.rules
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise NodeLimit
        self.nodes += 1
        if rules & USE_SHORTCUTS and m <= 2:
            return self.shortcut(S1, S2, ident, d)
        lower = 0
        key = self.key(S1, S2, ident, d) if rules & USE_MEMO else None
        if key is not None:
            entry = self.memo.get(key)
            if entry is not None:
                self.memo_hits += 1
                value, exact, best = entry
                if exact or (value >= beta and rules & USE_BUDGETS):
                    return value, best if exact else -1
                lower = value
        found = self.pending.pop((self.key(S1, S2, ident, d), id(guesses)), None) if self.pending else None
        G, lbs, scores, bound = found if found is not None else self.candidates(S1, S2, ident, d, guesses)
        lower = max(lower, bound)
        limit = min(beta, INF64) if rules & USE_BUDGETS else INF64
        if lower >= limit:
            return self._store(key, min(lower, INF64), lower >= INF64, -1)
        order = self.guess_order(lbs, scores)
        best_value, best_guess, floor = limit, -1, INF64
        for i in order:
            if rules & USE_BOUNDS and lbs[i] >= best_value:
                floor = min(floor, int(lbs[i]))
                break  # sorted by bound: every later guess is refuted too
            cost = self.evaluate(S1, S2, ident, d, int(G[i]), best_value, G)
            if cost < best_value:
                best_value, best_guess = cost, int(G[i])
            else:
                floor = min(floor, cost)
        if best_guess >= 0:
            return self._store(key, best_value, True, best_guess)
        return self._store(key, min(INF64, max(lower, floor)), limit >= INF64, -1)

    def candidates(self, S1: np.ndarray, S2: np.ndarray, ident: bool, d: int,
                   guesses: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        """What a node (m >= 1 pairs, d >= 2) tries: (G, lbs, scores, lower), G the guesses the
        pruning rules leave, lbs each one's counting bound, scores the tie-break, lower the node's
        bound from them and the projection (as far as the rules use them). solve and
        root.root_search both start from it, so they try the same guesses in the same order."""
        rules = self.rules
        G = self.all_guesses if guesses is None else guesses
        mark1, mark2 = self.marks(S1, S2, ident)
        G, (lbs, scores, _) = node_bounds(self.tables, G, S1, S2, ident, mark1, mark2, d, bool(rules & USE_FILTER),
                                          bool(rules & USE_DEDUPE))
        lower = 0
        if rules & USE_BOUNDS:
            lower = int(lbs.min())
        if rules & USE_PROJECTION:
            lower = max(lower, self.projection(S1, S2, ident, d))
        return G, lbs, scores, lower

    def marks(self, S1: np.ndarray, S2: np.ndarray, ident: bool) -> tuple[np.ndarray, np.ndarray]:
        """Which answers are in S1 and which in S2 (one array when ident), as the kernels read them."""
        mark1 = np.zeros(self.n_answers, np.bool_)
        mark1[S1] = True
        if ident:
            return mark1, mark1
        mark2 = np.zeros(self.n_answers, np.bool_)
        mark2[S2] = True
        return mark1, mark2

    def bounds_of(self, S1: np.ndarray, S2: np.ndarray, ident: bool, d: int,
                  guesses: np.ndarray | None = None) -> Bounds:
        """kernels.guess_bounds of every guess of `guesses` (None: all) at the state (S1, S2, d):
        each one's counting bound, tie-break score and uselessness."""
        G = self.all_guesses if guesses is None else guesses
        mark1, mark2 = self.marks(S1, S2, ident)
        out = Bounds(np.empty(len(G), np.int64), np.empty(len(G), np.int64), np.empty(len(G), np.bool_))
        guess_bounds(self.tables, G, S1, S2, ident, mark1, mark2, d, out)
        return out

    def guess_order(self, lbs: np.ndarray, scores: np.ndarray) -> np.ndarray:
        """The order the guesses are tried in: by bound, then score (by score alone without USE_BOUNDS)."""
        return np.lexsort((scores, lbs)) if self.rules & USE_BOUNDS else np.argsort(scores, kind="stable")

    def shortcut(self, S1: np.ndarray, S2: np.ndarray, ident: bool, d: int) -> tuple[int, int]:
        """The value and a best guess of a state of one or two pairs (d >= 2).

        {a} x {b}: guess a, then b: 2, the least any pair costs (F2 in bounds.py). Ident {x, y}:
        guess x; each of the pairs (x, y), (y, x) then has one board solved and the other known: 4,
        the least two pairs cost. {x} x {b1, b2} (or mirrored): both pairs cost 2 only if the first
        guess is in both, that is x, and it tells b1 from b2: 4. Otherwise 4 is out of reach, and
        x, then b1, then b2 costs 5 within 3 guesses; with 2 left nothing fits."""
        gid = self.game.answer_guess_ids
        if ident:
            return 4, int(gid[S1[0]])
        if len(S1) == 1 and len(S2) == 1:
            return 2, int(gid[S1[0]])
        x, B = (S1[0], S2) if len(S1) == 1 else (S2[0], S1)
        g = int(gid[x])
        if self.matrix[g, B[0]] != self.matrix[g, B[1]]:
            return 4, g
        return (5, g) if d >= 3 else (INF64, -1)

    def second_bound(self, S1: np.ndarray, S2: np.ndarray, ident: bool, d: int,
                     guesses: np.ndarray | None = None) -> int:
        """A lower bound on W(S1, S2, d) (m >= 3 pairs, d >= 2): the memo's entry if it has one,
        else the node's own bound from DordleSearch.candidates, the least counting bound over the
        guesses the pruning rules leave, and the projection bound (as far as the rules use them),
        stored in the memo as a lower bound (with USE_MEMO).

        Proof: W = min over the guesses h tried at the state of the cost of opening it with h
        (the recurrence; the pruning rules leave at least one optimal guess), and each such cost
        is at least h's counting bound (bounds.guess_bound), so W is at least the least of them;
        the projection bound holds for W itself (bounds.projection_bound). A memo entry is an
        exact value or a proven lower bound."""
        key = self.key(S1, S2, ident, d)
        if self.rules & USE_MEMO:
            entry = self.memo.get(key)
            if entry is not None:
                return entry[0]
        found = self.candidates(S1, S2, ident, d, guesses)
        lower = min(int(found[3]), INF64)
        if self.rules & USE_MEMO:
            self.memo[key] = (lower, lower >= INF64, -1)
        if len(self.pending) >= PENDING:
            self.pending.clear()
        self.pending[(key, id(guesses))] = found  # for solve, should it search the state next
        return lower
    # (solve takes a pending candidates() of its state instead of computing it again. Keyed by the
    # state and the guess list's id, which a later list may reuse: harmless, since every list a
    # state is searched with leaves an optimal guess of it (USE_FILTER, USE_DEDUPE), so the state's
    # value is the same from either list.)

    def _store(self, key, value: int, exact: bool, best: int) -> tuple[int, int]:
        if key is not None:
            self.memo[key] = (value, exact, best)
        return value, best

    def parts(self, S1: np.ndarray, S2: np.ndarray, ident: bool, g: int) -> list[SingleBoard | Child]:
        """What opening the state with g leaves: a SingleBoard for each class of the board g did
        not solve (board 2's classes first, when g is in S1; then board 1's, when g is in S2), and
        a Child for each pair of non-winning classes, by code (some may hold no pair)."""
        classes1, in1 = self.classes(S1, g)
        classes2, in2 = (classes1, in1) if ident else self.classes(S2, g)
        out: list[SingleBoard | Child] = []
        if in1:
            out += [SingleBoard(2, code2, C) for code2, C in classes2]
        if in2:
            out += [SingleBoard(1, code1, C) for code1, C in classes1]
        child = Child._make  # tuple.__new__: half the time of Child(...), and a search makes many
        sizes2 = [len(C2) for _, C2 in classes2]
        for p, (code1, C1) in enumerate(classes1):
            n1 = len(C1)
            for q, (code2, C2) in enumerate(classes2):
                if ident and p == q:
                    out.append(child((code1, code2, C1, C2, True, n1 * (n1 - 1))))  # bounds.pairs, inline
                else:
                    out.append(child((code1, code2, C1, C2, False, n1 * sizes2[q])))
        return out

    def evaluate(self, S1: np.ndarray, S2: np.ndarray, ident: bool, d: int, g: int, limit: int = INF64,
                 guesses: np.ndarray | None = None) -> int:
        """The cost of opening the state with g: exact if below limit, else a proven bound >=
        limit. The running sum starts from m and the parts' bounds and only ever replaces a
        bound by a larger proven one, so it is a lower bound throughout; a child asked below its
        budget answers exactly, so a sum below the limit is exact."""
        self.evaluations += 1
        rules = self.rules
        m = bounds.pairs(len(S1), len(S2), ident)
        use_bounds = rules & USE_BOUNDS
        budgets = rules & USE_BUDGETS
        if not budgets:
            limit = INF64
        items = []  # [lower bound, pairs, part, whether a Child]
        for part in self.parts(S1, S2, ident, g):
            if isinstance(part, Child):
                lb = bounds.child_bound(len(part.S1), len(part.S2), part.ident, d - 1) if use_bounds else 0
                items.append([lb, part.pairs, part, True])
            else:
                lb = int(self.cb[d - 1, len(part.answers)]) if use_bounds else 0
                items.append([lb, 0, part, False])
        running = m + sum(item[0] for item in items)
        if running >= limit:
            return min(running, INF64)
        done = [False] * len(items)
        shortcuts = rules & USE_SHORTCUTS
        if rules & USE_PROJECTION or shortcuts:
            for i, (lb, pairs, part, child) in enumerate(items):
                if child and shortcuts and pairs <= 2:
                    if pairs == 0:
                        better = 0
                    else:
                        better = self.shortcut(part.S1, part.S2, part.ident, d - 1)[0] if d - 1 >= 2 else INF64
                    done[i] = True
                elif not rules & USE_PROJECTION:
                    continue
                elif child:
                    better = self.projection(part.S1, part.S2, part.ident, d - 1)
                else:
                    better = self.v1(part.answers, d - 1)
                    done[i] = True
                if better > lb:
                    running += better - lb
                    items[i][0] = better
                if running >= limit:
                    return min(running, INF64)
        if rules & USE_SECOND and limit < INF64 and d - 1 >= 2:
            for i in sorted(range(len(items)), key=lambda i: -items[i][1]):
                lb, pairs, part, child = items[i]
                if done[i] or not child or pairs <= 2:
                    continue
                better = self.second_bound(part.S1, part.S2, part.ident, d - 1, guesses)
                if better > lb:
                    running += better - lb
                    items[i][0] = better
                if running >= limit:
                    return min(running, INF64)
        # the single boards first (exact and memoised), then the children, smallest first
        for i in sorted(range(len(items)), key=lambda i: items[i][1]):
            if done[i]:
                continue
            lb, _, part, child = items[i]
            if child:
                budget = limit - (running - lb) if budgets else INF64
                value, _ = self.solve(part.S1, part.S2, part.ident, d - 1, budget, guesses)
            else:
                value = self.v1(part.answers, d - 1)
            if value > lb:
                running += value - lb
            if running >= limit:
                return min(running, INF64)
        return min(running, INF64)

    # --- the whole game ---
    def root(self) -> tuple[np.ndarray, np.ndarray, bool, int]:
        S = np.arange(self.n_answers, dtype=np.int32)
        return S, S, True, self.cap

    def solve_game(self, first: int | None = None) -> tuple[int, int]:
        """(the optimal total over every ordered pair of different answers, its first guess);
        with `first`, the total opening with that guess. INF64: no strategy within the cap."""
        t0 = time.perf_counter()
        S1, S2, ident, d = self.root()
        if first is None:
            value, g = self.solve(S1, S2, ident, d)
        else:
            value, g = self.evaluate(S1, S2, ident, d, first), first
        self.seconds += time.perf_counter() - t0
        return value, g

    def stats(self) -> dict:
        return {"nodes": self.nodes, "evaluations": self.evaluations, "memo_hits": self.memo_hits,
                "memo_entries": len(self.memo), "single_board_sets": len(self.v1_cache),
                "seconds": round(self.seconds, 3)}
