"""Grade a game move by move: for each guess played, the exact expected number of guesses to
finish with it and with a best guess there, over the candidates left before the move, and the
loss between them.

With d guesses left (the cap minus the moves before) and S the answers still possible, the
guess g played is worth E(g) = (|S| + sum over its non-winning classes C of V(C, d - 1)) / |S|
guesses, counting itself, and the best guess V(S, d) / |S|, where V is the least total of the
exact engine (engine/exact/solver.py). While the game follows a tree whose totals are exact
(an optimal tree of the same mode and cap), the best guess and its value are read off the tree:
the subtree's total over S. A tree built with its opener given (its totals exact below the
root only) still values its own opener: the played move's total is the tree's, and only the best
opener is searched. Everything else comes from the engine, in the symmetric games
(Mastermind, Bulls and Cows) through its orbit search. With a time limit, a move's values are
searched in a forked child under growing budgets, each proven bound sent back as it comes, and
the child is killed when the time is up (the kernels cannot be interrupted): a position too hard
for the time allowed still gets a proven lower bound. A value that is infinite means no tree
finishes every answer within the cap from there.

The tree walk is plain Python; the engine (numpy, numba) is imported only when a value needs it.
"""

from __future__ import annotations

import math
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import UserError
from .tree import read_tree, replay

INFINITE = math.inf
DEFAULT_SECONDS = 60.0  # the time a move's values may take before they are left as proven bounds


@dataclass
class Move:
    """One graded move. Totals are guesses summed over the `candidates` answers left before it
    (math.inf: no finish within the cap); an inexact total is a proven lower bound."""

    number: int
    guess: str
    pattern: str
    candidates: int
    total: float
    best: str | None  # a best guess there (the one played when it is one); None when not proven
    best_total: float
    total_exact: bool = True
    best_exact: bool = True
    source: str = "tree"  # where the best guess's value came from: "tree" or "engine"

    @property
    def expected(self) -> float:
        return self.total / self.candidates

    @property
    def best_expected(self) -> float:
        return self.best_total / self.candidates

    @property
    def loss(self) -> float:
        """expected - best_expected: a lower bound if `expected` is one, an upper bound if
        `best_expected` is one; nan when both are infinite."""
        if math.isinf(self.total) and math.isinf(self.best_total):
            return math.nan
        return (self.total - self.best_total) / self.candidates

    @property
    def bound(self) -> bool:
        return not (self.total_exact and self.best_exact)

    def as_json(self) -> dict:
        return {
            "move": self.number,
            "guess": self.guess,
            "pattern": self.pattern,
            "candidates": self.candidates,
            "best": self.best,
            "expected": number(self.expected),
            "best_expected": number(self.best_expected),
            "loss": number(self.loss),
            "bound": self.bound,
            "expected_bound": not self.total_exact,
            "best_bound": not self.best_exact,
            "total": number(self.total, None),
            "best_total": number(self.best_total, None),
            "source": self.source,
        }


def number(value: float, places: int | None = 4):
    """A value for JSON: rounded, None when infinite or undefined."""
    if math.isinf(value) or math.isnan(value):
        return None
    return int(value) if places is None else round(value, places)


@dataclass
class Grade:
    game: str
    mode: str
    cap: int | None
    tree: str | None  # the tree file whose values were used, if any
    moves: list[Move] = field(default_factory=list)
    won: bool = False  # the last move got the winning pattern
    seconds: float | None = None  # the time each searched move had (None: no limit)
    searched: list[int] = field(default_factory=list)  # the moves the engine searched (the others: from the tree)

    def totals(self) -> dict:
        """The sum of the losses; the expected length of the game as played (the moves before the
        last one, plus the last one's expected), against the optimum from the start. Where a value
        is a bound, its `*_bound` flag says so (`loss_bound`: "lower", "upper" or "both")."""
        losses = [m.loss for m in self.moves]
        last, first = self.moves[-1], self.moves[0]
        sides = {side for m in self.moves for side, inexact in (("lower", not m.total_exact),
                                                                 ("upper", not m.best_exact)) if inexact}
        return {
            "moves": len(self.moves),
            "solved": self.won,
            "loss": math.nan if any(math.isnan(x) for x in losses) else sum(losses),
            "expected": len(self.moves) - 1 + last.expected,
            "best_expected": first.best_expected,
            "bound": bool(sides),
            "loss_bound": None if not sides else sides.pop() if len(sides) == 1 else "both",
            "expected_bound": not last.total_exact,
            "best_bound": not first.best_exact,
        }

    def as_json(self) -> dict:
        totals = self.totals()
        return {
            "game": self.game,
            "mode": self.mode,
            "max_guesses": self.cap,
            "tree": self.tree,
            "seconds": self.seconds,
            "searched": self.searched,
            "moves": [m.as_json() for m in self.moves],
            "total": {**totals, **{key: number(totals[key]) for key in ("loss", "expected", "best_expected")}},
        }


# ------------------------------------------------------------------------------------------------
# trees
# ------------------------------------------------------------------------------------------------
def tree_values_apply(doc: dict, mode: str, cap: int | None) -> bool:
    """Whether a tree's subtree totals are the exact values V of this mode and cap: an optimal
    tree of the total objective, built for the same mode and cap."""
    g, s = doc["game"], doc["stats"]
    return (g["mode"] == mode and g["max_guesses"] == cap and s.get("optimal") is True
            and s.get("proof") == "exhaustive" and s.get("objective", "total") == "total")


def shipped_tree(game, mode: str, cap: int | None) -> dict | None:
    """A shipped tree of this game (same lists), mode and cap, if there is one."""
    from ..data import trees_dir

    ident = game.identity()
    for path in sorted(trees_dir().glob("*.json")):
        try:
            doc = read_tree(path)
        except UserError:
            continue
        g = doc["game"]
        if (g["name"], g["answers_sha256"], g["guesses_sha256"]) == (ident["name"], ident["answers_sha256"],
                                                                   ident["guesses_sha256"]) \
                and tree_values_apply(doc, mode, cap):
            return doc
    return None


def subtree_total(game, node: dict, answers) -> int:
    """The guesses the subtree at `node` takes over `answers` (words), counting its own."""
    return sum(len(replay(game, node, a)) for a in answers)


# ------------------------------------------------------------------------------------------------
# the engine
# ------------------------------------------------------------------------------------------------
class _Engine:
    """The exact engine at the positions of one game: a Solver for the game, mode and cap, and the
    constraint before each move (hard and ultra modes)."""

    def __init__(self, game, mode: str, cap: int | None, cache=None):
        import numpy as np

        from ..exact.solver import INF, Solver
        from .patterns import pattern_matrix

        self.INF = INF
        self.game = game
        self.solver = Solver(game, pattern_matrix(game, cache).matrix, cap, memo_mb=128, mode=mode)
        self.levels = game.symmetric_levels
        self.reqs = [self.solver.empty_constraint()]
        # compile (or load) the search here: a forked child's compilation dies with it (see _race)
        self.solver.solve(np.arange(min(3, len(game.answers)), dtype=np.int32), 1)

    def advance(self, g: int, code: int) -> None:
        self.reqs.append(self.solver.constrain(self.reqs[-1], g, code))

    def legal(self, i: int, g: int) -> bool:
        return self.solver.legal(self.reqs[i], g)

    def lower_bounds(self, S, g: int, d: int) -> tuple[int, int]:
        """Class bounds: on the total of guess g at S with d guesses left, and on V(S, d)."""
        solver = self.solver
        played = len(S) + sum(int(solver.class_bounds[d - 1][len(part)]) for _, part in solver.classes(S, g))
        return min(played, self.INF), int(solver.class_bounds[d][len(S)])

    def search(self, S, g: int, d: int, history: list[int], i: int, want_best: bool, budgets: bool, report,
               played_total: float | None = None) -> None:
        """The total of guess g at S with d guesses left, then (`want_best`) V(S, d) and a best
        guess, told to `report(kind, value, exact, guess)` ("played" or "best"); with `budgets`,
        also every bound proven on the way (see `_deepen`). `played_total`: g's total, known
        exactly already (from a tree), so that only the best guess is searched."""
        solver, req = self.solver, self.reqs[i]
        classes = solver.classes(S, g)
        if solver.symmetric:
            def played(beta):
                return solver.evaluate_symmetric(S, g, d, history + [g], beta, self.levels), g

            def best(beta):
                return solver.solve_symmetric(S, d, history, beta, self.levels + 1)
        else:
            def played(beta):
                return solver.sum_of_classes(
                    len(S), classes, d - 1, beta,
                    lambda code, part, budget: solver.solve(part, d - 1, budget, solver.constrain(req, g, code))[0]), g

            def best(beta):
                return solver.solve(S, d, beta, req)
        lower_played, lower_best = self.lower_bounds(S, g, d)
        if played_total is None:
            value, exact = self._deepen(played, lower_played, len(S), budgets, lambda v, e, _: report("played", v, e, g))
        else:
            value, exact = played_total, True
        if want_best:
            known = value if exact else INFINITE
            self._deepen(best, lower_best, len(S), budgets, lambda v, e, guess: report("best", v, e, guess), known)

    def _deepen(self, search, lower: int, n: int, budgets: bool, report, known: float = INFINITE) -> tuple[float, bool]:
        """Search for a value below `known` (a total some guess reaches, so a search against it
        settles the value), or without a budget; with `budgets`, first under budgets growing from
        a small slack above `lower` (each cheap to refute, and what each proves is kept for the
        next), each bound proven told to `report`, so that a search stopped at its deadline still
        leaves a proven bound. `search(beta)` answers as Solver.solve: (the value if below beta,
        else a bound >= beta; a guess reaching the value, else -1)."""
        INF = self.INF
        ceiling = INF if math.isinf(known) else int(known)
        slack = max(4, n // 8)
        while True:
            beta = min(ceiling, lower + slack) if budgets else ceiling
            value, guess = search(beta)
            if value >= INF:
                result = (INFINITE, True, -1)  # proven: no tree within the cap
            elif value < beta:
                result = (value, True, guess)
            elif beta == ceiling:
                result = (ceiling, True, -1)  # at least the total some guess reaches: exactly that
            else:
                lower = max(lower, value)
                report(lower, False, -1)
                slack *= 4
                continue
            report(*result)
            return result[:2]


def _race(work, deadline: float) -> list[tuple]:
    """What `work(report)` reports until it ends or `deadline` (time.monotonic()) passes, run
    in a forked child that is killed then: the kernels cannot be interrupted, and a killed
    child gives its cores back at once. Raises _NoChild where fork is not available, and when
    the child dies without finishing (its reports are lost)."""
    import multiprocessing

    try:
        context = multiprocessing.get_context("fork")
    except ValueError:
        raise _NoChild() from None
    receive, send = context.Pipe(duplex=False)
    parent = os.getpid()

    def child():
        _die_with(parent)
        try:
            work(lambda *message: send.send(message))
            send.send(("done",))
        except BaseException as exc:  # the parent runs the search itself, and meets the error there
            send.send(("error", repr(exc)))
        finally:
            send.close()

    process = context.Process(target=child, daemon=True)
    process.start()
    send.close()
    messages: list[tuple] = []
    ended = None  # "done" or "error", as the child said
    try:
        while receive.poll(max(0.0, deadline - time.monotonic())):
            message = receive.recv()
            if message[0] in ("done", "error"):
                ended = message[0]
                break
            messages.append(message)
    except EOFError:
        pass
    finally:
        if process.is_alive():
            process.kill()
        process.join()
        receive.close()
    if ended == "error" or (ended is None and time.monotonic() < deadline):
        raise _NoChild()
    return messages


def _die_with(parent: int) -> None:
    """In a forked child: end it as soon as its `parent` process ends, however that ends (kill -9
    included), so that no search outlives the grade that asked for it. On Linux the kernel sends
    it SIGKILL then (PR_SET_PDEATHSIG); elsewhere a watchdog thread sees the parent gone (the
    child re-parented) within a quarter of a second. A parent already gone ends it at once."""
    import signal
    import threading

    watched = False
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            watched = libc.prctl(1, int(signal.SIGKILL), 0, 0, 0) == 0  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            watched = False
    if os.getppid() != parent:  # it ended before the watch began
        os._exit(1)
    if watched:
        return

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.25)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class _NoChild(Exception):
    """The search could not run in a child process (no fork, or the child died)."""


# ------------------------------------------------------------------------------------------------
# grading
# ------------------------------------------------------------------------------------------------
@dataclass
class _Step:
    guess: str
    g: int  # guess id
    code: int
    text: str  # the pattern as the game writes it
    S: list[int]  # answer ids left before the move
    node: dict | None  # the tree's node before the move (None off the tree, or where its values do not apply)
    own: dict | None = None  # the root of a tree built with its opener given: only that opener's total is known


def grade(game, steps: list[tuple[str, str]], *, mode: str = "normal", max_guesses: int | None = 6,
          tree: dict | None = None, seconds: float | None = DEFAULT_SECONDS, cache=None, on_move=None,
          watch=None) -> Grade:
    """Grade the moves `steps` (guess, pattern as typed) of `game` in `mode` with at most
    `max_guesses` guesses per answer (None: no cap). `tree`: a wordtree/1 document for this
    game, whose values are used while the game follows it, where they apply. `seconds`: the
    time each move's search may take before its values are left as proven bounds (None: no
    limit); a move valued from the tree is exact whatever it is. `on_move(move)` is told each
    move as soon as it is graded, `watch(text)` what is being done (see Grading.run)."""
    return prepare(game, steps, mode=mode, max_guesses=max_guesses, tree=tree, seconds=seconds,
                   cache=cache).run(on_move, watch)


def prepare(game, steps: list[tuple[str, str]], *, mode: str = "normal", max_guesses: int | None = 6,
            tree: dict | None = None, seconds: float | None = DEFAULT_SECONDS, cache=None) -> Grading:
    """Every move of `steps` checked (an error comes before any long search), as a Grading whose
    run() grades them; its `searched` says beforehand which moves the engine will search."""
    return Grading(game, steps, mode, max_guesses, tree, seconds, cache)


class Grading:
    """The moves of one game, checked, and what grading them takes: `searched`, the numbers of
    the moves whose values the exact engine searches (within `seconds` each); every other move
    is valued from the tree (or is the last answer left), exactly and at once."""

    def __init__(self, game, steps, mode: str, max_guesses: int | None, tree: dict | None,
                 seconds: float | None, cache):
        if not steps:
            raise UserError("no moves to grade: give GUESS:PATTERN steps")
        self.game, self.mode, self.cap, self.seconds, self.cache = game, mode, max_guesses, seconds, cache
        use_tree = tree is not None and tree_values_apply(tree, mode, max_guesses)
        self.tree_path = tree.get("_path") if use_tree else None
        root_ok = use_tree and tree["stats"].get("first_guess") != "given"
        self.positions: list[_Step] = []
        self.engine: _Engine | None = None
        S = list(range(len(game.answers)))
        node = tree["root"] if use_tree else None
        won = False
        for i, (word, typed) in enumerate(steps):
            where = f"move {i + 1} ({word}:{typed})"
            if won:
                raise UserError(f"{where}: the game was already solved")
            if max_guesses is not None and i >= max_guesses:
                raise UserError(f"{where}: the game allows only {max_guesses} guesses")
            try:
                code = game.parse_pattern(typed)
                guess = game.parse_guess(word)
            except UserError as exc:
                raise UserError(f"{where}: {exc}") from None
            g, text = game.guess_index[guess], game.pattern_text(code)
            on_tree = node is not None and guess == node["guess"]
            if mode != "normal" and not on_tree and not self.need_engine().legal(i, g):
                raise UserError(f"{where}: {guess!r} breaks the {mode}-mode rule here")
            left = [a for a in S if game.feedback(guess, game.answers[a]) == code]
            if not left:
                raise UserError(f"{where}: {text} cannot occur here: no answer left would give it")
            known = i > 0 or root_ok
            self.positions.append(_Step(guess, g, code, text, S, node if known else None, None if known else node))
            if self.engine is not None:
                self.engine.advance(g, code)
            won = code == game.win_code
            node = node.get("next", {}).get(text) if on_tree and not won else None
            S = left
        self.won = won
        self.searched: list[int] = []
        history: list[int] = []
        for i, step in enumerate(self.positions):
            if not _known(game, step, i, self._left(i), history)[1]:
                self.searched.append(i + 1)
            history.append(step.g)

    def _left(self, i: int) -> int | None:
        return None if self.cap is None else self.cap - i

    def need_engine(self) -> _Engine:
        """The engine, made on first need, at the position after the moves checked so far."""
        if self.engine is None:
            self.engine = _Engine(self.game, self.mode, self.cap, self.cache)
            for step in self.positions:
                self.engine.advance(step.g, step.code)
        return self.engine

    def run(self, on_move=None, watch=None) -> Grade:
        """Grade the moves in order, telling `on_move(move)` each one as soon as it is graded and
        `watch(text)` each search before it starts (the engine's loading too)."""
        result = Grade(self.game.name, self.mode, self.cap, self.tree_path, won=self.won, seconds=self.seconds,
                       searched=list(self.searched))
        history: list[int] = []
        for i, step in enumerate(self.positions):
            move, done = _known(self.game, step, i, self._left(i), history)
            if not done:
                where = f"move {i + 1} ({step.guess})"
                if self.engine is None and watch is not None:
                    watch(f"{where}: loading the engine")
                engine = self.need_engine()
                if watch is not None:
                    limit = "" if self.seconds is None else f", up to {self.seconds:g} s"
                    watch(f"{where}: searching {len(step.S)} candidates{limit}")
                move = _search_move(self.game, step, i, history, self.seconds, engine, move)
            result.moves.append(move)
            if on_move is not None:
                on_move(move)
            history.append(step.g)
        return result


def _known(game, step: _Step, i: int, d_left: int | None, history: list[int]) -> tuple[Move, bool]:
    """The move at `step`, the i-th (from 0), with `d_left` guesses left before it (None: no cap)
    and the guess ids played before it in `history`, with what is known without a search: from
    the tree where its values apply, the last answer left. True when that is the whole grade;
    else the engine (_search_move) finds the rest."""
    n, S = len(step.S), step.S
    move = Move(i + 1, step.guess, step.text, n, INFINITE, None, INFINITE)
    if step.node is not None:
        move.best = step.node["guess"]
        move.best_total = subtree_total(game, step.node, [game.answers[a] for a in S])
        if step.guess == move.best or _same_orbit(game, history, step.g, game.guess_index[move.best]):
            move.best, move.total = step.guess, move.best_total
            return move, True
    elif step.own is not None and (step.guess == step.own["guess"]
                                   or _same_orbit(game, history, step.g, game.guess_index[step.own["guess"]])):
        move.total = subtree_total(game, step.own, [game.answers[a] for a in S])  # exact: the opener's optimal tree
    elif n == 1 and (d_left is None or d_left >= 1):  # the one answer left is the best guess
        move.best, move.best_total, move.source = game.answers[S[0]], 1, "engine"
        if step.guess == move.best:
            move.total = 1
            return move, True
    return move, False


def _search_move(game, step: _Step, i: int, history: list[int], seconds: float | None, engine: _Engine,
                 move: Move) -> Move:
    """`move` (what _known found) completed by the engine: the played guess's total unless the
    tree gave it, the best guess's value unless the tree gave it, each searched within `seconds`
    (None: no limit) and left as a proven bound where the time ran out."""
    deadline = None if seconds is None else time.monotonic() + seconds  # from here: not the compilation
    import numpy as np

    S = step.S
    S_ids = np.asarray(S, dtype=np.int32)
    d = engine.solver.cap - i
    want_best = move.best is None
    lower_played, lower_best = engine.lower_bounds(S_ids, step.g, d)
    known = None if math.isinf(move.total) else move.total  # the tree's total of its own opener
    values = {"played": (lower_played, False, -1) if known is None else (known, True, step.g),
              "best": (lower_best, False, -1)}

    def report(kind: str, value: float, exact: bool, guess: int) -> None:
        values[kind] = (INFINITE, True, -1) if value >= engine.INF else (value, exact, guess)

    def work(tell) -> None:
        engine.search(S_ids, step.g, d, history, i, want_best, deadline is not None, tell, known)

    if deadline is None:
        work(report)
    else:
        try:
            for message in _race(work, deadline):
                report(*message)
        except _NoChild:
            work(report)  # here, without the deadline
    for kind in values:
        report(kind, *values[kind])  # the class bounds, if no search told better
    move.total, move.total_exact, _ = values["played"]
    if want_best:
        move.source = "engine"
        move.best_total, move.best_exact, g = values["best"]
        move.best = game.guesses[g] if g >= 0 else None
        if move.best_exact and g < 0 and not math.isinf(move.best_total):
            move.best = step.guess  # the search proved no guess beats the one played
    if not move.total_exact:  # no guess does better than the best one
        move.total = max(move.total, move.best_total)
    if math.isinf(move.best_total):
        move.best = None  # no guess finishes within the cap
    elif move.total_exact and move.best_exact and move.total == move.best_total:
        move.best = step.guess  # the guess played is a best one
    return move


def _same_orbit(game, history: list[int], a: int, b: int) -> bool:
    """In a symmetric game, whether a map fixing the guesses of `history` sends guess a to b (then
    both are worth the same there: engine/games/symmetry.py)."""
    if not game.symmetric:
        return False
    from ..games.symmetry import code_array, orbit_keys

    codes = code_array(game.guesses, game.symbols)
    try:
        keys = orbit_keys(codes[[a, b]], codes[list(history)].reshape(len(history), codes.shape[1]), len(game.symbols))
    except ValueError:  # too long a history for the canonical form: not known
        return False
    return bool((keys[0] == keys[1]).all())


# ------------------------------------------------------------------------------------------------
# text
# ------------------------------------------------------------------------------------------------
def _value_text(value: float, exact: bool, mark: str = "\u2265") -> str:
    if math.isnan(value):
        return "-"
    if math.isinf(value):
        return "\u221e"
    return f"{'' if exact else mark}{value:.4f}"


def header_line(game: str, mode: str, cap: int | None, tree: str | None) -> str:
    """The grade's first line: the game, its rules and the tree whose values are used."""
    caps = "no cap" if cap is None else f"at most {cap} guesses"
    source = f", values from {Path(tree).name} while on it" if tree else ""
    return f"{game}, {mode} mode, {caps}{source}"


class Table:
    """The moves' table with its widths fixed before any move is graded, so that each row can be
    printed as soon as its move is: from the moves' guesses and patterns and the candidates at
    the start (`guesses`, `patterns`: the texts played; `candidates`: the most left at a move;
    `cap`: the guesses allowed, None for no cap)."""

    HEAD = ("move", "guess", "pattern", "left", "expected", "best", "best exp.", "loss")

    def __init__(self, guesses: list[str], patterns: list[str], candidates: int, cap: int | None):
        word = max(len(w) for w in guesses)
        most = candidates if cap is None else cap  # no finite expected value exceeds it
        value = max(8, len(f"\u2265{most:.4f}"))
        self.widths = [max(4, len(str(len(guesses)))), max(5, word), max(7, *map(len, patterns)),
                       max(4, len(str(candidates))), value, max(4, word), max(9, value), 0]

    @classmethod
    def of(cls, result: Grade) -> Table:
        moves = result.moves
        return cls([m.guess for m in moves] + [m.best or "?" for m in moves], [m.pattern for m in moves],
                   max(m.candidates for m in moves), result.cap)

    def _line(self, cells) -> str:
        return "  ".join(cell.ljust(w) for cell, w in zip(cells, self.widths)).rstrip()

    def head(self) -> str:
        return self._line(self.HEAD)

    def row(self, m: Move) -> str:
        loss_mark = "\u2265" if m.best_exact else ("\u2264" if m.total_exact else "~")
        return self._line((str(m.number), m.guess, m.pattern, str(m.candidates),
                           _value_text(m.expected, m.total_exact), m.best or "?",
                           _value_text(m.best_expected, m.best_exact), _value_text(m.loss, not m.bound, loss_mark)))


def total_lines(result: Grade) -> list[str]:
    """The grade's last lines: the total loss and the game against the optimum; a key to the
    bounds' marks where a value is one."""
    t = result.totals()
    status = "solved" if t["solved"] else "not solved"
    loss_mark = {"lower": "\u2265", "upper": "\u2264", "both": "~"}.get(t["loss_bound"], "")
    lines = [f"total loss {_value_text(t['loss'], not loss_mark, loss_mark)} over {t['moves']} "
             f"move{'s' * (t['moves'] != 1)} ({status}); expected "
             f"{_value_text(t['expected'], not t['expected_bound'])} guesses as played vs "
             f"{_value_text(t['best_expected'], not t['best_bound'])} optimal from the start"]
    if t["bound"]:
        lines.append("\u2265 / \u2264: a bound the search proved in the time allowed; "
                     "~: the difference of two such bounds")
    return lines


def grade_lines(result: Grade) -> list[str]:
    """The grade as a table, one row per move, and the totals."""
    table = Table.of(result)
    return ([header_line(result.game, result.mode, result.cap, result.tree), table.head()]
            + [table.row(m) for m in result.moves] + total_lines(result))


# ------------------------------------------------------------------------------------------------
# weighted answers (grade --weights): every move valued exactly by the weighted search
# ------------------------------------------------------------------------------------------------
WEIGHTED_LIMIT = 1000  # candidates before a move that the weighted grade values (exactly, with no time limit)


@dataclass
class WeightedMove(Move):
    """A move graded with answer weights: totals are weighted (each answer its weight times its
    guesses), and the expected values are over the weight of the candidates, not their count."""

    weight: int = 1  # the total weight of the candidates before the move

    @property
    def expected(self) -> float:
        return self.total / self.weight

    @property
    def best_expected(self) -> float:
        return self.best_total / self.weight

    @property
    def loss(self) -> float:
        if math.isinf(self.total) and math.isinf(self.best_total):
            return math.nan
        return (self.total - self.best_total) / self.weight

    def as_json(self) -> dict:
        return {**super().as_json(), "weight": self.weight}


class WeightedGrading:
    """The moves of one game graded with answer weights (wordle.weights.Weights), checked at once
    (an error comes before any search); run() values them: for each move, the weighted total of
    the guess played (exact/weighted.py's cost, its classes each solved exactly) and of a best
    guess there, over the candidates left before it, in normal or hard mode (the steps'
    constraint carried), exactly and with no time limit. Where more than WEIGHTED_LIMIT
    candidates are left (the first move of a real game) the best guess is not searched: its value
    is left as the node's proven lower bound (wordle/weights.py's node bound). No tree's values are
    used: a tree's totals are not the weights' optimum."""

    def __init__(self, game, steps: list[tuple[str, str]], weights, mode: str = "normal",
                 max_guesses: int | None = 6, cache=None):
        import numpy as np

        from ..exact.weighted import WeightedSolver
        from .patterns import pattern_matrix

        if not steps:
            raise UserError("no moves to grade: give GUESS:PATTERN steps")
        if getattr(game, "kind", "") != "wordle":
            raise UserError(f"weights are for the Wordle family, not {game.name}")
        self.game, self.mode, self.cap = game, mode, max_guesses
        matrix = pattern_matrix(game, cache).matrix
        self.solver = solver = WeightedSolver(game, matrix, np.array(weights.values, dtype=np.int64), max_guesses,
                                              mode=mode)
        req = solver.empty_constraint()
        allowed = set(solver.allowed(req).tolist())
        S = list(range(len(game.answers)))
        self.checked = []
        won = False
        for i, (word, typed) in enumerate(steps):
            where = f"move {i + 1} ({word}:{typed})"
            if won:
                raise UserError(f"{where}: the game was already solved")
            if max_guesses is not None and i >= max_guesses:
                raise UserError(f"{where}: the game allows only {max_guesses} guesses")
            try:
                code = game.parse_pattern(typed)
                guess = game.parse_guess(word)
            except UserError as exc:
                raise UserError(f"{where}: {exc}") from None
            g = game.guess_index[guess]
            if g not in allowed:
                raise UserError(f"{where}: {guess!r} breaks the {mode}-mode rule here")
            left = [a for a in S if game.feedback(guess, game.answers[a]) == code]
            if not left:
                raise UserError(f"{where}: {game.pattern_text(code)} cannot occur here: no answer left would give it")
            self.checked.append((guess, g, code, S, req))
            req = solver.constrain(req, g, code)
            allowed = set(solver.allowed(req).tolist())
            won = code == game.win_code
            S = left
        self.won = won

    def run(self, on_move=None) -> Grade:
        import numpy as np

        from ..exact.weighted import INF, _set_bound

        game, solver = self.game, self.solver
        result = Grade(game.name, self.mode, self.cap, None, won=self.won, seconds=None,
                       searched=list(range(1, len(self.checked) + 1)))
        for i, (guess, g, code, before, req) in enumerate(self.checked):
            d = solver.cap - i
            total = solver.cost(before, g, d, req=req)
            if len(before) > WEIGHTED_LIMIT:
                S = np.sort(np.asarray(before, dtype=np.int32))
                best_total, best, exact = min(total, int(_set_bound(S, solver.weights, np.int64(d), np.int64(solver.b),
                                                                    np.int64(solver.rules)))), -1, False
            else:
                (best_total, best), exact = solver.solve(before, d, req=req), True
            inf = math.inf
            move = WeightedMove(i + 1, guess, game.pattern_text(code), len(before),
                                inf if total >= INF else float(total),
                                None if best < 0 else game.guesses[best],
                                inf if best_total >= INF else float(best_total),
                                best_exact=exact, source="engine", weight=solver.weight(before))
            if move.best is not None and move.total == move.best_total:
                move.best = guess  # the move played is a best one
            result.moves.append(move)
            if on_move is not None:
                on_move(move)
        return result
