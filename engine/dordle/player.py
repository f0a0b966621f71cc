"""Dordle lookups: the best next guess after the steps played, from a Dordle tree while the game
is on it, and from the exact engine (DordleSearch, exact.Solver) off it.

A step is a guess and the two patterns it got, board 1 first: `crane:BYGBB/BBBGY`. A board that
an earlier guess solved shows the fixed mark `=====` (one `=` a letter, tree.solved_mark) from
then on; the guess that solves it shows its win pattern (GGGGG). Anything else is refused as one
line: a mark on a board still open, colours on a solved board, both boards won by one guess (the
answers differ), a pattern no answer left would give, a step past the cap or after the win.

While both boards are open the position is the state (S1, S2, ident, d) of search.py; once one
is solved, a single board (S, d). On the tree, the next guess is the node's (a remainder's is
that of the single-board tree it stores, or where it stores none of exact.Solver.tree, the tree
the file stands for, as `dordle verify` replays it), and the expected number of guesses left is
the subtree's own total over the pairs left, counted by walking it with the feedback rule (which
also checks it). On a tree that stores its remainders no engine is made and no numba imported:
the patterns come from game.feedback and the engines (and the pattern matrix) only off the tree.
Off the tree the exact engine solves the position within a time limit and size caps; a position
it cannot finish gets a heuristic guess, labelled as such, with a proven lower bound on the
expected guesses.

On a strategy file (wordtree-dordle-strategy/1) the guess is the strategy's while the game follows
it ("strategy", with the strategy's own expected guesses, not claimed optimal): the opener and the
file's total first, then the branch its stored top names, then the rule computed for that state
alone (heuristic.HeuristicStrategy.play_at: one walk of its subtree). Once a board is solved the
strategy plays the exact single-board engine, which answers here too; after any other guess the
engine answers as with no tree.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field

import numpy as np

from ..errors import UserError
from .document import STRATEGY_FORMAT, single_tree_total

INF64 = 1 << 56  # the kernels' INF64 (engine/jit.py), named here so that a lookup on a tree imports no numba
DINF = INF64  # the older name, as dordle/kernels.py keeps it
SET_LIMIT = 200  # answers on a board the exact engine is tried on (its single-board bounds solve each set)
SINGLE_LIMIT = 60  # candidates on a lone board solved exactly off the tree (as player.EXACT_LIMIT)
DEFAULT_SECONDS = 10.0  # time the exact search of a two-board position may take off the tree
FULL_LIST_STRATEGY = "dordle-trace-strategy"  # the shipped strategy a lookup on the original lists plays


class NoStrategyLeft(UserError):
    """No strategy finishes every pair left within the guesses left (exact_rest: the exact search,
    no time limit): a proven result, exit status 3 as every family's cap that no strategy meets."""

    exit_code = 3

    def __init__(self, guesses_left: int):
        self.cap = guesses_left
        left = f"{guesses_left} guess{'es' * (guesses_left != 1)} left"
        super().__init__(f"no strategy finishes every pair within the {left} (proven)")


class TreeDisagrees(UserError):
    """The Dordle tree does not match the feedback rule below the position: it gives no advice."""


class OutOfTime(Exception):
    pass


@functools.cache
def _timed_search() -> type:
    """TimedSearch, made on first use: it is the exact engine's DordleSearch (numba), which a
    lookup on the tree never needs."""
    from .search import DordleSearch

    class TimedSearch(DordleSearch):
        """DordleSearch that stops (OutOfTime) at the first state it is asked about after
        `deadline`. What its memo holds stays proven: entries are stored only when a state's
        search ends."""

        deadline: float | None = None

        def solve(self, *args, **kwargs):
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise OutOfTime
            return super().solve(*args, **kwargs)

    return TimedSearch


def __getattr__(name: str):
    if name == "TimedSearch":
        return _timed_search()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass
class DordleSuggestion:
    guess: str | None  # None once won
    source: str  # "tree", "exact", "heuristic" or "solved"
    candidates: tuple[list[str], list[str]]  # each board's answers left ([] once solved)
    pairs: int  # ordered pairs of different answers left
    expected: float | None  # guesses still needed on average over the pairs (with the next one)
    exact: bool  # expected is the exact value (else a lower bound, or None)
    step: int
    note: str | None = None

    def as_json(self) -> dict:
        return {"guess": self.guess, "source": self.source, "step": self.step, "pairs": self.pairs,
                "candidates": [len(c) for c in self.candidates], "candidate_words": list(self.candidates),
                "expected_guesses": self.expected, "expected_exact": self.exact, "note": self.note}


def parse_step(text: str) -> tuple[str, str]:
    """`crane:BYGBB/=====` -> ("crane", "BYGBB/=====")."""
    guess, sep, feedback = text.partition(":")
    if not sep or not guess.strip() or "/" not in feedback:
        raise UserError(f"bad step {text!r}: expected GUESS:P1/P2, e.g. salet:BBYBB/GBBBB (===== for a solved board)")
    return guess.strip(), feedback.strip()


@dataclass
class DordlePosition:
    """One Dordle game played along a tree (`doc`, a read_document) or with no tree. `matrix`
    None: the patterns come from the feedback rule, a guess at a time, while the game is on the
    tree, and the pattern matrix (from the cache in `cache_dir`) is read only for the engine."""

    game: object
    matrix: np.ndarray | None
    cap: int
    doc: dict | None = None
    seconds: float | None = DEFAULT_SECONDS
    steps: list[tuple[str, str]] = field(default_factory=list)
    cache_dir: str | None = None

    def __post_init__(self):
        n = len(self.game.answers)
        self.sets = [np.arange(n, dtype=np.int32), np.arange(n, dtype=np.int32)]
        self.solved_at = [0, 0]  # the step that solved each board, 0 while open
        self.node = None if self.doc is None else self.doc.get("tree")  # a two-board node, a remainder, None
        # a strategy file (wordtree-dordle-strategy/1): its stored top, then its rule, while the game follows it
        self.strategy = self.doc if self.doc is not None and self.doc.get("format") == STRATEGY_FORMAT else None
        self.on_rule = self.strategy is not None
        self.branch = None  # the stored top's branch after the opener
        self._rule = None
        self._rule_plays: dict[int, tuple[int, int]] = {}  # steps played -> (the rule's guess, its total)
        self.single = None  # on a remainder: the node of its single-board tree
        self._search = None
        self._remainder_solver = None
        self.mark = "=" * self.game.length
        self.win_text = self.game.pattern_text(self.game.win_code)

    # --- engines, made when first needed (never while the game is on a tree that stores its remainders) ---
    def engine_matrix(self) -> np.ndarray:
        if self.matrix is None:
            from ..wordle.patterns import pattern_matrix

            self.matrix = pattern_matrix(self.game, self.cache_dir).matrix
        return self.matrix

    @property
    def search(self):
        if self._search is None:
            self._search = _timed_search()(self.game, self.engine_matrix(), self.cap)
        return self._search

    @property
    def remainder_solver(self):
        if self._remainder_solver is None:  # the solver `dordle verify` replays remainders with
            from ..exact.solver import Solver

            self._remainder_solver = Solver(self.game, self.engine_matrix(), self.cap)
        return self._remainder_solver

    def codes(self, g: int, S: np.ndarray) -> np.ndarray:
        """The pattern codes guess g shows on the answers S: the matrix's where it is read, else
        the feedback rule's."""
        if self.matrix is not None:
            return self.matrix[g, S]
        guess, answers, feedback = self.game.guesses[g], self.game.answers, self.game.feedback
        return np.fromiter((feedback(guess, answers[a]) for a in S.tolist()), dtype=np.int64, count=len(S))

    def single_total(self, S: np.ndarray, d: int) -> int:
        """What the remainder's single-board tree at `self.single` plays over the answers S, added
        up (each replayed with the feedback rule within the d guesses left)."""
        try:
            return single_tree_total(self.game, self.single, [self.game.answers[a] for a in S], d)
        except UserError as exc:
            raise TreeDisagrees(f"the tree's remainder disagrees with the feedback: {exc}") from None

    @property
    def won(self) -> bool:
        return all(self.solved_at)

    @property
    def pair_count(self) -> int:
        S1, S2 = self.sets
        return len(S1) * len(S2) - len(np.intersect1d(S1, S2))

    def words(self, board: int) -> list[str]:
        return [] if self.solved_at[board] else [self.game.answers[a] for a in self.sets[board]]

    # --- a step ---
    def play(self, guess: str, feedback: str) -> None:
        n = len(self.steps) + 1
        where = f"step {n} ({guess}:{feedback})"
        try:
            self._play(guess, feedback, n)
        except TreeDisagrees:
            raise
        except UserError as exc:
            raise UserError(f"{where}: {exc}") from None

    def _play(self, guess: str, feedback: str, n: int) -> None:
        game = self.game
        if self.won:
            raise UserError("the game is already won")
        if n > self.cap:
            raise UserError(f"the game allows only {self.cap} guesses")
        texts = feedback.split("/")
        if len(texts) != 2:
            raise UserError("expected two patterns, board 1's and board 2's, as P1/P2")
        g = game.guess_index[game.parse_guess(guess)]
        codes = []
        for board, text in enumerate(texts):
            text = text.strip()
            is_mark = bool(text) and set(text) == {"="}
            if self.solved_at[board]:
                if text != self.mark:
                    raise UserError(f"board {board + 1} was solved at guess {self.solved_at[board]}: "
                                    f"show it as {self.mark}")
                codes.append(None)
            elif is_mark:
                raise UserError(f"board {board + 1} is not solved: give its colours ({self.mark} is for a solved board)")
            else:
                codes.append(game.parse_pattern(text))
        if codes[0] == codes[1] == game.win_code:
            raise UserError("one guess cannot solve both boards: their answers differ")
        if self.on_rule and not (self.solved_at[0] or self.solved_at[1]) and self.rule_play()[0] != g:
            self.on_rule = False  # off the strategy: the engine answers from here
        new = list(self.sets)
        for board, code in enumerate(codes):
            if code is not None:
                S = self.sets[board]
                new[board] = S[self.codes(g, S) == code]
                if len(new[board]) == 0:
                    raise UserError(f"board {board + 1}: {game.pattern_text(code)} cannot occur here: "
                                    f"no answer left would give it")
        if len(new[0]) * len(new[1]) - len(np.intersect1d(new[0], new[1])) == 0:
            raise UserError("no pair of different answers gives that feedback")
        keys = [self.mark if c is None else game.pattern_text(c) for c in codes]
        self.sets = new
        for board, code in enumerate(codes):
            if code == game.win_code:
                self.solved_at[board] = n
        self.steps.append((game.guesses[g], "/".join(keys)))
        if self.on_rule and n == 1 and "top" in self.strategy:
            if self.strategy["top"]["guess"] != self.strategy["first"]:
                raise TreeDisagrees(f"the strategy file's stored top opens with {self.strategy['top']['guess']!r}, "
                                    f"its 'first' is {self.strategy['first']!r}")
            self.branch = self.strategy["top"]["next"].get("/".join(keys))
            if self.branch is None and not self.won:
                raise TreeDisagrees(f"the strategy file stores no branch {'/'.join(keys)} after {game.guesses[g]}")
        if not self.won:
            self._follow(game.guesses[g], codes, "/".join(keys), self.cap - n)

    def _follow(self, guess: str, codes: list, key: str, d: int) -> None:
        """Move along the tree (or off it) for `guess` getting `codes` (None: a board solved
        before), with d guesses left after it; `key` is the branch's name in the file."""
        win = self.game.win_code
        if self.node is None:
            return
        if "board" in self.node:  # a remainder: follow its single-board tree
            if self.single is None or guess != self.single["guess"]:
                self.node = self.single = None
                return
            code = codes[self.node["board"] - 1]
            self.single = None if code == win else self.single.get("next", {}).get(self.game.pattern_text(code))
            if code != win and self.single is None:
                raise TreeDisagrees(f"the remainder's tree has no branch after {guess}")
            return
        if guess != self.node["guess"]:
            self.node = None
            return
        child = self.node.get("next", {}).get(key)
        if win not in codes:
            if not isinstance(child, dict) or "board" in child:
                raise TreeDisagrees(f"the tree has no branch {key} after {guess}")
            self.node = child
            return
        # a board solved along the tree: the remainder the tree names for the other board
        open_board = 1 if codes[0] == win else 0
        S = self.sets[open_board]
        if not isinstance(child, dict) or child.get("board") != open_board + 1:
            raise TreeDisagrees(f"the tree has no remainder {key} after {guess}")
        if child.get("guesses_left") != d or \
                sorted(map(str, child.get("answers", []))) != sorted(self.game.answers[a] for a in S):
            raise TreeDisagrees(f"the tree's remainder {key} after {guess} does not match the answers or "
                                f"guesses left")
        self.node = child
        if "tree" in child:  # stored with the file (document.check_shape checked its shape)
            self.single = child["tree"]
        elif len(S) > 1:
            self.single = self.remainder_solver.tree(S, d)
        else:
            self.single = {"guess": self.game.answers[S[0]]}

    # --- a strategy file: its stored top answers at once, its rule below (one walk of the state) ---
    def rule_play(self) -> tuple[int, int]:
        """(the strategy's guess, its total over the pairs left) at the two-board position, while
        the game follows the strategy: the opener and the file's total before any step, the stored
        branch after the opener, and below it the rule (heuristic.HeuristicStrategy.play_at) for
        this state only, the exact search's play below a branch it plays."""
        n = len(self.steps)
        if n not in self._rule_plays:
            doc, game = self.strategy, self.game
            if n == 0:
                play = game.guess_index[doc["first"]], doc["result"]["total"]
            elif n == 1 and self.branch is not None:
                play = game.guess_index.get(self.branch["guess"], -1), self.branch["total"]
            else:
                if self._rule is None:
                    from .heuristic import strategy_from_rule

                    self._rule = strategy_from_rule(self.search, doc["rule"])
                S1, S2 = self.sets
                exact = bool(self.branch is not None and self.branch.get("exact"))
                play = self._rule.play_at(S1, S2, bool(np.array_equal(S1, S2)), self.cap - n, n > 1, exact)
            if play[0] < 0:
                raise TreeDisagrees(f"the strategy file's rule finds no guess within the cap after {n} steps")
            self._rule_plays[n] = play
        return self._rule_plays[n]

    # --- the suggestion ---
    def suggest(self) -> DordleSuggestion:
        n = len(self.steps)
        cands = (self.words(0), self.words(1))
        if self.won:
            return DordleSuggestion(None, "solved", cands, 0, 0.0, True, n)
        d = self.cap - n
        if d < 1:
            raise UserError(f"no guesses left after {n} steps: the game allows {self.cap}")
        if self.solved_at[0] or self.solved_at[1]:
            return self._suggest_single(cands, d, n)
        if self.on_rule:
            g, total = self.rule_play()
            m = self.pair_count
            return DordleSuggestion(self.game.guesses[g], "strategy", cands, m, _mean(total, m), True, n)
        return self._suggest_pair(cands, d, n)

    def _suggest_single(self, cands, d: int, n: int) -> DordleSuggestion:
        board = 1 if self.solved_at[0] else 0
        S = self.sets[board]
        k = len(S)
        if self.single is not None:
            return DordleSuggestion(self.single["guess"], "tree", cands, k, _mean(self.single_total(S, d), k), True, n)
        if self.on_rule and n == 1 and self.branch is not None:  # the stored remainder: its exact optimum
            return DordleSuggestion(self.branch["guess"], "strategy", cands, k, _mean(self.branch["total"], k), True, n)
        if k == 1:
            return DordleSuggestion(self.game.answers[S[0]], "exact", cands, 1, 1.0, True, n)
        if k <= SINGLE_LIMIT or self.strategy is not None:  # (the strategy plays the exact one-board engine)
            from ..exact.kernels import INF

            value, g = self.search.solver.solve(S, d)
            if value >= INF or g < 0:
                raise UserError(f"no strategy finishes board {board + 1} within the {d} guesses left")
            return DordleSuggestion(self.game.guesses[g], "exact", cands, k, _mean(int(value), k), True, n)
        g = self._single_heuristic(S)
        bound = int(self.search.cb[d, k]) if d < len(self.search.cb) else 0
        note = f"{k} answers on one board: too many to solve exactly here (at most {SINGLE_LIMIT})"
        return DordleSuggestion(self.game.guesses[g], "heuristic", cands, k, _mean(bound, k), False, n, note)

    def _suggest_pair(self, cands, d: int, n: int) -> DordleSuggestion:
        S1, S2 = self.sets
        ident = bool(np.array_equal(S1, S2))
        m = self.pair_count
        if self.node is not None:
            total = tree_total(self, self.node, S1, S2, ident, d)
            return DordleSuggestion(self.node["guess"], "tree", cands, m, _mean(total, m), True, n)
        if max(len(S1), len(S2)) > SET_LIMIT:
            note = f"{len(S1)} and {len(S2)} answers: too many to solve exactly here (at most {SET_LIMIT} a board)"
            return self._pair_heuristic(S1, S2, ident, d, cands, n, note)
        search = self.search
        search.deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        try:
            value, g = search.solve(S1, S2, ident, d)
        except OutOfTime:
            note = f"not solved exactly within {self.seconds:g} s"
            return self._pair_heuristic(S1, S2, ident, d, cands, n, note)
        finally:
            search.deadline = None
        if value >= INF64 or g < 0:
            raise UserError(f"no strategy finishes every pair within the {d} guesses left")
        return DordleSuggestion(self.game.guesses[g], "exact", cands, m, _mean(value, m), True, n)

    def _pair_heuristic(self, S1, S2, ident, d, cands, n, note) -> DordleSuggestion:
        """The guess the exact search would try first (least counting bound, then least sum of the
        squared pair counts of its child states), and the least counting bound over all guesses: a
        proven lower bound on the total (bounds.guess_bound)."""
        G = self.search.all_guesses
        lbs, scores, _ = self.search.bounds_of(S1, S2, ident, d, G)
        best = int(np.lexsort((scores, lbs))[0])
        m = self.pair_count
        return DordleSuggestion(self.game.guesses[int(G[best])], "heuristic", cands, m, _mean(int(lbs.min()), m),
                                False, n, note + "; the guess is a heuristic's, the expected guesses a lower bound")

    def _single_heuristic(self, S: np.ndarray) -> int:
        """The guess leaving the least sum of squared class sizes on S (ties: a candidate first)."""
        codes = self.engine_matrix()[:, S].astype(np.int64)
        n_codes = self.game.n_codes
        flat = codes + n_codes * np.arange(codes.shape[0])[:, None]
        counts = np.bincount(flat.ravel(), minlength=codes.shape[0] * n_codes).reshape(codes.shape[0], n_codes)
        score = (counts * counts).sum(axis=1) * 2 - np.isin(self.search.answer_of_guess, S)
        return int(np.argmin(score))


def _mean(total: int, count: int) -> float | None:
    if total >= INF64:
        return None
    return round(total / count, 4) if count else 0.0


def tree_total(position: DordlePosition, node: dict, S1, S2, ident: bool, d: int) -> int:
    """The total the tree's subtree at `node` plays over the pairs of (S1, S2, ident, d): every pair
    pays for each guess; a remainder is worth what its stored tree plays over its answers (V1, the
    tree an optimal one), or V1 from the single-board engine where it stores none. Each branch is
    checked against the feedback rule on the way (TreeDisagrees); the patterns come from
    position.codes, so no engine is needed for a tree that stores its remainders."""
    game = position.game
    m = _pairs(len(S1), len(S2), ident)
    if m == 0:
        return 0
    g = game.guess_index.get(node.get("guess")) if isinstance(node.get("guess"), str) else None
    if g is None or d < 1:
        raise TreeDisagrees(f"the tree's node {node.get('guess')!r} is not a guess of the game or past the cap")
    branches = node.get("next", {})
    total = m
    for part in _parts(position, S1, S2, ident, g):
        key = part[-1]
        child = branches.get(key)
        if part[0] == "single":
            _, board, answers, _ = part
            if not isinstance(child, dict) or child.get("board") != board or \
                    child.get("guesses_left") != d - 1 or \
                    sorted(child.get("answers", [])) != sorted(game.answers[a] for a in answers):
                raise TreeDisagrees(f"the tree's remainder {key} after {game.guesses[g]} does not match the feedback")
            total += _remainder_total(position, child, answers, d - 1, f"{key} after {game.guesses[g]}")
            continue
        _, C1, C2, child_ident, count, _ = part
        if count == 0:
            continue
        if not isinstance(child, dict) or "board" in child:
            raise TreeDisagrees(f"the tree has no branch {key} after {game.guesses[g]}")
        total += tree_total(position, child, C1, C2, child_ident, d - 1)
    return min(total, INF64)


def _pairs(n1: int, n2: int, ident: bool) -> int:
    """bounds.pairs: the ordered pairs of different answers of a state."""
    return n1 * (n1 - 1) if ident else n1 * n2


def _classes(position: DordlePosition, S: np.ndarray, g: int) -> tuple[list[tuple[int, np.ndarray]], bool]:
    """DordleSearch.classes from position.codes: the non-winning classes of g on S as (code,
    sorted answers), by code, and whether g is in S."""
    codes = position.codes(g, S)
    order = np.argsort(codes, kind="stable")
    S_sorted, codes_sorted = S[order], codes[order]
    cuts = np.flatnonzero(np.diff(codes_sorted)) + 1
    out, hit = [], False
    for part, code_part in zip(np.split(S_sorted, cuts), np.split(codes_sorted, cuts)):
        if int(code_part[0]) == position.game.win_code:
            hit = True
        else:
            out.append((int(code_part[0]), part))
    return out, hit


def _parts(position: DordlePosition, S1, S2, ident: bool, g: int) -> list[tuple]:
    """DordleSearch.parts with no engine, each with its branch's key last: ("single", board,
    answers, key) for the open board's classes where g solved the other, ("child", S1, S2, ident,
    pairs, key) for each pair of non-winning classes."""
    game = position.game
    win = game.pattern_text(game.win_code)
    classes1, in1 = _classes(position, S1, g)
    classes2, in2 = (classes1, in1) if ident else _classes(position, S2, g)
    out: list[tuple] = []
    if in1:
        out += [("single", 2, C, f"{win}/{game.pattern_text(code)}") for code, C in classes2]
    if in2:
        out += [("single", 1, C, f"{game.pattern_text(code)}/{win}") for code, C in classes1]
    for p, (code1, C1) in enumerate(classes1):
        for q, (code2, C2) in enumerate(classes2):
            same = ident and p == q
            out.append(("child", C1, C2, same, _pairs(len(C1), len(C2), same),
                        f"{game.pattern_text(code1)}/{game.pattern_text(code2)}"))
    return out


def _remainder_total(position: DordlePosition, child: dict, answers: np.ndarray, d: int, where: str) -> int:
    """A remainder's value with d guesses left: what its stored tree plays over its answers
    (checked against the stored total), 1 for one answer, else V1 from the single-board engine."""
    game = position.game
    if "tree" in child:
        try:
            played = single_tree_total(game, child["tree"], [game.answers[a] for a in answers], d)
        except UserError as exc:
            raise TreeDisagrees(f"the tree's remainder {where}: {exc}") from None
        if played != child.get("total"):
            raise TreeDisagrees(f"the tree's remainder {where} says its total is {child.get('total')}, its tree "
                                f"plays {played}")
        return played
    if len(answers) == 1:
        return 1 if d >= 1 else INF64
    return position.search.v1(answers, d)


def position_after(game, matrix, cap: int, doc: dict | None, steps: list[str],
                   seconds: float | None = DEFAULT_SECONDS) -> DordlePosition:
    """The position after `steps` (`GUESS:P1/P2` texts) along the tree `doc` (None: no tree)."""
    position = DordlePosition(game, matrix, cap, doc, seconds)
    for text in steps:
        position.play(*parse_step(text))
    return position


# ------------------------------------------------------------------------------------------------
# the rest of a game, exactly
# ------------------------------------------------------------------------------------------------
@dataclass
class ExactRest:
    """The rest of a game from a position, solved exactly (exact_rest)."""

    total: int  # the least total of the guesses still needed over the pairs left (0 once won)
    pairs: int  # ordered pairs left (once a board is solved, the open board's answers)
    guess: str | None  # a best next guess (None once won)
    step: int  # guesses played
    guesses_left: int  # every pair finishes within these (objective "worst": the fewest that do)
    seconds: float
    nodes: int  # two boards open: DordleSearch nodes; one board: the single-board engine's
    open_boards: int  # 2, 1 once a board is solved, 0 once won

    @property
    def mean(self) -> float:
        return self.total / self.pairs if self.pairs else 0.0


def exact_rest(position: DordlePosition, objective: str = "total") -> ExactRest:
    """The rest of the game from `position`, solved exactly with no time or size limit: the least
    total of the guesses still needed over the ordered pairs left, and a best next guess. Both
    boards open: DordleSearch.solve of the state (S1, S2, ident, guesses left); one board solved:
    the open board's single-board optimum, from the same exact.Solver the suggestions use.
    objective "worst": the fewest guesses left within which every pair finishes, then the least
    total within them (as tree.smallest_cap_search for a whole game). A won game is worth 0; no
    strategy within the guesses left is a UserError."""
    if objective not in ("total", "worst"):
        raise UserError(f"unknown objective {objective!r}: total or worst")
    n = len(position.steps)
    if position.won:
        return ExactRest(0, 0, None, n, 0, 0.0, 0, 0)
    d = position.cap - n
    if d < 1:
        raise UserError(f"no guesses left after {n} steps: the game allows {position.cap}")
    search = position.search
    search.deadline = None
    lefts = range(1, d + 1) if objective == "worst" else (d,)
    t0 = time.perf_counter()
    if position.solved_at[0] or position.solved_at[1]:
        S = position.sets[1 if position.solved_at[0] else 0]
        before = search.solver.counters().nodes
        for left in lefts:
            value, g = _single_exact(search, S, left)
            if value < INF64:
                break
        nodes, count, boards = search.solver.counters().nodes - before, len(S), 1
    else:
        S1, S2 = position.sets
        ident = bool(np.array_equal(S1, S2))
        before = search.nodes
        for left in lefts:
            value, g = search.solve(S1, S2, ident, left)
            if value < INF64 and g >= 0:
                break
        nodes, count, boards = search.nodes - before, position.pair_count, 2
    seconds = time.perf_counter() - t0
    if value >= INF64 or g < 0:
        raise NoStrategyLeft(d)
    return ExactRest(int(value), count, position.game.guesses[g], n, left, seconds, nodes, boards)


def _single_exact(search, S: np.ndarray, d: int) -> tuple[int, int]:
    """V1(S, d) and a best guess (INF64, -1 when no tree fits)."""
    from ..exact.kernels import INF

    if len(S) == 1:
        return 1, int(search.game.answer_guess_ids[S[0]])
    value, g = search.solver.solve(S, d)
    return (INF64, -1) if value >= INF or g < 0 else (int(value), int(g))


# ------------------------------------------------------------------------------------------------
# grading
# ------------------------------------------------------------------------------------------------
@dataclass
class GradedMove:
    number: int
    guess: str
    feedback: str
    pairs: int  # pairs (or answers, once a board is solved) left before the move
    expected: float | None  # the guess's expected guesses left, counting itself (None: no finish)
    best: str | None  # a best guess there (None: not found within the limits)
    best_expected: float | None
    note: str | None = None  # why the move is not graded, or what its bounds are
    expected_exact: bool = True  # else `expected` is a proven lower bound
    best_exact: bool = True  # else `best_expected` is a proven lower bound
    source: str = "engine"  # where the best guess's value came from: "tree" or "engine"

    @property
    def bound(self) -> bool:
        return not (self.expected_exact and self.best_exact)

    @property
    def loss(self) -> float | None:
        """expected - best_expected: a lower bound where `expected` is one, an upper bound where
        `best_expected` is one (loss_bound)."""
        if self.expected is None or self.best_expected is None:
            return None
        return round(self.expected - self.best_expected, 4)

    @property
    def loss_bound(self) -> str | None:
        sides = [side for side, inexact in (("lower", not self.expected_exact), ("upper", not self.best_exact))
                 if inexact]
        return None if not sides else sides[0] if len(sides) == 1 else "both"

    def as_json(self) -> dict:
        return {"move": self.number, "guess": self.guess, "feedback": self.feedback, "pairs": self.pairs,
                "expected": self.expected, "best": self.best, "best_expected": self.best_expected,
                "loss": self.loss, "bound": self.bound, "expected_bound": not self.expected_exact,
                "best_bound": not self.best_exact, "loss_bound": self.loss_bound, "source": self.source,
                "note": self.note}


def tree_values(doc: dict | None) -> str | None:
    """Where a Dordle tree's subtree totals are the exact optimum of their positions: "all" for a
    tree proven optimal, "below root" for one built with its opener given (each state below it
    solved exactly), None for no tree or a heuristic strategy's."""
    if doc is None or doc.get("format") == STRATEGY_FORMAT:
        return None
    result = doc["result"]
    if result.get("strategy") is not None or result.get("objective", "total") not in ("total", "worst"):
        return None
    return "all" if result.get("optimal") is True else "below root"


@dataclass
class _Planned:
    """A move checked before any is graded: whether the tree values it (its guess the tree's,
    where the tree's values apply), else the engine searches it."""

    guess: str
    feedback: str
    from_tree: bool


def plan(position: DordlePosition, steps: list[str]) -> list[_Planned]:
    """Every step of `steps` played on a copy of `position` (the first error, one line, before
    any search), and for each whether the tree values it."""
    copy = DordlePosition(position.game, position.matrix, position.cap, position.doc, position.seconds,
                          cache_dir=position.cache_dir)
    copy._search, copy._remainder_solver = position._search, position._remainder_solver  # (engines made once)
    applies = tree_values(position.doc)
    out = []
    for text in steps:
        guess, feedback = parse_step(text)
        tree_ok = applies == "all" or (applies == "below root" and copy.steps)
        node = copy.single if copy.single is not None else copy.node
        try:
            word = copy.game.parse_guess(guess)
        except UserError:
            word = None  # the play below says why, naming the step
        on = tree_ok and isinstance(node, dict) and "board" not in node and node.get("guess") == word
        copy.play(guess, feedback)
        out.append(_Planned(guess, feedback, bool(on)))
    position._search, position._remainder_solver = copy._search, copy._remainder_solver
    position.matrix = copy.matrix
    return out


def grade(position: DordlePosition, steps: list[str], on_move=None, watch=None) -> list[GradedMove]:
    """Each move's exact expected guesses left (counting itself, averaged over the pairs left
    before it, or over the answers left once a board is solved), a best guess's, and the loss;
    every move checked first. Where the game follows a tree whose values apply (tree_values), a
    best guess and its value are the tree's, exact whatever the time limit; the played guess is
    the tree's or is searched. A search that runs out of time leaves proven lower bounds
    (expected_exact, best_exact false); a position past the size caps is not graded, and says
    so. `on_move(move)` is told each move as soon as it is graded, `watch(text)` each search
    before it starts."""
    planned = plan(position, steps)
    applies = tree_values(position.doc)
    moves = []
    for number, step in enumerate(planned, 1):
        g = position.game.guess_index[position.game.parse_guess(step.guess)]
        d = position.cap - len(position.steps)
        tree_ok = applies == "all" or (applies == "below root" and number > 1)
        if watch is not None and not step.from_tree:
            limit = "" if position.seconds is None else f", up to {position.seconds:g} s"
            watch(f"move {number} ({step.guess}): searching{limit}")
        try:
            fields = _grade_move(position, g, d, tree_ok, own_root=applies == "below root" and number == 1)
        finally:
            if position._search is not None:
                position._search.deadline = None
        position.play(step.guess, step.feedback)
        moves.append(GradedMove(number, position.steps[-1][0], position.steps[-1][1], **fields))
        if on_move is not None:
            on_move(moves[-1])
    return moves


def searched_moves(position: DordlePosition, steps: list[str]) -> list[int]:
    """The numbers of the moves the exact engine searches (the tree values the others)."""
    return [n for n, step in enumerate(plan(position, steps), 1) if not step.from_tree]


def _grade_move(position: DordlePosition, g: int, d: int, tree_ok: bool, own_root: bool) -> dict:
    """The fields of a GradedMove for guess g with d guesses left: from the tree where `tree_ok`
    (its values apply here), the played total of its own opener where `own_root`, else searched."""
    game = position.game
    if position.solved_at[0] or position.solved_at[1]:
        S = position.sets[1 if position.solved_at[0] else 0]
        k = len(S)
        single = position.single if tree_ok else None
        if k > SINGLE_LIMIT and single is None:
            return dict(pairs=k, expected=None, best=None, best_expected=None,
                        note=f"not graded: {k} answers on one board (at most {SINGLE_LIMIT})")
        if single is not None:  # the remainder's optimum: what its tree plays (an optimal tree's)
            value, best, source = position.single_total(S, d), game.guess_index[single["guess"]], "tree"
        else:  # exact, no time limit (the board is small)
            search = position.search
            value = search.v1(S, d)
            best, source = (search.solver.solve(S, d)[1] if value < INF64 else -1), "engine"
        if best == g:
            played = value
        else:
            search = position.search
            classes, _ = search.classes(S, g)
            played = min(k + sum(search.v1(C, d - 1) for _, C in classes), INF64)
        return dict(pairs=k, expected=_mean(played, k), best=None if best < 0 else game.guesses[best],
                    best_expected=_mean(value, k), source=source)
    S1, S2 = position.sets
    ident = bool(np.array_equal(S1, S2))
    m = position.pair_count
    node = position.node if isinstance(position.node, dict) and "board" not in position.node else None
    played = best_total = None
    best = -1
    source = "engine"
    if node is not None and (tree_ok or own_root):
        total = tree_total(position, node, S1, S2, ident, d)
        tree_guess = game.guess_index[node["guess"]]
        if tree_ok:
            best_total, best, source = total, tree_guess, "tree"
        if tree_guess == g:
            played = total
        if played is not None and best_total is not None:
            return dict(pairs=m, expected=_mean(played, m), best=game.guesses[best], best_expected=_mean(total, m),
                        source="tree")
    if max(len(S1), len(S2)) > SET_LIMIT:
        told = "" if best_total is None else f"; the tree's {game.guesses[best]}: {_mean(best_total, m):g}"
        return dict(pairs=m, expected=None, best=None, best_expected=None,
                    note=f"not graded: {len(S1)} and {len(S2)} answers (at most {SET_LIMIT} a board){told}")
    search = position.search  # made (compiled) before the clock starts
    search.deadline = None if position.seconds is None else time.perf_counter() + position.seconds
    played_exact = best_exact = True
    ran_out = False
    if played is None:
        try:
            played = search.evaluate(S1, S2, ident, d, g, INF64)
        except OutOfTime:
            ran_out, played_exact = True, False
            played = int(search.bounds_of(S1, S2, ident, d, np.asarray([g], dtype=search.all_guesses.dtype))[0][0])
    if best_total is None:
        try:
            if ran_out:
                raise OutOfTime
            best_total, best = search.solve(S1, S2, ident, d)
        except OutOfTime:
            ran_out, best_exact, best = True, False, -1
            best_total = int(search.bounds_of(S1, S2, ident, d)[0].min())
    search.deadline = None
    if played_exact and best_exact and best_total >= played and played < INF64:
        best = g  # the guess played is a best one
    if not played_exact and best_exact:
        played = max(played, best_total)  # no guess does better than the best one
    if not best_exact and played_exact:
        best_total = min(best_total, played)
    which = "proven lower bounds" if not (played_exact or best_exact) else \
        f"a proven lower bound on the {'best guess' if played_exact else 'guess played'}"
    note = f"not solved exactly within {position.seconds:g} s: {which}" if ran_out else None
    return dict(pairs=m, expected=_mean(min(played, INF64), m), best=None if best < 0 else game.guesses[best],
                best_expected=_mean(min(best_total, INF64), m), note=note, expected_exact=played_exact,
                best_exact=best_exact, source=source)


# ------------------------------------------------------------------------------------------------
# text output
# ------------------------------------------------------------------------------------------------
def guess_line(s: DordleSuggestion) -> str:
    if s.source == "solved":
        return f"solved in {s.step}"
    open_boards = [len(c) for c in s.candidates if c]
    if len(open_boards) == 2:
        left = f"{open_boards[0]} and {open_boards[1]} candidates, {s.pairs} pair{'s' * (s.pairs != 1)} left"
    else:
        left = f"one board left, {open_boards[0]} candidate{'s' * (open_boards[0] != 1)}"
    if s.expected is None:
        expected = ""
    elif s.exact:
        expected = f", {s.expected:g} guesses expected"
    else:
        expected = f", at least {s.expected:g} guesses expected (a lower bound)"
    return f"{s.guess}  ({s.source}: {left}{expected})"


def candidate_lines(s: DordleSuggestion, every: bool = False, limit: int = 10) -> list[str]:
    lines = []
    for board, words in enumerate(s.candidates, 1):
        if not words:
            lines.append(f"board {board}: solved")
        elif every or len(words) <= limit:
            lines.append(f"board {board}: {' '.join(words)}")
        else:
            lines.append(f"board {board}: {len(words)} candidates ({' '.join(words[:limit])} ...)")
    return lines


def suggestion_lines(s: DordleSuggestion, every: bool = False) -> list[str]:
    lines = [s.note] if s.note else []
    lines.append(guess_line(s))
    return lines if s.source == "solved" else lines + candidate_lines(s, every)


def move_line(mv: GradedMove) -> str:
    """One graded move: its values, a bound marked \u2265 (the loss \u2264 or \u2265, ~ both)."""
    head = f"{mv.number}. {mv.guess} {mv.feedback}  ({mv.pairs} left)"
    if mv.expected is None and mv.best_expected is None and mv.note:
        return f"{head}  {mv.note}"
    played = "no finish within the cap" if mv.expected is None else \
        f"{'' if mv.expected_exact else chr(0x2265)}{mv.expected:g}"
    best = "none" if mv.best_expected is None else \
        f"{mv.best or '?'} {'' if mv.best_exact else chr(0x2265)}{mv.best_expected:g}"
    mark = {None: "", "lower": "\u2265", "upper": "\u2264", "both": "~"}[mv.loss_bound]
    loss = "" if mv.loss is None else f"  loss {mark}{mv.loss:g}"
    source = "" if mv.source != "tree" else "  (from the tree)" if mv.best == mv.guess else "  (best from the tree)"
    note = f"  ({mv.note})" if mv.note else ""
    return f"{head}  expected {played}  best {best}{loss}{source}{note}"


def total_line(moves: list[GradedMove]) -> str:
    """The sum of the losses of the moves graded (a bound where one of them is)."""
    graded = [mv for mv in moves if mv.loss is not None]
    sides = {mv.loss_bound for mv in graded} - {None}
    sides = {side for s in sides for side in (("lower", "upper") if s == "both" else (s,))}
    mark = "" if not sides else "\u2265" if sides == {"lower"} else "\u2264" if sides == {"upper"} else "~"
    return f"total loss {mark}{round(sum(mv.loss for mv in graded), 4):g} guesses over {len(graded)} graded move(s)"


def grade_lines(moves: list[GradedMove]) -> list[str]:
    return [move_line(mv) for mv in moves] + [total_line(moves)]


class DordlePlay:
    """A DordlePosition as play.py's loop plays it (play.Playable): the assistant proposes a
    guess and reads what the game showed (P1/P2 for the guess proposed, or WORD P1/P2 for one's
    own), until both boards are solved."""

    fatal = (TreeDisagrees,)

    def __init__(self, position: DordlePosition):
        self.position, self.suggestion = position, position.suggest()
        self.prompt = (f"colours as P1/P2 (e.g. BBYGB/GBBBB, {position.mark} for a solved board), or WORD P1/P2 "
                       f"for your own guess; q to quit:")

    def proposal(self) -> list[str]:
        s = self.suggestion
        return [f"guess {s.step + 1}: {guess_line(s)}"] + ([s.note] if s.note else [])

    def parse_reply(self, line: str) -> tuple[str, str]:
        parts = line.split()
        if len(parts) in (1, 2):
            return (self.suggestion.guess, parts[0]) if len(parts) == 1 else (parts[0], parts[1])
        raise UserError(f"expected P1/P2 or WORD P1/P2, got {line.strip()!r}")

    def after(self, step: tuple[str, str]) -> DordlePlay:
        self.position.play(*step)
        self.suggestion = self.position.suggest()
        return self

    def tiles(self) -> list[tuple[str, str | None]]:
        """Board 1's tiles, a blank, board 2's; a board solved before shows its `=` marks plain."""
        from ..wordle.player import feedback_cells

        guess, feedback = self.position.steps[-1]
        boards = [[(ch, None) for ch in text] if text == self.position.mark else feedback_cells(guess, text)
                  for text in feedback.split("/")]
        return boards[0] + [(" ", None)] + boards[1]

    def finished(self) -> bool:
        return self.suggestion.source == "solved"

    def outcome_lines(self) -> list[str]:
        s = self.suggestion
        return [f"solved in {s.step}"] if self.finished() else candidate_lines(s)

    def stopped(self) -> str:
        return f"stopped after {len(self.position.steps)} guess(es)"
