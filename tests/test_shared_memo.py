"""The memo that the threads of a search share (context.SharedMemo, kernels._memo_store): its
atomics against their plain meaning, many threads storing and reading one table without ever
reading another set's entry or a value that is not proven, a full table switched and cleared
once no search uses it, and searches on a shared memo (tiny, so that it fills) against the
kernel on a memo of its own. No timing is asserted."""

import threading

import numpy as np
import pytest
from numba import njit

from wordtree.exact import context, kernels
from wordtree.exact.build import build
from wordtree.exact.rank import rank
from wordtree.exact.solver import Solver
from wordtree.exact.split import SplitPolicy

from test_parallel import compare_with_the_kernel, small_game, split_solve


@njit(nogil=True)
def _count_up(counts, rounds):
    for _ in range(rounds):
        kernels._atomic_add(counts, 0, np.int64(1))
        old = kernels._atomic_load(counts, 1)
        while True:
            seen = kernels._atomic_cas(counts, 1, old, old + 1)
            if seen == old:
                break
            old = seen
    kernels._atomic_store(counts, 2, np.int64(7))


def test_atomics_lose_no_update_across_threads():
    """Four threads adding 20000 each, by fetch-and-add and by compare-and-swap: no update lost
    (a plain `+=` from several threads loses some)."""
    counts = np.zeros(3, np.int64)
    threads = [threading.Thread(target=_count_up, args=(counts, 20000)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert counts.tolist() == [80000, 80000, 7]


@njit
def _cas_once(a, expected, value):
    return kernels._atomic_cas(a, 0, expected, value)


def test_compare_and_swap_writes_only_what_it_expected():
    a = np.array([5, 0], np.uint64)
    assert _cas_once(a, np.uint64(4), np.uint64(9)) == 5 and a[0] == 5  # not what it expected: unchanged
    assert _cas_once(a, np.uint64(5), np.uint64(9)) == 5 and a[0] == 9


@pytest.mark.parametrize("value,exact,guess", [(0, False, -1), (7920, True, 12971), (kernels.INF, False, -1),
                                               (2**31 - 1, True, 0)])
def test_payload_word_keeps_value_flag_and_guess(value, exact, guess):
    word = kernels._pay(value, exact, guess)
    assert (kernels._pay_value(word), kernels._pay_exact(word), kernels._pay_guess(word)) == (value, exact, guess)


@njit(nogil=True)
def _truth(S, d):
    """The made-up value of (S, d) every thread agrees on, and its guess."""
    total = 0
    for a in S:
        total += (a + 3) * (a + 1)
    return total * 4 + d, (total + d) % 97


@njit(nogil=True)
def _hammer(seed, rounds, universe, memo, stats, seen):
    """Store and read random small sets over a small universe (so that threads meet the same
    sets): exact values, and bounds at most the value. Counts in `seen`: hits, exact hits, and
    wrong hits (a value above the truth, or an exact entry not the truth)."""
    np.random.seed(seed)
    state = np.zeros(0, np.int32)
    pick = np.empty(universe, np.int32)
    for _ in range(rounds):
        n = 1 + np.random.randint(0, 8)
        m = 0
        for a in range(universe):  # a random subset of n elements, sorted
            if np.random.randint(0, universe - a) < n - m:
                pick[m] = a
                m += 1
        S = pick[:m]
        d = 2 + np.random.randint(0, 3)
        value, guess = _truth(S, d)
        h = kernels._set_hash(S, state, d, memo.set_keys, memo.state_keys, memo.depth_keys)
        if np.random.randint(0, 2) == 0:
            exact = np.random.randint(0, 3) == 0
            stored = value if exact else value - np.random.randint(0, 5)
            kernels._memo_store(S, state, d, h, stored, exact, guess if exact else -1, memo.keys, memo.depth,
                                memo.offset, memo.size, memo.payload, memo.pool, memo.counters, stats)
        else:
            slot = kernels._memo_slot(S, state, d, h, memo.keys, memo.depth, memo.offset, memo.size, memo.pool)
            if slot >= 0:
                word = kernels._atomic_load(memo.payload, slot)
                seen[0] += 1
                if kernels._pay_exact(word):
                    seen[1] += 1
                    if kernels._pay_value(word) != value or kernels._pay_guess(word) != guess:
                        seen[2] += 1
                elif kernels._pay_value(word) > value:
                    seen[2] += 1


@pytest.mark.parametrize("shared", [True, False])
def test_threads_on_one_table_read_only_what_was_proven(shared):
    """Four threads on one table whose keys collide on purpose (a key per element from only
    three values, so many sets share a hash and the set comparison decides): no hit is another
    set's entry, a bound above the truth, or a torn payload. The table fills: a shared one says
    so and stops taking entries; a thread's own one (run on one thread) is cleared."""
    rng = np.random.default_rng(1)
    memo = context.memo_table(0, 10, 8, 0, rng, shared=shared)  # 1024 slots
    memo = memo._replace(pool=np.zeros(100000, np.int32),  # room for every entry the slots take
                         set_keys=rng.integers(1, 4, 10, dtype=np.uint64))  # colliding keys per element
    seen = [np.zeros(3, np.int64) for _ in range(4)]
    stats = [np.zeros(8, np.int64) for _ in range(4)]
    threads = [threading.Thread(target=_hammer, args=(seed, 40000, 10, memo, stats[seed], seen[seed]))
               for seed in range(4 if shared else 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    hits, exact, wrong = np.sum(seen, axis=0)
    assert hits > 1000 and exact > 100 and wrong == 0
    if shared:
        assert memo.counters[kernels.MEMO_FULL] == 1
        assert np.count_nonzero(memo.keys & np.uint64(1)) <= (memo.keys.size * 7) // 10 + 4  # stopped when full
    else:
        assert sum(s[kernels.ST_MEMO_CLEARS] for s in stats) > 0


def test_a_full_table_is_switched_and_cleared_once_unused():
    memo = context.SharedMemo(2, 10, 4, 1)
    first = memo.acquire()
    assert first == 0
    memo.tables[0].counters[kernels.MEMO_FULL] = 1
    memo.tables[0].keys[5] = 99  # an entry
    second = memo.acquire()  # the next search starts on the other table
    assert second == 1 and memo.tables[0].keys[5] == 99  # the first is still in use: kept
    memo.release(first)
    assert memo.tables[0].keys[5] == 0 and memo.tables[0].counters[kernels.MEMO_FULL] == 0 and memo.clears == 1
    memo.tables[1].counters[kernels.MEMO_FULL] = 1
    third = memo.acquire()
    assert third == 0  # back to the cleared one; the full one waits for its search
    memo.release(second)
    memo.release(third)
    assert memo.users == [0, 0] and memo.clears == 2


@pytest.mark.parametrize("mode", ["normal", "hard"])
def test_split_search_on_a_tiny_shared_memo_equals_the_kernel(real_lists, mode):
    """The deeper split on 3 threads with one shared memo as small as it gets (full all the
    time, switched and cleared): the kernel's value and guess, on a memo of its own, whatever
    the budget."""
    policy = SplitPolicy(deep_min=3)
    game = small_game(real_lists, 40)
    matrix = game._compute_matrix()
    clears = []

    def on_a_tiny_shared_memo(S, d, beta, req):
        solver = Solver(game, matrix, 6, mode=mode, memo_mb=0)
        solver.share_memo(3)
        memo = solver.shared_memo  # two tables of 1024 slots, each with room for 12 numbers only
        memo.tables = [table._replace(pool=np.zeros(12, np.int32)) for table in memo.tables]
        got = split_solve(solver, S, d, beta, req, 3, deep=True, policy=policy)
        clears.append(solver.counters().memo_clears)
        return [got]

    assert compare_with_the_kernel(game, matrix, mode, 40, 4, 30, on_a_tiny_shared_memo)
    assert sum(clears)


@pytest.mark.parametrize("mode", ["normal", "hard"])
def test_build_and_rank_the_same_with_a_memo_each_or_one_shared(real_lists, mode):
    """As shipped, 2 threads and more share a memo (SplitPolicy.shared_min_threads); forcing a memo
    each, or one shared by a single thread, gives the same tree and the same top openers."""
    game = small_game(real_lists, 50, n_answers=120, n_guesses=120)
    matrix = game._compute_matrix()
    first = game.guesses[0]
    results = {}
    for shared_from in (1, 99, 2):
        policy = SplitPolicy(shared_min_threads=shared_from)
        for threads in (1, 3):
            tree = build(game, matrix, first=first, threads=threads, progress=False, mode=mode, memo_mb=1, policy=policy)
            top = rank(game, matrix, top=4, limit=24, threads=threads, progress=False, mode=mode, memo_mb=1,
                       policy=policy)
            results[shared_from, threads] = (tree.total, tree.root, top.ordered()[:4])
    assert len({repr(r) for r in results.values()}) == 1
