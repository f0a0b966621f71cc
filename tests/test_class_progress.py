"""The bar of an opener's subtrees moves inside a class: it counts answers, a finished class all of
its own, a class still searched in a symmetric game (Bulls and Cows, Mastermind) the share of its
second guesses tried, never all of them; solve_symmetric reports each guess of its top level."""

from __future__ import annotations

import numpy as np

from wordtree.exact import build as exact_build
from wordtree.exact.build import ClassProgress
from wordtree.exact.solver import INF, Solver
from wordtree.games import get_game
from wordtree.wordle.patterns import pattern_matrix


class Recorder:
    """A bar that keeps its updates."""

    def __init__(self, total=None, initial=0, **_):
        self.total, self.n, self.updates, self.postfixes = total, initial, [], []

    def update(self, n=1):
        self.n += n
        self.updates.append(n)

    def set_postfix_str(self, s="", refresh=True):
        self.postfixes.append(s)

    def close(self):
        pass


def test_class_progress_credits_a_share_and_the_rest_at_the_end():
    bar = Recorder(total=30)
    progress = ClassProgress(bar, {7: 20, 9: 10})
    report = progress.tried(7)
    report(0.25)  # a quarter of its guesses: 5 answers
    report(0.25)  # the same again: nothing more
    report(1.0)  # every guess tried but the class not finished: never all its answers
    assert bar.updates == [5, 14]
    progress.finished(7)
    progress.finished(9)
    progress.tried(9)(0.5)  # a late report of a finished class: nothing
    assert bar.updates == [5, 14, 1, 10] and bar.n == 30


def test_solve_symmetric_reports_each_guess_of_its_top_level():
    game = get_game("bulls-cows", digits=3, repeats=True)
    solver = Solver(game, pattern_matrix(game).matrix, max_guesses=None)
    S = np.arange(len(game.answers), dtype=np.int32)
    g = game.guess_index["012"]
    part = max((p for _, p in solver.classes(S, g)), key=len)
    seen = []
    value, _ = solver.solve_symmetric(part, solver.cap - 1, [g], INF, game.symmetric_levels, on_tried=seen.append)
    assert value < INF
    orbits = len(solver._orbit_bounds(part, solver.cap - 1, [g])[0])
    assert seen == sorted(seen) and 0 < seen[0] and seen[-1] == 1.0  # it grows, to all at the end
    assert len(seen) > orbits  # inside a guess too: as its classes are solved
    plain, _ = Solver(game, pattern_matrix(game).matrix, max_guesses=None).solve_symmetric(
        part, solver.cap - 1, [g], INF, game.symmetric_levels)
    assert plain == value  # the reports change nothing


def test_a_build_bar_counts_answers_and_moves_inside_classes(monkeypatch):
    bars = []

    def recorder(total=None, **options):
        bars.append(Recorder(total, **options))
        bars[-1].unit = options.get("unit")
        return bars[-1]

    monkeypatch.setattr(exact_build, "progress_bar", recorder)
    game = get_game("bulls-cows", digits=3, repeats=True)
    result = exact_build.build(game, pattern_matrix(game).matrix, first="012", max_guesses=None, threads=1)
    bar = next(b for b in bars if b.unit == "answers")
    solver = Solver(game, pattern_matrix(game).matrix, max_guesses=None)
    S = np.arange(len(game.answers), dtype=np.int32)
    classes = solver.classes(S, game.guess_index["012"])
    assert bar.total == sum(len(p) for _, p in classes) == len(game.answers) - 1
    assert bar.n == bar.total
    assert len(bar.updates) > len(classes)  # shares of classes under way, not only whole classes
    assert result.total == 5242
