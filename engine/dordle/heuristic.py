"""A heuristic Dordle strategy, evaluated exactly over every ordered pair: an upper bound on the
optimum where the exact search (search.py) is out of reach (the full lists).

The strategy. A fixed opener; then at every two-board state the guess of least estimate
(kernels.guess_estimates: the counting bound of bounds.guess_bound plus `alpha` times a log-size
charge for what each child state still has to tell apart, over all the allowed guesses); the
states of one or two pairs are played as search.DordleSearch.shortcut plays them (optimally);
and once a board is solved, the exact single-board engine (exact.Solver) plays the other board
with the guesses left. It is a heuristic strategy: nothing says its choices are the best.

The evaluation is exact, not an estimate: the total is the sum over the two-board states the
strategy visits of their pair counts (each unfinished pair pays every guess) plus the exact
single-board value of every remainder (kernels.strategy_walk walks the states; the remainders of
three or more answers come back here for exact.Solver). A pair the strategy cannot finish within
the cap is counted in `failed` (the total is then no strategy's total, and the caller says so).

Exact states (`exact_below`, off by default). A child state of the opener with at most
`exact_below` pairs (and three or more) is also searched exactly (search.DordleSearch.solve, its
memo cleared first, below the walk's total plus one, within `exact_nodes` states: a count, not a
time, so the result does not depend on the machine), and the strategy plays the exact optimum
there whenever the search proves it below the walk's total. Sound: the pairs of the opener's
child states are disjoint and a strategy may play any valid strategy on each, so replacing one
child's walk by a strategy of less total (the search's value is the total of the tree its best
guesses make, every pair finishing within the cap) gives a valid strategy of less total; a search
that stops at the node limit or proves nothing below the walk leaves the walk as it was.

A strategy file (strategy_file) holds the rule's parameters, the claimed figures and the top of
the tree (top_section: the guess and subtree total at each branch after the opener, which
evaluate_opener records as it walks), so that a lookup answers there at once and computes the
rule below it for one state only (play_at); verify_strategy walks everything again.

The same walk yields a lower bound for free: at each child state of the opener it scans every
guess's counting bound, whose least is a lower bound on W(child) (lower.py's depth-2 bound).
"""

from __future__ import annotations

import time

import numpy as np

from .. import ENGINE
from ..errors import UserError
from ..jit import INF64
from . import bounds
from .document import FORMAT, STRATEGY_FORMAT, check_game_claims, check_strategy, remainder, solved_mark
from .kernels import Rule, Walk, strategy_walk
from .search import Child, DordleSearch, NodeLimit

ALPHA = 0.1  # the weight of the log-size charge (tuned on reduced lists against their exact values)
SHORTLIST = 400  # the guesses a small state scans besides its own answers
TRIES = 16  # with four or more guesses left, the candidates of each list tried before backing off
SINGLE_ROWS = 1 << 20
SINGLE_IDS = 1 << 24
EXACT_NODES = 2000  # states an exact child search may visit (exact_below)


class HeuristicStrategy:
    """The heuristic strategy over a DordleSearch's game (its single-board values, its shortcuts)."""

    def __init__(self, search, alpha: float = ALPHA, shortlist: int = SHORTLIST, tries: int = TRIES,
                 exact_below: int = 0, exact_nodes: int = EXACT_NODES):
        self.search = search
        self.exact_below = int(exact_below)
        self.exact_nodes = int(exact_nodes)
        self.exact_states = 0  # child states where the exact search beat the walk
        self.exact_saved = 0  # guesses it saved there, in all
        self.alpha = float(alpha)
        self.tries = int(tries)
        self.shortlist = int(shortlist)
        self.short = shortlist_guesses(search, shortlist)
        self.rule = Rule(self.short, self.alpha, self.tries)
        self.single_ids = np.empty(SINGLE_IDS, np.int32)
        self.single_meta = np.empty((SINGLE_ROWS, 4), np.int64)
        self.backoffs = 0

    def _walk(self, S1, S2, ident: bool, d: int, first: int, scan_all: bool) -> tuple[int, np.ndarray]:
        stats = np.zeros(8, np.int64)
        stats[3] = INF64
        guess = strategy_walk(self.search.tables, self.rule, np.ascontiguousarray(S1, np.int32),
                              np.ascontiguousarray(S2, np.int32), bool(ident), int(d), int(first), bool(scan_all),
                              Walk(self.single_ids, self.single_meta, stats))
        if stats[6]:
            raise UserError("a state is too large for the strategy walk's buffers")  # pragma: no cover
        self.backoffs += int(stats[7])
        return int(guess), stats

    def choose(self, S1: np.ndarray, S2: np.ndarray, ident: bool, d: int, below_first: bool = True) -> int:
        """The strategy's guess at a state of three or more pairs (-1: it finds none), as the walk
        plays it there (`below_first`: not a state a walk starts from, so the shortlist rule)."""
        return self._walk(S1, S2, ident, d, -1, not below_first)[0]

    def walk(self, S1: np.ndarray, S2: np.ndarray, ident: bool, d: int, first: int = -1) -> dict:
        """The strategy's total over the pairs of the state (opening with `first` when >= 0; every
        guess is scanned there), its failed pairs (all or none), the states it played, and the
        least counting bound over every guess at the state (INF64 when `first` was given)."""
        s = self.search
        if bounds.pairs(len(S1), len(S2), ident) <= 2 and first < 0:
            value, guess = s.shortcut(S1, S2, ident, d) if d >= 2 else (INF64, -1)
            failed = bounds.pairs(len(S1), len(S2), ident) if value >= INF64 else 0
            return {"total": 0 if failed else value, "failed": failed, "states": 1, "least": value, "exact": -1,
                    "guess": int(guess)}
        guess, stats = self._walk(S1, S2, ident, d, first, True)
        total, failed = self._totals(stats)
        out = {"total": total, "failed": failed, "states": int(stats[2]), "least": int(stats[3]), "exact": -1,
               "guess": int(first if first >= 0 else guess)}
        if first < 0 and self.exact_below and 2 < bounds.pairs(len(S1), len(S2), ident) <= self.exact_below:
            value, guess = self.exact(S1, S2, ident, d, INF64 if failed else total + 1)
            if guess >= 0:
                self.exact_states += 1
                self.exact_saved += 0 if failed else total - value
                out.update(total=value, failed=0, exact=guess, guess=guess)
        return out

    def _totals(self, stats: np.ndarray) -> tuple[int, int]:
        """(total, failed pairs) of a walk: its two-board states' counts plus the exact value of
        every one-board remainder it handed back (stats[4] of them in single_meta)."""
        total, failed = int(stats[0]), int(stats[1])
        for offset, size, left, mult in self.single_meta[: stats[4]]:
            value = self.search.v1(self.single_ids[offset: offset + size].copy(), int(left))
            if value >= INF64:
                failed += int(size * mult)
            else:
                total += int(value * mult)
        return total, failed

    def play_at(self, S1: np.ndarray, S2: np.ndarray, ident: bool, d: int, below_first: bool = True,
                exact: bool = False) -> tuple[int, int]:
        """(the strategy's guess at the two-board state, the total it plays there over the state's
        pairs, that guess included); (-1, INF64) where it fails a pair. `below_first`: a state
        below the opener's child states (the shortlist rule), else one of them (every guess
        scanned); `exact`: a state below a child state the exact search plays (exact_below), where
        the strategy plays the search's optimum. One walk of the state's subtree, no more: what a
        lookup below a strategy file's stored top computes."""
        s = self.search
        if exact or bounds.pairs(len(S1), len(S2), ident) <= 2:
            value, guess = s.solve(S1, S2, ident, d) if exact else s.shortcut(S1, S2, ident, d) if d >= 2 else \
                (INF64, -1)
            return (int(guess), int(value)) if value < INF64 and guess >= 0 else (-1, INF64)
        guess, stats = self._walk(S1, S2, ident, d, -1, not below_first)
        total, failed = self._totals(stats)
        return (guess, total) if guess >= 0 and not failed else (-1, INF64)

    def exact(self, S1: np.ndarray, S2: np.ndarray, ident: bool, d: int, beta: int) -> tuple[int, int]:
        """(W(S1, S2, d), its best guess) when the exact search proves it below beta within
        `exact_nodes` states from a cleared memo; else (INF64, -1)."""
        s = self.search
        s.memo.clear()
        s.pending.clear()
        s.node_limit = s.nodes + self.exact_nodes
        try:
            value, guess = s.solve(S1, S2, ident, d, beta)
        except NodeLimit:
            return INF64, -1
        finally:
            s.node_limit = None
        return (int(value), int(guess)) if value < beta and guess >= 0 else (INF64, -1)


def shortlist_guesses(search, count: int) -> np.ndarray:
    """The `count` guesses that split the whole answer list best (least sum of squared class
    sizes), in guess order: the candidates a small state scans besides its own answers."""
    n_codes = search.game.n_codes
    score = np.array([int((np.bincount(row, minlength=n_codes).astype(np.int64) ** 2).sum())
                      for row in search.matrix])
    return np.sort(np.argsort(score, kind="stable")[:count]).astype(np.int32)


def root_parts(search, first: int) -> tuple[int, list[tuple[np.ndarray, np.ndarray, bool]], list[np.ndarray]]:
    """Opening the whole game with `first`: (its pairs, the child states (C1, C2, ident), the
    single-board classes each counted twice (pairs (first, b) and (a, first)))."""
    A, _, _, _ = search.root()
    classes, hit = search.classes(A, first)
    n = len(A)
    children = []
    for p, (_, C1) in enumerate(classes):
        for q, (_, C2) in enumerate(classes):
            if p == q and len(C1) < 2:
                continue
            children.append((C1, C2, p == q))
    return n * (n - 1), children, [C for _, C in classes] if hit else []


def root_keys(search, first: int) -> tuple[list[str], list[tuple[str, str]]]:
    """The branch names (tree-file keys, board 1's pattern first) of root_parts' child states, in
    its order, and of its single-board classes as (board 1 solved, board 2 solved)."""
    A, _, _, _ = search.root()
    classes, hit = search.classes(A, first)
    text, win = search.game.pattern_text, search.game.pattern_text(search.game.win_code)
    keys = [f"{text(p)}/{text(q)}" for p, C1 in classes for q, _ in classes if not (p == q and len(C1) < 2)]
    return keys, [(f"{win}/{text(p)}", f"{text(p)}/{win}") for p, _ in classes] if hit else []


def evaluate_opener(strategy: HeuristicStrategy, first: int, *, progress=None, state: dict | None = None,
                    save=None) -> dict:
    """The strategy's exact total over every ordered pair opening with `first`, and the depth-2
    lower bound of that opener (lower.py) from the same scans. `state` (a checkpoint's dict)
    resumes: child states before state["done"] are not walked again; `save(state)` is called
    after each child state; `progress` (a bar) is advanced per child state. The result's "top"
    is the second level of the strategy, {key: [guess, total, exact]} for each child state and
    one-board remainder the opener leaves (exact: the exact search plays there; a remainder's
    guess is the single-board engine's), as a strategy file stores it."""
    search = strategy.search
    d = search.cap
    m, children, singles = root_parts(search, first)
    keys, single_keys = root_keys(search, first)
    if state is None or not state:
        state = {"done": 0, "total": m, "failed": 0, "states": 1, "bound": m, "seconds": 0.0, "top": {}}
        for C, pair in zip(singles, single_keys):
            v = search.v1(C, d - 1)
            state["total"] += 2 * v if v < INF64 else 0
            state["failed"] += 2 * len(C) if v >= INF64 else 0
            state["bound"] += 2 * int(search.cb[d - 1, len(C)])
            if v < INF64:
                g = single_guess(search, C, d - 1)
                for key in pair:
                    state["top"][key] = [search.game.guesses[g], int(v), False]
    top = state.setdefault("top", {})
    t0 = time.perf_counter() - state["seconds"]
    for i in range(state["done"], len(children)):
        C1, C2, ident = children[i]
        before = strategy.backoffs
        r = strategy.walk(C1, C2, ident, d - 1)
        if not r["failed"]:
            top[keys[i]] = [search.game.guesses[r["guess"]], r["total"], r["exact"] >= 0]
        state["backoffs"] = state.get("backoffs", 0) + strategy.backoffs - before
        state["total"] += r["total"]
        state["failed"] += r["failed"]
        state["states"] += r["states"]
        state["bound"] = min(INF64, state["bound"] + max(r["least"], bounds.child_bound(len(C1), len(C2), ident, d - 1)))
        state["done"] = i + 1
        state["seconds"] = time.perf_counter() - t0
        if progress is not None:
            progress.update(1)
        if save is not None:
            save(state)
    n = search.n_answers
    return {"first": search.game.guesses[first], "total": state["total"], "failed": state["failed"],
            "pairs": n * (n - 1), "mean": state["total"] / (n * (n - 1)), "states": state["states"],
            "lower_bound": state["bound"], "children": len(children), "seconds": round(state["seconds"], 1),
            "backoffs": state.get("backoffs", 0), "top": top}


def single_guess(search, S: np.ndarray, d: int) -> int:
    """The guess the single-board engine opens an optimal tree of the answers S with, within d
    (an answer alone is its own guess)."""
    if len(S) <= 2:
        return int(search.game.answer_guess_ids[S[0]])
    return int(search.solver.solve(S, d)[1])


def strategy_document(strategy: HeuristicStrategy, first: int) -> dict:
    """The strategy opening with `first` as a wordtree-dordle/1 document (tree.verify_document
    replays it), labelled a heuristic strategy (result.optimal false, result.strategy
    "heuristic"). For small games: the full lists' tree has millions of nodes."""
    from .tree import RemainderTrees

    search = strategy.search
    game = search.game
    solutions = RemainderTrees(game, search.matrix, search.cap)  # each remainder's stored solution, as build's

    def node(S1, S2, ident, d, guess, depth, exact=False):
        if guess is None and depth == 1 and strategy.exact_below:  # where walk() played the exact optimum
            exact = strategy.walk(S1, S2, ident, d)["exact"] >= 0
        if guess is None and exact:
            guess = search.solve(S1, S2, ident, d)[1]  # the exact optimum, below as the search finds it
        if guess is None:
            if bounds.pairs(len(S1), len(S2), ident) <= 2:
                guess = search.shortcut(S1, S2, ident, d)[1]
            else:
                guess = strategy.choose(S1, S2, ident, d, below_first=depth > 1)
            if guess < 0:
                raise UserError("the heuristic strategy finds no guess within the cap here")
        out = {"guess": game.guesses[guess]}
        children = {}
        for part in search.parts(S1, S2, ident, guess):
            if not isinstance(part, Child):
                children[part.key(game)] = remainder(game, part.board, part.answers, d - 1,
                                                     solutions(part.answers, d - 1))
            elif part.pairs:
                children[part.key(game)] = node(part.S1, part.S2, part.ident, d - 1, None, depth + 1, exact)
        if children:
            out["next"] = children
        return out

    S1, S2, ident, d = search.root()
    result = evaluate_opener(strategy, first)
    n = search.n_answers
    return {"format": FORMAT, "game": {"kind": game.kind, **game.identity()}, "max_guesses": search.cap,
            "solved_mark": solved_mark(game),
            "result": {"total": result["total"], "pairs": n * (n - 1), "mean": round(result["mean"], 6),
                       "optimal": False, "strategy": "heuristic", "first": game.guesses[first],
                       "lower_bound": result["lower_bound"]},
            "tree": node(S1, S2, ident, d, first, 0)}


def strategy_file(strategy: HeuristicStrategy, first: int, result: dict) -> dict:
    """The strategy opening with `first` as a wordtree-dordle-strategy/1 document: the top of
    the tree is the opener and the rest is filled in by the rule (HeuristicStrategy with these
    parameters, under this engine), so the file stays small at any game size; `result` is
    evaluate_opener's, whose total, pairs, mean and lower bound the file claims (verify_strategy
    walks the rule again to check them). A strategy that fails a pair has no total: refused."""
    if result["failed"]:
        raise UserError(f"the strategy fails {result['failed']} pairs within the cap: no strategy file written")
    search = strategy.search
    game = search.game
    return {"format": STRATEGY_FORMAT, "game": {"kind": game.kind, **game.identity()}, "max_guesses": search.cap,
            "strategy": "heuristic", "optimal": False, "first": game.guesses[first],
            "rule": {"alpha": strategy.alpha, "shortlist": strategy.shortlist, "tries": strategy.tries,
                     "engine": ENGINE, **exact_rule(strategy)},
            "result": {"total": result["total"], "pairs": result["pairs"], "mean": round(result["mean"], 6),
                       "failed": 0, "lower_bound": result["lower_bound"]},
            "top": top_section(game, first, result["top"])}


def top_section(game, first: int, top: dict) -> dict:
    """A strategy file's stored top of the tree: the opener and, for each branch it leaves (by
    its key), the guess the strategy plays there and the total of its subtree (the guesses still
    to play over that branch's pairs, the one at the branch included); "exact": true where the
    exact search plays the branch (exact_below), "board" for a one-board remainder's open board."""
    win = game.pattern_text(game.win_code)
    out = {}
    for key, (guess, total, exact) in sorted(top.items()):
        node = {"guess": guess, "total": int(total)}
        p1, p2 = key.split("/")
        if win in (p1, p2):
            node["board"] = 2 if p1 == win else 1
        if exact:
            node["exact"] = True
        out[key] = node
    return {"guess": game.guesses[first], "next": out}


def exact_rule(strategy: HeuristicStrategy) -> dict:
    """The exact states' parameters as a strategy file's rule holds them (none when off, so that
    the files written before them read the same)."""
    if not strategy.exact_below:
        return {}
    return {"exact_below": strategy.exact_below, "exact_nodes": strategy.exact_nodes}


def strategy_from_rule(search, rule: dict) -> HeuristicStrategy:
    """The HeuristicStrategy a strategy file's rule names (checked by document.check_strategy)."""
    return HeuristicStrategy(search, alpha=rule["alpha"], shortlist=rule["shortlist"], tries=rule["tries"],
                             exact_below=rule.get("exact_below", 0), exact_nodes=rule.get("exact_nodes", EXACT_NODES))


def verify_strategy(doc: dict, game, matrix: np.ndarray, progress=None) -> dict:
    """Walk the rule a wordtree-dordle-strategy/1 document names over every ordered pair and check
    its claims: the lists (by fingerprint), the opener, then the total, pairs, failed count, mean
    and lower bound the walk gives, and the stored top of the tree where the file has one (every
    branch's guess and total as the walk plays it). A mismatch is a UserError naming the field. `progress(n)`
    makes a bar for the n child states of the opener."""
    check_strategy(doc)
    identity = game.identity()
    for key in ("answers_sha256", "guesses_sha256"):
        if doc["game"].get(key) != identity.get(key):
            raise UserError(f"the strategy was made for other word lists ({key} differs)")
    check_game_claims(doc["game"], game)
    if doc["first"] not in game.guess_index:
        raise UserError(f"'first': {doc['first']!r} is not an allowed guess of these lists")
    first = game.guess_index[doc["first"]]
    rule = doc["rule"]
    search = DordleSearch(game, matrix, doc["max_guesses"])
    strategy = strategy_from_rule(search, rule)
    bar = progress(len(root_parts(search, first)[1])) if progress is not None else None
    result = evaluate_opener(strategy, first, progress=bar)
    if bar is not None:
        bar.close()
    claimed = doc["result"]
    note = "" if rule["engine"] == ENGINE else f" (the file's rule is {rule['engine']}'s, this is {ENGINE})"
    for key in ("pairs", "failed", "total", "lower_bound"):
        if result[key] != claimed[key]:
            raise UserError(f"'result.{key}': the walk gives {result[key]}, the file says {claimed[key]}{note}")
    if abs(claimed["mean"] - result["mean"]) > 1e-6:
        raise UserError(f"'result.mean': the walk gives {result['mean']:.6f}, the file says {claimed['mean']}")
    if "top" in doc:
        check_top(doc["top"], top_section(game, first, result["top"]), note)
    return result


def check_top(stored: dict, walked: dict, note: str = "") -> None:
    """A strategy file's stored top against the one the walk makes: the same branches, each with
    the same guess, total and labels (a UserError naming the first branch that differs)."""
    if stored["guess"] != walked["guess"]:
        raise UserError(f"'top.guess': the file opens with {stored['guess']!r}, its 'first' is {walked['guess']!r}")
    mine, theirs = stored["next"], walked["next"]
    for key in sorted(set(mine) | set(theirs)):
        if key not in mine or key not in theirs:
            where = "the walk has no such branch" if key in mine else "the file stores none"
            raise UserError(f"'top.next.{key[:40]}': {where}{note}")
        if mine[key] != theirs[key]:
            raise UserError(f"'top.next.{key}': the walk gives {theirs[key]}, the file says {mine[key]}{note}")
