"""Dordle lookups (dordle/player.py, `dordle next/play/grade`), the worst objective, and hostile
files and feedback: checked against the tree itself and the brute force of reference_dordle.py."""

import io
import random

import orjson
import pytest
from test_dordle import INF, instance

import reference_dordle as ref
from wordtree.dordle.player import DordlePosition, grade, position_after
from wordtree.dordle.search import DordleSearch
from wordtree.dordle.tree import build_document, smallest_cap_search
from wordtree.errors import UserError


def pattern(game, guess, answer, solved):
    return "=" * game.length if solved else game.pattern_text(game.feedback(guess, answer))


def step(game, guess, a, b, solved):
    return f"{guess}:{pattern(game, guess, a, solved[0])}/{pattern(game, guess, b, solved[1])}"


def feasible(seed):
    game, cap = instance(seed, max_answers=7, max_guesses=12)
    return (game, max(cap, 4)) if ref.dordle_total(game, max(cap, 4)) < INF else (None, None)


def replay_tree(game, matrix, cap, doc, a, b):
    """Play the pair (a, b) by the suggestions on the tree; every one must come from the tree."""
    position = DordlePosition(game, matrix, cap, doc)
    solved = [False, False]
    while not position.won:
        s = position.suggest()
        assert s.source == "tree"
        position.play(s.guess, step(game, s.guess, a, b, solved).split(":")[1])
        solved = [a == s.guess or solved[0], b == s.guess or solved[1]]
    return len(position.steps)


@pytest.mark.parametrize("seed", range(4))
def test_next_on_the_tree_is_the_trees_move(seed):
    from wordtree.dordle.tree import _replay
    from wordtree.exact.solver import Solver

    game, cap = feasible(seed)
    if game is None:
        return
    matrix = game._compute_matrix()
    doc = build_document(DordleSearch(game, matrix, cap))
    root = DordlePosition(game, matrix, cap, doc).suggest()
    assert root.guess == doc["tree"]["guess"] and root.exact
    assert root.expected == round(doc["result"]["total"] / doc["result"]["pairs"], 4)
    solver, win = Solver(game, matrix, cap), game.pattern_text(game.win_code)
    total = 0
    for a in game.answers:
        for b in game.answers:
            if a != b:  # the suggestions play each pair in as many guesses as the verify replay
                used = replay_tree(game, matrix, cap, doc, a, b)
                assert used == _replay(doc["tree"], a, b, game, solver, {}, win, cap)
                total += used
    assert total == doc["result"]["total"]


@pytest.mark.parametrize("seed", range(6))
def test_next_off_the_tree_is_the_brute_force_optimum(seed):
    game, cap = instance(seed, max_answers=7, max_guesses=12)
    cap = max(cap, 4)
    matrix = game._compute_matrix()
    rng = random.Random(seed)
    for _ in range(3):
        a, b = rng.sample(game.answers, 2)
        first = rng.choice(game.guesses)
        steps = [step(game, first, a, b, [False, False])]
        if b == first:  # board 2 solved: the next step shows its mark
            second = rng.choice(game.guesses)
            steps.append(step(game, second, a, b, [False, True]))
        position = position_after(game, matrix, cap, None, steps)
        if position.won:
            continue
        S1 = [] if position.solved_at[0] else position.words(0)
        S2 = [] if position.solved_at[1] else position.words(1)
        pairs = ([(None, y) for y in S2] if not S1 else [(x, None) for x in S1] if not S2
                 else ref.state_pairs(S1, S2))
        d = cap - len(steps)
        value = ref.position_value(game, game.guesses, pairs, d)
        if value == INF:
            with pytest.raises(UserError, match="no strategy"):
                position.suggest()
            continue
        s = position.suggest()
        assert s.source == "exact" and s.exact
        assert round(value / len(pairs), 4) == s.expected
        assert ref.guess_cost(game, game.guesses, pairs, s.guess, d) == value


@pytest.mark.parametrize("seed", range(8))
def test_worst_objective_matches_brute_force(seed):
    game, cap = instance(seed, max_answers=7, max_guesses=12)
    matrix = game._compute_matrix()
    worst, total = ref.worst_total(game, cap)
    search = smallest_cap_search(game, matrix, cap)
    if worst == INF:
        with pytest.raises(UserError, match="impossible"):
            build_document(search, None, "worst", cap)
        return
    doc = build_document(search, None, "worst", cap)
    assert (doc["max_guesses"], doc["result"]["total"]) == (worst, total)
    assert doc["result"]["objective"] == "worst" and doc["result"]["cap_asked"] == cap
    from wordtree.dordle.tree import verify_document

    report = verify_document(doc, game, matrix)
    assert report["worst"] == worst and report["total"] == total


def test_grade_values_each_move_against_the_brute_force():
    game, cap = instance(1, max_answers=7, max_guesses=12)
    cap = max(cap, 4)
    matrix = game._compute_matrix()
    a, b = game.answers[0], game.answers[-1]
    first, second = game.guesses[2], game.guesses[5]
    steps = [step(game, first, a, b, [False, False])]
    solved = [a == first, b == first]
    steps.append(step(game, second, a, b, solved))
    moves = grade(DordlePosition(game, matrix, cap), steps)
    pairs = ref.state_pairs(game.answers, game.answers)
    best = ref.position_value(game, game.guesses, pairs, cap)
    played = ref.guess_cost(game, game.guesses, pairs, first, cap)
    assert moves[0].expected == (None if played == INF else round(played / len(pairs), 4))
    assert moves[0].best_expected == round(best / len(pairs), 4)
    assert moves[0].loss is None or moves[0].loss >= 0


# --- the command line ---------------------------------------------------------------------------
@pytest.fixture
def lists(tmp_path):
    from wordtree.data import wordlists_dir

    answers = [w.strip() for w in open(wordlists_dir() / "wordle-answers-2315.txt")][::150]
    (tmp_path / "a.txt").write_text("\n".join(answers) + "\n")
    (tmp_path / "g.txt").write_text("\n".join(answers + ["salet", "crony"]) + "\n")
    return ["--answers", str(tmp_path / "a.txt"), "--guesses", str(tmp_path / "g.txt")]


@pytest.fixture
def tree(tmp_path, lists, capsys):
    from wordtree.commands import main

    out = tmp_path / "t.json"
    assert main(["dordle", "build", *lists, "--max-guesses", "6", "-o", str(out)]) == 0
    capsys.readouterr()
    return out


def run(argv, capsys, stdin=None, monkeypatch=None):
    from wordtree.commands import main

    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_next_and_play_follow_the_tree(tree, lists, capsys, monkeypatch):
    from wordtree.games import get_game

    doc = orjson.loads(tree.read_bytes())
    game = get_game("wordle", lists[1], lists[3])
    a, b = "cover", "purse"
    code, out, _ = run(["dordle", "next", str(tree), *lists, "--json"], capsys)
    assert code == 0 and orjson.loads(out)["guess"] == doc["tree"]["guess"]
    first = doc["tree"]["guess"]
    code, out, _ = run(["dordle", "next", str(tree), step(game, first, a, b, [False, False]), *lists], capsys)
    key = f"{pattern(game, first, a, False)}/{pattern(game, first, b, False)}"
    assert code == 0 and out.split()[0] == doc["tree"]["next"][key]["guess"]
    # play: the proposals typed back with the pair's colours, until solved
    solved, lines, guess = [False, False], [], first
    position_guesses = []
    for _ in range(6):
        position_guesses.append(guess)
        lines.append(step(game, guess, a, b, solved).split(":")[1])
        solved = [solved[0] or guess == a, solved[1] or guess == b]
        if all(solved):
            break
        code, out, _ = run(["dordle", "next", str(tree), *lists, "--json",
                            *[f"{g}:{p}" for g, p in zip(position_guesses, lines)]], capsys)
        guess = orjson.loads(out)["guess"]
    code, out, err = run(["dordle", "play", str(tree), *lists], capsys, "\n".join(lines) + "\n", monkeypatch)
    assert code == 0 and out.strip().endswith(f"solved in {len(lines)}"), out + err
    # a guess of one's own takes it off the tree; the engine goes on
    own = f"crony {pattern(game, 'crony', a, False)}/{pattern(game, 'crony', b, False)}"
    code, out, err = run(["dordle", "play", str(tree), *lists], capsys, own + "\n", monkeypatch)
    assert code == 0 and "guess 2: " in out and "(exact:" in out


def test_cli_play_draws_both_boards_as_tiles_on_a_terminal(tree, lists, capsys, monkeypatch):
    import sys

    from wordtree.games import get_game
    from wordtree.play import tile_row
    from wordtree.wordle.player import feedback_cells

    game = get_game("wordle", lists[1], lists[3])
    a, b = "cover", "purse"
    typed = f"cover GGGGG/{pattern(game, 'cover', b, False)}\npurse =====/GGGGG\n"
    monkeypatch.delenv("NO_COLOR", raising=False)
    code, plain, _ = run(["dordle", "play", str(tree), *lists], capsys, typed, monkeypatch)
    assert code == 0 and plain.strip().endswith("solved in 2") and "\x1b[" not in plain  # not a terminal
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    code, out, _ = run(["dordle", "play", str(tree), *lists], capsys, typed, monkeypatch)
    rows = [tile_row(feedback_cells("cover", "GGGGG") + [(" ", None)] +
                     feedback_cells("cover", pattern(game, "cover", b, False))),
            tile_row([("=", None)] * 5 + [(" ", None)] + feedback_cells("purse", "GGGGG"))]
    assert code == 0 and [line for line in out.splitlines() if "\x1b[" in line] == rows
    assert [line for line in out.splitlines() if "\x1b[" not in line] == plain.splitlines()
    monkeypatch.setenv("NO_COLOR", "1")
    assert run(["dordle", "play", str(tree), *lists], capsys, typed, monkeypatch)[1] == plain


def test_cli_grade_and_build_worst(tree, lists, capsys, tmp_path):
    code, out, _ = run(["dordle", "grade", str(tree), *lists, "crony:GGGGG/BBBBB"], capsys)
    assert code == 1  # crony is no answer: it solves no board
    from wordtree.games import get_game

    game = get_game("wordle", lists[1], lists[3])
    move = step(game, "crony", "cover", "purse", [False, False])
    code, out, _ = run(["dordle", "grade", str(tree), *lists, move], capsys)
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("dordle, at most ") and "values from" in lines[0]
    row = next(line for line in lines if line.startswith("1. "))
    assert row.startswith("1. crony ") and "best " in row and "loss " in row
    worst = tmp_path / "w.json"
    code, out, _ = run(["dordle", "build", *lists, "--objective", "worst", "-o", str(worst)], capsys)
    assert code == 0 and "least possible" in out
    assert run(["dordle", "verify", str(worst), *lists], capsys)[0] == 0


def test_build_help_shows_only_what_dordle_takes(capsys):
    from wordtree.commands import main

    with pytest.raises(SystemExit):
        main(["dordle", "build", "--help"])
    out = capsys.readouterr().out
    assert "--objective" in out
    for flag in ("--pegs", "--colours", "--digits", "--repeats"):
        assert flag not in out


@pytest.mark.parametrize("feedback", [
    "BBBBB",  # one board only
    "BBBBB/BBBBB/BBBBB",
    "=====/BBBBB",  # a mark on an open board
    "GGGGG/GGGGG",  # both boards by one guess
    "BBXBB/BBBBB",  # not a pattern
    "BBBB/BBBBB",
])
def test_malformed_feedback_is_one_line(tree, lists, capsys, feedback):
    code, out, err = run(["dordle", "next", str(tree), *lists, f"crony:{feedback}"], capsys)
    assert code == 1 and out == "" and err.count("\n") == 1 and "step" in err


def test_contradictory_steps_are_one_line(tree, lists, capsys):
    from wordtree.games import get_game

    game = get_game("wordle", lists[1], lists[3])
    a, b = "cover", "purse"
    win = step(game, "cover", a, b, [False, False])  # solves board 1
    cases = [
        [win, "crony:" + pattern(game, "crony", a, False) + "/" + pattern(game, "crony", b, False)],  # colours, solved
        [win, step(game, "purse", a, b, [True, False]), step(game, "crony", a, b, [True, True])],  # after the win
        [step(game, "crony", a, b, [False, False])] * 7,  # past the cap
        ["notaword:BBBBB/BBBBB"],
        ["crony"],
    ]
    for steps in cases:
        code, out, err = run(["dordle", "next", str(tree), *lists, *steps], capsys)
        assert code in (1, 2) and err.count("\n") == 1 and "Traceback" not in err, (steps, err)


@pytest.mark.parametrize("content", [
    b"", b"not json", b"[]", b'{"format": "wordtree/1"}',
    b'{"format": "wordtree-dordle/1", "game": {}, "max_guesses": 6, "result": {"total": 1}, "tree": {}}',
])
def test_hostile_tree_files_are_one_line(tmp_path, lists, capsys, content):
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    for argv in (["dordle", "next", str(bad), *lists], ["dordle", "verify", str(bad), *lists]):
        code, out, err = run(argv, capsys)
        assert code == 1 and err.count("\n") == 1 and "Traceback" not in err, (argv, err)


def test_malformed_nodes_and_non_regular_files(tree, tmp_path, lists, capsys):
    doc = orjson.loads(tree.read_bytes())
    key = next(iter(doc["tree"]["next"]))
    for broken in ([1, 2], {"guess": 5}, {"board": 3, "answers": [], "guesses_left": 1}):
        doc["tree"]["next"][key] = broken
        bad = tmp_path / "bad.json"
        bad.write_bytes(orjson.dumps(doc))
        for action in ("next", "verify"):
            code, _, err = run(["dordle", action, str(bad), *lists], capsys)
            assert code == 1 and err.count("\n") == 1 and "malformed" in err, err
    for path in (str(tmp_path), "/dev/null"):
        code, _, err = run(["dordle", "verify", path, *lists], capsys)
        assert code == 1 and "not a regular file" in err and err.count("\n") == 1


def test_tree_that_disagrees_with_the_feedback_gives_no_advice(tree, lists, capsys):
    doc = orjson.loads(tree.read_bytes())
    branches = doc["tree"]["next"]
    keys = [k for k in branches if "board" not in branches[k]]
    branches[keys[0]], branches[keys[1]] = branches[keys[1]], branches[keys[0]]
    tree.write_bytes(orjson.dumps(doc))
    code, _, err = run(["dordle", "next", str(tree), *lists], capsys)
    assert code == 1 and "tree" in err and err.count("\n") == 1


def test_time_limit_gives_a_labelled_bound(lists, capsys):
    code, out, err = run(["dordle", "next", *lists, "--seconds", "0.000001", "--json"], capsys)
    s = orjson.loads(out)
    assert code == 0 and s["source"] == "heuristic" and not s["expected_exact"] and "lower bound" in s["note"]
    code, out, _ = run(["dordle", "next", *lists, "--seconds", "none", "--json"], capsys)  # no limit: a busy
    exact = orjson.loads(out)  # machine must not turn the exact answer into a bound
    assert exact["source"] == "exact" and exact["expected_exact"] and exact["expected_guesses"] >= s["expected_guesses"]


# ------------------------------------------------------------------------------------------------
# grade on the shipped tree: the tree's values at any time limit, bounds labelled
# ------------------------------------------------------------------------------------------------
SHIPPED = "dordle-every40-saice"


def shipped_doc():
    from wordtree.data import trees_dir
    from wordtree.dordle.document import read_document

    return read_document(trees_dir() / "dordle" / f"{SHIPPED}.json")


@pytest.mark.parametrize("command", [["dordle", "grade"], ["grade"]])
def test_grade_on_the_shipped_tree_values_move_one_from_it(command, capsys):
    """Move 1 on the shipped tree is its opener, valued from the tree: its stored total over the
    pairs, exact at --seconds 0.01 (it was 'not graded: not solved within 10 s')."""
    doc = shipped_doc()
    first = doc["tree"]["guess"]
    code, out, _ = run([*command, SHIPPED, "--seconds", "0.01", "--json", f"{first}:BBBBB/BBBBB"], capsys)
    assert code == 0
    move = orjson.loads(out)[0]
    result = doc["result"]
    assert move["pairs"] == result["pairs"] == 3306 and move["guess"] == first == result["first"]
    assert move["expected"] == move["best_expected"] == round(result["total"] / result["pairs"], 4)
    assert (move["best"], move["loss"], move["source"], move["bound"], move["note"]) == (first, 0, "tree", False, None)


def test_grade_of_a_whole_game_on_the_tree_prints_each_move(capsys):
    """Every move of a game played by the tree is valued from it (nothing searched, no note on a
    time limit), one line each after the header, the total last."""
    from wordtree.games import get_game

    doc = shipped_doc()
    game = get_game("wordle", "wordle-answers-every40-58.txt", "wordle-allowed-12972.txt")
    a, b = "lowly", "nymph"
    node, solved, steps = doc["tree"], [False, False], []
    while "guess" in node:  # the two-board levels
        guess = node["guess"]
        steps.append(step(game, guess, a, b, solved))
        solved = [solved[0] or guess == a, solved[1] or guess == b]
        node = node["next"][steps[-1].split(":")[1]]
    remaining = b if solved[0] else a
    steps.append(step(game, remaining, a, b, solved))
    code, out, _ = run(["grade", SHIPPED, "--seconds", "0.01", *steps], capsys)
    lines = out.splitlines()
    assert code == 0 and lines[0] == f"dordle, at most 7 guesses, values from {SHIPPED} while on it"
    rows = lines[1:-1]
    assert [row.split()[:2] for row in rows] == [[f"{n}.", s.split(":")[0]] for n, s in enumerate(steps, 1)]
    assert all(row.endswith("loss 0  (from the tree)") for row in rows) and "searched" not in out
    assert lines[-1] == f"total loss 0 guesses over {len(steps)} graded move(s)"


def test_an_off_tree_move_out_of_time_is_a_labelled_bound(capsys):
    """CRANE is not the tree's opener: the best is the tree's (exact), CRANE's value is searched;
    at 0.01 s it is either settled or left as a proven lower bound, said so in the text and JSON."""
    doc = shipped_doc()
    best = round(doc["result"]["total"] / doc["result"]["pairs"], 4)
    code, out, _ = run(["dordle", "grade", SHIPPED, "--seconds", "0.01", "--json", "crane:BBBBB/BBBBB"], capsys)
    move = orjson.loads(out)[0]
    assert code == 0 and (move["best"], move["best_expected"], move["best_bound"]) == ("saice", best, False)
    assert move["source"] == "tree" and move["expected"] >= best
    if move["expected_bound"]:
        assert move["loss_bound"] == "lower" and "lower bound on the guess played" in move["note"]
    code, out, _ = run(["dordle", "grade", SHIPPED, "--seconds", "0.01", "crane:BBBBB/BBBBB"], capsys)
    assert "values not on the tree (move 1): searched by the exact engine up to 0.01 s a move" in out
    assert ("expected \u2265" in out) == move["expected_bound"]


def test_tree_values_says_where_a_dordle_tree_is_optimal():
    from wordtree.dordle.player import tree_values

    assert tree_values(None) is None
    assert tree_values({"result": {"optimal": True, "objective": "total"}}) == "all"
    assert tree_values({"result": {"optimal": True, "objective": "worst"}}) == "all"
    assert tree_values({"result": {"optimal": False, "objective": "total", "first": "x"}}) == "below root"
    assert tree_values({"result": {"optimal": False, "strategy": "heuristic"}}) is None  # a heuristic's tree


@pytest.mark.parametrize("seed", range(4))
def test_grade_on_a_tree_with_its_opener_given_against_the_brute_force(seed):
    """A tree built with a poor opener given: move 1's played total is the tree's (exact), its
    best is searched (the brute force's optimum); move 2, below the root, is the tree's."""
    game, cap = feasible(seed)
    if game is None:
        return
    matrix = game._compute_matrix()
    pairs = ref.state_pairs(game.answers, game.answers)
    best = ref.position_value(game, game.guesses, pairs, cap)
    costs = {g: ref.guess_cost(game, game.guesses, pairs, g, cap) for g in game.guesses}
    worse = [g for g in game.guesses if best < costs[g] < INF]
    if not worse:
        return
    first = worse[0]
    doc = build_document(DordleSearch(game, matrix, cap), first=game.guess_index[first])
    assert doc["result"]["optimal"] is False and doc["result"]["total"] == costs[first]
    others = [x for x in game.answers if x != first]
    a, b = others[0], others[-1]
    steps = [step(game, first, a, b, [False, False])]
    node = doc["tree"]["next"][steps[0].split(":")[1]]  # neither board solved: a two-board node
    steps.append(step(game, node["guess"], a, b, [False, False]))
    moves = grade(DordlePosition(game, matrix, cap, doc, seconds=None), steps)
    one, two = moves
    assert (one.expected, one.expected_exact) == (round(costs[first] / len(pairs), 4), True)
    assert (one.best_expected, one.best_exact, one.source) == (round(best / len(pairs), 4), True, "engine")
    assert one.loss > 0 and one.best != first
    assert (two.source, two.best, two.loss, two.bound) == ("tree", node["guess"], 0, False)


# --- a strategy file (wordtree-dordle-strategy/1): its stored top, then its rule, state by state ---

def strategy_files(seed, exact_below):
    """A small game's heuristic strategy as a strategy file (with its stored top) and as the full
    tree strategy_document makes of it; (None, ...) where it fails a pair (no brute force here:
    these games are too large for it, and the file's figures are the walk's, not the optimum)."""
    from wordtree.dordle.heuristic import HeuristicStrategy, evaluate_opener, strategy_document, strategy_file

    game, cap = instance(seed, max_answers=16, max_guesses=24)  # (large enough for the rule below the top)
    cap = max(cap, 5)
    matrix = game._compute_matrix()
    strategy = HeuristicStrategy(DordleSearch(game, matrix, cap), shortlist=3, tries=16, exact_below=exact_below,
                                 exact_nodes=200)
    first = random.Random(seed).randrange(len(game.guesses))
    result = evaluate_opener(strategy, first)
    if result["failed"]:
        return None, None, None, None
    return game, matrix, strategy_file(strategy, first, result), strategy_document(strategy, first)


@pytest.mark.parametrize("exact_below", [0, 30])
@pytest.mark.parametrize("seed", range(6))
def test_lookups_on_a_strategy_file_are_its_trees(seed, exact_below):
    """Along every pair, each suggestion on the strategy file (the stored top at the first two
    steps, the rule computed for the state below) is the strategy's own tree's: the same expected
    guesses left at every position, the same guess at every two-board one (below a branch the
    exact search plays, any optimal guess: the values agree), and the pair finishes within the cap."""
    from wordtree.dordle.document import check_strategy

    game, matrix, doc, tree = strategy_files(seed, exact_below)
    if game is None:
        return
    check_strategy(doc)
    assert doc["top"]["guess"] == doc["first"] and doc["top"]["next"]
    for a in game.answers:
        for b in game.answers:
            if a == b:
                continue
            on_file, on_tree = DordlePosition(game, matrix, doc["max_guesses"], doc), \
                DordlePosition(game, matrix, tree["max_guesses"], tree)
            solved = [False, False]
            exact_branch = False
            while not on_file.won:
                s, t = on_file.suggest(), on_tree.suggest()
                assert (s.expected, s.pairs, s.exact) == (t.expected, t.pairs, True), (a, b, on_file.steps)
                if not any(solved) and not exact_branch:
                    assert s.guess == t.guess and s.source == "strategy", (a, b, on_file.steps)
                feedback = step(game, s.guess, a, b, solved).split(":")[1]
                on_file.play(s.guess, feedback)
                if s.guess == t.guess:
                    on_tree.play(t.guess, feedback)
                else:  # (an equally good exact guess: the tree's values no longer apply)
                    on_tree = DordlePosition(game, matrix, tree["max_guesses"], None)
                    for played in on_file.steps:
                        on_tree.play(*played)
                if len(on_file.steps) == 1:
                    exact_branch = bool(on_file.branch and on_file.branch.get("exact"))
                solved = [a == s.guess or solved[0], b == s.guess or solved[1]]
            assert len(on_file.steps) <= doc["max_guesses"]


def test_off_the_strategy_the_engine_answers():
    """A guess other than the strategy's leaves it: the exact engine answers from there, as with no
    file; the stored top's expected guesses are the file's figures."""
    for seed in range(6):
        game, matrix, doc, _ = strategy_files(seed, 0)
        if game is not None:
            break
    position = DordlePosition(game, matrix, doc["max_guesses"], doc)
    root = position.suggest()
    assert (root.guess, root.source) == (doc["first"], "strategy")
    assert root.expected == round(doc["result"]["total"] / doc["result"]["pairs"], 4)
    other = next(g for g in game.guesses if g != doc["first"])
    a, b = game.answers[0], game.answers[1]
    position.play(other, step(game, other, a, b, [False, False]).split(":")[1])
    assert not position.on_rule and position.suggest().source in ("exact", "solved")
