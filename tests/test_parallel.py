"""Many threads give the same answers as one: the split build (a class's guesses valued as jobs
of their own) against the kernel's own search, the rank's top against one thread's, and the
default thread count against a fake affinity and cgroup quota. No timing is asserted."""

import os
import random
import threading

import numpy as np
import pytest

from wordtree.exact import build as build_module
from wordtree.exact import context, split
from wordtree.exact.build import build
from wordtree.exact.split import SplitSearch
from wordtree.exact.rank import rank
from wordtree.exact.solver import INF, Solver
from wordtree.games import get_game
from wordtree.games.wordle import Wordle
from wordtree.words import WordList, canonical_sha256


def word_list(name, words):
    return WordList(name, name, tuple(words), canonical_sha256(words))


@pytest.fixture(scope="module")
def real_lists():
    game = get_game("wordle")
    return list(game.answers), list(game.guesses)


def small_game(real_lists, seed, n_answers=70, n_guesses=160):
    answers_all, guesses_all = real_lists
    rng = random.Random(seed)
    answers = sorted(rng.sample(answers_all, n_answers))
    guesses = sorted(set(rng.sample(guesses_all, n_guesses)) | set(answers))
    return Wordle("wordle", word_list("answers", answers), word_list("guesses", guesses))


def split_solve(solver, S, d, beta, req, threads):
    """V(S, d) below beta and the best guess, by a SplitSearch on `threads` workers."""
    found = root = split.root_candidates(solver, S, d, beta, req)
    if root is None:
        return None
    answer, done = [], threading.Event()
    search = split.SplitSearch(solver, S, d, beta, req, *root, lambda v, g, w: (answer.append((v, g)), done.set()))
    errors = []
    workers = split.Workers(threads, [search], errors.append).start()
    assert done.wait(60) and found is not None
    workers.stop()
    assert not errors
    return answer[0]


@pytest.mark.parametrize("mode", ["normal", "hard"])
@pytest.mark.parametrize("seed", range(4))
def test_split_search_equals_the_kernel(real_lists, seed, mode):
    """The value and the guess of a split search are the kernel's, whatever the budget."""
    game = small_game(real_lists, seed)
    matrix = game._compute_matrix()
    rng = np.random.default_rng(seed)
    compared = 0
    for trial in range(6):
        S = np.sort(rng.choice(len(game.answers), size=int(rng.integers(12, len(game.answers))), replace=False))
        S = S.astype(np.int32)
        d = int(rng.integers(3, 6))
        reference = Solver(game, matrix, 6, mode=mode)
        req = reference.empty_constraint()
        value, guess = reference.solve(S, d, INF, req)
        for beta in (INF, value + 1, value, value - 3):
            solver = Solver(game, matrix, 6, mode=mode)
            kernel = solver.solve(S, d, beta, req)
            for threads in (1, 3):
                got = split_solve(Solver(game, matrix, 6, mode=mode), S, d, beta, req, threads)
                if got is None:
                    continue
                compared += 1
                if kernel[0] < beta:
                    assert got == kernel, (trial, beta, threads)
                else:
                    assert got[0] >= beta and got[1] == -1
    assert compared


@pytest.mark.parametrize("mode,cap", [("normal", 6), ("normal", 4), ("hard", 6), ("normal", None)])
@pytest.mark.parametrize("seed", range(3))
def test_split_build_gives_the_same_tree(real_lists, monkeypatch, seed, mode, cap):
    """Classes split at their top (even small ones, here) give the tree of the unsplit build. The
    opener is a poor one (the largest class), so that some classes have no perfect splitter, which
    the kernel would take at once."""
    game = small_game(real_lists, 10 + seed, n_answers=150, n_guesses=100)
    matrix = game._compute_matrix()
    first = game.guesses[max(range(len(game.guesses)), key=lambda g: np.bincount(matrix[g]).max())]
    whole = build(game, matrix, first=first, max_guesses=cap, threads=1, progress=False, mode=mode)
    monkeypatch.setattr(split, "SPLIT_MIN", 5)
    searches = []
    monkeypatch.setattr(build_module, "SplitSearch", lambda *a: searches.append(a) or SplitSearch(*a))
    for threads in (1, 4):
        parted = build(game, matrix, first=first, max_guesses=cap, threads=threads, progress=False, mode=mode)
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
