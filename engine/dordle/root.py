"""The root of the exact Dordle search, opener by opener, with a checkpoint: a search of the full
lists takes days, and one that stops must not lose the openers it has settled.

`root_search` tries the openers exactly as DordleSearch.solve does at the root (the same
pruned guesses, bounds and order, DordleSearch.candidates; the same budgets; the same stop at
the first opener whose bound reaches the best total), so it finds solve_game's value and
opener. After each opener it records what it proved: the exact total (below the budget it was
given), or a lower bound at least that budget (refuted).

A resume skips the recorded openers and starts from the best exact total recorded. That is
sound: the budgets only shrink, so an opener refuted against an earlier budget is refuted
against this one, and since openers are recorded in order, every opener after the recorded ones
meets the same budget as in a run that never stopped. A checkpoint of a cluster run (cluster.py)
may record openers out of order; RootLedger's budgets keep the value and opener solve's then too.

The checkpoint (wordtree-dordle-root/1, JSON, a files.Checkpoint) is the header (the lists'
fingerprints, the cap, the rules, the objective: a file of another run is refused, field named,
before the openers are planned), then
    "openers": the number of openers tried at the root (after pruning),
    "root_lower": the root's own lower bound (least opener bound, projection),
    "left_bound": the least bound of the openers not yet tried (null: none left),
    "results": {word: [value, exact]}, "finished": whether the search is over, "seconds".
What it proves so far, and the run that keeps it, are in checkpoint.py.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..errors import UserError
from ..files import Checkpoint, ThrottledSave, sealed
from . import bounds
from ..jit import INF64
from .search import USE_BOUNDS, USE_MEMO, USE_SHORTCUTS

CHECKPOINT_FORMAT = "wordtree-dordle-root/1"
SAVE_EVERY = 5.0  # seconds between checkpoint saves at most (and one at the end)


@dataclass
class RootResult:
    value: int  # the optimum when finished, else the best exact total so far (INF64: none yet)
    guess: int  # the opener reaching `value` (-1: none)
    finished: bool
    openers: int  # tried at the root, after pruning
    exact: int  # openers valued exactly
    refuted: int  # openers proven no better than the best (evaluated, or by their bound)
    lower: int  # a proven lower bound on the optimum (equal to it when finished)
    evaluated: int  # openers this run evaluated (a resume skips the recorded ones)
    seconds: float  # this run's
    interrupted: bool = False
    checkpoint_error: str | None = None  # why the last save failed (None: it did not)

    @property
    def left(self) -> int:
        return 0 if self.finished else self.openers - self.exact - self.refuted


def checkpoint_header(game, cap: int, rules: int) -> dict:
    """What a checkpoint must match to be resumed: the lists, the cap, the rules, the objective."""
    identity = game.identity()
    return {"format": CHECKPOINT_FORMAT, "answers_sha256": identity["answers_sha256"],
            "guesses_sha256": identity["guesses_sha256"], "max_guesses": int(cap), "rules": int(rules),
            "objective": "total"}


def root_checkpoint(path, game, cap: int, rules: int) -> Checkpoint:
    """The checkpoint at `path` of the search of these lists, cap and rules; its payload is
    read_root_checkpoint's."""
    def load(path, header, resuming):
        return _checked(path, game, Checkpoint(path, "Dordle build", header).read(resuming))

    return Checkpoint(path, "Dordle build", checkpoint_header(game, cap, rules), load=load)


def read_root_checkpoint(path, game, cap: int, rules: int, resuming: bool = True) -> dict | None:
    """The checkpoint at `path` (None: no file), its header checked and its results read with
    their types checked: {word: (value, exact)} under "results"."""
    return root_checkpoint(path, game, cap, rules).read(resuming)


def _checked(path, game, doc: dict | None) -> dict | None:
    """The document of a checkpoint whose header matched, its payload's types checked."""
    if doc is None:
        return None
    results = doc.get("results")
    if not isinstance(results, dict):
        raise UserError(f"{path}: malformed Dordle build checkpoint (no 'results')")
    checked = {}
    for word, item in results.items():
        if word not in game.guess_index or not isinstance(item, list) or len(item) != 2 \
                or not _whole(item[0]) or not isinstance(item[1], bool):
            raise UserError(f"{path}: malformed Dordle build checkpoint (result {_short(word)})")
        checked[word] = (min(int(item[0]), INF64), item[1])
    for key in ("openers", "root_lower"):
        if not _whole(doc.get(key)):
            raise UserError(f"{path}: malformed Dordle build checkpoint (no whole '{key}')")
    if doc.get("left_bound") is not None and not _whole(doc["left_bound"]):
        raise UserError(f"{path}: malformed Dordle build checkpoint ('left_bound')")
    return {**doc, "results": checked, "finished": doc.get("finished") is True}


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _short(text: str) -> str:
    return repr(text if len(text) <= 20 else text[:17] + "...")


def best_exact(results: dict, game) -> tuple[int, int]:
    """(the least exact total recorded, its opener), or (INF64, -1)."""
    exact = [(value, game.guess_index[word]) for word, (value, is_exact) in results.items() if is_exact]
    return min(exact, key=lambda item: item[0]) if exact else (INF64, -1)


def proven_lower(root_lower: int, best: int, left_bound: int | None) -> int:
    """The root's optimum is at least its own bound, and at least the least of the best exact total
    and the bounds of the openers not yet tried (every other opener is proven no better)."""
    return max(root_lower, min(best, INF64 if left_bound is None else left_bound))


@dataclass
class RootPlan:
    """What the root tries, computed in one place (root_plan) for root_search and the cluster:
    the root state, the openers G the pruning leaves, their bounds, the order they are tried in
    (positions into G), the root's own bound, and the value and opener of a root that needs no
    openers (None otherwise)."""

    S1: np.ndarray
    S2: np.ndarray
    ident: bool
    d: int
    G: np.ndarray
    lbs: np.ndarray
    order: np.ndarray
    lower: int
    trivial: tuple[int, int] | None

    @property
    def settled(self) -> bool:
        """Whether the root needs no opener tried: trivial, or no strategy within the cap."""
        return self.trivial is not None or self.lower >= INF64

    def guess(self, position: int) -> int:
        return int(self.G[self.order[position]])


def root_plan(search) -> RootPlan:
    """The root's openers in DordleSearch.solve's order (DordleSearch.candidates, guess_order)."""
    S1, S2, ident, d = search.root()
    m = bounds.pairs(len(S1), len(S2), ident)
    trivial = _trivial_root(search, S1, S2, ident, d, m)
    if trivial is not None:
        G, lbs, order, lower = search.all_guesses[:0], np.zeros(0, np.int64), np.zeros(0, np.int64), trivial[0]
    else:
        search.nodes += 1  # the root, as solve counts it
        G, lbs, scores, lower = search.candidates(S1, S2, ident, d)
        order = search.guess_order(lbs, scores)
    return RootPlan(S1, S2, ident, d, G, lbs, order, int(lower), trivial)


class RootLedger:
    """The openers' results ({word: (value, exact)}) against the plan's order, and what they imply.

    Results may be recorded in any order (a cluster finishes openers out of order), so the budget
    of the opener at position p is the least of the exact totals recorded before p and of those
    recorded after p plus one: an opener ties with a later one only by being exact, and solve
    keeps the first opener of the least total. The first opener reaching the optimum is therefore
    always below its budget, and best() (least exact total, earliest position) is solve's value
    and opener. When results form a prefix of the order (root_search), the budget is solve's."""

    def __init__(self, search, plan: RootPlan, results: dict | None = None):
        self.game, self.plan = search.game, plan
        self.use_bounds = bool(search.rules & USE_BOUNDS)
        self.results: dict[str, tuple[int, bool]] = dict(results or {})
        self.position = {self.game.guesses[plan.guess(p)]: p for p in range(len(plan.order))}
        self.ordered_lbs = plan.lbs[plan.order]
        self.recorded = np.zeros(len(plan.order), np.bool_)
        for word in self.results:
            if word in self.position:
                self.recorded[self.position[word]] = True
        # (position, value) of the exact results; a word off the plan (a forged file) goes last
        self.exact = [(self.position.get(w, len(plan.order)), v) for w, (v, e) in self.results.items() if e]

    def has(self, position: int) -> bool:
        return bool(self.recorded[position])

    def done(self) -> int:
        """The openers of the plan recorded."""
        return int(self.recorded.sum())

    def record(self, guess: int, value: int, exact: bool) -> None:
        word = self.game.guesses[guess]
        self.results[word] = (min(int(value), INF64), bool(exact))
        position = self.position.get(word, len(self.plan.order))
        if position < len(self.recorded):
            self.recorded[position] = True
        if exact:
            self.exact.append((position, min(int(value), INF64)))

    def budget(self, position: int) -> int:
        """The budget of the opener at `position` (INF64: no exact total yet)."""
        return min([INF64] + [v if p < position else v + 1 for p, v in self.exact if p != position])

    def refuted(self, position: int) -> bool:
        """solve's break rule at `position`: the openers are sorted by bound, so once one's bound
        reaches its budget, it and every opener after it not yet recorded is no better (with
        USE_BOUNDS; without, nothing is refuted unevaluated)."""
        return self.use_bounds and int(self.ordered_lbs[position]) >= self.budget(position)

    def best(self) -> tuple[int, int]:
        """(the least exact total recorded, its earliest opener), or (INF64, -1)."""
        if not self.exact:
            return INF64, -1
        position, value = min(self.exact, key=lambda item: (item[1], item[0]))
        if position >= len(self.plan.order):
            return best_exact(self.results, self.game)
        return value, self.plan.guess(position)

    def left_bound(self, finished: bool) -> int | None:
        """The least bound of the openers not yet recorded (None: none left, or finished)."""
        left = self.ordered_lbs[~self.recorded]
        return None if finished or not len(left) else int(left.min())

    def lower(self, finished: bool) -> int:
        return proven_lower(self.plan.lower, self.best()[0], self.left_bound(finished))

    def postfix(self, finished: bool = False) -> str:
        return _postfix(self.best()[0], self.lower(finished))

    def snapshot(self, search, finished: bool, seconds: float) -> bytes:
        """The checkpoint (wordtree-dordle-root/1) of what is recorded."""
        return sealed({**checkpoint_header(self.game, search.cap, search.rules), "openers": len(self.plan.order),
                       "root_lower": int(min(self.plan.lower, INF64)), "left_bound": self.left_bound(finished),
                       "results": {w: [int(v), e] for w, (v, e) in self.results.items()},
                       "finished": finished, "seconds": round(seconds, 3)})


def read_saved(search, checkpoint=None, resume: bool = False) -> dict | None:
    """The checkpoint to resume (None: none), read before root_plan: one of another run is refused
    before the openers are ordered and bounded."""
    return read_root_checkpoint(checkpoint, search.game, search.cap, search.rules) if checkpoint and resume else None


def open_ledger(search, plan: RootPlan, saved: dict | None) -> tuple[RootLedger, float]:
    """The ledger to start from (the results of the checkpoint `saved`, read_saved's), and the
    seconds of search it records."""
    earlier = float(saved.get("seconds", 0.0)) if saved and isinstance(saved.get("seconds"), (int, float)) else 0.0
    return RootLedger(search, plan, saved["results"] if saved else None), earlier


def root_result(search, plan: RootPlan, ledger: RootLedger, finished: bool, evaluated: int, seconds: float,
                interrupted: bool, save: ThrottledSave | None) -> RootResult:
    """The search's outcome from the ledger; a finished root is stored in the memo as solve stores it."""
    best_value, best_guess = ledger.best()
    if finished and plan.trivial is not None:
        best_value, best_guess = plan.trivial
    if finished and plan.trivial is None and search.rules & USE_MEMO:
        search._store(search.key(plan.S1, plan.S2, plan.ident, plan.d), best_value, True, best_guess)
    search.seconds += seconds
    exact = sum(e for _, e in ledger.results.values())
    openers = len(plan.order)
    return RootResult(best_value, best_guess, finished, openers, exact,
                      (openers - exact) if finished else len(ledger.results) - exact,
                      best_value if finished else ledger.lower(False), evaluated, seconds,
                      interrupted, save.error if save is not None else None)


def root_search(search, checkpoint=None, resume: bool = False, progress=None, max_openers: int | None = None,
                save_every: float = SAVE_EVERY) -> RootResult:
    """The optimal total of the whole game and its opener, as search.solve_game() finds them,
    opener by opener; with `checkpoint` (a path the caller holds: files.open_checkpoint) each
    opener's result is saved there (at most every `save_every` seconds, and at the end), and with
    `resume` the openers it records are skipped. `progress(total, done)`: makes a tqdm-like bar
    over the openers (None: none). `max_openers`: stop after evaluating that many (unfinished; for
    tests). Ctrl-C (KeyboardInterrupt) stops it too: the result says interrupted, and the
    checkpoint holds every opener finished."""
    t0 = time.perf_counter()
    saved = read_saved(search, checkpoint, resume)
    plan = root_plan(search)
    ledger, earlier = open_ledger(search, plan, saved)
    order = plan.order
    state = {"position": 0, "finished": plan.settled}
    save = ThrottledSave(checkpoint, lambda: ledger.snapshot(
        search, state["finished"], earlier + time.perf_counter() - t0)) if checkpoint else None
    evaluated, interrupted = 0, False
    shown = ledger.done()  # openers the bar counts done
    bar = progress(len(order), shown) if progress else None
    if bar is not None:
        bar.set_postfix_str(ledger.postfix(state["finished"]))
    try:
        while not state["finished"] and state["position"] < len(order):
            position = state["position"]
            if ledger.refuted(position):  # sorted by bound: the rest are refuted
                if bar is not None:
                    bar.update(len(order) - shown)
                state["finished"] = True
                break
            if not ledger.has(position):
                if max_openers is not None and evaluated >= max_openers:
                    break
                budget, guess = ledger.budget(position), plan.guess(position)
                cost = search.evaluate(plan.S1, plan.S2, plan.ident, plan.d, guess, budget, plan.G)
                evaluated += 1
                ledger.record(guess, cost, cost < budget)
                if bar is not None:
                    bar.update(1)
                    shown += 1
            state["position"] += 1
            if bar is not None:
                bar.set_postfix_str(ledger.postfix(state["finished"]))
            if save is not None:
                save(save_every)
        else:
            state["finished"] = True
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if bar is not None:
            bar.close()
        if save is not None:
            save(last=True)
    return root_result(search, plan, ledger, state["finished"], evaluated, time.perf_counter() - t0, interrupted, save)


def _trivial_root(search, S1, S2, ident, d, m) -> tuple[int, int] | None:
    """(value, guess) of a root solve settles without trying openers: no pairs, or one or two
    (USE_SHORTCUTS); None otherwise."""
    if m == 0:
        return 0, -1
    if search.rules & USE_SHORTCUTS and m <= 2:
        search.nodes += 1
        return search.shortcut(S1, S2, ident, d)
    return None


def _postfix(best: int, lower: int) -> str:
    return f"best {'none' if best >= INF64 else best}, proven >= {'inf' if lower >= INF64 else lower}"
