"""Dordle on lists too large to solve: the heuristic strategy (evaluated exactly, replayed from its
tree) and the lower bounds of lower.py, each checked against the brute force of
reference_dordle.py on random small games: every bound at or below the exact value, every
strategy total at or above it."""

import random

import pytest

import reference_dordle as ref
from test_dordle import INF, exact, instance
from wordtree.dordle.heuristic import HeuristicStrategy, evaluate_opener, strategy_document
from wordtree.dordle.lower import opener_bound, root_bounds
from wordtree.dordle.search import DordleSearch
from wordtree.dordle.tree import verify_document


def setup(seed, **kw):
    game, cap = instance(seed, max_answers=7, max_guesses=12)
    return game, cap, DordleSearch(game, game._compute_matrix(), cap, **kw)


@pytest.mark.parametrize("seed", range(10))
def test_bounds_below_the_exact_values(seed):
    game, cap, search = setup(seed)
    optimum = ref.dordle_total(game, cap)
    lbs = root_bounds(search)
    assert exact(int(lbs.min())) <= optimum
    for first in random.Random(seed).sample(range(len(game.guesses)), 4):
        value = ref.first_guess_total(game, cap, game.guesses[first])
        assert exact(int(lbs[first])) <= value
        assert exact(opener_bound(search, first)) <= value, (seed, game.guesses[first])


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("small", [0, 1 << 30])
def test_heuristic_total_is_a_strategy_total(seed, small):
    """The walk's total is what the strategy's tree replays to, at or above the optimum with that
    opener; its depth-2 bound is lower.opener_bound's."""
    game, cap, search = setup(seed)
    strategy = HeuristicStrategy(search, shortlist=3, small=small)
    for first in random.Random(seed).sample(range(len(game.guesses)), 3):
        value = ref.first_guess_total(game, cap, game.guesses[first])
        result = evaluate_opener(strategy, first)
        assert result["lower_bound"] == opener_bound(search, first)
        if result["failed"]:
            continue
        assert result["total"] >= value
        doc = strategy_document(strategy, first)
        assert doc["result"]["strategy"] == "heuristic" and not doc["result"]["optimal"]
        assert verify_document(doc, game, search.matrix)["total"] == result["total"]


def test_heuristic_reaches_the_optimum_somewhere():
    """Not a proof of anything, only that the rule is not blind: on these small games it plays the
    optimal total from the optimal opener more often than not."""
    hits = 0
    for seed in range(8):
        game, cap, search = setup(seed)
        value, first = search.solve_game()
        if value >= INF or exact(value) == INF:
            continue
        hits += evaluate_opener(HeuristicStrategy(search), first)["total"] == value
    assert hits >= 4


def test_cli_bound_and_heuristic(tmp_path, capsys):
    from wordtree.commands import main
    from wordtree.data import wordlists_dir

    answers = [w.strip() for w in open(wordlists_dir() / "wordle-answers-2315.txt")][::150]
    (tmp_path / "a.txt").write_text("\n".join(answers) + "\n")
    (tmp_path / "g.txt").write_text("\n".join(answers + ["salet", "crony"]) + "\n")
    lists = ["--answers", str(tmp_path / "a.txt"), "--guesses", str(tmp_path / "g.txt")]
    assert main(["dordle", "bound", *lists, "--first", "salet"]) == 0
    out = capsys.readouterr().out
    assert "proven lower bound (depth 1" in out and "salet: proven lower bound (depth 2)" in out
    ck, tree = tmp_path / "h.ck", tmp_path / "h.json"
    assert main(["dordle", "heuristic", *lists, "--checkpoint", str(ck), "-o", str(tree)]) == 0
    assert "heuristic strategy (not proven optimal)" in capsys.readouterr().out and ck.exists()
    assert main(["dordle", "heuristic", *lists, "--checkpoint", str(ck), "--resume"]) == 0
    assert main(["dordle", "verify", str(tree), *lists]) == 0
