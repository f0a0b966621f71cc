"""Ultra mode in Mastermind and Bulls and Cows: every guess consistent with all the feedback so
far, which for these games means a candidate left. The engine's exact values and trees against
a plain brute force, ultra against normal, the trees against the verifier (and a tampered one),
the orbit search and each pruning rule against the plain search, and the command line."""

import copy

import numpy as np
import orjson
import pytest

import reference_codebreakers as rc
from reference_trees import assert_one_line_error, run_cli
from wordtree.errors import UserError
from wordtree.exact import kernels
from wordtree.exact.build import exact_tree
from wordtree.exact.solver import INF, Solver, best_guess
from wordtree.games.bulls_cows import BullsCows
from wordtree.games.mastermind import Mastermind
from wordtree.wordle.tree import make_document
from wordtree.wordle.verify import load_lists, verify

# the literal brute force (the rule checked against the history) is fast enough on these
LITERAL_GAMES = [Mastermind(3, 3), Mastermind(2, 4), Mastermind(2, 5), Mastermind(4, 2)]
# ultra costs more than normal here (a total, or the feasibility within a cap)
HARDER_GAMES = [Mastermind(2, 6), Mastermind(4, 3), BullsCows(2),
                pytest.param(BullsCows(2, repeats=True), marks=pytest.mark.slow)]
CAPS = (None, 4, 3)


def name(game) -> str:
    return game.list_name.replace(" codes", "")


def all_codes(game) -> np.ndarray:
    return np.arange(len(game.answers), dtype=np.int32)


def engine_value(game, cap, mode="ultra", rules=kernels.ALL_RULES) -> float:
    solver = Solver(game, game._compute_matrix(), cap, rules=rules, mode=mode)
    value, _ = solver.solve(all_codes(game), solver.cap)
    return float("inf") if value >= INF else value


def reference_value(game, cap, literal=False) -> float:
    return rc.ultra_optimal_total(list(game.codes), cap or 12, literal=literal)


@pytest.mark.parametrize("game", LITERAL_GAMES, ids=name)
def test_the_quick_reference_is_the_literal_rule(game):
    """Guessing among the candidates left is the ultra rule itself (a guess consistent with every
    score so far is a code that could still be the answer): the two brute forces agree."""
    for cap in CAPS:
        assert reference_value(game, cap) == reference_value(game, cap, literal=True), cap


@pytest.mark.parametrize("game", LITERAL_GAMES + HARDER_GAMES, ids=name)
def test_ultra_build_is_the_brute_force_optimum_and_obeys_the_rule(game):
    matrix = game._compute_matrix()
    for cap in CAPS:
        expected = reference_value(game, cap)
        assert engine_value(game, cap) == expected, cap
        assert engine_value(game, cap, "normal") <= expected, cap
        if expected == float("inf"):
            continue
        result = exact_tree(game, matrix, None, cap, mode="ultra", progress=False, threads=2)
        assert result.total == expected, cap
        doc = make_document(game, result.root, mode="ultra", max_guesses=cap, seconds=result.seconds)
        report = verify(doc, *load_lists(doc))
        assert report.ok and report.total == expected, report.defect
        assert_consistent(game, result.root, [])


def assert_consistent(game, node, history) -> None:
    """Every guess of the tree, were it the answer, would have got every score above it."""
    guess = node["guess"]
    assert all(rc.score(earlier, guess) == got for earlier, got in history), (guess, history)
    for text, child in node.get("next", {}).items():
        assert_consistent(game, child, history + [(guess, score_of(game, text))])


def score_of(game, text: str) -> tuple[int, int]:
    return divmod(game.parse_pattern(text), game.positions + 1)


def test_ultra_costs_more_than_normal_where_the_rule_binds():
    """The games above where the rule changes the optimum: a larger total, or no tree at all
    within a cap that normal mode meets."""
    games = [Mastermind(2, 6), Mastermind(4, 3), BullsCows(2)]
    totals = {name(g): (engine_value(g, None, "normal"), engine_value(g, None)) for g in games}
    assert totals == {"mastermind-2x6": (132, 134), "mastermind-4x3": (246, 247), "bulls-cows-2": (451, 483)}
    game = Mastermind(2, 5)
    assert engine_value(game, 4, "normal") == 81 and engine_value(game, 4) == float("inf")


@pytest.mark.parametrize("game", [Mastermind(3, 3), Mastermind(4, 3), BullsCows(2)], ids=name)
def test_no_pruning_rule_changes_an_ultra_value(game):
    values = {rules: engine_value(game, cap, rules=rules)
              for rules in (kernels.ALL_RULES, kernels.USE_BOUNDS | kernels.USE_MEMO, kernels.USE_SHORTCUTS, 0,
                            kernels.ALL_RULES & ~kernels.USE_FILTER, kernels.ALL_RULES & ~kernels.USE_DEEPER)
              for cap in (5,)}
    assert len(set(values.values())) == 1, values


@pytest.mark.parametrize("game", [Mastermind(3, 4), Mastermind(4, 3), BullsCows(2), BullsCows(2, repeats=True)],
                         ids=name)
def test_the_orbit_search_gives_the_plain_ultra_values(game):
    """One guess per orbit of the maps fixing the history, among the candidates (symmetric.py,
    uses_symmetry): the value of every opener, two levels deep, is the plain kernel's."""
    matrix = game._compute_matrix()
    solver = Solver(game, matrix, None, mode="ultra")
    plain = Solver(game, matrix, None, mode="ultra")
    assert solver.symmetric
    S, d = all_codes(game), solver.cap
    for g in range(0, len(S), max(1, len(S) // 7)):
        assert solver.evaluate_symmetric(S, g, d, [g], levels=2) == plain.evaluate(S, g, d), game.codes[g]
    assert solver.solve_symmetric(S, d, [], levels=2)[0] == plain.solve(S, d)[0]


def test_tampered_tree_with_an_inconsistent_guess_is_rejected():
    game = Mastermind(3, 3)
    result = exact_tree(game, game._compute_matrix(), None, None, mode="ultra", progress=False, threads=1)
    doc = make_document(game, result.root, mode="ultra", max_guesses=None, seconds=result.seconds)
    assert verify(doc, *load_lists(doc)).ok
    bad = copy.deepcopy(doc)
    text, child = next((t, c) for t, c in bad["root"]["next"].items() if "next" in c)
    history = [(bad["root"]["guess"], score_of(game, text))]
    child["guess"] = next(c for c in game.codes if rc.score(history[0][0], c) != history[0][1])
    report = verify(bad, *load_lists(bad))
    assert not report.ok and "ultra mode" in report.defect and "contradicts" in report.defect
    # the normal-mode optimum of a game where the rule binds is no ultra tree
    game = Mastermind(4, 3)
    normal = exact_tree(game, game._compute_matrix(), None, None, progress=False, threads=1)
    doc = make_document(game, normal.root, mode="ultra", max_guesses=None, seconds=normal.seconds)
    report = verify(doc, *load_lists(doc))
    assert not report.ok and "ultra mode" in report.defect


def test_legal_and_best_guess_follow_the_history():
    game = Mastermind(3, 4)
    matrix = game._compute_matrix()
    solver = Solver(game, matrix, 6, mode="ultra")
    req = solver.empty_constraint()
    assert all(solver.legal(req, g) for g in range(len(game.guesses)))
    history = [("112", game.feedback("112", "314")), ("134", game.feedback("134", "314"))]
    for word, code in history:
        req = solver.constrain(req, game.guess_index[word], code)
    S = [a for a, code in enumerate(game.codes) if all(game.feedback(w, code) == c for w, c in history)]
    legal = [g for g in range(len(game.guesses)) if solver.legal(req, g)]
    assert legal == S and len(S) > 1
    with pytest.raises(UserError, match="ultra-mode rule"):
        solver.evaluate(np.array(S, dtype=np.int32), game.guess_index["112"], 4, req=req)
    # the live answer needs no history: the candidates are the legal guesses
    word, total = best_guess(game, S, 4, "ultra", matrix)
    assert game.guess_index[word] in S
    # the value of the position, by brute force on the candidates
    assert total == rc.ultra_optimal_total([game.codes[a] for a in S], 4, literal=False)


def test_recorded_openers_are_proven_per_mode():
    """Mastermind 4x6's 1123 is proven in normal mode only: in ultra mode a build ranks the
    openers. Bulls and Cows with distinct digits is one orbit, so any opener is a best one."""
    assert Mastermind(4, 6).proven_first("normal") == "1123"
    assert Mastermind(4, 6).proven_first("ultra") is None
    assert BullsCows(4).proven_first("ultra") == "0123"
    assert BullsCows(4, repeats=True).proven_first("ultra") is None


def test_cli_builds_verifies_and_grades_in_ultra_mode(tmp_path):
    out = tmp_path / "mm.json"
    built = run_cli("build", "mastermind", "--pegs", "4", "--colours", "3", "--mode", "ultra", "--quiet", "-o", out)
    assert built.returncode == 0, built.stderr
    assert "total 247 " in built.stdout and "optimal (exhaustive search)" in built.stdout
    doc = orjson.loads(out.read_bytes())
    assert doc["game"]["mode"] == "ultra" and doc["stats"]["total"] == 247 and "first_guess" not in doc["stats"]
    checked = run_cli("verify", out)
    assert checked.returncode == 0 and "ultra mode" in checked.stdout, checked.stderr
    ranked = run_cli("rank", "bulls-cows", "--digits", "2", "--mode", "ultra", "--quiet", "--max-guesses", "none")
    assert ranked.returncode == 0, ranked.stderr
    assert "\t483\texact" in ranked.stdout and "one per symmetry class" in ranked.stdout
    first = doc["root"]["guess"]
    reply = next(iter(doc["root"]["next"]))
    graded = run_cli("grade", out, f"{first}:{reply}", "--json")
    assert graded.returncode == 0, graded.stderr
    assert orjson.loads(graded.stdout)["moves"][0]["loss"] == 0
    # a guess that contradicts the feedback breaks the rule
    bad = next(c for c in Mastermind(4, 3).codes if Mastermind(4, 3).pattern_text(
        Mastermind(4, 3).feedback(first, c)) != reply)
    refused = run_cli("grade", "--game", "mastermind", "--pegs", "4", "--colours", "3", "--mode", "ultra",
                      f"{first}:{reply}", f"{bad}:0B0W")
    assert_one_line_error(refused, "ultra-mode rule")
    hard = run_cli("build", "mastermind", "--pegs", "2", "--colours", "3", "--mode", "hard", "--quiet")
    assert_one_line_error(hard, "hard mode is a Wordle rule")
