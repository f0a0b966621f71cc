"""Dordle: the exact search against the brute force of reference_dordle.py, with every rule on
and each rule off; the bounds below the exact values; the mirror symmetry; the tree file."""

import random
from pathlib import Path
from functools import lru_cache

import numpy as np
import pytest

import reference_dordle as ref
from wordtree.dordle import bounds, kernels
from wordtree.dordle.search import ALL_RULES, DINF, RULE_NAMES, DordleSearch
from wordtree.games import get_game
from wordtree.games.wordle import Wordle
from wordtree.words import WordList, canonical_sha256

INF = float("inf")


def word_list(name, words):
    return WordList(name, name, tuple(words), canonical_sha256(words))


@lru_cache(maxsize=None)
def pools():
    game = get_game("wordle")
    from wordtree.data import wordlists_dir

    three = sorted({w.strip() for w in open(wordlists_dir() / "enable1.txt") if len(w.strip()) == 3})
    return {5: (list(game.answers), list(game.guesses)), 3: (three, three)}


def instance(seed, max_answers=8, max_guesses=15):
    """A small game: answers clustered around a random word (near words make hard boards), random
    guesses, 3- or 5-letter words, and a cap from 2 to 7."""
    rng = random.Random(seed)
    answers_pool, guesses_pool = pools()[rng.choice((3, 5))]
    centre = rng.choice(answers_pool)
    near = sorted(answers_pool, key=lambda w: (-sum(x == y for x, y in zip(w, centre)), rng.random()))
    answers = sorted(near[: rng.randint(4, max_answers)])
    guesses = sorted(set(rng.sample(guesses_pool, rng.randint(6, max_guesses))) | set(answers))
    game = Wordle("wordle", word_list("answers", answers), word_list("guesses", guesses))
    return game, rng.randint(2, 7)


def exact(value):
    return INF if value >= DINF else value


def engine_total(game, cap, rules=ALL_RULES, first=None):
    search = DordleSearch(game, game._compute_matrix(), cap, rules=rules)
    value, guess = search.solve_game(None if first is None else game.guess_index[first])
    return exact(value), guess


SEEDS = range(12)


@pytest.mark.parametrize("seed", SEEDS)
def test_engine_matches_brute_force(seed):
    game, cap = instance(seed)
    expected = ref.dordle_total(game, cap)
    value, guess = engine_total(game, cap)
    assert value == expected
    if value < INF:  # the first guess it names reaches the optimum
        assert ref.first_guess_total(game, cap, game.guesses[guess]) == expected


@pytest.mark.parametrize("rule", sorted(RULE_NAMES))
def test_no_rule_changes_a_value(rule):
    for seed in range(6):
        game, cap = instance(seed, max_answers=6, max_guesses=10)
        expected = ref.dordle_total(game, cap)
        assert engine_total(game, cap, ALL_RULES & ~RULE_NAMES[rule])[0] == expected, (seed, rule)
        assert engine_total(game, cap, RULE_NAMES[rule] | RULE_NAMES["memo"])[0] == expected, (seed, rule)


def test_no_rules_at_all():
    for seed in range(6):
        game, cap = instance(seed, max_answers=5, max_guesses=8)
        assert engine_total(game, min(cap, 4), 0)[0] == ref.dordle_total(game, min(cap, 4))


def test_forced_first_guess():
    for seed in range(6):
        game, cap = instance(seed, max_answers=6, max_guesses=10)
        for first in random.Random(seed).sample(game.guesses, 3):
            assert engine_total(game, cap, first=first)[0] == ref.first_guess_total(game, cap, first), (seed, first)


def random_states(game, rng, count):
    """(S1, S2, ident) states of the kinds the search meets: identical sets, and disjoint ones."""
    n = len(game.answers)
    for _ in range(count):
        if rng.random() < 0.4:
            S = np.array(sorted(rng.sample(range(n), rng.randint(2, n))), np.int32)
            yield S, S, True
        else:
            ids = rng.sample(range(n), rng.randint(2, n))
            cut = rng.randint(1, len(ids) - 1)
            yield np.array(sorted(ids[:cut]), np.int32), np.array(sorted(ids[cut:]), np.int32), False


def brute_state(game, S1, S2, d):
    words = game.answers
    return ref.position_value(game, game.guesses, ref.state_pairs([words[a] for a in S1], [words[b] for b in S2]), d)


@pytest.mark.parametrize("seed", range(10))
def test_bounds_below_exact_values_and_mirror(seed):
    game, _ = instance(seed, max_answers=7, max_guesses=12)
    rng = random.Random(seed)
    search = DordleSearch(game, game._compute_matrix(), 7)
    mirror_off = DordleSearch(game, game._compute_matrix(), 7, rules=ALL_RULES & ~RULE_NAMES["mirror"])
    for S1, S2, ident in random_states(game, rng, 8):
        for d in range(2, 6):
            value = brute_state(game, S1, S2, d)
            assert exact(search.solve(S1, S2, ident, d)[0]) == value
            assert exact(bounds.child_bound(len(S1), len(S2), ident, d)) <= value
            assert exact(search.projection(S1, S2, ident, d)) <= value
            if not ident:  # (d): the mirror has the same value
                assert exact(mirror_off.solve(S2, S1, False, d)[0]) == value
                assert brute_state(game, S2, S1, d) == value


@pytest.mark.parametrize("seed", range(6))
def test_guess_bounds_kernel_matches_its_twin_and_the_values(seed):
    """The kernel's counting bound of every guess equals bounds.guess_bound, and stays at or below
    the guess's exact cost."""
    game, _ = instance(seed, max_answers=7, max_guesses=12)
    search = DordleSearch(game, game._compute_matrix(), 7)
    rng = random.Random(seed)
    G = search.all_guesses
    for S1, S2, ident in random_states(game, rng, 4):
        for d in (2, 3, 4):
            lbs, scores, useless = np.empty(len(G), np.int64), np.empty(len(G), np.int64), np.empty(len(G), bool)
            mark1 = np.zeros(len(game.answers), bool)
            mark1[S1] = True
            mark2 = mark1.copy() if ident else np.zeros(len(game.answers), bool)
            mark2[S2] = True
            kernels.guess_bounds(search.tables, G, S1, S2, ident, mark1, mark2, d,
                                 kernels.Bounds(lbs, scores, useless))
            for i, g in enumerate(G):
                classes1, in1 = search.classes(S1, int(g))
                classes2, in2 = search.classes(S2, int(g))
                sizes1, sizes2 = [len(c) for _, c in classes1], [len(c) for _, c in classes2]
                assert lbs[i] == bounds.guess_bound(sizes1, sizes2, in1, in2, ident, d, search.cb)
                assert exact(lbs[i]) <= exact(search.evaluate(S1, S2, ident, d, int(g)))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12, 112))
def test_engine_matches_brute_force_many(seed):
    game, cap = instance(seed)
    assert engine_total(game, cap)[0] == ref.dordle_total(game, cap)


@pytest.mark.parametrize("seed", range(4))
def test_tree_file_replays_to_the_exact_total(seed):
    from wordtree.dordle.tree import build_document, verify_document
    from wordtree.errors import UserError

    game, cap = instance(seed, max_answers=7, max_guesses=12)
    expected = ref.dordle_total(game, cap)
    search = DordleSearch(game, game._compute_matrix(), cap)
    if expected == INF:
        with pytest.raises(UserError):
            build_document(search)
        return
    doc = build_document(search)
    assert doc["result"]["total"] == expected and doc["result"]["optimal"]
    report = verify_document(doc, game, search.matrix)
    assert report["total"] == expected and report["worst"] <= cap
    doc["result"]["total"] += 1
    with pytest.raises(UserError, match="replay totals"):
        verify_document(doc, game, search.matrix)


def test_cli_build_and_verify(tmp_path, capsys):
    from wordtree.commands import main
    from wordtree.data import wordlists_dir

    answers = [w.strip() for w in open(wordlists_dir() / "wordle-answers-2315.txt")][::150]
    (tmp_path / "a.txt").write_text("\n".join(answers) + "\n")
    (tmp_path / "g.txt").write_text("\n".join(answers + ["salet", "crony"]) + "\n")
    lists = ["--answers", str(tmp_path / "a.txt"), "--guesses", str(tmp_path / "g.txt")]
    out = tmp_path / "t.json"
    assert main(["dordle", "build", *lists, "--max-guesses", "6", "--first", "salet", "-o", str(out)]) == 0
    assert "(fixed)" in capsys.readouterr().out
    assert main(["dordle", "verify", str(out), *lists]) == 0
    assert capsys.readouterr().out.startswith("ok: ")
    assert main(["dordle"]) == 2


@pytest.mark.parametrize("extra", [[], ["--first", "salet"], ["--objective", "worst"]], ids=["root", "first", "worst"])
def test_a_cap_no_strategy_meets_exits_3_with_one_line(dordle_lists, capsys, extra):
    """Two guesses cannot finish every pair of 16 answers (the first guess would have to be both
    answers): proven impossible, exit status 3 as a single board's cap no tree meets, one line."""
    from wordtree.commands import main

    assert main(["dordle", "build", *dordle_lists, "--max-guesses", "2", "--quiet", *extra]) == 3
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if line.startswith("wordtree: error:")]
    assert len(errors) == 1 and "impossible" in errors[0] and "within 2 guesses" in errors[0], err
    assert "Traceback" not in err


def test_no_strategy_within_the_cap_is_the_single_boards_infeasible_kind():
    """build_document's refusal is a proven result of the same kind as exact.Infeasible (exit 3)."""
    from wordtree.dordle.tree import NoStrategy, build_document
    from wordtree.exact.solver import Infeasible

    game, _ = instance(0, max_answers=6, max_guesses=8)
    with pytest.raises(NoStrategy, match="within 2 guesses") as caught:
        build_document(DordleSearch(game, game._compute_matrix(), 2))
    assert isinstance(caught.value, Infeasible) and caught.value.exit_code == 3 and caught.value.cap == 2


SHIPPED_DORDLE = sorted((Path(__file__).resolve().parent.parent / "trees" / "dordle").glob("*.json"))
# the trees (wordtree-dordle/1); the strategy files (*-strategy.json) are walked in test_dordle_full.py
SHIPPED_DORDLE_TREES = [path for path in SHIPPED_DORDLE if not path.name.endswith("-strategy.json")]


@pytest.mark.parametrize("path", SHIPPED_DORDLE_TREES, ids=lambda p: p.name)
def test_every_shipped_dordle_tree_replays_every_pair_from_any_folder(path, tmp_path, monkeypatch):
    """A shipped Dordle tree names its lists by file name; `dordle verify NAME` from another
    folder finds the tree and its lists, replays every ordered pair and finds the stated total."""
    import orjson

    from wordtree.commands import main

    doc = orjson.loads(path.read_bytes())
    monkeypatch.chdir(tmp_path)
    for name in (path.name, path.stem):
        assert main(["dordle", "verify", name]) == 0
    n = doc["game"]["answers_count"]
    assert doc["result"]["pairs"] == n * (n - 1)


def test_the_reduced_list_is_every_40th_original_answer():
    from wordtree.data import wordlists_dir

    full = (wordlists_dir() / "wordle-answers-2315.txt").read_text().split()
    assert (wordlists_dir() / "wordle-answers-every40-58.txt").read_text().split() == full[::40]


def test_verify_on_other_lists_or_another_game_is_one_line(tmp_path, capsys):
    from wordtree.commands import main

    shipped = SHIPPED_DORDLE_TREES[0]
    assert main(["dordle", "verify", str(shipped), "wordle"]) == 1
    assert "answers_sha256 differs" in capsys.readouterr().err
    doc = shipped.read_text().replace('"name":"wordle"', '"name":"mastermind"', 1)
    (tmp_path / "m.json").write_text(doc)
    assert main(["dordle", "verify", str(tmp_path / "m.json")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Wordle's words, not 'mastermind'" in err[0]


@pytest.mark.slow
@pytest.mark.parametrize("path", SHIPPED_DORDLE_TREES, ids=lambda p: p.name)
def test_a_shipped_dordle_tree_is_proven_optimal_again(path):
    """The exact search from the root, every opener tried, finds the shipped tree's total and
    opener (a minute or so each)."""
    import orjson

    from wordtree.dordle.tree import build_document
    from wordtree.wordle.patterns import pattern_matrix
    from wordtree.wordle.tree import game_for

    doc = orjson.loads(path.read_bytes())
    assert doc["result"]["optimal"] is True
    game = game_for(doc)
    again = build_document(DordleSearch(game, pattern_matrix(game).matrix, doc["max_guesses"]))
    assert (again["result"]["total"], again["result"]["first"]) == (doc["result"]["total"], doc["result"]["first"])
