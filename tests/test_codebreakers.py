"""Mastermind and Bulls and Cows: feedback (kernel, game, verifier) against a literal reference,
exact values against brute force, the root symmetry, pattern parsing, and trees end to end."""

import copy
import itertools
import random
import re
from pathlib import Path

import numpy as np
import orjson
import pytest

import reference
import reference_codebreakers as rc
from reference_trees import assert_one_line_error, run_cli
from wordtree.commands.hints import flag_hints
from wordtree.errors import GameOptionOutOfRange, OptionNotForGame, UsageError, UserError
from wordtree.games import get_game
from wordtree.games.bulls_cows import BullsCows
from wordtree.games.bulls_cows import canonical_first_guesses as bulls_cows_openers
from wordtree.games.mastermind import Mastermind
from wordtree.games.mastermind import canonical_first_guesses as mastermind_openers
from wordtree.games.symmetry import orbit_representatives
from wordtree.exact.build import build
from wordtree.exact.checkpoint import checkpoint_status, finished_openers, load_checkpoint, load_proven
from wordtree.exact.rank import rank
from wordtree.exact.solver import INF, NO_CAP, Solver, tree_depth
from wordtree.exact.symmetric import proven_key
from wordtree.files import sealed
from wordtree.wordle.tree import game_for, make_document, read_tree, write_tree
from wordtree.wordle.verify import bulls_cows_text, load_lists, mastermind_text, verify

ROOT = Path(__file__).resolve().parent.parent
SMALL_GAMES = [Mastermind(3, 3), Mastermind(3, 4), Mastermind(2, 5), Mastermind(4, 3), BullsCows(2),
               BullsCows(2, repeats=True), pytest.param(BullsCows(3), marks=pytest.mark.slow)]


def text_of(game):
    return mastermind_text if game.kind == "mastermind" else bulls_cows_text


@pytest.mark.parametrize("game", SMALL_GAMES, ids=lambda g: g.list_name)
def test_kernel_game_and_verifier_agree_with_the_reference_on_all_pairs(game):
    matrix = game._compute_matrix()
    assert matrix.shape == (len(game.guesses), len(game.answers))
    pegs = len(game.answers[0])
    for gi, guess in enumerate(game.guesses):
        for ai, answer in enumerate(game.answers):
            black, white = rc.score(guess, answer)
            code = black * (pegs + 1) + white
            assert matrix[gi, ai] == code, (guess, answer)
            assert game.feedback(guess, answer) == code, (guess, answer)
            assert game.pattern_text(code) == text_of(game)(guess, answer), (guess, answer)
    assert len(set(matrix.ravel().tolist())) > 3


def test_kernel_agrees_with_the_game_on_the_full_size_games():
    rng = random.Random(7)
    for game in (Mastermind(4, 6), BullsCows(4), BullsCows(4, repeats=True)):
        matrix = game._compute_matrix()
        for _ in range(3000):
            gi, ai = rng.randrange(len(game.guesses)), rng.randrange(len(game.answers))
            black, white = rc.score(game.guesses[gi], game.answers[ai])
            assert matrix[gi, ai] == black * (len(game.answers[0]) + 1) + white


def test_codes_are_the_games_code_sets():
    assert Mastermind(4, 6).answers == tuple(rc.all_codes("123456", 4, False))
    assert BullsCows(4).answers == tuple(rc.all_codes("0123456789", 4, True))
    assert len(BullsCows(4, repeats=True).answers) == 10000
    assert Mastermind(4, 6).guesses == Mastermind(4, 6).answers


def engine_value(game, cap):
    solver = Solver(game, game._compute_matrix(), cap)
    value, _ = solver.solve(np.arange(len(game.answers), dtype=np.int32), solver.cap)
    return float("inf") if value >= INF else value


def fewer_answers(game, n, seed):
    """The game with a random subset of its codes as answers (all codes stay guesses): small
    enough for brute force, and no longer symmetric."""
    rng = random.Random(seed)
    small = copy.copy(game)
    small.answers = tuple(sorted(rng.sample(game.answers, n)))
    return small


BRUTE_FORCE_GAMES = [
    Mastermind(2, 3), Mastermind(3, 2), fewer_answers(Mastermind(3, 3), 14, 5), fewer_answers(Mastermind(3, 4), 14, 1),
    fewer_answers(BullsCows(2), 14, 2), fewer_answers(BullsCows(3), 8, 3), fewer_answers(BullsCows(2, repeats=True), 14, 4),
    pytest.param(Mastermind(2, 4), marks=pytest.mark.slow), pytest.param(Mastermind(3, 3), marks=pytest.mark.slow),
    pytest.param(fewer_answers(BullsCows(3), 12, 3), marks=pytest.mark.slow),
]


@pytest.mark.parametrize("game", BRUTE_FORCE_GAMES, ids=lambda g: f"{g.list_name}-{len(g.answers)}")
def test_exact_values_equal_brute_force(game):
    for cap in (2, 3, 4, None):
        expected = reference.optimal_total(game, game.answers, cap or 12)
        assert engine_value(game, cap) == expected, cap


def multiplicities(code: str) -> tuple[int, ...]:
    return tuple(sorted(code.count(symbol) for symbol in set(code)))


@pytest.mark.parametrize("game, openers", [(Mastermind(3, 4), mastermind_openers), (Mastermind(4, 3), mastermind_openers),
                                           (Mastermind(2, 5), mastermind_openers), (BullsCows(2), bulls_cows_openers),
                                           pytest.param(BullsCows(2, repeats=True), bulls_cows_openers, marks=pytest.mark.slow),
                                           pytest.param(BullsCows(3), bulls_cows_openers, marks=pytest.mark.slow)],
                         ids=lambda g: getattr(g, "list_name", ""))
def test_canonical_openers_give_the_same_optimum_as_all_openers(game, openers):
    """The best canonical opener is the unrestricted optimum (solve searches every opener), and
    each opener tried (all of them on the smallest games) costs what its representative costs."""
    solver = Solver(game, game._compute_matrix(), 8)
    S = np.arange(len(game.answers), dtype=np.int32)
    canonical = openers(game)
    by_shape = {multiplicities(game.guesses[g]): solver.evaluate(S, g, 8) for g in canonical}
    assert max(by_shape.values()) < INF  # every opener finishes within the cap: the values are exact
    assert min(by_shape.values()) == solver.solve(S, 8)[0]
    tried = range(len(game.guesses)) if len(game.guesses) <= 64 else random.Random(1).sample(range(len(game.guesses)), 8)
    for g in tried:
        assert solver.evaluate(S, g, 8) == by_shape[multiplicities(game.guesses[g])], game.guesses[g]


def test_canonical_openers_are_one_per_multiplicity_shape():
    names = lambda game, ids: [game.guesses[i] for i in ids]  # noqa: E731
    assert names(Mastermind(4, 6), mastermind_openers(Mastermind(4, 6))) == ["1111", "1112", "1122", "1123", "1234"]
    assert names(Mastermind(4, 3), mastermind_openers(Mastermind(4, 3))) == ["1111", "1112", "1122", "1123"]
    assert names(BullsCows(4), bulls_cows_openers(BullsCows(4))) == ["0123"] == [BullsCows(4).default_first]
    assert names(BullsCows(3, True), bulls_cows_openers(BullsCows(3, True))) == ["000", "001", "012"]


def case_id(value) -> str:
    return getattr(value, "list_name", None) or str(value)


def same_orbit(history, h, h2) -> bool:
    """Slow and literal: some position permutation and symbol renaming fixes every code of the
    history and sends h to h2 (the renaming is read off position by position; it must be a
    one-to-one map)."""
    target = "".join(history) + h2
    for perm in itertools.permutations(range(len(h))):
        moved = "".join(code[i] for code in [*history, h] for i in perm)
        forward, backward = {}, {}
        if all(forward.setdefault(a, b) == b and backward.setdefault(b, a) == a for a, b in zip(moved, target)):
            return True
    return False


@pytest.mark.parametrize("game, history", [(Mastermind(3, 3), []), (Mastermind(3, 3), ["112"]), (Mastermind(2, 4), ["12"]),
                                           (Mastermind(3, 3), ["112", "123"]), (BullsCows(2), ["01"]),
                                           (BullsCows(2, repeats=True), ["00", "01"]), (Mastermind(3, 4), ["123"]),
                                           (Mastermind(3, 3), ["112", "123", "321", "111", "232"])],
                         ids=case_id)
def test_orbit_representatives_match_the_group_by_brute_force(game, history):
    ids = [game.guess_index[c] for c in history]
    reps = [game.guesses[g] for g in orbit_representatives(game, ids)]
    for code in game.guesses:  # every code is in the orbit of exactly one representative
        assert sum(same_orbit(history, rep, code) for rep in reps) == 1, code


@pytest.mark.parametrize("game, first, history", [(Mastermind(3, 4), "112", []), (Mastermind(3, 4), "123", []),
                                                  (Mastermind(4, 3), "1123", []), (BullsCows(2), "01", []),
                                                  (Mastermind(3, 4), None, [("112", 1)]),
                                                  (BullsCows(2, repeats=True), "01", [])], ids=case_id)
def test_symmetry_below_the_opener_changes_no_value(game, first, history, monkeypatch):
    """build tries one second guess per orbit; with the symmetry switched off it tries them all:
    the totals agree, and so does the brute force where it is small enough."""
    matrix = game._compute_matrix()
    cap = 8
    history = [(g, game.parse_pattern(p) if isinstance(p, str) else p) for g, p in history]
    with_symmetry = build(game, matrix, first=first, max_guesses=cap, history=history, progress=False)
    monkeypatch.setattr(type(game), "symmetric", property(lambda self: False))
    without = build(game, matrix, first=first, max_guesses=cap, history=history, progress=False)
    assert with_symmetry.total == without.total
    assert tree_depth(with_symmetry.root) == tree_depth(without.root)  # the tie-break holds too
    if len(game.answers) <= 30 and not history:
        S = np.arange(len(game.answers), dtype=np.int32)
        solver = Solver(game, matrix, cap)
        assert with_symmetry.total == solver.evaluate(S, game.guess_index[first], cap)


@pytest.mark.parametrize("game", [Mastermind(3, 4), Mastermind(4, 3), BullsCows(2), BullsCows(2, repeats=True)],
                         ids=case_id)
def test_rank_over_orbits_finds_the_optimum_of_every_opener(game):
    """rank tries one opener per orbit, and one second guess per orbit below it; the kernel
    alone (every opener, every guess) gives the same optimum."""
    matrix = game._compute_matrix()
    ranked = rank(game, matrix, top=1, max_guesses=8, progress=False)
    word, value, exact = ranked.ordered()[0]
    assert exact and len(ranked.values) == len(mastermind_openers(game))
    assert value == Solver(game, matrix, 8).solve(np.arange(len(game.answers), dtype=np.int32), 8)[0]


def test_rank_takes_known_opener_values_for_their_orbit(tmp_path):
    """A build of opener 234 (the orbit of 123) with a checkpoint: finished_openers reads its exact
    total, and a rank given it values the representative 123 with it, searching only the other
    orbits. A false known value is taken as given, which shows that it is what the rank used."""
    game = Mastermind(3, 4)
    matrix = game._compute_matrix()
    ck = tmp_path / "b.ck"
    built = build(game, matrix, first="234", max_guesses=6, progress=False, checkpoint=str(ck))
    known = finished_openers(game, matrix, ck, 6, "normal")
    assert known == {"234": built.total}
    plain = rank(game, matrix, top=1, max_guesses=6, progress=False)
    seeded = rank(game, matrix, top=1, max_guesses=6, progress=False, known=known)
    assert seeded.values["123"] == (built.total, True) and "234" not in seeded.values
    assert seeded.ordered()[0] == plain.ordered()[0]
    false = rank(game, matrix, top=1, max_guesses=6, progress=False, known={"234": built.total - 3})
    assert false.ordered()[0] == ("123", built.total - 3, True)
    assert finished_openers(game, matrix, tmp_path / "none.ck", 6, "normal") == {}
    with pytest.raises(UserError, match="checkpoint of another build"):
        finished_openers(game, matrix, ck, 5, "normal")


def test_rank_checkpoint_keeps_what_the_symmetric_levels_proved(tmp_path):
    """A rank of a symmetric game saves what its symmetric levels proved beside each opener's
    result, and a resume takes it: with the results removed, the openers are ranked again to
    the same optimum; with the exact rows planted one too high, the resumed rank answers from
    them, which shows they are what it used."""
    game = BullsCows(2, repeats=True)
    matrix = game._compute_matrix()
    ck = tmp_path / "r.ck"
    first = rank(game, matrix, top=1, max_guesses=7, progress=False, checkpoint=str(ck))
    rows = load_proven(ck, game, 7, "normal")
    kernel = Solver(game, matrix, 7)
    assert len(rows) > 10
    for d, v, exact, _, *S in rows:
        truth = kernel.solve(np.array(S, dtype=np.int32), d)[0]
        assert truth == v if exact else truth >= v
    doc = orjson.loads(ck.read_bytes())
    doc["results"] = {}
    ck.write_bytes(sealed(doc))  # checksummed: a checkpoint is trusted as written
    again = rank(game, matrix, top=1, max_guesses=7, progress=False, checkpoint=str(ck), resume=True)
    # (whether a losing opener comes out exact depends on which thread finished first)
    assert again.ordered()[0] == first.ordered()[0] and again.values.keys() == first.values.keys()
    doc["proven"] = [[d, v + 1, exact, *rest] if exact else [d, v, exact, *rest] for d, v, exact, *rest in rows]
    ck.write_bytes(sealed(doc))  # checksummed: a checkpoint is trusted as written
    planted = rank(game, matrix, top=1, max_guesses=7, progress=False, checkpoint=str(ck), resume=True)
    assert planted.ordered()[0][1] > first.ordered()[0][1]


@pytest.mark.parametrize("game", [Mastermind(4, 4), BullsCows(2, repeats=True)], ids=lambda g: g.list_name)
def test_second_guesses_in_parallel_answer_as_the_plain_loop(game):
    """solve_symmetric with its second guesses on two threads gives the plain loop's answer for
    every class of every opener, under budgets below, at and above the value: the same value,
    or a bound at least the budget, and among equal values the same guess."""
    matrix = game._compute_matrix()
    S = np.arange(len(game.answers), dtype=np.int32)
    levels, ties = game.symmetric_levels, 0
    for o in orbit_representatives(game, []):
        for _, part in Solver(game, matrix, 7).classes(S, o):
            if len(part) <= 2:
                continue
            value, guess = Solver(game, matrix, 7).solve_symmetric(part, 6, [int(o)], INF, levels)
            guesses, lower = Solver(game, matrix, 7)._orbit_bounds(part, 6, [int(o)])
            ties += sum(Solver(game, matrix, 7).evaluate_symmetric(part, g, 6, [int(o), int(g)], value + 1, levels - 1)
                        == value for g in guesses) > 1
            for beta in (value - 2, value, value + 1, INF):
                plain = Solver(game, matrix, 7).solve_symmetric(part, 6, [int(o)], beta, levels)
                parallel = Solver(game, matrix, 7)
                parallel.search_orbits_in_parallel(2)
                got = parallel.solve_symmetric(part, 6, [int(o)], beta, levels)
                if beta > value:
                    assert got == plain == (value, guess), (game.guesses[o], len(part), beta)
                else:
                    assert got[1] == -1 and beta <= got[0] <= value, (game.guesses[o], len(part), beta, got)
    assert ties > 1  # classes where several second guesses are optimal: the first is the answer


def test_build_takes_what_the_rank_proved():
    """A rank of a symmetric game hands what its symmetric levels proved to the build of its best
    opener: the same tree with less search."""
    game = Mastermind(4, 4)
    matrix = game._compute_matrix()
    ranked = rank(game, matrix, top=1, max_guesses=7, progress=False, threads=1)
    word, value, exact = ranked.ordered()[0]
    assert exact and len(ranked.proven) > 10
    alone = build(game, matrix, first=word, max_guesses=7, progress=False, threads=1)
    helped = build(game, matrix, first=word, max_guesses=7, progress=False, threads=1, proven=ranked.proven)
    assert alone.total == helped.total == value and alone.root == helped.root
    # the classes' values are known: only the trees below them are searched
    assert helped.counters.guesses_evaluated < alone.counters.guesses_evaluated, (helped.counters, alone.counters)
    assert helped.counters.nodes < alone.counters.nodes, (helped.counters, alone.counters)


def test_the_bars_count_the_sets_proven_while_a_class_or_an_opener_is_searched(monkeypatch):
    """A symmetric build's bar, and a rank's, shows the sets its searches have proven beside its
    own figures, as they are proven (so a bar stuck on its last class still moves), and the
    proven count only grows. The bars are made to draw into a buffer, every update at once."""
    import io

    import tqdm

    import wordtree.exact.symmetric

    drawn = io.StringIO()

    class Drawn(tqdm.tqdm):
        def __init__(self, *args, **kwargs):
            kwargs.update(disable=False, file=drawn, mininterval=0, miniters=1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(tqdm, "tqdm", Drawn)
    monkeypatch.setattr("wordtree.progress.is_terminal", lambda stream=None: True)  # the bar, not piped lines
    monkeypatch.setattr(wordtree.exact.symmetric, "PROGRESS_EVERY", 0.0)
    game = Mastermind(4, 4)
    matrix = game._compute_matrix()
    result = build(game, matrix, first="1122", max_guesses=7, threads=1)
    draws = [(int(t), int(n)) for t, n in re.findall(r"total=(\d+) proven=(\d+)", drawn.getvalue())]
    assert draws and draws[-1][0] == result.total
    assert [n for _, n in draws] == sorted(n for _, n in draws)
    assert any(t == t2 and n < n2 for (t, n), (t2, n2) in zip(draws, draws[1:]))  # moved inside a class
    drawn.seek(0)
    drawn.truncate()
    rank(game, matrix, top=1, max_guesses=7, threads=1)
    assert re.search(r"first guesses.* proven=\d+", drawn.getvalue()) and re.search(r"\d{4}=\d+ proven=", drawn.getvalue())


def test_build_checkpoint_keeps_what_the_symmetric_levels_proved(tmp_path):
    """Beside its finished subtrees, a symmetric build's checkpoint keeps what each search of the
    symmetric levels proved: V(S, d) exactly (the kernel's value over every guess) or a lower
    bound. A resume that has lost every subtree (as if stopped inside them) finds those there:
    the same tree with less search; a false value planted there is what the resume takes."""
    game = BullsCows(2, repeats=True)  # two symmetric levels, as in the 4-digit games
    matrix = game._compute_matrix()
    ck = tmp_path / "b.ck"
    whole = build(game, matrix, first="01", max_guesses=7, progress=False, checkpoint=str(ck))
    doc = orjson.loads(ck.read_bytes())
    rows = doc["proven"]
    assert any(row[2] for row in rows) and len(rows) > 20, len(rows)
    kernel = Solver(game, matrix, 7)
    for d, value, exact, guess, *S in rows:
        true_value = kernel.solve(np.array(S, dtype=np.int32), d)[0]
        assert value == true_value if exact else value <= true_value
        if exact:
            assert kernel.evaluate(np.array(S, dtype=np.int32), guess, d) == true_value
    doc["subtrees"] = {}
    ck.write_bytes(sealed(doc))  # checksummed: a checkpoint is trusted as written
    resumed = build(game, matrix, first="01", max_guesses=7, progress=False, checkpoint=str(ck), resume=True)
    assert resumed.root == whole.root and resumed.total == whole.total
    assert resumed.counters.nodes < whole.counters.nodes / 2
    o = game.guess_index["01"]
    largest = max(Solver(game, matrix, 7).classes(np.arange(len(game.answers)), o), key=lambda item: len(item[1]))[1]
    for row in doc["proven"]:
        if row[0] == 6 and row[4:] == largest.tolist():
            row[1] += 100
    doc["subtrees"] = {}
    ck.write_bytes(sealed(doc))  # checksummed: a checkpoint is trusted as written
    planted = build(game, matrix, first="01", max_guesses=7, progress=False, checkpoint=str(ck), resume=True)
    assert planted.total == whole.total + 100


def test_bulls_and_cows_with_repeats_is_mastermind_with_ten_colours():
    """docs/results.md's claim: with repeats, bulls and cows are Mastermind's black and white pegs
    (here each 3-digit code over the digits 1-9, which both games write alike, against every
    seventh)."""
    bulls, mastermind = BullsCows(3, repeats=True), Mastermind(3, 9)
    for x in mastermind.codes:
        for y in mastermind.codes[::7]:
            a_b, b_w = bulls.pattern_text(bulls.feedback(x, y)), mastermind.pattern_text(mastermind.feedback(x, y))
            assert (a_b[0], a_b[2]) == (b_w[0], b_w[2]), (x, y)


def test_values_proven_with_more_guesses_bound_a_capped_search():
    """What the symmetric levels proved with d guesses left bounds the set with fewer from below
    (a tree within fewer guesses is one within d): the tie-break's capped searches take it, and
    find the kernel's exact values at every smaller cap; a false value planted with more guesses
    left is what a capped search then answers."""
    game = BullsCows(2, repeats=True)
    matrix = game._compute_matrix()
    kernel = Solver(game, matrix, 7)
    o = game.guess_index["01"]
    for code, part in kernel.classes(np.arange(len(game.answers), dtype=np.int32), o):
        solver = Solver(game, matrix, 7)
        uncapped = solver.solve_symmetric(part, 6, [o], INF, 2)[0]
        assert uncapped == kernel.solve(part, 6)[0]
        for d in range(5, 1, -1):
            assert solver.solve_symmetric(part, d, [o], INF, 2)[0] == kernel.solve(part, d)[0], (code, d)
    part, d, value = next((part, d, kernel.solve(part, d)[0]) for _, part in kernel.classes(np.arange(len(game.answers), dtype=np.int32), o)
                          for d in range(2, 6) if len(part) > 2 and kernel.solve(part, d)[0] < INF)
    solver = Solver(game, matrix, 7)
    assert solver.solve_symmetric(part, d, [o], value + 1, 2)[0] == value
    solver = Solver(game, matrix, 7)
    solver.proven[proven_key(part, 6)] = (value + 100, True, -1)
    assert solver.solve_symmetric(part, d, [o], value + 1, 2) == (value + 100, -1)
    assert solver.solve_symmetric(part, d, [o], INF, 2)[0] == value  # a bound below beta: searched


@pytest.mark.parametrize("game", [BullsCows(2, repeats=True), Mastermind(3, 4)], ids=["bulls-cows-2r", "mastermind-3x4"])
def test_set_bound_is_the_best_guess_by_class_bounds_and_refutes_before_searching(game, monkeypatch):
    """Solver.set_bound, below one and two guesses of history, is the least over every guess (not
    only one per orbit) of |S| plus its classes' class bounds, and never above the kernel's exact
    value; summed over a guess's classes it refutes the guess against a beta it reaches with no
    search at all."""
    matrix = game._compute_matrix()
    kernel = Solver(game, matrix, 7)
    S = np.arange(len(game.answers), dtype=np.int32)

    def one_deeper(part, d):
        return min(INF, max(int(kernel.class_bounds[d][len(part)]),
                   min(len(part) + sum(int(kernel.class_bounds[d - 1][len(p)]) for _, p in kernel.classes(part, g))
                       for g in range(len(game.guesses)))))

    fresh, checked = Solver(game, matrix, 7), 0  # set_bound proves nothing: it stays fresh
    for o in orbit_representatives(game, []):
        for _, part in kernel.classes(S, o):
            for history, sub in [([o], part)] + [([o, g], p) for g in (0, len(game.guesses) // 3)
                                               for _, p in kernel.classes(part, g)]:
                for d in (2, 3, 6):
                    if len(sub) <= 2:
                        continue
                    bound = fresh.set_bound(sub, d, [int(h) for h in history])
                    assert bound == one_deeper(sub, d) and bound <= kernel.solve(sub, d)[0], (history, d)
                    checked += 1
    assert checked > 50
    solver = Solver(game, matrix, 7)
    o = int(orbit_representatives(game, [])[-1])
    reach = len(S) + sum(solver.set_bound(part, 6, [o]) for _, part in solver.classes(S, o))
    assert reach > len(S) + sum(int(solver.class_bounds[6][len(part)]) for _, part in solver.classes(S, o))

    def no_search(*args):
        raise AssertionError("searched a class the bounds refute")

    monkeypatch.setattr(solver, "solve_symmetric", no_search)
    assert solver.evaluate_symmetric(S, o, 7, [o], reach, 2) == reach


def test_an_opener_solves_its_small_classes_in_full_before_the_shares(monkeypatch):
    """evaluate_opener in a symmetric game solves each class of at most 1/16 of the codes against
    the whole slack the others' bounds leave, smallest first, before any class is asked for its
    share; the answer keeps the budget contract (exact below beta, else a bound from beta to the
    value) for betas below, at and above the value."""
    game = Mastermind(4, 4)
    matrix = game._compute_matrix()
    S = np.arange(len(game.answers), dtype=np.int32)
    o = game.guess_index["1122"]
    exact = Solver(game, matrix, 7).evaluate(S, o, 7)
    small = len(S) // 16
    for beta in (exact - 30, exact - 1, exact, exact + 1):
        solver = Solver(game, matrix, 7)
        calls, solve = [], solver.solve_symmetric

        def recording(part, d, history, budget, levels, on_tried=None, solve=solve, calls=calls):
            if len(history) == 1:
                calls.append((len(part), budget, solver.set_bound(part, d, history)))
            return solve(part, d, history, budget, levels, on_tried=on_tried)

        monkeypatch.setattr(solver, "solve_symmetric", recording)
        got = solver.evaluate_opener(S, o, beta)
        assert got == exact if beta > exact else beta <= got <= exact, (beta, got, exact)
        if beta < INF and calls:
            firsts = [size for size, _, _ in calls[: sum(1 for size, _, _ in calls if size <= small)]]
            assert firsts == sorted(firsts) and all(size <= small for size in firsts), calls
            fresh = Solver(game, matrix, 7)
            parts = sorted(len(p) for _, p in fresh.classes(S, o))
            bounds = len(S) + sum(fresh.set_bound(p, 6, [o]) for _, p in fresh.classes(S, o))
            size, budget, bound = calls[0]
            assert budget == beta - (bounds - bound) and size == min(p for p in parts if p > 2), calls
    assert any(size <= small for size, _, _ in calls) and any(size > small for size, _, _ in calls)


def status_of(lines: list[str]) -> tuple[int, bool, dict[str, tuple[int, bool]]]:
    """(total, exact, {pattern: (value, exact)}) of the one opener checkpoint_status reports."""
    import re

    (head,) = [line for line in lines if line.startswith("opener ")]
    total = re.search(r"total (exact|at least) (\d+)", head)
    rows = {}
    for line in lines:
        row = re.match(r"\s+(\S+)\s+\d+ answers: (exact|at least) (\d+)", line)
        if row:
            rows[row.group(1)] = (int(row.group(3)), row.group(2) == "exact")
    return int(total.group(2)), total.group(1) == "exact", rows


def test_checkpoint_status_bounds_each_class_and_settles_from_the_second_guesses(tmp_path):
    """`build --status` reads a build checkpoint: a finished build reports every class exact and
    the build's total; with the class-level values gone it settles each class again from its
    second-guess orbits (the least orbit bound meets the best all-exact orbit); with values taken
    away at random every figure stays at or below the truth; with none, the least over the
    second guesses of the class bounds two guesses deeper (the parts' bounds one guess deeper
    are what the search refutes guesses with)."""
    game = BullsCows(2, repeats=True)
    matrix = game._compute_matrix()
    ck = tmp_path / "b.ck"
    whole = build(game, matrix, first="01", max_guesses=7, progress=False, checkpoint=str(ck))
    solver = Solver(game, matrix, 7)
    truth = {game.pattern_text(code): solver.solve(part, 6)[0]
             for code, part in solver.classes(np.arange(len(game.answers), dtype=np.int32), game.guess_index["01"])}
    assert status_of(checkpoint_status(game, matrix, ck, 7, "normal")) == (
        whole.total, True, {p: (v, True) for p, v in truth.items()})
    doc = orjson.loads(ck.read_bytes())
    full = doc["proven"]
    doc["subtrees"]["01/7"] = {}
    doc["proven"] = [row for row in full if row[0] != 6]
    ck.write_bytes(sealed(doc))  # checksummed: a checkpoint is trusted as written
    total, exact, rows = status_of(checkpoint_status(game, matrix, ck, 7, "normal"))
    assert exact and total == whole.total and rows == {p: (v, True) for p, v in truth.items()}
    # a class-level row that only bounds the class from below is no more than that
    doc["proven"] = [row[:1] + [row[1] - 5, 0] + row[3:] if row[0] == 6 else row for row in full]
    ck.write_bytes(sealed(doc))  # checksummed: a checkpoint is trusted as written
    assert status_of(checkpoint_status(game, matrix, ck, 7, "normal"))[2] == {p: (v, True) for p, v in truth.items()}
    rng = random.Random(5)
    for _ in range(5):
        doc["proven"] = [row for row in full if rng.random() < 0.5]
        ck.write_bytes(sealed(doc))  # checksummed: a checkpoint is trusted as written
        total, _, rows = status_of(checkpoint_status(game, matrix, ck, 7, "normal"))
        assert total <= whole.total and all(rows[p][0] <= v and (not rows[p][1] or rows[p][0] == v)
                                            for p, v in truth.items())
    doc["proven"] = []
    ck.write_bytes(sealed(doc))  # checksummed: a checkpoint is trusted as written
    lines = checkpoint_status(game, matrix, ck, 7, "normal")
    total, exact, rows = status_of(lines)
    o = game.guess_index["01"]

    def deeper(part, d, levels):
        """The class bound, or |part| plus its classes' bounds a level down, least over every guess."""
        bound = int(solver.class_bounds[d][len(part)])
        if levels == 0 or len(part) <= 2:
            return bound
        return max(bound, min(len(part) + sum(deeper(p, d - 1, levels - 1) for _, p in solver.classes(part, g))
                              for g in range(len(game.guesses))))

    for code, part in solver.classes(np.arange(len(game.answers), dtype=np.int32), o):
        assert rows[game.pattern_text(code)] == (deeper(part, 6, 2), len(part) <= 2)
    assert not exact and total == len(game.answers) + sum(v for v, _ in rows.values()) < whole.total
    assert any("second-guess orbits still open" in line for line in lines)


def test_status_bounds_the_openers_a_rank_has_not_finished(tmp_path):
    """With the results of a build's rank of the openers (FILE.rank) taken away, `--status` still
    bounds each opener orbit from below, from the values the rank's searches proved, at or below
    its exact total; with nothing proven, from the classes' bounds one guess deeper."""
    game = BullsCows(2, repeats=True)
    matrix = game._compute_matrix()
    ck = tmp_path / "b.ck"
    build(game, matrix, first="01", max_guesses=7, progress=False, checkpoint=str(ck))
    rank(game, matrix, top=1, max_guesses=7, progress=False, checkpoint=f"{ck}.rank")
    solver = Solver(game, matrix, 7)
    S = np.arange(len(game.answers), dtype=np.int32)
    truth = {game.guesses[o]: solver.evaluate_opener(S, o) for o in orbit_representatives(game, [])}
    doc = orjson.loads((tmp_path / "b.ck.rank").read_bytes())
    for proven in (doc["proven"], []):
        (tmp_path / "b.ck.rank").write_bytes(sealed({**doc, "results": {"01": [truth["01"], True]},
                                                     "proven": proven}))
        lines = checkpoint_status(game, matrix, ck, 7, "normal")
        shown = dict(re.findall(r"^  (\d+): (?:exact|at least) (\d+)", "\n".join(lines), re.M))
        assert int(shown["01"]) == truth["01"] and int(shown["00"]) <= truth["00"]
        if not proven:
            o, fresh = game.guess_index["00"], Solver(game, matrix, 7)
            assert int(shown["00"]) == len(S) + sum(fresh.set_bound(p, 6, [o]) for _, p in fresh.classes(S, o))


def test_cli_build_status(tmp_path):
    ck = tmp_path / "b.ck"
    assert run_cli("build", "mastermind", "--pegs", "3", "--colours", "3", "--quiet", "--checkpoint", ck).returncode == 0
    shown = run_cli("build", "mastermind", "--pegs", "3", "--colours", "3", "--checkpoint", ck, "--status")
    assert shown.returncode == 0, shown.stderr
    built = run_cli("build", "mastermind", "--pegs", "3", "--colours", "3", "--quiet")
    total = int(built.stdout.split("total ")[1].split()[0])
    assert status_of(shown.stdout.splitlines())[:2] == (total, True)
    # the build found its opener by ranking one per orbit (in FILE.rank): the best exact, the others no better
    openers = dict(re.findall(r"^  (\d+): (.+)$", shown.stdout.split(".rank: the first guesses")[1], re.M))
    game = Mastermind(3, 3)
    assert set(openers) == {game.guesses[o] for o in orbit_representatives(game, [])}
    assert f"exact {total}" in openers.values()
    for text in openers.values():
        value = int(text.split()[-1] if text.startswith("exact") else text.split()[2])
        assert value >= total and (text.startswith("exact") or text.endswith("(no better than the best)"))
    assert_one_line_error(run_cli("build", "mastermind", "--status"), "--status needs --checkpoint")
    assert_one_line_error(run_cli("build", "mastermind", "--checkpoint", tmp_path / "none.ck", "--status"),
                          "no such checkpoint")
    assert_one_line_error(run_cli("build", "mastermind", "--checkpoint", ck, "--status"), "checkpoint of another")
    assert_one_line_error(run_cli("build", "hangman", "--length", "3", "--checkpoint", ck, "--status"),
                          "not a readable hangman checkpoint")  # a Mastermind checkpoint


@pytest.mark.parametrize("text, expected", [("2B1W", (2, 1)), ("2b1w", (2, 1)), ("2 B 1 W", (2, 1)), ("21", (2, 1)),
                                            ("2B", (2, 0)), ("1w", (0, 1)), ("0B0W", (0, 0)), ("-", (0, 0)),
                                            ("4B0W", (4, 0)), ("04", (0, 4))])
def test_mastermind_patterns_parse(text, expected):
    game = Mastermind(4, 6)
    assert game.parse_pattern(text) == expected[0] * 5 + expected[1]
    assert game.parse_pattern(game.pattern_text(game.parse_pattern(text))) == game.parse_pattern(text)


@pytest.mark.parametrize("text", ["", "2B1A", "3B1W", "5B", "2W1B", "3B2W", "B", "211", "xyz"])
def test_bad_mastermind_patterns_are_user_errors(text):
    with pytest.raises(UserError, match="bad pattern"):
        Mastermind(4, 6).parse_pattern(text)


def test_bulls_cows_patterns():
    game = BullsCows(4)
    assert game.pattern_text(game.parse_pattern("1a2b")) == "1A2B"
    assert game.parse_pattern("12") == game.parse_pattern("1A2B") == 7
    assert game.pattern_text(game.win_code) == "4A0B"
    for bad in ("1B2W", "3A1B", "2A3B"):
        with pytest.raises(UserError):
            game.parse_pattern(bad)
    with pytest.raises(UserError, match="cannot occur with 4 digits"):
        game.parse_pattern("4A1B")


def test_get_game_options_and_generated_list_names():
    assert get_game("mastermind").identity()["answers_count"] == 1296
    game = get_game("mastermind", pegs=3, colours=5)
    assert (game.pegs, game.colours, len(game.answers)) == (3, 5, 125)
    again = get_game("mastermind", game.list_name, f"/some/where/{game.list_name}")
    assert again.identity() == game.identity()
    repeats = get_game("bulls-cows", digits=3, repeats=True)
    assert get_game("bulls-cows", repeats.list_name, repeats.list_name).identity() == repeats.identity()
    assert get_game("bulls-cows").identity()["answers_count"] == 5040
    for name, kwargs, message in [("mastermind", {"digits": 3}, "--digits does not apply"),
                                  ("wordle", {"pegs": 3}, "--pegs does not apply"),
                                  ("mastermind", {"pegs": 7, "colours": 6}, "at most"),
                                  ("mastermind", {"colours": 10}, "--colours"),
                                  ("bulls-cows", {"digits": 5}, "--digits")]:
        with pytest.raises(UserError, match=message), flag_hints():  # the command line's wording
            get_game(name, **kwargs)
    with pytest.raises(UserError, match="generates its codes"):
        get_game("mastermind", "wordle-answers-2315.txt", "wordle-answers-2315.txt")
    with pytest.raises(UserError, match="not the 3x6"):
        get_game("mastermind", "mastermind-4x6 codes", "mastermind-4x6 codes", pegs=3)


def test_a_game_option_refused_carries_its_facts_and_names_no_flag():
    """The engine's errors name the option and the game, not a flag (commands/hints.py adds it)."""
    with pytest.raises(OptionNotForGame) as stray:
        get_game("wordle", pegs=3)
    assert (stray.value.option, stray.value.game, str(stray.value)) == ("pegs", "wordle",
                                                                       "the option 'pegs' does not apply to wordle")
    assert isinstance(stray.value, UsageError)  # exit status 2, as the flag's own refusal
    for kwargs, option, value, allowed in [({"pegs": 10}, "pegs", 10, "between 1 and 9"),
                                           ({"colours": 1}, "colours", 1, "between 2 and 9 (codes use the digits 1..C)")]:
        with pytest.raises(GameOptionOutOfRange) as bad:
            Mastermind(**kwargs)
        assert (bad.value.game, bad.value.option, bad.value.value, bad.value.allowed) == ("mastermind", option, value, allowed)
        assert str(bad.value) == f"mastermind: the {option} must be {allowed}, not {value}"
    with pytest.raises(GameOptionOutOfRange) as bad:
        BullsCows(5)
    with pytest.raises(UserError) as worded, flag_hints():
        BullsCows(5)
    assert "--" not in str(bad.value) and type(worded.value) is UserError
    assert str(worded.value) == "--digits must be between 1 and 4 (at most 10000 codes), not 5"


@pytest.mark.parametrize("game", [Mastermind(3, 4), BullsCows(2)], ids=lambda g: g.list_name)
def test_built_tree_verifies_and_reloads(game, tmp_path):
    result = build(game, game._compute_matrix(), max_guesses=8, progress=False)
    path = tmp_path / "tree.json"
    write_tree(path, make_document(game, result.root, max_guesses=8, seconds=result.seconds))
    doc = read_tree(path)
    report = verify(doc, *load_lists(doc))
    assert report.ok, report.defect
    assert report.total == result.total
    assert game_for(doc).identity() == game.identity()
    # a tampered header no longer matches the generated codes
    doc["game"]["colours" if game.kind == "mastermind" else "digits"] += 1
    broken = verify(doc, *load_lists(doc))
    assert not broken.ok and "sha256" in broken.defect


def test_each_game_has_its_own_default_cap(tmp_path):
    """Bulls and Cows' optimum needs 7 guesses for some codes: without --max-guesses its cap is
    7, Wordle's and Mastermind's 6; a cap given on the command line wins."""
    for args, cap in [(["bulls-cows", "--digits", "2"], 7), (["mastermind", "--pegs", "2", "--colours", "3"], 6),
                      (["bulls-cows", "--digits", "2", "--max-guesses", "8"], 8)]:
        out = tmp_path / "tree.json"
        proc = run_cli("build", *args, "--quiet", "-o", out)
        assert proc.returncode == 0, proc.stderr
        assert orjson.loads(out.read_bytes())["game"]["max_guesses"] == cap


SHIPPED_TOTALS = {"mastermind-4x6.json": 5625, "bulls-cows-4.json": 26274, "bulls-cows-4-repeats.json": 55632,
                  "mastermind-4x6-ultra.json": 5660, "bulls-cows-4-ultra.json": 26688}


@pytest.mark.parametrize("name", SHIPPED_TOTALS)
def test_shipped_trees_verify(name):
    path = ROOT / "trees" / name
    assert path.is_file(), f"trees/{name} is missing: a shipped tree"
    doc = read_tree(path)
    report = verify(doc, *load_lists(doc))
    assert report.ok, report.defect
    assert report.total == SHIPPED_TOTALS[name]
    stats = orjson.loads(path.read_bytes())["stats"]
    assert stats["total"] == report.total
    assert stats["optimal"] and "first_guess" not in stats  # each opener proven the best


def test_the_run_in_runs_proves_the_shipped_bulls_and_cows_with_repeats_tree(tmp_path):
    """The finished run of Bulls and Cows with repeats carried in runs/: its rank holds every
    opener orbit, 0123 exact at the shipped total and each other one at least that; a resume
    with the opener found exactly (--first auto) takes only the files and gives the shipped tree,
    labelled optimal with no "first_guess" marker."""
    import shutil

    shipped = orjson.loads((ROOT / "trees" / "bulls-cows-4-repeats.json").read_bytes())
    game = get_game("bulls-cows", repeats=True)
    ranked = load_checkpoint(ROOT / "runs" / "bulls-cows-repeats.ck.rank", game, NO_CAP, "normal")
    total = shipped["stats"]["total"]
    assert set(ranked) == {game.guesses[o] for o in orbit_representatives(game, [])}
    assert ranked.pop("0123") == (total, True) and all(value >= total for value, _ in ranked.values())
    for suffix in ("", ".rank"):
        shutil.copy(ROOT / "runs" / f"bulls-cows-repeats.ck{suffix}", tmp_path / f"b.ck{suffix}")
    out = tmp_path / "tree.json"
    proc = run_cli("build", "bulls-cows", "--repeats", "--first", "auto", "--checkpoint", tmp_path / "b.ck",
                   "--resume", "--quiet", "-o", out)
    assert proc.returncode == 0, proc.stderr
    doc = orjson.loads(out.read_bytes())
    assert doc["root"] == shipped["root"] and doc["stats"]["total"] == total
    assert doc["stats"]["optimal"] and "first_guess" not in doc["stats"]
    assert "first guess 0123, optimal (exhaustive search)" in proc.stdout


RUNS = [path for path in sorted((ROOT / "runs").glob("*.ck"))  # the exact builds' (Absurdle's: tests/test_absurdle)
        if orjson.loads(path.read_bytes()).get("format") == "wordtree-build-checkpoint/1"]


def test_the_build_checkpoints_carried_are_there():
    assert "bulls-cows-repeats.ck" in {path.name for path in RUNS}


@pytest.mark.parametrize("path", RUNS, ids=lambda p: p.name)
def test_builds_in_progress_resume_with_this_engine(path):
    """A checkpoint carried in runs/ (runs/README.md) still matches its game as this engine names
    it, so a resume takes it, and each subtree it finished replays, answer by answer with the
    game's own feedback, to the total it records."""
    from wordtree.exact.checkpoint import build_checkpoint_header
    from wordtree.files import read_checkpoint

    doc = orjson.loads(path.read_bytes())
    game = get_game(doc["game"]["name"], doc["game"]["answers"], doc["game"]["guesses"])
    assert read_checkpoint(path, build_checkpoint_header(game, doc["max_guesses"], doc["mode"], []), "build")
    assert doc["history"] == [] and all(len(row) > 5 for row in doc.get("proven", []))
    for key, finished in doc["subtrees"].items():
        opener = key.split("/")[0]
        for code_text, item in finished.items():
            code = int(code_text)
            total = 0
            for answer in (a for a in game.answers if game.feedback(opener, a) == code):
                node, steps = item["tree"], 1
                while node["guess"] != answer:
                    node = node["next"][game.pattern_text(game.feedback(node["guess"], answer))]
                    steps += 1
                total += steps
            assert total == item["value"], (key, code_text)
    rank_file = Path(f"{path}.rank")
    if rank_file.exists():  # the rank of the openers a build with the opener found exactly keeps beside it
        results = load_checkpoint(rank_file, game, doc["max_guesses"], doc["mode"])
        finished = {key.split("/")[0]: sum(item["value"] for item in subtrees.values()) + len(game.answers)
                    for key, subtrees in doc["subtrees"].items()}
        assert all(results[word] == (total, True) for word, total in finished.items() if word in results)
        assert all(len(row) > 5 for row in load_proven(rank_file, game, doc["max_guesses"], doc["mode"]))


def test_out_of_range_colour_or_digit_names_the_range():
    mastermind, bulls, repeats = Mastermind(4, 6), BullsCows(4), BullsCows(4, repeats=True)
    for game, code, message in [
        (mastermind, "1237", "colour 7 is out of range: colours are 1 to 6"),
        (mastermind, "0123", "colour 0 is out of range: colours are 1 to 6"),
        (mastermind, "12b4", "'b' is not a colour: colours are 1 to 6"),
        (mastermind, "12345", "it has 5 pegs, the codes have 4"),
        (Mastermind(3, 4), "125", "colour 5 is out of range: colours are 1 to 4"),
        (bulls, "12a4", "'a' is not a digit: digits are 0 to 9"),
        (bulls, "123", "it has 3 digits, the codes have 4"),
        (bulls, "1123", "digit 1 is repeated: the digits of a code differ in this game"),
        (repeats, "11x3", "'x' is not a digit: digits are 0 to 9"),
    ]:
        with pytest.raises(UserError, match=re.escape(f"{code!r} is not an allowed guess in {game.name}: {message}")):
            game.parse_guess(code)
    assert mastermind.parse_guess(" 1236 ") == "1236" and repeats.parse_guess("1123") == "1123"


def test_cli_play_and_build_name_the_colour_range(tmp_path):
    played = run_cli("play", ROOT / "trees" / "mastermind-4x6.json", stdin="1237 1B0W\n")
    assert_one_line_error(played, "step 1", "colour 7 is out of range: colours are 1 to 6")
    built = run_cli("build", "bulls-cows", "--digits", "2", "--first", "1a", "--quiet")
    assert_one_line_error(built, "'a' is not a digit: digits are 0 to 9")
