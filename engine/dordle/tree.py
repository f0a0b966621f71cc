"""The Dordle tree file: the optimal two-board levels as a tree, the single-board remainders named
by their state, and a replay of every ordered pair that checks it.

Format (wordtree-dordle/1, JSON):

    {"format": "wordtree-dordle/1", "game": {...identity...}, "max_guesses": 7,
     "solved_mark": "=====",
     "result": {"total": T, "pairs": n(n-1), "mean": T / n(n-1), "optimal": true, "first": "salet",
                "objective": "total", ...},
     "tree": {"guess": g, "next": {"P1/P2": node, ...}}}

A two-board node's children are keyed by the two patterns, board 1 first, e.g. "BYGBB/BBBGY".
When the guess solves a board its pattern is the win ("GGGGG/BYBBG") and the child is a
remainder: {"board": 2, "answers": [...], "guesses_left": k, "total": V, "tree": {...}}, the
other board's candidates and the guesses left, with (for two answers or more) its exact
single-board value V1 and an optimal single-board tree (exact.Solver.tree of that state, nodes
{"guess": word, "next": {pattern: node}}), so that a lookup needs no engine. A remainder without
"total" and "tree" (an older file) is solved exactly by the single-board engine on demand; one of
a single answer is that answer, total 1. In play, a solved board shows the fixed mark
`solved_mark` from then on ("=====/BYBBG").

With the objective "worst" (fewest guesses for the worst pair, then fewest in all), max_guesses is
that least worst case and result.cap_asked the cap the build allowed; the tree is the optimal
total within max_guesses. Files are read by read_document: a bounded read, then check_shape.
"""

from __future__ import annotations

import time

import numpy as np

from ..errors import UserError
from ..exact.solver import Infeasible, Solver
from .document import FORMAT, check_game_claims, check_shape, remainder, single_tree_total, solved_mark
from ..jit import INF64
from .search import Child, DordleSearch

OBJECTIVES = ("total", "worst")


class NoStrategy(Infeasible):
    """No Dordle strategy (opening with `first` when given) finishes every pair within the cap: a
    proven result, exit status 3 as the single board's Infeasible (the search is exact)."""

    def __init__(self, cap: int, first: str | None = None):
        self.cap = cap
        opener = f" opening with {first}" if first else ""
        UserError.__init__(self, f"impossible: no Dordle strategy{opener} solves every pair within {cap} guesses "
                                 f"(proven)")


def smallest_cap_search(game, matrix: np.ndarray, max_guesses: int, first: int | None = None, **options):
    """The worst-case objective: a DordleSearch with the smallest cap d (2 to `max_guesses`)
    within which some strategy (opening with `first` when given) finishes every pair. Its
    optimal total within d is then the least total among the strategies whose worst pair takes
    the fewest guesses: every strategy of worst w* is one within the cap w*, and none exists
    within a smaller cap (each smaller d was searched and found infeasible)."""
    for d in range(2, int(max_guesses) + 1):
        search = DordleSearch(game, matrix, d, **options)
        value, _ = search.solve_game(first)
        if value < INF64:
            return search
    return DordleSearch(game, matrix, max_guesses, **options)  # infeasible: build_document says so


def build_document(search, first: int | None = None, objective: str = "total", cap_asked: int | None = None,
                   solved: tuple[int, int] | None = None, started: float | None = None) -> dict:
    """The optimal tree (opening with `first` when given) and its result, as a document. With
    objective "worst", `search` comes from smallest_cap_search: the tree's cap (max_guesses) is
    the least worst case, `cap_asked` the cap that was allowed. `solved`: the whole game's
    optimum and opener found already (root.root_search), by a search that began at `started`
    (time.perf_counter(); the result's seconds count from it). No strategy within the cap (the
    search is exact, so that is proven): NoStrategy."""
    game = search.game
    t0 = time.perf_counter() if started is None else started
    value, guess = search.solve_game(first) if solved is None else solved
    if value >= INF64:
        raise NoStrategy(search.cap, None if first is None else game.guesses[first])
    S1, S2, ident, d = search.root()
    tree = _node(search, S1, S2, ident, d, guess, RemainderTrees(game, search.matrix, search.cap))
    n = len(game.answers)
    pairs = n * (n - 1)
    return {
        "format": FORMAT,
        "game": {"kind": game.kind, **game.identity()},
        "max_guesses": search.cap,
        "solved_mark": solved_mark(game),
        "result": {"total": int(value), "pairs": pairs, "mean": round(value / pairs, 6), "optimal": first is None,
                   "objective": objective, **({"cap_asked": cap_asked} if objective == "worst" else {}),
                   "first": game.guesses[guess], "seconds": round(time.perf_counter() - t0, 3),
                   **{k: v for k, v in search.stats().items() if k != "seconds"}},
        "tree": tree,
    }


class RemainderTrees:
    """The stored solution of each remainder of two answers or more: its optimal single-board tree
    (exact.Solver.tree with the game's cap, the tree a lookup on a file without it builds) and
    that tree's total, which is V1 of its answers with its guesses left; one per distinct state."""

    def __init__(self, game, matrix: np.ndarray, cap: int):
        self.game, self.solver, self.solved = game, Solver(game, matrix, cap), {}

    def __call__(self, answers: np.ndarray, left: int) -> tuple[int, dict] | None:
        if len(answers) < 2:
            return None
        S = np.sort(np.asarray(answers, dtype=np.int32))
        key = (S.tobytes(), left)
        if key not in self.solved:
            tree = self.solver.tree(S, left)
            words = [self.game.answers[a] for a in S]
            self.solved[key] = (single_tree_total(self.game, tree, words, left), tree)
        return self.solved[key]


def _node(search, S1: np.ndarray, S2: np.ndarray, ident: bool, d: int, guess: int | None,
          solutions: RemainderTrees) -> dict:
    game = search.game
    if guess is None:
        value, guess = search.solve(S1, S2, ident, d)
        if value >= INF64 or guess < 0:
            raise UserError("internal: a state of the optimal tree has no strategy")  # pragma: no cover
    node = {"guess": game.guesses[guess]}
    children = {}
    for part in search.parts(S1, S2, ident, guess):
        if not isinstance(part, Child):  # the guess solved the other board
            children[part.key(game)] = remainder(game, part.board, part.answers, d - 1,
                                                 solutions(part.answers, d - 1))
        elif part.pairs:
            children[part.key(game)] = _node(search, part.S1, part.S2, part.ident, d - 1, None, solutions)
    if children:
        node["next"] = children
    return node


def verify_document(doc: dict, game, matrix: np.ndarray) -> dict:
    """Replay every ordered pair of different answers through the tree (the remainders through
    their stored trees, each checked by _stored_tree, or where none is stored the single-board
    engine's optimal trees) and check the rules, the cap and the total. Returns the recomputed
    figures; a failure is a UserError naming the pair."""
    if doc.get("format") != FORMAT:
        raise UserError(f"not a Dordle tree (format {doc.get('format')!r})")
    check_shape(doc)
    identity = {"kind": game.kind, **game.identity()}
    for key in ("answers_sha256", "guesses_sha256"):
        if doc["game"].get(key) != identity.get(key):
            raise UserError(f"the tree was built for other word lists ({key} differs)")
    cap = int(doc["max_guesses"])
    solver = Solver(game, matrix, cap)
    singles: dict = {}
    win = game.pattern_text(game.win_code)
    total, worst = 0, 0
    answers = game.answers
    for a in answers:
        for b in answers:
            if a == b:
                continue
            used = _replay(doc["tree"], a, b, game, solver, singles, win, cap)
            total += used
            worst = max(worst, used)
    claimed = doc["result"]["total"]
    if total != claimed:
        raise UserError(f"the replay totals {total}, the file says {claimed}")
    n = len(answers)
    figures = {"total": total, "pairs": n * (n - 1), "mean": total / (n * (n - 1)), "worst": worst,
               "remainders": sum(isinstance(key, tuple) for key in singles)}
    check_claims(doc, game, figures)
    return figures


def check_claims(doc: dict, game, figures: dict) -> None:
    """Every other figure the file states, against the replay's `figures` and the game: the pairs,
    the mean, the answer and guess counts, the opener, the solved mark, and for the objective
    "worst" that no pair takes more than the cap; the first that differs is a UserError."""
    result, spec = doc["result"], doc["game"]
    if result.get("pairs", figures["pairs"]) != figures["pairs"]:
        raise UserError(f"result.pairs is {result['pairs']}, the lists give {figures['pairs']}")
    mean = result.get("mean")
    if mean is not None and abs(mean - figures["mean"]) > 1e-6:
        raise UserError(f"result.mean is {mean}, the replay gives {round(figures['mean'], 6)}")
    check_game_claims(spec, game)
    if result.get("first", doc["tree"]["guess"]) != doc["tree"]["guess"]:
        raise UserError(f"result.first is {result['first']!r}, the tree opens with {doc['tree']['guess']!r}")
    if doc.get("solved_mark", solved_mark(game)) != solved_mark(game):
        raise UserError(f"solved_mark is {doc['solved_mark'][:20]!r}, the game's is {solved_mark(game)!r}")
    if result.get("objective") == "worst" and figures["worst"] != doc["max_guesses"]:
        raise UserError(f"the objective is the worst case, max_guesses {doc['max_guesses']}, but the worst pair "
                        f"takes {figures['worst']}")


def optimality_claim(doc: dict) -> tuple[str, str]:
    """What the tree claims of its optimality and what verify can say of it: ("not claimed", ""),
    ("claimed", how it was proven: the exhaustive search the file records, re-proved only by
    building it again), or ("unproven", why: the file records no exhaustive search, or says its
    tree is a heuristic strategy's)."""
    result = doc["result"]
    if result.get("optimal") is not True:
        return "not claimed", ""
    if result.get("strategy") is not None:
        return "unproven", f"the tree is labelled a {str(result['strategy'])[:40]} strategy's"
    if not all(isinstance(result.get(key), int) for key in ("nodes", "evaluations")) or \
            result.get("objective", "total") not in OBJECTIVES:
        return "unproven", "the file records no exhaustive search (its nodes and evaluations)"
    return "claimed", "by the exhaustive search the file records"


def _replay(node: dict, a: str, b: str, game, solver, singles: dict, win: str, cap: int) -> int:
    used = 0
    while True:
        guess = node["guess"]
        if guess not in game.guess_index:
            raise UserError(f"pair {a}/{b}: {guess[:20]!r} is not an allowed guess")
        used += 1
        if used > cap:
            raise UserError(f"pair {a}/{b} is not solved within {cap} guesses")
        key = f"{game.pattern_text(game.feedback(guess, a))}/{game.pattern_text(game.feedback(guess, b))}"
        child = node.get("next", {}).get(key)
        if child is None:
            raise UserError(f"pair {a}/{b}: the tree has no branch {key} after {guess}")
        if "board" not in child:
            node = child
            continue
        other = b if child["board"] == 2 else a
        if any(w not in game.answer_index for w in child["answers"]):
            raise UserError(f"pair {a}/{b}: a remainder after {guess} lists a word that is not an answer")
        if not key.split("/")[2 - child["board"]] == win:
            raise UserError(f"pair {a}/{b}: remainder of board {child['board']} before the other was solved")
        if other not in child["answers"]:
            raise UserError(f"pair {a}/{b}: {other} is not among the remainder's answers after {guess}")
        return used + _single(child, other, game, solver, singles, a, b, cap - used)


def _single(child: dict, answer: str, game, solver, singles: dict, a: str, b: str, left: int) -> int:
    if int(child["guesses_left"]) != left:
        raise UserError(f"pair {a}/{b}: the remainder says {child['guesses_left']} guesses left, not {left}")
    key = (tuple(child["answers"]), left)
    tree = singles.get(id(child)) if "tree" in child else singles.get(key)
    if tree is None:
        ids = np.array(sorted(game.answer_index[w] for w in child["answers"]), np.int32)
        if "tree" in child:
            tree = singles[id(child)] = _stored_tree(child, ids, game, solver, left, f"pair {a}/{b}")
            singles.setdefault(key, tree)
        else:
            tree = solver.tree(ids, left) if len(ids) > 1 else {"guess": child["answers"][0]}
            singles[key] = tree
    used = 0
    while True:
        used += 1
        if used > left:
            raise UserError(f"pair {a}/{b} is not solved within the cap")
        if tree["guess"] == answer:
            return used
        tree = tree["next"][game.pattern_text(game.feedback(tree["guess"], answer))]


def _stored_tree(child: dict, ids: np.ndarray, game, solver, left: int, where: str) -> dict:
    """A remainder's stored single-board tree, checked: every answer of it replayed through the
    tree with the plain feedback (within the guesses left), the guesses those take adding up to
    its stored total, and that total the single-board optimum V1 (the exact engine's value)."""
    from ..exact.kernels import INF

    size = f"the remainder of {len(ids)} answer{'s' * (len(ids) != 1)} with {left} guesses left"
    if len(set(child["answers"])) != len(ids):
        raise UserError(f"{where}: {size} lists an answer twice")
    try:
        played = single_tree_total(game, child["tree"], child["answers"], left)
    except UserError as exc:
        raise UserError(f"{where}: {size}: {exc}") from None
    if played != child["total"]:
        raise UserError(f"{where}: {size} says its total is {child['total']}, its tree plays {played}")
    optimum = 1 if len(ids) == 1 else int(solver.solve(ids, left)[0])
    if played != optimum:
        best = "no tree within them" if optimum >= INF else f"{optimum}"
        raise UserError(f"{where}: {size}: its tree totals {played}, the single-board optimum is {best}")
    return child["tree"]
