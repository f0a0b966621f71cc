"""`grade`: each move's exact expected guesses, the best guess's and the loss, against brute
force on small games (tests/reference.py) and against the shipped trees and the engine's build on
the real game; the JSON, hard mode, Mastermind, and one-line errors."""

import math
import random
from functools import lru_cache

import orjson
import pytest

import reference
from reference_trees import assert_one_line_error, run_cli
from wordtree.data import trees_dir
from wordtree.errors import UserError
from wordtree.games import get_game
from wordtree.games.mastermind import Mastermind
from wordtree.games.wordle import Wordle
from wordtree.wordle.grade import grade, grade_lines
from wordtree.wordle.tree import read_tree
from wordtree.words import WordList, canonical_sha256

SALET_TREE = trees_dir() / "wordle-salet-normal.json"
HARD_TREE = trees_dir() / "wordle-salet-hard.json"


def word_list(name, words):
    return WordList(name, name, tuple(words), canonical_sha256(words))


def small_wordle(seed, n_answers=14, n_guesses=30):
    answers_all = (trees_dir().parent / "wordlists" / "wordle-answers-2315.txt").read_text().split()
    guesses_all = (trees_dir().parent / "wordlists" / "wordle-allowed-12972.txt").read_text().split()
    rng = random.Random(seed)
    answers = sorted(rng.sample(answers_all, n_answers))
    guesses = sorted(set(rng.sample(guesses_all, n_guesses)) | set(answers))
    return Wordle("wordle", word_list("answers", answers), word_list("guesses", guesses))


def cluster_game():
    """The _ight family, where hard mode forbids the splitting guesses (hard and normal values differ)."""
    answers = sorted(["fight", "light", "might", "night", "right", "sight", "tight", "bight", "wight", "eight", "hight"])
    guesses = sorted(set(answers) | {"north", "films", "twerp", "brawl", "mowed", "fiery", "lymph", "swung"})
    return Wordle("wordle", word_list("answers", answers), word_list("guesses", guesses))


def classes(game, S, guess):
    out = {}
    for a in S:
        out.setdefault(game.feedback(guess, a), []).append(a)
    return out


def brute(game, mode="normal"):
    """Exhaustive values by the plain recursion of tests/reference.py, from any history: V(S, d,
    history) and the total of a guess there. Hard and ultra modes filter the guesses by the
    literal rules of reference.py."""
    guesses = list(game.guesses)

    def allowed(g, history):
        if mode == "hard":
            return reference.hard_mode_allows(g, history)
        if mode == "ultra":
            return reference.ultra_mode_allows(g, history)
        return True

    @lru_cache(maxsize=None)
    def value(S, d, history):
        if d == 0:
            return math.inf
        best = math.inf
        for g in guesses:
            if allowed(g, history):
                best = min(best, played(S, d, history, g))
        return best

    def played(S, d, history, g):
        cost = len(S)
        for code, part in classes(game, S, g).items():
            if code != game.win_code:
                after = tuple(sorted(set(history) | {(g, game.pattern_text(code))})) if mode != "normal" else ()
                cost += value(frozenset(part), d - 1, after)
        return cost

    return value, played


def replay_steps(game, answer, guesses):
    return [(g, game.pattern_text(game.feedback(g, answer))) for g in guesses]


def check_against_brute_force(game, steps, cap, mode="normal", **options):
    """grade's totals for each move equal the exhaustive ones; returns the grade."""
    value, played = brute(game, mode)
    result = grade(game, steps, mode=mode, max_guesses=cap, **options)
    S, history = frozenset(game.answers), ()
    for i, ((guess, pattern), move) in enumerate(zip(steps, result.moves)):
        d = cap - i
        assert move.candidates == len(S)
        assert (move.total, move.best_total) == (played(S, d, history, guess), value(S, d, history)), i
        assert not move.bound
        if math.isinf(move.best_total):  # no tree finishes within the cap from here
            assert move.best is None and math.isnan(move.loss)
        else:
            assert move.loss == (move.total - move.best_total) / len(S)
            assert played(S, d, history, move.best) == move.best_total
        S = frozenset(a for a in S if game.pattern_text(game.feedback(guess, a)) == pattern)
        if mode != "normal":
            history = tuple(sorted(set(history) | {(guess, pattern)}))
    return result


# ------------------------------------------------------------------------------------------------
# (1) the loss of a first move other than the best, exact
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2])
def test_a_worse_opener_loses_exactly_what_brute_force_says(seed):
    game, cap = small_wordle(seed), 4
    value, played = brute(game)
    S = frozenset(game.answers)
    best = value(S, cap, ())
    worse = next(g for g in sorted(game.guesses) if best < played(S, cap, (), g) < math.inf)
    answer = game.answers[seed]
    steps = replay_steps(game, answer, [worse])
    first = check_against_brute_force(game, steps, cap).moves[0]
    assert first.loss > 0 and first.guess == worse and first.best != worse
    # the whole game: each later move graded from where it stands, the last one (all green) too
    left = [a for a in game.answers if game.pattern_text(game.feedback(worse, a)) == steps[0][1]]
    guesses = [worse] + [a for a in left if a != answer][:1] + [answer]
    result = check_against_brute_force(game, replay_steps(game, answer, guesses), cap)
    assert result.won and result.moves[-1].pattern == "GGGGG"


def test_the_time_limited_search_gives_the_same_exact_values():
    """With a time limit the values are searched in a child process under growing budgets."""
    game, cap = small_wordle(3), 4
    value, played = brute(game)
    S = frozenset(game.answers)
    worse = next(g for g in sorted(game.guesses) if value(S, cap, ()) < played(S, cap, (), g) < math.inf)
    check_against_brute_force(game, replay_steps(game, game.answers[0], [worse]), cap, seconds=60)


def test_a_spent_time_limit_leaves_proven_bounds():
    game, cap = small_wordle(4), 4
    value, played = brute(game)
    S = frozenset(game.answers)
    worse = next(g for g in sorted(game.guesses) if value(S, cap, ()) < played(S, cap, (), g) < math.inf)
    exact = (played(S, cap, (), worse), value(S, cap, ()))
    result = grade(game, replay_steps(game, game.answers[0], [worse]), max_guesses=cap, seconds=1e-9)
    move = result.moves[0]
    # the child is killed at once: the class bounds, unless it was quicker still
    assert move.total <= exact[0] and move.best_total <= exact[1] and move.best_total <= move.total
    assert move.bound or (move.total, move.best_total) == exact
    assert result.as_json()["moves"][0]["bound"] == move.bound


@pytest.fixture(scope="module")
def wordle():
    return get_game("wordle"), read_tree(SALET_TREE)


def test_salet_loses_nothing_and_crane_costs_its_build_total(wordle):
    from wordtree.exact.build import build
    from wordtree.wordle.patterns import pattern_matrix

    game, doc = wordle
    salet = grade(game, replay_steps(game, "cigar", ["salet"]), tree=doc).moves[0]
    assert (salet.loss, salet.total, salet.best, salet.source, salet.bound) == (0, 7920, "salet", "tree", False)
    crane = grade(game, replay_steps(game, "cigar", ["crane"]), tree=doc).moves[0]
    # the engine's build of the best tree opening with crane (about 10 s on the real lists)
    built = build(game, pattern_matrix(game).matrix, first="crane", max_guesses=6, progress=False, threads=1).total
    assert crane.total == built and crane.expected == built / 2315
    assert (crane.best, crane.best_total, crane.loss) == ("salet", 7920, (built - 7920) / 2315)
    assert not crane.bound


# ------------------------------------------------------------------------------------------------
# (2) JSON
# ------------------------------------------------------------------------------------------------
def test_json_fields_on_the_tree():
    steps = ["salet:BYBBB", "brond:BYBBB", "cigar:GGGGG"]  # salet and brond are the tree's; then a lucky guess
    result = run_cli("grade", "--json", *steps)
    assert result.returncode == 0, result.stderr
    doc = orjson.loads(result.stdout)
    moves = doc["moves"]
    assert [m["guess"] for m in moves] == ["salet", "brond", "cigar"]
    for m in moves:
        assert {"guess", "best", "expected", "best_expected", "loss", "bound", "pattern", "candidates",
                "total", "best_total", "source"} <= set(m)
        assert m["loss"] == round((m["total"] - m["best_total"]) / m["candidates"], 4)
        assert m["expected"] == round(m["total"] / m["candidates"], 4) and m["source"] == "tree"
        assert m["bound"] is False
    assert moves[0]["candidates"] == 2315 and moves[0]["best_expected"] == 3.4212 and moves[0]["loss"] == 0
    assert moves[2]["best"] == "chair" and moves[2]["loss"] > 0
    total = doc["total"]
    assert total["solved"] is True and total["moves"] == 3
    assert total["loss"] == moves[2]["loss"] and total["best_expected"] == 3.4212
    assert total["expected"] == round(2 + moves[2]["total"] / moves[2]["candidates"], 4)
    text = run_cli("grade", *steps)
    assert text.returncode == 0 and "total loss" in text.stdout and "chair" in text.stdout


# ------------------------------------------------------------------------------------------------
# (3) off the tree: the engine
# ------------------------------------------------------------------------------------------------
def test_off_the_tree_the_engine_grades_against_brute_force(wordle):
    game, doc = wordle
    steps = replay_steps(game, "horny", ["crane", "burnt", "horny"])
    result = grade(game, steps, tree=doc)
    second = result.moves[1]
    assert [m.source for m in result.moves][:2] == ["tree", "engine"]
    assert second.candidates == 4  # burnt, horny, rhino, round
    S = [a for a in game.answers if game.pattern_text(game.feedback("crane", a)) == steps[0][1]]
    parts = [p for code, p in classes(game, S, "burnt").items() if code != game.win_code]
    assert second.best_total == reference.optimal_total(game, S, 5) == 7
    assert second.total == len(S) + sum(reference.optimal_total(game, p, 4) for p in parts)
    assert result.won and result.moves[2].loss == 0


# ------------------------------------------------------------------------------------------------
# (4) hard mode
# ------------------------------------------------------------------------------------------------
def test_hard_mode_against_brute_force():
    game, cap = cluster_game(), 6
    steps = replay_steps(game, "sight", ["brawl", "films", "sight"])
    result = check_against_brute_force(game, steps, cap, "hard")
    normal = grade(game, steps, max_guesses=cap)
    assert [m.best_total for m in result.moves] != [m.best_total for m in normal.moves]  # the rule matters here
    # fight keeps IGHT green with seven _IGHT words left and three guesses after it: no tree
    # finishes them all within the cap, an infinite total, not a bound
    lost = check_against_brute_force(game, replay_steps(game, "sight", ["brawl", "fight", "sight"]), cap, "hard")
    second, third = lost.as_json()["moves"][1:]
    assert (second["expected"], second["loss"], second["bound"]) == (None, None, False)
    assert second["best_expected"] is not None
    assert (third["expected"], third["best_expected"], third["best"], third["loss"]) == (None, None, None, None)
    assert "\u221e" in "\n".join(grade_lines(lost))


def test_ultra_mode_against_brute_force():
    game, cap = small_wordle(6), 4
    answer = game.answers[5]
    first = next(g for g in game.guesses if g not in game.answers)
    left = [a for a in game.answers if game.feedback(first, a) == game.feedback(first, answer)]
    guesses = [first] + [a for a in left if a != answer][:1] + [answer]  # candidates: always legal
    check_against_brute_force(game, replay_steps(game, answer, guesses), cap, "ultra")


def test_hard_mode_refuses_a_guess_breaking_the_rule():
    game = cluster_game()
    steps = replay_steps(game, "sight", ["light", "north"])  # north drops the green IGHT
    with pytest.raises(UserError, match=r"move 2 \(north:.*hard-mode rule"):
        grade(game, steps, mode="hard", max_guesses=6)


def test_hard_mode_tree_on_the_command_line():
    """The shipped hard-mode tree is optimal given its opener: SALET's total is the tree's own
    (exact however little time the search of a best opener gets), the best opener only bounded."""
    result = run_cli("grade", "--json", "--seconds", "0.001", HARD_TREE, "salet:BBBBB")
    assert result.returncode == 0, result.stderr
    doc = orjson.loads(result.stdout)
    move = doc["moves"][0]
    assert doc["mode"] == "hard" and move["total"] == 8122 and not move["expected_bound"]
    # SALET is proven the best opener in normal mode only: in hard mode the best first move is
    # bounded, not known, so the loss is only an upper bound
    assert move["bound"] and move["best_bound"] and move["best_total"] <= 8122
    assert doc["total"]["loss_bound"] == "upper" and move["loss"] >= 0
    bad = run_cli("grade", HARD_TREE, "salet:GBBBB", "crane:BBBBB")
    assert_one_line_error(bad, "move 2", "hard-mode")
    assert bad.returncode == 1


def test_a_given_opener_is_valued_from_its_tree_not_searched():
    """At the root of a tree built with its opener given, the opener's total is the tree's sum
    over every answer, exact with no time at all for the search; another opener there is
    searched, and with no time gets only a proven lower bound."""
    doc = read_tree(HARD_TREE)
    assert doc["stats"]["first_guess"] == "given"
    game = get_game("wordle")
    on = grade(game, [("salet", "BBBBB")], mode="hard", tree=doc, seconds=1e-9).moves[0]
    assert (on.total, on.total_exact, on.candidates) == (doc["stats"]["total"], True, 2315)
    assert on.source == "engine" and not on.best_exact and on.best_total <= on.total
    off = grade(game, [("crane", "BBBBB")], mode="hard", tree=doc, seconds=1e-9).moves[0]
    assert not off.total_exact and off.source == "engine"


# ------------------------------------------------------------------------------------------------
# (5) Mastermind
# ------------------------------------------------------------------------------------------------
def test_mastermind_small_against_brute_force():
    game = Mastermind(3, 4)
    value, played = brute(game)
    steps = replay_steps(game, "314", ["123", "224", "314"])
    result = grade(game, steps, max_guesses=6)
    S = frozenset(game.answers)
    parts = [frozenset(p) for code, p in classes(game, S, "123").items() if code != game.win_code]
    assert result.moves[0].total == len(S) + sum(value(p, 5, ()) for p in parts)
    import numpy as np

    from wordtree.exact.solver import Solver

    plain = Solver(game, game._compute_matrix(), 6)  # the plain search, without the orbits
    assert result.moves[0].best_total == plain.solve(np.arange(64, dtype=np.int32), 6)[0]
    S2 = frozenset(a for a in S if game.pattern_text(game.feedback("123", a)) == steps[0][1])
    second = result.moves[1]
    assert (second.total, second.best_total) == (played(S2, 5, (), "224"), value(S2, 5, ()))
    assert result.won and not any(m.bound for m in result.moves)


def test_mastermind_on_the_command_line():
    game = Mastermind(3, 4)
    steps = [f"{g}:{p}" for g, p in replay_steps(game, "314", ["123", "224"])]
    result = run_cli("grade", "--game", "mastermind", "--pegs", "3", "--colours", "4", "--json", *steps)
    assert result.returncode == 0, result.stderr
    doc = orjson.loads(result.stdout)
    assert doc["game"] == "mastermind" and doc["max_guesses"] == 6 and doc["tree"] is None
    assert [m["source"] for m in doc["moves"]] == ["engine", "engine"]
    shipped = run_cli("grade", "--game", "mastermind", "--json", "1123:1B1W")
    assert orjson.loads(shipped.stdout)["moves"][0]["loss"] == 0  # the shipped tree's opener


# ------------------------------------------------------------------------------------------------
# (6) bad input
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("args, code, needles", [
    (["cigar:GGGGG", "crane:BBBBB"], 1, ["move 2", "already solved"]),
    (["salet:BBBBB", "salet:GGGGG"], 1, ["move 2", "cannot occur"]),
    (["salet:BBBBB", "zzzzz:BBBBB"], 1, ["move 2", "'zzzzz' is not an allowed guess"]),
    (["salet:BBBB"], 1, ["move 1", "bad pattern"]),
    (["salet:BBBBB", "crane-BBBBB"], 2, ["bad move", "GUESS:PATTERN"]),
    (["salet:"], 2, ["bad move"]),
    ([], 1, ["no moves"]),
])
def test_bad_input_is_one_line(args, code, needles):
    result = run_cli("grade", SALET_TREE, *args)
    assert_one_line_error(result, *needles)
    assert result.returncode == code and result.stdout == ""


def test_an_impossible_pattern_is_found_before_any_search():
    result = run_cli("grade", "--game", "mastermind", "--pegs", "3", "--colours", "4", "123:1B1W", "123:3B0W")
    assert_one_line_error(result, "move 2", "cannot occur")


@pytest.mark.parametrize("text", ["0", "-1", "nan", "inf", "abc", ""])
def test_a_time_limit_is_finite_and_above_zero(text):
    import argparse

    from wordtree.commands.common import seconds_or_none

    with pytest.raises(argparse.ArgumentTypeError):
        seconds_or_none(text)
    assert seconds_or_none("none") is None and seconds_or_none("2.5") == 2.5


# ------------------------------------------------------------------------------------------------
# (7) a line per move as it is graded; the tree's values whatever the time allowed
# ------------------------------------------------------------------------------------------------
def test_each_move_is_printed_as_it_is_graded_also_when_piped():
    """Four moves with no tree values (the tree's cap is 6, these moves 7): every move is searched
    for a second. XYLYL:BBBBB leaves hundreds of answers, whose best guess no search settles in a
    second, so the process is still running after the first lines (the header before any search,
    move 1's row before move 2's search): each line is written, and flushed into the pipe, when
    its move is graded, not at the end."""
    import subprocess
    import sys

    from reference_trees import ROOT

    game = get_game("wordle")
    steps = [f"{g}:{p}" for g, p in replay_steps(game, "cigar", ["xylyl", "fuzzy", "pinto", "cigar"])]
    process = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "grade", "--max-guesses", "7",
                                "--seconds", "1", *steps], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True, cwd=ROOT)
    try:
        header = process.stdout.readline()
        assert header.startswith("wordle, normal mode, at most 7 guesses") and process.poll() is None
        lines = [process.stdout.readline() for _ in range(2)]  # the note on the search, the table's head
        assert "searched by the exact engine up to 1 s a move" in lines[0] and lines[1].startswith("move")
        first = process.stdout.readline()
        assert first.split()[:3] == ["1", "xylyl", "BBBBB"] and process.poll() is None
        rows = [process.stdout.readline().split() for _ in range(3)]
        assert [row[:2] for row in rows] == [["2", "fuzzy"], ["3", "pinto"], ["4", "cigar"]]
        rest = process.stdout.read()
        assert rest.startswith("total loss") and process.wait(timeout=120) == 0
    finally:
        process.kill()
        process.wait()


def tree_guesses(game, node, answer) -> int:
    """The guesses the tree's subtree at `node` takes to find `answer`, walked here."""
    count = 0
    while True:
        count += 1
        pattern = game.pattern_text(game.feedback(node["guess"], answer))
        if pattern == "GGGGG":
            return count
        node = node["next"][pattern]


def test_every_move_on_the_hard_tree_is_valued_from_it_at_any_time_limit():
    """At --seconds 0.01, SALET's total on the hard-mode tree is the tree's 8122 over 2315 (only
    the best opener, which no tree values in hard mode, is searched and bounded), and every later
    move on the tree is valued from it, exactly: its total and its best guess's, the subtree's."""
    doc = read_tree(HARD_TREE)
    game = get_game("wordle")
    steps, node = [], doc["root"]
    while True:  # the tree's own moves for CIGAR
        pattern = game.pattern_text(game.feedback(node["guess"], "cigar"))
        steps.append(f"{node['guess']}:{pattern}")
        if pattern == "GGGGG":
            break
        node = node["next"][pattern]
    assert len(steps) >= 3
    result = run_cli("grade", "--json", "--seconds", "0.01", HARD_TREE, *steps)
    assert result.returncode == 0, result.stderr
    out = orjson.loads(result.stdout)
    moves = out["moves"]
    assert (moves[0]["total"], moves[0]["candidates"], moves[0]["expected_bound"]) == (8122, 2315, False)
    assert out["searched"] == [1] and out["seconds"] == 0.01 and out["total"]["expected_bound"] is False
    node, left = doc["root"], list(game.answers)
    for move in moves:
        total = sum(tree_guesses(game, node, a) for a in left)
        assert (move["total"], move["candidates"]) == (total, len(left))
        if move["move"] > 1:
            assert (move["best_total"], move["source"], move["bound"], move["best"]) == \
                (total, "tree", False, move["guess"])
        left = [a for a in left if game.pattern_text(game.feedback(move["guess"], a)) == move["pattern"]]
        node = node.get("next", {}).get(move["pattern"])


def test_a_game_on_the_tree_starts_no_search():
    """On the normal tree every move is the tree's: nothing is searched (no engine, no bar, no
    note on a time limit), whatever --seconds says."""
    game, doc = get_game("wordle"), read_tree(SALET_TREE)
    steps = []
    node = doc["root"]
    while True:
        pattern = game.pattern_text(game.feedback(node["guess"], "chair"))
        steps.append(f"{node['guess']}:{pattern}")
        if pattern == "GGGGG":
            break
        node = node["next"][pattern]
    result = run_cli("grade", "--seconds", "0.01", *steps)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "searched" not in result.stdout and "\u2265" not in result.stdout and result.stderr == ""
    assert lines[0].endswith("values from wordle-salet-normal.json while on it") and lines[1].startswith("move")
    assert [line.split()[1] for line in lines[2:2 + len(steps)]] == [s.split(":")[0] for s in steps]
    from wordtree.wordle.grade import prepare

    grading = prepare(game, [tuple(s.split(":")) for s in steps], tree=doc, seconds=0.01)
    assert grading.searched == [] and grading.run().moves[-1].loss == 0 and grading.engine is None


def test_the_time_limit_is_stated_and_in_the_json():
    result = run_cli("grade", "--json", "salet:BYBBB", "crane:GYYBB", "--seconds", "5")
    assert result.returncode == 0, result.stderr
    out = orjson.loads(result.stdout)
    assert (out["seconds"], out["searched"]) == (5, [2])
    text = run_cli("grade", "salet:BYBBB", "crane:GYYBB")
    assert "values not on the tree (move 2): searched by the exact engine up to 60 s a move" in text.stdout
