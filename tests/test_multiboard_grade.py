"""`grade --game quordle` / `--boards K`: exact values with one or two boards left, checked
against a brute force over the tuples of different answers the steps leave (listed here from
tests/reference_multiboard.py's feedback rule, apart from engine/multiboard); the estimates'
labelling and reproducibility; bad steps refused in one line."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

import reference_multiboard as ref
from wordtree.games.wordle import Wordle
from wordtree.multiboard.grade import Grader, draw_tuples
from wordtree.multiboard.position import MultiPosition
from wordtree.multiboard.spec import spec_for
from wordtree.words import WordList, canonical_sha256

ROOT = Path(__file__).resolve().parents[1]
ANSWERS = ROOT / "runs" / "multiboard-tiny-answers.txt"  # read only
GUESSES = ROOT / "runs" / "multiboard-tiny-guesses.txt"
LISTS = ["--answers", str(ANSWERS), "--guesses", str(GUESSES)]


def cli(*args, stdin=None):
    done = subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True, text=True,
                          input=stdin, timeout=900)
    return done.returncode, done.stdout, done.stderr


def words(path):
    return [w for w in path.read_text().split() if w]


def tiny(answers, guesses):
    wl = lambda name, ws: WordList(name, name, tuple(ws), canonical_sha256(ws))  # noqa: E731
    game = Wordle("wordle", wl("answers", sorted(answers)), wl("guesses", sorted(set(guesses) | set(answers))))
    return game, game._compute_matrix()


def feedback_steps(truth, guesses):
    """The steps GUESS:P1/.../PK that the answers `truth` show, by the reference feedback rule."""
    solved, steps = set(), []
    for g in guesses:
        steps.append((g, "/".join("=" * len(g) if b in solved else ref.colours(g, a) for b, a in enumerate(truth))))
        solved |= {b for b, a in enumerate(truth) if a == g}
        if len(solved) == len(truth):
            break
    return steps


def consistent(answers, k, steps):
    """The tuples of different answers that fit the steps, and each one's boards solved after them."""
    out = []
    for t in itertools.permutations(answers, k):
        solved, fits = set(), True
        for g, feedback in steps:
            shown = tuple("=" * len(g) if b in solved else ref.colours(g, a) for b, a in enumerate(t))
            if shown != tuple(feedback.split("/")):
                fits = False
                break
            solved |= {b for b in range(k) if t[b] == g}
        if fits:
            out.append((t, frozenset(solved)))
    return out


def brute(games, guesses, k, d):
    """The least total guesses over `games` ((tuple, boards solved)) within d, and each guess's
    total when played first: trying every guess at every node (memo on the set of games only)."""

    @lru_cache(maxsize=None)
    def total(state, d):
        return min(opening(state, d, g) for g in guesses) if d > 0 else ref.INF

    def opening(state, d, g):
        if d == 0:
            return ref.INF
        groups = {}
        for t, solved in state:
            key = tuple("=" if b in solved else ref.colours(g, a) for b, a in enumerate(t))
            groups.setdefault(key, []).append((t, solved | {b for b, a in enumerate(t) if a == g}))
        cost = len(state)
        for group in groups.values():
            if len(group[0][1]) < k:
                cost += total(frozenset(group), d - 1)
        return cost

    state = frozenset(games)
    return total(state, d), {g: opening(state, d, g) for g in guesses}


def test_exact_values_are_the_brute_force_s():
    answers, guesses = words(ANSWERS), words(GUESSES)
    rng = random.Random(11)
    checked, several, lost = 0, 0, 0
    for trial in range(20):
        k = rng.choice((2, 3))
        cap = k + rng.randint(1, 3)
        pool = sorted(rng.sample(answers, rng.randint(k + 1, 6)))
        extra = rng.sample(guesses, 3)
        game, matrix = tiny(pool, extra)
        truth = rng.sample(pool, k)
        played = [rng.choice(pool if rng.random() < 0.6 else game.guesses) for _ in range(cap)]
        steps = feedback_steps(truth, played)
        moves = Grader(game, matrix, spec_for("multiboard", k, cap), samples=20, seed=3).grade(steps)
        for mv in moves:
            before = steps[:mv.number - 1]
            games = consistent(game.answers, k, before)
            open_boards = k - len(games[0][1])
            if mv.method != "exact":
                assert open_boards > 2 or cap - len(before) > 4
                continue
            assert open_boards <= 2 and mv.tuples == len(games)
            best, each = brute(games, game.guesses, k, cap - len(before))
            assert (None if best == ref.INF else round(best / len(games), 6)) == mv.best_expected
            got = each[mv.guess]
            assert (None if got == ref.INF else round(got / len(games), 6)) == mv.expected
            if mv.best is not None:
                assert each[mv.best] == best  # the best move named reaches the optimum
            if mv.loss is not None:
                assert mv.loss == pytest.approx(mv.expected - mv.best_expected, abs=1e-6) and mv.loss >= 0
            checked += 1
            several += mv.tuples > 2
            lost += mv.expected is None
    assert checked >= 20 and several >= 8 and lost >= 1, (checked, several, lost)


def test_sampled_tuples_fit_the_position_and_cover_it():
    import numpy as np

    answers = words(ANSWERS)
    game, matrix = tiny(answers, words(GUESSES))
    steps = feedback_steps(("brown", "glide", "tease", "louse"), ["whack"])
    position = MultiPosition(game, matrix, spec_for("quordle"))
    for step in steps:
        position.play(*step)
    fits = {t for t, _ in consistent(game.answers, 4, steps)}
    drawn = draw_tuples(position.sets, 4000, np.random.default_rng(5))
    seen = {tuple(game.answers[a] for a in row) for row in drawn}
    assert seen <= fits and len(seen) == len(fits)  # every fitting tuple drawn, none other
    counts = [sum(1 for row in drawn if tuple(game.answers[a] for a in row) == t) for t in sorted(fits)]
    assert max(counts) < 2 * min(counts)  # uniform, roughly (expected 4000/|fits| each)


def test_the_estimate_is_labelled_and_reproducible():
    steps = [f"{g}:{p}" for g, p in feedback_steps(("brown", "glide", "tease", "louse"),
                                                       ["whack", "salet", "crony", "glide", "tease", "brown", "louse"])]
    args = ("grade", "--game", "quordle", *LISTS, *steps, "--samples", "40", "--seed", "7")
    code, out, err = cli(*args, "--json")
    assert code == 0, err
    again = cli(*args, "--json")
    assert again[0] == 0 and again[1] == out  # the same seed: the same numbers
    got = json.loads(out)
    assert got["samples"] == 40 and got["seed"] == 7 and len(got["moves"]) == 7
    estimates = [mv for mv in got["moves"] if mv["method"] == "estimate"]
    exact = [mv for mv in got["moves"] if mv["method"] == "exact"]
    assert estimates and exact and all(mv["open_boards"] <= 2 for mv in exact)
    for mv in estimates:
        assert not mv["exact"] and mv["samples"] == 40 and mv["seed"] == 7 and "not optimal" in mv["best_is"]
        lo, hi = mv["loss_ci95"]
        assert lo <= mv["loss"] <= hi
        assert mv["loss"] == pytest.approx(mv["expected"] - mv["best_expected"], abs=1e-5)
        if mv["best"] == mv["guess"]:  # common random numbers: the same games, no loss
            assert mv["loss"] == 0 and mv["won"] == mv["best_won"]
    assert got["total"]["exact"] is False and got["total"]["estimated_moves"] == len(estimates)
    code, text, err = cli(*args)
    assert code == 0, err
    assert "40 sampled tuples of answers, seed 7" in text and "not optimal" in text
    assert "estimate over 40 sampled tuples (seed 7)" in text and "exact over" in text
    assert "optimal from" not in text and "best " in text


def test_grid_reads_as_the_steps():
    truth = ("brown", "glide", "tease")
    steps = feedback_steps(truth, ["salet", "crony", "glide", "tease", "brown"])
    square = {"G": "\U0001f7e9", "Y": "\U0001f7e8", "B": "\u2b1b", "=": "\u2b1b"}
    grid = "\n".join(" ".join("".join(square[c] for c in p) for p in fb.split("/")) for _, fb in steps) + "\n"
    base = ("grade", "--boards", "3", *LISTS, "--json")
    code, by_steps, err = cli(*base, *[f"{g}:{p}" for g, p in steps])
    assert code == 0, err
    code, by_grid, err = cli(*base, "--grid", "-", *[g for g, _ in steps], stdin=grid)
    assert code == 0, err
    assert by_grid == by_steps


@pytest.mark.parametrize("args, status, words_", [
    (("--game", "quordle", "salet"), 2, "GUESS:P1/P2/.../PK"),
    (("--game", "quordle", "salet:BBBBB"), 2, "GUESS:P1/P2/.../PK"),
    (("--game", "quordle", "salet:BBBBB/BBBBB"), 1, "expected 4 patterns"),
    (("--boards", "3", "salet:BBBBB/BBBYB/BBBBY"), 1, "cannot occur here"),
    (("--boards", "3", "salet:BBBBB/BBBBB/BBBBB", "--mode", "hard"), 2, "--mode"),
    (("--boards", "3", "salet:BBBBB/BBBBB/BBBBB", "--max-guesses", "none"), 2, "--max-guesses none"),
    (("--boards", "3", "--grid", "-", "salet:BBBBB/BBBBB/BBBBB"), 2, "guesses alone"),
    (("--game", "quordle", "--boards", "3", "salet:BBBBB/BBBBB/BBBBB"), 2, "4 boards, not 3"),
    (("--game", "quordle",), 2, "give the moves played"),
])
def test_bad_steps_give_one_line(args, status, words_):
    code, out, err = cli("grade", *LISTS, *args)
    assert code == status and words_ in err and err.count("\n") == 1 and "Traceback" not in err, err


def test_multiboard_flags_are_refused_elsewhere():
    code, _, err = cli("grade", "crane:GYYBB", "--samples", "10")
    assert code == 2 and "--samples is for a multi-board game" in err and err.count("\n") == 1
