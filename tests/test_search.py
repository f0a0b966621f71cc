"""The exact search against a plain exhaustive oracle, with every pruning rule on and off."""

import random

import numpy as np
import pytest

import reference
from wordtree.errors import UserError
from wordtree.exact import kernels
from wordtree.games import get_game
from wordtree.games.wordle import Wordle
from wordtree.exact.build import build
from wordtree.exact.solver import INF, Solver
from wordtree.words import WordList, canonical_sha256

def word_list(name, words):
    return WordList(name, name, tuple(words), canonical_sha256(words))


RULE_SETS = [
    kernels.ALL_RULES,
    0,
    kernels.USE_BOUNDS,
    kernels.USE_SHORTCUTS,
    kernels.USE_FILTER,
    kernels.USE_MEMO,
    kernels.ALL_RULES & ~kernels.USE_BOUNDS,
    kernels.ALL_RULES & ~kernels.USE_FILTER,
    kernels.ALL_RULES & ~kernels.USE_CORES,
    kernels.USE_CORES | kernels.USE_BOUNDS,
    kernels.ALL_RULES & ~kernels.USE_PAIRS,
    kernels.USE_PAIRS | kernels.USE_BOUNDS | kernels.USE_SHORTCUTS | kernels.USE_FILTER,
    kernels.ALL_RULES & ~kernels.USE_DEEPER,
    kernels.USE_DEEPER | kernels.USE_MEMO | kernels.USE_BOUNDS,
    kernels.ALL_RULES & ~kernels.USE_KEPT_TOP,
    kernels.ALL_RULES & ~kernels.USE_PAIR_SCAN,
    kernels.USE_PAIR_SCAN | kernels.USE_CORES | kernels.USE_BOUNDS,
]


def small_game(real_lists, seed, n_answers=18, n_guesses=40):
    answers_all, guesses_all = real_lists
    rng = random.Random(seed)
    answers = sorted(rng.sample(answers_all, n_answers))
    guesses = sorted(set(rng.sample(guesses_all, n_guesses)) | set(answers))
    return Wordle("wordle", word_list("answers", answers), word_list("guesses", guesses))


def engine_value(game, cap, rules=kernels.ALL_RULES):
    solver = Solver(game, game._compute_matrix(), cap, rules=rules)
    value, _ = solver.solve(np.arange(len(game.answers), dtype=np.int32), cap)
    return float("inf") if value >= INF else value


def test_class_bounds_count_the_codes_the_matrix_holds(real_lists):
    """Solver.class_bounds from the codes the transposition's threads note (normal mode) equal
    the bounds from a plain count of the distinct codes, and from _codes_present (hard mode)."""
    for seed in (1, 2):
        game = small_game(real_lists, seed, n_answers=30, n_guesses=60)
        matrix = game._compute_matrix()
        held = set(np.unique(matrix).tolist()) - {game.win_code}
        plain = kernels.class_bounds(6, matrix.shape[1], len(held))
        for mode in ("normal", "hard"):
            assert np.array_equal(Solver(game, matrix, 6, mode=mode).class_bounds, plain), (seed, mode)
    damaged = matrix.copy()
    damaged[3, 5] = game.n_codes  # a code no game of this kind has (a damaged pattern cache)
    for mode in ("normal", "hard"):
        with pytest.raises(UserError, match="holds codes past the game's 243"):
            Solver(game, damaged, 6, mode=mode).solve(np.arange(len(game.answers), dtype=np.int32), 6)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
def test_pair_counts_match_a_plain_count(dtype):
    """The vectorized pair counts, and the bounds drawn from them, against counting each guess's
    classes directly."""
    rng = np.random.default_rng(7)
    for n, codes in ((1, 3), (5, 4), (12, 243), (22, 2), (22, 30), (60, 2), (60, 40)):
        if n > kernels.PAIR_BYTES and dtype == np.uint8:
            continue
        matrix = rng.integers(0, codes, (40, 60), dtype=np.uint8)
        columns = np.full((60, 40), 255, np.uint8)
        present = np.zeros((2, 256), np.bool_)
        kernels._transpose(matrix, columns, 0, 17, present[0])  # in two parts, as the solver's threads fill it
        assert np.array_equal(columns[:, :17], matrix[:17].T) and (columns[:, 17:] == 255).all()
        kernels._transpose(matrix, columns, 17, 40, present[1])
        assert np.array_equal(columns, matrix.T)
        for part, rows in ((0, matrix[:17]), (1, matrix[17:])):  # the codes each part moved
            assert np.array_equal(present[part], np.isin(np.arange(256), rows))
        pos = rng.choice(60, n, replace=False).astype(np.int32)
        win = codes - 1
        counts = np.zeros((4, 40), dtype)
        lbs, scores = np.zeros(40, np.int32), np.zeros(40, np.int64)
        splitter, min_lb, top, top_lb, top_exact = kernels._pair_bounds(columns, pos, 37, win, 10**6, counts, lbs, scores)
        plain = []
        for g in range(37):
            row = [int(matrix[g, p]) for p in pos]
            sizes = [row.count(c) for c in set(row)]
            assert counts[0, g] == sum(c * (c - 1) // 2 for c in sizes)
            assert n - counts[1, g] == len(sizes)
            assert counts[2, g] == (win in row)
            if len(sizes) > 1 or win in row:
                lb = 3 * n - len(sizes) - (win in row)
                plain.append((2 * sum(c * c for c in sizes) + n * lb, g, lb, max(sizes) <= 2, len(sizes) == n))
        splitters = [g for _, g, _, _, split in plain if split]
        if splitters:
            assert splitter == splitters[0]
        else:
            score, g, lb, exact = min(plain)[:4]
            assert (splitter, min_lb, top, top_lb, top_exact) == (-1, min(p[2] for p in plain), g, lb, exact)


def plain_first_splitter(matrix, pos, rows):
    """The scan, plainly: the first row giving each answer of pos its own code (None if none),
    and the answers of each row's first colliding pair (the first answer whose code an earlier
    one has, with the first such earlier one)."""
    core = set()
    for r in range(rows):
        first_at = {}
        for i, p in enumerate(pos):
            code = int(matrix[r, p])
            if code in first_at:
                core |= {i, first_at[code]}
                break
            first_at[code] = i
        else:
            return r, core
    return None, core


def test_first_splitter_matches_the_plain_scan():
    """The pair-by-pair search of a perfect splitter over a matrix stored by answers, against
    the scan row by row: the same first splitter, and without one the same core marked; with
    more rows than a block, splitters early, late or absent, and few or many codes."""
    rng = np.random.default_rng(5)
    found = {"early": 0, "late": 0, "none": 0, "natural": 0}
    for trial in range(400):
        n_rows = int(rng.choice([7, kernels.SPLIT_BLOCK, kernels.SPLIT_BLOCK + 300, 2 * kernels.SPLIT_BLOCK + 5]))
        n = int(rng.integers(2, kernels.SPLIT_PAIRS + 1))
        codes = int(rng.choice([2, 3, 6, 40, 243]))
        matrix = rng.integers(0, codes, (n_rows, 70), dtype=np.uint8)
        pos = np.sort(rng.choice(70, n, replace=False)).astype(np.int32)
        rows = int(rng.integers(1, n_rows + 1))
        plan = rng.choice(["natural", "none", "planted"])
        if plan != "natural":  # every row collides on the first two answers ...
            matrix[:, pos[1]] = matrix[:, pos[0]]
            if plan == "planted" and codes >= n:  # ... but one, early or late
                at = int(rng.integers(max(0, n_rows - 400), n_rows)) if rng.random() < 0.6 else int(rng.integers(n_rows))
                matrix[at, pos] = rng.choice(codes, n, replace=False)
                rows = int(rng.integers(at + 1, n_rows + 1))
        S = (pos.astype(np.int64) * 3 + 1).astype(np.int32)  # global ids differ from positions
        mark = np.zeros(300, np.int64)
        columns = np.ascontiguousarray(matrix.T)
        got = kernels._first_splitter(columns, pos, rows, S, mark, 9, np.zeros(n_rows, np.uint8))
        expected, core = plain_first_splitter(matrix, pos, rows)
        assert got == (-1 if expected is None else expected)
        if expected is None:
            assert set(np.flatnonzero(mark == 9)) == {int(S[i]) for i in core}
            found["none"] += 1
        else:
            found["natural" if plan == "natural" else "early" if expected < kernels.SPLIT_BLOCK else "late"] += 1
        # the row-by-row kernel agrees with the plain scan too
        stamp, first_at, epoch = np.zeros(256, np.int64), np.zeros(256, np.int64), np.zeros(1, np.int64)
        for r in range(min(rows, 50)):
            i, j = kernels._first_collision(matrix[r], pos, stamp, first_at, epoch)
            plain = plain_first_splitter(matrix[r:r + 1], pos, 1)
            assert (i < 0) == (plain[0] == 0) and (i < 0 or {i, j} == plain[1])
    assert min(found.values()) >= 15, found


@pytest.mark.parametrize("name", ["small", "mastermind"])
def test_class_bounds_count_the_codes_present(real_lists, name):
    """The class bounds read the number of non-winning codes in the matrix (`_codes_present`),
    against np.unique: on a small Wordle game where most codes never occur (in both modes), and
    on Mastermind, whose 14 codes make the bound of a set past 15 answers more than 2c - 1; with
    and without the matrix by answers (USE_PAIRS)."""
    game = small_game(real_lists, 3, n_answers=12, n_guesses=20) if name == "small" else get_game("mastermind")
    matrix = game._compute_matrix()
    codes = set(np.unique(matrix).tolist()) - {game.win_code}
    assert len(codes) < game.n_codes - 1 if name == "small" else len(codes) + 1 < len(game.answers)
    expected = kernels.class_bounds(6, matrix.shape[1], len(codes))
    for mode in ("normal", "hard") if name == "small" else ("normal",):
        for rules in (kernels.ALL_RULES, kernels.ALL_RULES & ~kernels.USE_PAIRS):
            solver = Solver(game, matrix, 6, rules=rules, mode=mode)
            assert np.array_equal(solver.class_bounds, expected), (mode, rules)


def test_a_core_is_never_empty():
    """A search of a splitter over no guesses marks no answer: that is no core (the empty set
    would be inside every set, and every later set would be called infeasible)."""
    S = np.array([3, 5, 8], np.int32)
    mark = np.zeros(10, np.int64)
    cores, core_len, core_count = np.zeros((4, 8), np.int32), np.zeros(4, np.int64), np.zeros(1, np.int64)
    kernels._remember_core(S, mark, 7, cores, core_len, core_count)
    assert core_count[0] == 0
    mark[[3, 8]] = 7
    kernels._remember_core(S, mark, 7, cores, core_len, core_count)
    assert core_count[0] == 1 and list(cores[0, :core_len[0]]) == [3, 8]
    epoch = np.zeros(1, np.int64)
    assert kernels._holds_a_core(np.array([1, 3, 8], np.int32), cores, core_len, core_count, mark, epoch)
    assert not kernels._holds_a_core(np.array([3, 5], np.int32), cores, core_len, core_count, mark, epoch)


def test_partition_key_and_equality_match_plain_partitions():
    """The guess loop merges guesses with equal partitions (the win class apart) by key, then
    by _same_partition: both against comparing the partitions as sets of sets."""
    rng = np.random.default_rng(11)
    win = 5
    stamp, image, epoch = np.zeros(8, np.int64), np.zeros(8, np.int64), np.zeros(1, np.int64)
    keys = rng.integers(1, 2**63, 12, dtype=np.uint64)

    def plain(row, pos):
        classes = {}
        for i, p in enumerate(pos):
            classes.setdefault(int(row[p]), []).append(i)
        return {(tuple(v), c == win) for c, v in classes.items()}

    same_seen = 0
    for _ in range(400):
        rows = rng.integers(3, 7, (2, 15), dtype=np.uint8)
        if rng.random() < 0.5:  # the same partition under other codes
            perm = rng.permutation(8).astype(np.uint8)
            perm[win] = win if rng.random() < 0.8 else perm[win]
            rows[1] = perm[rows[0]]
        pos = np.sort(rng.choice(15, int(rng.integers(1, 13)), replace=False)).astype(np.int32)
        expected = plain(rows[0], pos) == plain(rows[1], pos)
        same_seen += expected
        assert kernels._same_partition(rows[0], rows[1], pos, win, stamp, image, epoch) == expected
        key = [kernels._partition_key(r, pos, win, keys, stamp, image, epoch) for r in rows]
        if expected:
            assert key[0] == key[1]
    assert same_seen > 50


@pytest.mark.parametrize("seed", range(6))
def test_engine_equals_exhaustive_search(real_lists, seed):
    game = small_game(real_lists, seed)
    for cap in (2, 3, 4, 6):
        expected = reference.optimal_total(game, game.answers, cap)
        for rules in RULE_SETS:
            assert engine_value(game, cap, rules) == expected, (seed, cap, rules)


def test_the_kernels_read_only_fields_the_context_fills(real_lists):
    """The search's arrays travel as a kernels.Scratch and a kernels.Memo, read by field: every
    field the kernels read (sc.X, mm.X) or the solver reads (scratch.X) is one Context fills,
    every field is read somewhere, each is an array, `keeping_top` swaps only the top node's
    buffer, and a small game solved on them has the oracle's value."""
    import inspect
    import re

    from wordtree.exact import context, solver as solver_module

    kernel_source = inspect.getsource(kernels)
    scratch_read = set(re.findall(r"\bsc\.(\w+)", kernel_source))
    memo_read = set(re.findall(r"\bmm\.(\w+)", kernel_source))
    python_read = set(re.findall(r"scratch\.(\w+)", inspect.getsource(context) + inspect.getsource(solver_module)))
    python_read -= {"_replace"}
    assert scratch_read | python_read == set(kernels.Scratch._fields)
    assert memo_read == set(kernels.Memo._fields)

    game = small_game(real_lists, 3)
    cap = 4
    solver = Solver(game, game._compute_matrix(), cap)
    value, _ = solver.solve(np.arange(len(game.answers), dtype=np.int32), cap)
    assert value == reference.optimal_total(game, game.answers, cap)
    ctx = solver.context()
    assert type(ctx.scratch) is kernels.Scratch and type(ctx.memo) is kernels.Memo
    assert all(isinstance(a, np.ndarray) for a in (*ctx.scratch, *ctx.memo))
    assert ctx.stats is ctx.scratch.stats and ctx.stats[kernels.ST_NODES] == solver.counters().nodes > 0
    assert ctx.best_out is ctx.scratch.best_out and ctx.root_constraint.base is ctx.scratch.req
    kept = ctx.keeping_top(5, 3)
    assert kept.top_codes.size == 15 and kept.top_codes.dtype == ctx.scratch.top_codes.dtype
    assert kept.top_info[0] == -1
    assert all(a is b for name, a, b in zip(kernels.Scratch._fields, kept, ctx.scratch) if name != "top_codes")


def test_the_hard_mode_constraint_matches_a_plain_count():
    """kernels._constrain against a plain twin, for every code of guesses with repeated letters
    (and without), from an empty constraint and from random earlier ones: the greens in place,
    and each letter's least count the larger of the earlier one and its shown (green or yellow)
    copies in this guess."""
    from collections import Counter

    length, n_letters = 5, 26
    rng = np.random.default_rng(5)

    def plain(req, letters, code):
        out = [int(v) for v in req]
        colours = [code // 3 ** i % 3 for i in range(length)]
        for i in range(length):
            if colours[i] == 2:
                out[i] = int(letters[i])
        for x, shown in Counter(int(letters[i]) for i in range(length) if colours[i]).items():
            out[length + x] = max(out[length + x], shown)
        return out

    for word in ("geese", "eerie", "llama", "mamma", "salet", "abbey", "xylyl"):
        letters = np.array([ord(ch) - ord("a") for ch in word], np.uint8)
        starts = [np.concatenate([np.full(length, -1), np.zeros(n_letters)]).astype(np.int32)]
        for _ in range(3):
            start = np.concatenate([rng.integers(-1, n_letters, length), rng.integers(0, 3, n_letters)])
            starts.append(start.astype(np.int32))
        for start in starts:
            out = np.empty_like(start)
            for code in range(3 ** length):
                kernels._constrain(start, out, letters, code, length)
                assert out.tolist() == plain(start, letters, code), (word, start.tolist(), code)


def test_borrowed_arrays_are_the_callers_memory():
    """kernels._borrowed, which `_solve` hands the search its arrays through: the same memory,
    shape and strides (a write reaches the caller's array, a strided view keeps its strides),
    for an array and for each array of a named tuple, and the caller's arrays keep their
    reference counts however many views the kernel takes of them."""
    import sys

    from numba import njit

    @njit
    def write_through(a, t):
        b = kernels._borrowed(a)
        total = 0
        for i in range(b.shape[0]):
            row = b[i, ::2]  # a view of a borrowed array
            row[0] = 100 + i
            total += row.sum()
        u = kernels._borrowed(t)
        u.first[1] = 7
        u.second[:] = u.first[:3]
        return total

    from typing import NamedTuple

    class Pair(NamedTuple):
        first: np.ndarray
        second: np.ndarray

    a = np.arange(24, dtype=np.int64).reshape(4, 6)
    pair = Pair(np.zeros(5, np.int32), np.full(3, -1, np.int32))
    for warm in (a.copy(), a.copy()[:, 1::2]):  # compiled first: the compiler keeps what it was called with
        write_through(warm, Pair(pair.first.copy(), pair.second.copy()))
    before = [sys.getrefcount(x) for x in (a, pair.first, pair.second)]
    total = write_through(a, pair)
    after = [sys.getrefcount(x) for x in (a, pair.first, pair.second)]
    assert after == before
    assert a[:, 0].tolist() == [100, 101, 102, 103]
    assert total == sum(a[i, ::2].sum() for i in range(4))
    assert pair.first.tolist() == [0, 7, 0, 0, 0] and pair.second.tolist() == [0, 7, 0]
    view = a[:, 1::2]  # not contiguous: the borrowed array keeps its strides
    before = sys.getrefcount(view)
    write_through(view, pair)
    after = sys.getrefcount(view)
    assert after == before
    assert view[:, 0].tolist() == [100, 101, 102, 103] and a[:, 1].tolist() == [100, 101, 102, 103]


def test_the_dordle_kernels_borrow_as_the_search_does():
    """Dordle's kernels keep their own copy of the borrow (jitted code stays in one module): the
    same code as the exact search's, which the test above checks."""
    from wordtree.dordle import kernels as dordle_kernels

    assert dordle_kernels._borrow.__code__.co_code == kernels._borrow.__code__.co_code
    assert dordle_kernels._borrow.__code__.co_names == kernels._borrow.__code__.co_names


def clustered_game(real_lists, seed, families=3, per_family=7, n_guesses=30):
    """Answers from a few families sharing their last three letters (_ight, _ound, ...): many
    classes of three or more, so the deep search, not a first perfect splitter, decides."""
    answers_all, guesses_all = real_lists
    rng = random.Random(seed)
    by_ending = {}
    for word in answers_all:
        by_ending.setdefault(word[2:], []).append(word)
    endings = sorted(e for e, words in by_ending.items() if len(words) >= 5)
    answers = sorted({w for e in rng.sample(endings, families) for w in rng.sample(by_ending[e], min(per_family, len(by_ending[e])))})
    guesses = sorted(set(rng.sample(guesses_all, n_guesses)) | set(answers))
    return Wordle("wordle", word_list("answers", answers), word_list("guesses", guesses))


@pytest.mark.parametrize("seed", range(4))
def test_engine_equals_exhaustive_search_on_word_families(real_lists, seed):
    game = clustered_game(real_lists, seed)
    for cap in (3, 4, 5):
        expected = reference.optimal_total(game, game.answers, cap)
        for rules in RULE_SETS:
            assert engine_value(game, cap, rules) == expected, (seed, cap, rules)


def test_equal_scores_with_different_partitions_are_all_tried():
    """A set where two guesses have the same ordering score (class sizes) but different
    partitions, and only the one tried second is optimal: the scan-free loop merges a guess
    only with an equal partition, never with an equal score alone (found by a random search
    for games where that shortcut changes the value)."""
    answers = ("atoll bilge crony daunt exist femme fjord nerve odder prowl quark royal siren spire split stilt "
               "stuff sumac swing tough").split()
    others = ("aduki algid antsy apian axles bagel batts butch cafes chums cimar combi crudy dried eisel enmew epees "
              "esses folly glary gorge guyed hymen keech knits lager leany lomed mazer mends neems oasts ogled ontic "
              "organ ousts pacey parps pasts pawns poupt puffa rache rigol saves sieve slade smoko soapy soken sools "
              "styed sukuk tigon tolly toter vapor waker whort xylol").split()
    game = Wordle("wordle", word_list("answers", answers), word_list("guesses", sorted(answers + others)))
    for cap in (3, 4):
        expected = reference.optimal_total(game, game.answers, cap)
        assert engine_value(game, cap) == expected, cap


def test_pair_counts_change_no_value_on_real_classes():
    """Classes below SALET on the full lists, where most sets the pair counts settle arise:
    every value is the same with the rule off (the rule-off search is the one checked against
    the oracle above), and a budgeted search keeps its contract."""
    from wordtree.wordle.patterns import pattern_matrix

    game = get_game("wordle")
    matrix = pattern_matrix(game).matrix
    with_pairs = Solver(game, matrix, 6)
    without = Solver(game, matrix, 6, rules=kernels.ALL_RULES & ~kernels.USE_PAIRS)
    salet = game.guess_index["salet"]
    parts = [part for _, part in with_pairs.classes(np.arange(len(game.answers), dtype=np.int32), salet)
             if 8 <= len(part) <= 60]
    assert len(parts) >= 20
    for part in parts:
        for d in (3, 4):
            exact = without.solve(part, d)[0]
            assert with_pairs.solve(part, d)[0] == exact
            for beta in (exact - 2, exact, exact + 1):
                got = with_pairs.solve(part, d, beta)[0]
                assert got == exact if exact < beta else beta <= got <= exact


def test_pair_scan_changes_no_tree_on_real_classes():
    """The tie-break on depth below SALET searches each class again with fewer guesses, where
    most searches of a perfect splitter happen: the trees (not only the values) are the same
    with the pair-by-pair search (`_first_splitter`) off, and it ran."""
    from wordtree.wordle.patterns import pattern_matrix

    game = get_game("wordle")
    matrix = pattern_matrix(game).matrix
    fast = Solver(game, matrix, 6)
    plain = Solver(game, matrix, 6, rules=kernels.ALL_RULES & ~kernels.USE_PAIR_SCAN)
    salet = game.guess_index["salet"]
    classes = fast.classes(np.arange(len(game.answers), dtype=np.int32), salet)
    chosen = [(code, part) for code, part in classes if game.pattern_text(code) in ("BBBGB", "BYYYB", "BBYGB", "BBYBB")]
    assert len(chosen) == 4
    start = fast.empty_constraint()
    for code, part in chosen:
        req = fast.constrain(start, salet, code)
        assert fast.tree(part, 5, req) == plain.tree(part, 5, req), game.pattern_text(code)
    assert fast.counters().nodes == plain.counters().nodes  # the same search, the splitters found another way


def _kept_and_plain(game, matrix, S, d, req, mode="normal"):
    """Two fresh solvers that searched (S, d) alike, one keeping its top scan (kernels.KEEP_TOP),
    and what it kept."""
    keeper, plain = Solver(game, matrix, 6, mode=mode), Solver(game, matrix, 6, mode=mode)
    value = keeper.solve(S, d, req=req, keep_top=True)[0]
    assert plain.solve(S, d, req=req)[0] == value
    kept = keeper._tops[(np.ascontiguousarray(S, dtype=np.int32).tobytes(), req.tobytes())]
    return keeper, plain, kept, value


def test_a_search_from_a_kept_scan_is_the_search_from_its_own(real_lists):
    """Solver._solve_from (kernels.GIVEN_TOP): a search of a class with fewer guesses left,
    started from the scan its first search kept, gives the same value or bound and the same
    guess as the search that scans for itself, for budgets above, at and below the value; on
    real classes below SALET (normal and hard mode) and in random games. Here the node counts are the same too (in a
    build, a set of at most PAIR_LIMIT answers may visit a few more nodes than its search from
    pair counts, which can settle it at once)."""
    from wordtree.wordle.patterns import pattern_matrix

    game = get_game("wordle")
    matrix = pattern_matrix(game).matrix
    salet = game.guess_index["salet"]
    parts = sorted((part for _, part in Solver(game, matrix, 6).classes(np.arange(len(game.answers), dtype=np.int32),
                                                                         salet) if len(part) > kernels.PAIR_BYTES),
                   key=len)
    cases = [(game, matrix, part, "normal") for part in (parts[0], parts[len(parts) // 2], parts[-3], parts[-1])]
    cases += [(game, matrix, part, "hard") for part in (parts[len(parts) // 2], parts[-1])]
    for seed in range(3):
        small = small_game(real_lists, 300 + seed, n_answers=90, n_guesses=250)
        cases.append((small, small._compute_matrix(), np.arange(len(small.answers), dtype=np.int32), "normal"))
    for game_, matrix_, S, mode in cases:
        req = Solver(game_, matrix_, 6, mode=mode).empty_constraint()
        if mode == "hard":  # a class below SALET: SALET's constraint
            req = Solver(game_, matrix_, 6, mode=mode).constrain(req, salet, int(matrix_[salet, S[0]]))
        keeper, plain, kept, value = _kept_and_plain(game_, matrix_, S, 5, req, mode)
        assert 0 < len(kept.ids) <= matrix_.shape[0] and len(kept.win) == len(S)

        def fell_back(*args, **kwargs):
            raise AssertionError("the search did not start from the kept scan")

        keeper.solve = fell_back
        for d in (4, 3):
            for beta in (INF, value + 1, value, 2 * len(S) + 3):
                ours = keeper._solve_from(kept, S, d, beta, req)
                theirs = plain.solve(S, d, beta, req)
                assert ours == theirs, (len(S), d, beta)
        assert keeper.counters().nodes == plain.counters().nodes


def test_the_kept_scan_changes_no_tree(real_lists, monkeypatch):
    """The trees of the largest classes below SALET (normal and hard mode), and of random games,
    are the same with the tie-break's search started from the kept scan (USE_KEPT_TOP) as without; the scan was kept
    and used (each kept scan is taken by the tree of its set)."""
    from wordtree.wordle.patterns import pattern_matrix

    game = get_game("wordle")
    matrix = pattern_matrix(game).matrix
    fast = Solver(game, matrix, 6)
    plain = Solver(game, matrix, 6, rules=kernels.ALL_RULES & ~kernels.USE_KEPT_TOP)
    salet = game.guess_index["salet"]
    classes = sorted(fast.classes(np.arange(len(game.answers), dtype=np.int32), salet), key=lambda item: -len(item[1]))
    start = fast.empty_constraint()
    for code, part in classes[:6]:
        req = fast.constrain(start, salet, code)
        assert fast.solve(part, 5, req=req, keep_top=True) == plain.solve(part, 5, req=req, keep_top=True)
        assert len(fast._tops) == 1 and not plain._tops
        assert fast.tree(part, 5, req) == plain.tree(part, 5, req), game.pattern_text(code)
        assert not fast._tops
    fast, plain = (Solver(game, matrix, 6, mode="hard", rules=rules)
                   for rules in (kernels.ALL_RULES, kernels.ALL_RULES & ~kernels.USE_KEPT_TOP))
    for code, part in classes[:3]:
        req = fast.constrain(fast.empty_constraint(), salet, code)
        assert fast.solve(part, 5, req=req, keep_top=True) == plain.solve(part, 5, req=req, keep_top=True)
        assert len(fast._tops) == 1
        assert fast.tree(part, 5, req) == plain.tree(part, 5, req), ("hard", game.pattern_text(code))
    searched_from = Solver._solve_from
    used = []
    monkeypatch.setattr(Solver, "_solve_from", lambda self, *args: used.append(args[1].size) or searched_from(self, *args))
    for seed in range(4):
        small = small_game(real_lists, 400 + seed, n_answers=160, n_guesses=120)
        small_matrix = small._compute_matrix()
        # a poor opener (the fewest patterns), so that its classes are large enough to keep scans
        first = small.guesses[int(np.argmin([len(np.unique(row)) for row in small_matrix]))]
        for cap in (5, 6):
            trees = [build(small, small_matrix, first, max_guesses=cap, threads=1, progress=False, rules=rules).root
                     for rules in (kernels.ALL_RULES, kernels.ALL_RULES & ~kernels.USE_KEPT_TOP)]
            assert trees[0] == trees[1], (seed, cap)
    assert used  # the random games' builds kept scans too


@pytest.mark.parametrize("seed", range(3))
def test_larger_random_games_with_and_without_rules(real_lists, seed):
    """Bigger than the oracle can do: every rule switched off must still give the same value."""
    game = small_game(real_lists, 100 + seed, n_answers=60, n_guesses=300)
    values = {rules: engine_value(game, 5, rules) for rules in (kernels.ALL_RULES, kernels.USE_BOUNDS | kernels.USE_MEMO,
                                                               kernels.ALL_RULES & ~kernels.USE_MEMO,
                                                               kernels.ALL_RULES & ~kernels.USE_PAIRS,
                                                               kernels.ALL_RULES & ~kernels.USE_DEEPER)}
    assert len(set(values.values())) == 1, values


def test_forced_opener_costs_match_the_optimum(real_lists):
    game = small_game(real_lists, 42)
    solver = Solver(game, game._compute_matrix(), 4)
    S = np.arange(len(game.answers), dtype=np.int32)
    costs = [solver.evaluate(S, g, 4) for g in range(len(game.guesses))]
    value, best = solver.solve(S, 4)
    assert min(costs) == value == costs[best]


def test_budget_contract(real_lists):
    """Below the budget the value is exact; at or above it, a bound that is at least the budget."""
    game = small_game(real_lists, 5, n_answers=40, n_guesses=120)
    S = np.arange(len(game.answers), dtype=np.int32)
    exact = Solver(game, game._compute_matrix(), 5).solve(S, 5)[0]
    for beta in range(exact - 3, exact + 3):
        got = Solver(game, game._compute_matrix(), 5).solve(S, 5, beta)[0]
        if beta > exact:
            assert got == exact
        else:
            assert beta <= got <= exact


@pytest.mark.parametrize("game_kind, mode", [("wordle", "normal"), ("wordle", "hard"), ("wordle", "ultra"),
                                             ("mastermind", "normal")])
def test_opener_budget_contract(real_lists, game_kind, mode):
    """evaluate_opener (rank's call, class by class with shares of the slack first) against the
    kernel's forced opener: exact below the budget, else a bound between the budget and the
    value; one solver keeps its memo across all calls, as a rank thread does. In hard and ultra
    modes each class is solved under the constraint the opener and its code leave. The same
    with other passes of shares than the mode's (Solver.share_passes)."""
    from wordtree.games.mastermind import Mastermind

    game = small_game(real_lists, 11, n_answers=70, n_guesses=250) if game_kind == "wordle" else Mastermind(3, 4)
    cap = 5
    matrix = game._compute_matrix()
    S = np.arange(len(game.answers), dtype=np.int32)
    exact_solver, ranked = Solver(game, matrix, cap, mode=mode), Solver(game, matrix, cap, mode=mode)
    shipped = (ranked.share_passes, ranked.largest_share)
    rng = random.Random(3)
    # the mode's passes of shares (sum_of_classes), then others: any passes keep the contract
    for passes in dict.fromkeys([shipped, ((1,), 1), ((4, 2, 1), 2), ((3, 1), 5)]):
        ranked.share_passes, ranked.largest_share = passes
        for g in rng.sample(range(len(game.guesses)), 25 if passes == shipped else 8):
            exact = exact_solver.evaluate(S, g, cap)
            for beta in sorted({exact - 40, exact - 7, exact - 1, exact, exact + 1, exact + 12}):
                got = ranked.evaluate_opener(S, g, beta)
                if beta > exact:
                    assert got == exact, (game.guesses[g], beta, passes)
                else:
                    assert beta <= got <= exact, (game.guesses[g], beta, got, exact, passes)


def test_build_tree_total_equals_replay(real_lists):
    game = small_game(real_lists, 9, n_answers=50, n_guesses=200)
    result = build(game, game._compute_matrix(), first=None, max_guesses=6, progress=False)
    total = 0
    for answer in game.answers:
        node, depth = result.root, 1
        while node["guess"] != answer:
            node = node["next"][game.pattern_text(game.feedback(node["guess"], answer))]
            depth += 1
        total += depth
    assert total == result.total == engine_value(game, 6)


@pytest.mark.parametrize("seed, mode, cap", [(3, "normal", 6), (4, "normal", 4), (5, "hard", 6), (6, "ultra", 8),
                                             (7, "normal", None)])
def test_build_depths_equal_a_replay(real_lists, seed, mode, cap):
    """The depths the builder reads off its tree with the pattern matrix (what the document's
    stats come from) are those a replay with the feedback function finds, on random games."""
    from wordtree.wordle.tree import make_document, replay

    game = small_game(real_lists, seed, n_answers=60, n_guesses=150)
    result = build(game, game._compute_matrix(), first=None, max_guesses=cap, progress=False, mode=mode)
    replayed = [len(replay(game, result.root, answer)) for answer in game.answers]
    assert result.depths == replayed and sum(replayed) == result.total
    given = make_document(game, result.root, mode=mode, max_guesses=cap, depths=result.depths)
    assert given == make_document(game, result.root, mode=mode, max_guesses=cap)


@pytest.mark.parametrize("name", ["wordle-salet-normal", "wordle-salet-hard", "wordle-salet-ultra",
                                  "wordle-nyt2023-tarse-normal", "mastermind-4x6"])
def test_answer_depths_equal_a_replay_on_the_shipped_trees(name):
    from wordtree.data import trees_dir
    from wordtree.exact.build import answer_depths
    from wordtree.wordle.patterns import pattern_matrix
    from wordtree.wordle.tree import depth_stats, named_game, read_tree, replay

    doc = read_tree(trees_dir() / f"{name}.json")
    game = named_game(doc)
    depths = answer_depths(game, pattern_matrix(game).matrix, doc["root"], range(len(game.answers)))
    assert depths == [len(replay(game, doc["root"], answer)) for answer in game.answers]
    assert depth_stats(depths) == {k: doc["stats"][k] for k in ("total", "mean", "worst", "histogram")}


def test_answer_depths_refuse_a_missing_branch(real_lists):
    from wordtree.exact.build import answer_depths

    game = small_game(real_lists, 11, n_answers=30, n_guesses=60)
    matrix = game._compute_matrix()
    root = build(game, matrix, first=None, progress=False).root
    del root["next"][sorted(root["next"])[0]]
    with pytest.raises(RuntimeError, match="internal error: the tree has no branch"):
        answer_depths(game, matrix, root, range(len(game.answers)))


def tree_worst(node, depth=1):
    return max([depth] + [tree_worst(child, depth + 1) for child in node.get("next", {}).values()])


# (answers, guesses, seed): small games, and two larger ones where the first optimal tree the
# search meets has a worst case of 4 while another optimal tree needs only 3.
@pytest.mark.parametrize("case", [(16, 30, 0, 4), (16, 30, 1, 8), (16, 30, 2, 3), (40, 60, 16, 8), (40, 60, 40, 8)])
def test_ties_in_total_go_to_the_smaller_worst_case(real_lists, case):
    n_answers, n_guesses, seed, cap = case
    game = small_game(real_lists, seed, n_answers, n_guesses)
    expected = reference.optimal_total_and_worst(game, game.answers, cap)
    assert expected[0] < float("inf")
    result = build(game, game._compute_matrix(), max_guesses=cap, threads=1, progress=False)
    assert (result.total, tree_worst(result.root)) == expected


def test_salet_7920():
    game = get_game("wordle")
    result = build(game, game._compute_matrix(), first="salet", max_guesses=6, progress=False)
    assert result.total == 7920


# ------------------------------------------------------------------------------------------------
# hard mode
# ------------------------------------------------------------------------------------------------
def cluster_game():
    """The _ight family: hard mode forbids the splitting guesses once IGHT is green, so hard and
    normal values differ here (the random games above rarely show the difference)."""
    answers = sorted(["fight", "light", "might", "night", "right", "sight", "tight", "bight", "wight", "eight", "hight"])
    guesses = sorted(set(answers) | {"north", "films", "twerp", "brawl", "mowed", "fiery", "lymph", "swung"})
    return Wordle("wordle", word_list("answers", answers), word_list("guesses", guesses))


def mode_value(game, cap, mode, rules=kernels.ALL_RULES):
    solver = Solver(game, game._compute_matrix(), cap, rules=rules, mode=mode)
    value, _ = solver.solve(np.arange(len(game.answers), dtype=np.int32), cap)
    return float("inf") if value >= INF else value


def hard_value(game, cap, rules=kernels.ALL_RULES):
    return mode_value(game, cap, "hard", rules)


def test_hard_mode_equals_exhaustive_search_on_a_cluster():
    game = cluster_game()
    differs = False
    for cap in (4, 5, 6, 8):
        expected = reference.optimal_total(game, game.answers, cap, hard=True)
        differs |= expected != reference.optimal_total(game, game.answers, cap)
        for rules in (kernels.ALL_RULES, 0, kernels.USE_BOUNDS | kernels.USE_MEMO, kernels.USE_SHORTCUTS):
            assert hard_value(game, cap, rules) == expected, (cap, rules)
    assert differs  # the case really exercises the rule


GREEN_RULE_SETS = (kernels.ALL_RULES, kernels.ALL_RULES & ~kernels.USE_GREENS, kernels.USE_BOUNDS | kernels.USE_GREENS,
                   kernels.USE_GREENS | kernels.USE_BOUNDS | kernels.USE_MEMO)


def test_the_greens_rule_is_exact_and_prunes_on_the_ight_family():
    """kernels.USE_GREENS on and off, alone with the bounds or with the memo: the brute force's
    value at every cap, and with the rule fewer nodes (four greens: a class of c answers needs
    c guesses, so most of the family is infeasible at once)."""
    game = cluster_game()
    matrix = game._compute_matrix()
    S = np.arange(len(game.answers), dtype=np.int32)
    for cap in (4, 5, 6, 8, 11):
        expected = reference.optimal_total(game, game.answers, cap, hard=True)
        for rules in GREEN_RULE_SETS:
            assert hard_value(game, cap, rules) == expected, (cap, rules)
        nodes = {}
        for rules in (kernels.ALL_RULES, kernels.ALL_RULES & ~kernels.USE_GREENS):
            solver = Solver(game, matrix, cap, rules=rules, mode="hard")
            solver.solve(S, cap)
            nodes[rules] = solver.counters().nodes
        assert nodes[kernels.ALL_RULES] < nodes[kernels.ALL_RULES & ~kernels.USE_GREENS], cap


def test_green_branching_is_the_most_codes_a_set_with_its_greens_gets():
    """Every word of four letters over five with k letters fixed, against every guess with the
    same letters fixed: the non-winning codes each guess gets (the independent feedback of
    tests/reference.py) are never more than kernels.green_branching allows, and as many for one
    free position (1) and two (6)."""
    import itertools

    alphabet, length = "abcde", 4
    words = ["".join(w) for w in itertools.product(alphabet, repeat=length)]
    for k in range(length + 1):
        allowed = kernels.green_branching(length, k, 10**6)
        most = 0
        for fixed in itertools.combinations(range(length), k):
            for letters in itertools.product(alphabet[:2], repeat=k):
                group = [w for w in words if all(w[i] == x for i, x in zip(fixed, letters))]
                for guess in group[:: max(1, len(group) // 40)]:
                    codes = {reference.wordle_feedback(guess, answer) for answer in group} - {"G" * length}
                    most = max(most, len(codes))
        assert most <= allowed, (k, most, allowed)
        if length - k in (1, 2):
            assert most == allowed, (k, most, allowed)
    assert [kernels.green_branching(5, k, 237) for k in range(6)] == [237, 76, 23, 6, 1, 0]


def test_the_code_greens_are_the_greens_of_the_pattern_text():
    game = get_game("wordle")
    greens = kernels.code_greens(game.n_codes, game.length)
    assert [int(g) for g in greens] == [game.pattern_text(code).count("G") for code in range(game.n_codes)]


@pytest.mark.parametrize("seed", range(3))
def test_every_class_costs_at_least_its_bound_by_greens(real_lists, seed):
    """The slow twin of the greens rule: below every guess of a random game (a family of words
    sharing four letters among its answers), each class's exact
    hard-mode value (searched without the rule) is at least its bound by greens, with every cap
    from 2 to 5 guesses left, and the search with the rule finds the same value."""
    answers_all, guesses_all = real_lists
    rng = random.Random(400 + seed)
    family = rng.choice(["ight", "ound", "atch"])  # classes with many greens
    answers = sorted(set(rng.sample([w for w in answers_all if w.endswith(family)], 7) + rng.sample(answers_all, 24)))
    guesses = sorted(set(rng.sample(guesses_all, 60)) | set(answers))
    game = Wordle("wordle", word_list("answers", answers), word_list("guesses", guesses))
    matrix = game._compute_matrix()
    S = np.arange(len(game.answers), dtype=np.int32)
    on = Solver(game, matrix, 6, mode="hard")
    off = Solver(game, matrix, 6, mode="hard", rules=kernels.ALL_RULES & ~kernels.USE_GREENS)
    start = on.empty_constraint()
    raised = 0
    for g in range(len(game.guesses)):
        for code, part in on.classes(S, g):
            req = on.constrain(start, g, code)
            for d in range(2, 6):
                exact = off.solve(part, d, INF, req)[0]
                bound = on.part_bound(code, len(part), d)
                assert bound <= exact, (game.guesses[g], game.pattern_text(code), d, bound, exact)
                assert on.solve(part, d, INF, req)[0] == exact
                raised += bound > off.part_bound(code, len(part), d)
    assert raised > 0  # the rule really raised some bounds here


def test_the_greens_of_a_set_are_those_all_its_answers_show(real_lists):
    """kernels._set_greens (the row of the bounds by greens a search starts from) against a plain
    count: the positions the constraint fixes where every answer of the set has that letter, for
    random sets and constraints, feedback-made or not (a caller's set that no feedback left)."""
    game = small_game(real_lists, 77, n_answers=60, n_guesses=120)
    solver = Solver(game, game._compute_matrix(), 6, mode="hard")
    letters, gid = solver.letters, solver.answer_gid
    rng = random.Random(5)
    counted = set()
    for _ in range(400):
        S = np.array(sorted(rng.sample(range(len(game.answers)), rng.choice([1, 2, 5, 20]))), np.int32)
        req = solver.empty_constraint()
        model = letters[gid[S[0]]] if rng.random() < 0.7 else letters[rng.randrange(len(game.guesses))]
        for i in rng.sample(range(game.length), rng.randrange(game.length + 1)):
            req[i] = model[i]
        plain = sum(1 for i in range(game.length) if req[i] >= 0 and all(letters[gid[a], i] == req[i] for a in S))
        assert kernels._set_greens(S, req, gid, letters) == plain
        counted.add(plain)
    assert counted == set(range(game.length + 1))
    # the _ight family under the greens IGHT: one guess per answer, the rule on and off alike
    cluster = cluster_game()
    S = np.arange(len(cluster.answers), dtype=np.int32)
    on, off = (Solver(cluster, cluster._compute_matrix(), 11, mode="hard", rules=rules)
               for rules in (kernels.ALL_RULES, kernels.ALL_RULES & ~kernels.USE_GREENS))
    req = on.empty_constraint()
    req[1:5] = [on.letters[cluster.guess_index["fight"], i] for i in range(1, 5)]
    assert on.solve(S, 11, INF, req)[0] == off.solve(S, 11, INF, req)[0] == sum(range(1, len(S) + 1))
    assert on.solve(S, 10, INF, req)[0] >= INF and off.solve(S, 10, INF, req)[0] >= INF


@pytest.mark.parametrize("seed", range(4))
def test_hard_mode_equals_exhaustive_search_on_random_games(real_lists, seed):
    game = small_game(real_lists, 200 + seed, n_answers=14, n_guesses=30)
    for cap in (3, 4, 6):
        assert hard_value(game, cap) == reference.optimal_total(game, game.answers, cap, hard=True), (seed, cap)


def test_hard_mode_legality_matches_the_rule_on_repeated_letters():
    """After CECUM scored GBYBB against CYNIC, every later guess starts with C and has two Cs."""
    game = get_game("wordle")
    solver = Solver(game, np.zeros((len(game.guesses), len(game.answers)), np.uint8), 6, mode="hard")
    code = game.feedback("cecum", "cynic")
    assert game.pattern_text(code) == "GBYBB"
    req = solver.constrain(solver.empty_constraint(), game.guess_index["cecum"], code)
    history = [("cecum", "GBYBB")]
    rng = random.Random(3)
    words = ["cynic", "comic", "conch", "cabin", "crane", "sonic", "circa", "cocoa"] + rng.sample(game.guesses, 300)
    for word in words:
        assert solver.legal(req, game.guess_index[word]) == reference.hard_mode_allows(word, history), word
    assert solver.legal(req, game.guess_index["comic"]) and not solver.legal(req, game.guess_index["cabin"])


def test_hard_mode_build_passes_the_independent_verifier(tmp_path):
    from wordtree.wordle.tree import make_document
    from wordtree.wordle.verify import verify

    game = cluster_game()
    result = build(game, game._compute_matrix(), first=None, max_guesses=6, progress=False, mode="hard")
    doc = make_document(game, result.root, mode="hard", max_guesses=6)
    report = verify(doc, game.answers, game.guesses)
    assert report.ok, report.defect
    assert doc["stats"]["total"] == result.total == reference.optimal_total(game, game.answers, 6, hard=True)


@pytest.mark.slow
def test_salet_hard_8122():
    game = get_game("wordle")
    result = build(game, game._compute_matrix(), first="salet", max_guesses=6, progress=False, mode="hard")
    assert result.total == 8122


@pytest.mark.slow
def test_hard_mode_published_values():
    """Hard mode, original lists: no cap 8116; cap 5: SALET impossible, PALET 8206."""
    from wordtree.exact.solver import Infeasible

    game = get_game("wordle")
    matrix = game._compute_matrix()
    assert build(game, matrix, first="salet", max_guesses=None, progress=False, mode="hard").total == 8116
    with pytest.raises(Infeasible):
        build(game, matrix, first="salet", max_guesses=5, progress=False, mode="hard")
    assert build(game, matrix, first="palet", max_guesses=5, progress=False, mode="hard").total == 8206


# ultra mode
# ------------------------------------------------------------------------------------------------
def test_ultra_mode_equals_exhaustive_search_on_a_cluster():
    game = cluster_game()
    differs = False
    for cap in (4, 5, 6, 8):
        expected = reference.optimal_total(game, game.answers, cap, ultra=True)
        differs |= expected != reference.optimal_total(game, game.answers, cap, hard=True)
        for rules in (kernels.ALL_RULES, 0, kernels.USE_BOUNDS | kernels.USE_MEMO, kernels.USE_SHORTCUTS):
            assert mode_value(game, cap, "ultra", rules) == expected, (cap, rules)
    assert differs  # ultra is stricter than hard here


@pytest.mark.parametrize("seed", range(4))
def test_ultra_mode_equals_exhaustive_search_on_random_games(real_lists, seed):
    game = small_game(real_lists, 300 + seed, n_answers=14, n_guesses=30)
    for cap in (3, 4, 6):
        expected = reference.optimal_total(game, game.answers, cap, ultra=True)
        assert mode_value(game, cap, "ultra") == expected, (seed, cap)


def test_ultra_mode_legality_matches_the_rule():
    """The kernel's pair feedback and history check against the literal rule, repeated letters
    included, after one and after two steps (histories recorded in either order)."""
    game = get_game("wordle")
    solver = Solver(game, np.zeros((len(game.guesses), len(game.answers)), np.uint8), 6, mode="ultra")
    rng = random.Random(5)
    words = ["cynic", "comic", "cecum", "civic", "cocoa", "eerie", "geese", "sassy"] + rng.sample(game.guesses, 300)
    for steps in ([("cecum", "cynic")], [("cecum", "cynic"), ("eerie", "civic")], [("eerie", "civic"), ("cecum", "cynic")]):
        req = solver.empty_constraint()
        history = []
        for guess, answer in steps:
            code = game.feedback(guess, answer)
            req = solver.constrain(req, game.guess_index[guess], code)
            history.append((guess, reference.wordle_feedback(guess, answer)))
        for word in words:
            assert solver.legal(req, game.guess_index[word]) == reference.ultra_mode_allows(word, history), (word, steps)


def test_ultra_mode_build_passes_the_independent_verifier():
    from wordtree.wordle.tree import make_document
    from wordtree.wordle.verify import verify

    game = cluster_game()
    result = build(game, game._compute_matrix(), first=None, max_guesses=8, progress=False, mode="ultra")
    doc = make_document(game, result.root, mode="ultra", max_guesses=8)
    report = verify(doc, game.answers, game.guesses)
    assert report.ok, report.defect
    assert doc["stats"]["total"] == result.total == reference.optimal_total(game, game.answers, 8, ultra=True)
