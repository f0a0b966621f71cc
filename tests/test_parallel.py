"""Many threads give the same answers as one: the split build (a class's guesses valued as jobs
of their own) against the kernel's own search, the rank's top against one thread's, and the
default thread count against a fake affinity and cgroup quota. No timing is asserted."""

import os
import random
import threading
from dataclasses import replace

import numpy as np
import pytest

from wordtree.exact import context, split
from wordtree.exact.build import build
from wordtree.exact.split import SplitPolicy, SplitSearch
from wordtree.exact.rank import rank
from wordtree.exact.solver import INF, Solver
from wordtree.games.wordle import Wordle
from wordtree.words import WordList, canonical_sha256


def word_list(name, words):
    return WordList(name, name, tuple(words), canonical_sha256(words))


def small_game(real_lists, seed, n_answers=70, n_guesses=160):
    answers_all, guesses_all = real_lists
    rng = random.Random(seed)
    answers = sorted(rng.sample(answers_all, n_answers))
    guesses = sorted(set(rng.sample(guesses_all, n_guesses)) | set(answers))
    return Wordle("wordle", word_list("answers", answers), word_list("guesses", guesses))


def split_solve(solver, S, d, beta, req, threads, deep=False, policy=split.SHIPPED):
    """V(S, d) below beta and the best guess, by a SplitSearch on `threads` workers (with `deep`:
    the deeper split, as far as `policy` takes it)."""
    found = root = split.root_candidates(solver, S, d, beta, req, deep)
    if root is None:
        return None
    answer, done = [], threading.Event()
    search = split.SplitSearch(solver, S, d, beta, req, *root, lambda v, g, w: (answer.append((v, g)), done.set()),
                               deep=deep, policy=policy)
    errors = []
    workers = split.Workers(threads, [search], errors.append).start()
    assert done.wait(60) and found is not None
    workers.stop()
    assert not errors
    return answer[0]


def compare_with_the_kernel(game, matrix, mode, seed, trials, least, split_results) -> int:
    """For `trials` random (S, d), S of at least `least` answers, each with budgets above, at
    and below its value: each of `split_results(S, d, beta, req)` (a split search's (value,
    guess), None where it does not split) against the kernel on a memo of its own: the same
    value and guess below beta, else a bound >= beta and no guess. Returns how many compared."""
    rng = np.random.default_rng(seed)
    compared = 0
    for trial in range(trials):
        S = np.sort(rng.choice(len(game.answers), size=int(rng.integers(least, len(game.answers))), replace=False))
        S = S.astype(np.int32)
        d = int(rng.integers(3, 6))
        reference = Solver(game, matrix, 6, mode=mode)
        req = reference.empty_constraint()
        value, _ = reference.solve(S, d, INF, req)
        for beta in (INF, value + 1, value, value - 3):
            kernel = Solver(game, matrix, 6, mode=mode).solve(S, d, beta, req)
            for got in split_results(S, d, beta, req):
                if got is None:
                    continue
                compared += 1
                if kernel[0] < beta:
                    assert got == kernel, (trial, beta)
                else:
                    assert got[0] >= beta and got[1] == -1
    return compared


@pytest.mark.parametrize("mode", ["normal", "hard"])
@pytest.mark.parametrize("seed", range(4))
def test_split_search_equals_the_kernel(real_lists, seed, mode):
    """The value and the guess of a split search are the kernel's, whatever the budget."""
    game = small_game(real_lists, seed)
    matrix = game._compute_matrix()
    assert compare_with_the_kernel(
        game, matrix, mode, seed, 6, 12,
        lambda S, d, beta, req: [split_solve(Solver(game, matrix, 6, mode=mode), S, d, beta, req, threads)
                                 for threads in (1, 3)])


@pytest.mark.parametrize("mode", ["normal", "hard"])
def test_a_split_tie_break_reuses_its_classs_candidates(monkeypatch, mode):
    """On 16 threads SALET's largest classes are split at their top, and the tie-break's search of
    each (one guess fewer) starts from the candidates the value's search found
    (SplitTree._root_candidates) instead of scanning every guess again: the shipped tree, and the
    candidates were reused."""
    import orjson

    from wordtree.games import get_game
    from wordtree.wordle.patterns import pattern_matrix
    from wordtree.data import trees_dir

    reused = []
    original = split.SplitTree._root_candidates

    def spy(self, cap, beta):
        first = self.first_candidates
        found = original(self, cap, beta)
        reused.append(first is not None and found is first[1])
        return found

    monkeypatch.setattr(split.SplitTree, "_root_candidates", spy)
    game = get_game("wordle")
    result = build(game, pattern_matrix(game).matrix, "salet", 6, threads=16, progress=False, mode=mode)
    shipped = orjson.loads((trees_dir() / f"wordle-salet-{mode}.json").read_bytes())
    assert result.root == shipped["root"]
    assert any(reused) and not all(reused)


@pytest.mark.parametrize("mode,cap", [("normal", 6), ("normal", 4), ("hard", 6), ("normal", None)])
@pytest.mark.parametrize("seed", range(3))
def test_split_build_gives_the_same_tree(real_lists, monkeypatch, seed, mode, cap):
    """Classes split at their top (even small ones, here; on 2 threads, the policy's
    split_min_threads lowered to force it), and split deeper (on 4, deep_min_threads as shipped), give the
    tree of the unsplit build. The opener is a poor one (the largest class), so that some classes
    have no perfect splitter, which the kernel would take at once."""
    game = small_game(real_lists, 10 + seed, n_answers=150, n_guesses=100)
    matrix = game._compute_matrix()
    first = game.guesses[max(range(len(game.guesses)), key=lambda g: np.bincount(matrix[g]).max())]
    whole = build(game, matrix, first=first, max_guesses=cap, threads=1, progress=False, mode=mode)
    policy = SplitPolicy(split_min=5, split_min_threads=2)
    searches = []
    monkeypatch.setattr(split, "SplitSearch", lambda *a, **k: searches.append(a) or SplitSearch(*a, **k))
    for threads in (1, 2, 4):
        parted = build(game, matrix, first=first, max_guesses=cap, threads=threads, progress=False, mode=mode,
                       policy=policy)
        assert (parted.total, parted.root) == (whole.total, whole.root)
        assert parted.job_seconds
    assert searches


def test_rank_with_many_threads_keeps_the_top(real_lists):
    game = small_game(real_lists, 7, n_answers=60, n_guesses=120)
    matrix = game._compute_matrix()
    one = rank(game, matrix, top=5, threads=1, progress=False)
    many = rank(game, matrix, top=5, threads=8, progress=False)
    assert one.ordered()[:5] == many.ordered()[:5]
    assert all(exact for _, _, exact in many.ordered()[:5])
    assert many.kth_value() == one.kth_value()
    for word, (value, exact) in many.values.items():  # every other opener proven at least the 5th value
        assert exact or value >= many.kth_value()
    assert len(many.job_seconds) <= len(many.values)


@pytest.fixture
def fake_machine(monkeypatch, tmp_path):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(16)), raising=False)
    monkeypatch.setattr(context, "CGROUP", str(tmp_path))
    return tmp_path


def test_default_threads_uses_every_core_without_a_quota(fake_machine):
    assert context.default_threads() == 16
    (fake_machine / "cpu.max").write_text("max 100000\n")
    assert context.default_threads() == 16


@pytest.mark.parametrize("text,threads", [("400000 100000", 4), ("250000 100000", 2), ("50000 100000", 1),
                                          ("3200000 100000", 16)])
def test_default_threads_respects_the_cgroup_v2_quota(fake_machine, text, threads):
    (fake_machine / "cpu.max").write_text(text + "\n")
    assert context.default_threads() == threads


@pytest.mark.parametrize("quota,threads", [("-1", 16), ("300000", 3), ("20000", 1)])
def test_default_threads_respects_the_cgroup_v1_quota(fake_machine, quota, threads):
    (fake_machine / "cpu").mkdir()
    (fake_machine / "cpu" / "cpu.cfs_quota_us").write_text(quota + "\n")
    (fake_machine / "cpu" / "cpu.cfs_period_us").write_text("100000\n")
    assert context.default_threads() == threads


def test_default_threads_respects_the_affinity(fake_machine, monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 3}, raising=False)
    (fake_machine / "cpu.max").write_text("800000 100000\n")
    assert context.default_threads() == 2


def test_memo_caps_are_shared_out_by_the_memory(fake_machine):
    (fake_machine / "memory.max").write_text(str(8 * 2**30) + "\n")  # 8 GB: 2 GB for the memos
    assert context.memo_mb_per_thread(160, 2) == 160
    assert context.memo_mb_per_thread(160, 16) == 128
    (fake_machine / "memory.max").write_text(str(2**30) + "\n")
    assert context.memo_mb_per_thread(160, 64) == 16  # never below 16 MB


# The deeper split on small sets and on any number of threads (deep_min_threads): every split
# search's first guesses valued class by class, classes of 3 answers and more split in turn.
DEEP_SPLIT = SplitPolicy(deep_min=3, deep_min_threads=1, split_min_threads=1)


@pytest.fixture
def deep_split(monkeypatch):
    """Counts the guesses valued class by class (split.GuessSplit)."""
    made = []
    real = split.GuessSplit
    monkeypatch.setattr(split, "GuessSplit", lambda *a, **k: made.append(a) or real(*a, **k))
    return made


@pytest.mark.parametrize("mode", ["normal", "hard"])
@pytest.mark.parametrize("guesses", [1, 3])
def test_deep_split_search_equals_the_kernel(real_lists, deep_split, mode, guesses):
    """Guesses valued class by class (nested split searches below them) give the kernel's value
    and guess, whatever the budget."""
    policy = replace(DEEP_SPLIT, deep_guesses=guesses)
    game = small_game(real_lists, 20 + guesses)
    matrix = game._compute_matrix()
    assert compare_with_the_kernel(
        game, matrix, mode, guesses, 4, 25,
        lambda S, d, beta, req: [split_solve(Solver(game, matrix, 6, mode=mode), S, d, beta, req, threads, deep=True,
                                             policy=policy)
                                 for threads in (1, 4)])
    assert deep_split


@pytest.mark.parametrize("mode,cap,guesses", [("normal", 6, 1), ("normal", 4, 2), ("hard", 6, 1),
                                              ("normal", None, 3)])
@pytest.mark.parametrize("seed", range(2))
def test_deep_split_build_gives_the_same_tree(real_lists, deep_split, seed, mode, cap, guesses):
    """With the deeper split on small sets (forced on one and two threads too), the tree is the
    unsplit one."""
    game = small_game(real_lists, 30 + seed, n_answers=150, n_guesses=100)
    matrix = game._compute_matrix()
    first = game.guesses[max(range(len(game.guesses)), key=lambda g: np.bincount(matrix[g]).max())]
    whole = build(game, matrix, first=first, max_guesses=cap, threads=1, progress=False, mode=mode, policy=DEEP_SPLIT)
    policy = replace(DEEP_SPLIT, split_min=5, deep_guesses=guesses, alone=True)
    for threads in (1, 2, 3):
        parted = build(game, matrix, first=first, max_guesses=cap, threads=threads, progress=False, mode=mode,
                       policy=policy)
        assert (parted.total, parted.root) == (whole.total, whole.root)
        assert parted.job_trace
    assert deep_split


def test_two_threads_solve_classes_whole_and_three_split_deeper(real_lists, monkeypatch, deep_split):
    """As shipped (split_min_threads, deep_min_threads): on 1 and 2 threads a build splits no class
    and neither the build nor the rank splits deeper; on 3 both split deeper."""
    game = small_game(real_lists, 40, n_answers=150, n_guesses=100)
    matrix = game._compute_matrix()
    policy = replace(DEEP_SPLIT, split_min=5, deep_min_threads=3, split_min_threads=3)
    trees = []
    monkeypatch.setattr(split, "SplitTree", lambda *a, real=split.SplitTree, **k: trees.append(a) or real(*a, **k))
    first = game.guesses[max(range(len(game.guesses)), key=lambda g: np.bincount(matrix[g]).max())]
    for threads in (1, 2):
        build(game, matrix, first=first, threads=threads, progress=False, policy=policy)
        rank(game, matrix, top=2, limit=6, threads=threads, progress=False, policy=policy)
    assert not deep_split and not trees
    build(game, matrix, first=first, threads=3, progress=False, policy=policy)
    assert deep_split and trees
    del deep_split[:]
    rank(game, matrix, top=2, limit=6, threads=3, progress=False, policy=policy)
    assert deep_split


def test_simulated_schedule():
    """The simulation of more workers: a chain is the critical path, independent jobs share workers."""
    from wordtree.exact.jobs import Job, Mark, simulate, trace_rows

    first = Job(None)
    after = [Job(None, (first,)) for _ in range(4)]
    mark = Mark(after)
    last = Job(None, (mark,))
    for job, seconds in zip([first, *after, last], [2.0, 1.0, 1.0, 1.0, 1.0, 3.0]):
        job.seconds = seconds
    rows = trace_rows([first, *after, last])
    assert simulate(rows, 1) == (9.0, 6.0)
    assert simulate(rows, 2) == (7.0, 6.0)
    assert simulate(rows, 4) == (6.0, 6.0)


@pytest.mark.parametrize("by_classes", [False, True])
@pytest.mark.parametrize("mode", ["normal", "hard"])
def test_rank_values_the_first_openers_class_by_class(real_lists, mode, by_classes):
    """The openers valued before the budget is known, class by class (the deeper split, forced on
    any number of threads; large classes split, here small ones) or whole (kept off): the same
    top as one thread's as shipped, the same values, and every other opener bounded."""
    game = small_game(real_lists, 8, n_answers=140, n_guesses=90)
    matrix = game._compute_matrix()
    one = rank(game, matrix, top=3, limit=25, threads=1, progress=False, mode=mode)
    policy = SplitPolicy(deep_min_threads=1 if by_classes else 99, split_min=5, deep_min=5)
    for threads in (1, 2, 3):
        many = rank(game, matrix, top=3, limit=25, threads=threads, progress=False, mode=mode, policy=policy)
        assert many.ordered()[:3] == one.ordered()[:3]
        for word, (value, exact) in many.values.items():
            assert exact or value >= many.kth_value()
        assert many.job_trace and len(many.job_seconds) <= len(many.values)


def test_split_search_with_few_codes_equals_the_kernel(deep_split):
    """3-letter words (26 non-winning codes): past 27 answers the class bounds grow faster than
    2c - 1 and the kernel sums them class by class; root_candidates does the same."""
    import itertools

    words = ["".join(t) for t in itertools.product("abcdefg", repeat=3)]
    answers = sorted(random.Random(1).sample(words, 150))
    game = Wordle("wordle", word_list("answers", answers), word_list("guesses", words))
    matrix = game._compute_matrix()
    rng = np.random.default_rng(5)
    compared = 0
    for trial in range(4):
        S = np.sort(rng.choice(len(answers), size=int(rng.integers(40, 150)), replace=False)).astype(np.int32)
        d = int(rng.integers(3, 6))
        req = Solver(game, matrix, 6).empty_constraint()
        value, _ = Solver(game, matrix, 6).solve(S, d, INF, req)
        for beta in (INF, value + 1, value, value - 3):
            kernel = Solver(game, matrix, 6).solve(S, d, beta, req)
            got = split_solve(Solver(game, matrix, 6), S, d, beta, req, 3, deep=True, policy=DEEP_SPLIT)
            if got is None:
                continue
            compared += 1
            assert int(Solver(game, matrix, 6).class_bounds[d - 1][len(S)]) != 2 * len(S) - 1
            if kernel[0] < beta:
                assert got == kernel, (trial, beta)
            else:
                assert got[0] >= beta and got[1] == -1
    assert compared


@pytest.mark.parametrize("mode", ["normal", "hard"])
@pytest.mark.parametrize("seed", range(3))
def test_an_opener_against_a_falling_budget_is_exact_below_it_and_a_bound_above(real_lists, seed, mode):
    """evaluate_opener with a live budget (a rank's K-th best as other threads find better
    openers) that falls after some classes: below the last budget read the value is the exact
    one, otherwise a proven bound at least that budget and at most the exact value."""
    game = small_game(real_lists, 60 + seed, n_answers=90, n_guesses=120)
    matrix = game._compute_matrix()
    S = np.arange(len(game.answers), dtype=np.int32)
    rng = np.random.default_rng(seed)
    checked = {"exact": 0, "bound": 0}
    for g in rng.choice(len(game.guesses), size=8, replace=False):
        exact = Solver(game, matrix, 6, mode=mode).evaluate_opener(S, int(g))
        for start, end, after in ((exact + 9, exact - 4, 1), (exact + 9, exact + 2, 2), (exact, exact - 1, 0),
                                  (exact + 1, exact - 30, 3)):
            reads = []

            def live():
                reads.append(None)
                return start if len(reads) <= after else end

            value = Solver(game, matrix, 6, mode=mode).evaluate_opener(S, int(g), start, live)
            final = min(start, live())
            if value < final:
                assert value == exact
                checked["exact"] += 1
            else:
                assert final <= value <= exact
                checked["bound"] += 1
    assert checked["exact"] and checked["bound"]
