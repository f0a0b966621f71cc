"""Lookups on a Dordle tree that stores its remainders' solutions (a "total" and a single-board
"tree" on each remainder of two answers or more): `next`, `candidates`, `play` and `grade` on
the shipped tree import no numba (run in a fresh process with empty caches), and give what the
engine gives on the same tree without those fields; the builder writes the engine's own trees;
`dordle verify` replays them and checks their totals against the single-board optimum; a file
without them is still read, and a file whose stored solution is wrong is refused."""

import copy
import os
import subprocess
import sys

import numpy as np
import orjson
from test_dordle_player import lists, pattern, run, step, tree  # noqa: F401 (fixtures)

from wordtree.data import trees_dir

SHIPPED = "dordle-every40-saice"
PATH = trees_dir() / "dordle" / f"{SHIPPED}.json"


def remainders(node):
    """Every remainder node of a Dordle tree."""
    stack, out = [node], []
    while stack:
        node = stack.pop()
        if "board" in node:
            out.append(node)
        else:
            stack.extend(node.get("next", {}).values())
    return out


def stripped(doc):
    """The document as an older build wrote it: remainders without "total" and "tree"."""
    doc = copy.deepcopy(doc)
    for node in remainders(doc["tree"]):
        node.pop("total", None)
        node.pop("tree", None)
    return doc


def shipped():
    from wordtree.games import get_game

    doc = orjson.loads(PATH.read_bytes())  # a missing shipped tree fails here
    return doc, get_game("wordle", doc["game"]["answers"], doc["game"]["guesses"])


def pair_steps(doc, game, a, b):
    """The steps the tree plays for the pair (a, b): its two-board levels, then the remainder's
    tree until both are solved."""
    node, solved, steps = doc["tree"], [False, False], []
    while "board" not in node:
        guess = node["guess"]
        steps.append(step(game, guess, a, b, solved))
        solved = [solved[0] or guess == a, solved[1] or guess == b]
        node = node["next"][steps[-1].split(":")[1]]
    single = node.get("tree", {"guess": node["answers"][0]})
    while True:
        guess = single["guess"]
        steps.append(step(game, guess, a, b, solved))
        if guess == (b if solved[0] else a):
            return steps
        single = single["next"][pattern(game, guess, b if solved[0] else a, False)]


def positions(doc, game):
    """Positions chosen from the tree: the root, one step in, the deepest two-board node, a
    board just solved (the remainder of the most answers), and one step into its tree."""
    deepest = widest = None
    for a in game.answers:
        for b in game.answers:
            if a == b:
                continue
            steps = pair_steps(doc, game, a, b)
            node, k = doc["tree"], 0
            while "board" not in node:
                node, k = node["next"][steps[k].split(":")[1]], k + 1
            if deepest is None or k - 1 > deepest[0]:
                deepest = (k - 1, steps[:k - 1])
            if len(steps) > k + 1 and (widest is None or len(node["answers"]) > widest[0]):  # (not won at once)
                widest = (len(node["answers"]), steps[:k], steps[:k + 1], steps)
    assert deepest[0] >= 2 and widest[0] >= 3
    first = doc["tree"]["guess"]
    one = next(key for key, child in doc["tree"]["next"].items() if "board" not in child and len(child["next"]) > 1)
    return {"root": [], "one step": [f"{first}:{one}"], "deep": deepest[1], "board solved": widest[1],
            "in the remainder": widest[2]}, widest[3], deepest[1]


LOOKUP_SCRIPT = r"""
import contextlib, io, sys
import orjson
from wordtree.commands import main
out = []
for argv, stdin in orjson.loads(sys.argv[1]):
    sys.stdin = io.StringIO(stdin or "")
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(argv)
    out.append([code, buf.getvalue()])
print(orjson.dumps({"out": out, "numba": sorted(m for m in sys.modules if m.split(".")[0] == "numba")}).decode())
"""


def commands(tree_arg, places, game_steps, deep):
    calls = [(["next", tree_arg, *steps, "--json"], None) for steps in places.values()]
    calls += [(["candidates", tree_arg, *places[name], "--json"], None) for name in ("deep", "board solved")]
    calls += [(["grade", tree_arg, *game_steps, "--json"], None), (["grade", tree_arg, *deep, "--json"], None)]
    calls.append((["play", tree_arg], "\n".join(s.split(":")[1] for s in game_steps) + "\n"))
    return calls


def test_shipped_tree_stores_every_remainder():
    doc, _ = shipped()
    nodes = remainders(doc["tree"])
    assert nodes and all(("tree" in r and "total" in r) == (len(r["answers"]) > 1) for r in nodes)
    assert doc["result"]["total"] == 10890 and doc["result"]["optimal"] is True


def test_lookups_on_the_shipped_tree_import_no_numba_and_match_the_engine(tmp_path, capsys, monkeypatch):
    """In a fresh process with empty numba and pattern caches, every lookup of several positions
    on the shipped tree runs without importing numba; the same lookups on the tree with its
    remainders' solutions stripped (the engine solves them, in this process) print the same."""
    import io

    from wordtree.commands import main

    doc, game = shipped()
    places, game_steps, deep = positions(doc, game)
    calls = commands(SHIPPED, places, game_steps, deep)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"), "WORDTREE_CACHE_DIR": str(tmp_path / "patterns")}
    res = subprocess.run([sys.executable, "-c", LOOKUP_SCRIPT, orjson.dumps(calls).decode()], capture_output=True,
                         text=True, env=env, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    fresh = orjson.loads(res.stdout.splitlines()[-1])
    assert fresh["numba"] == [] and not (tmp_path / "numba").exists()
    assert all(code == 0 for code, _ in fresh["out"]), fresh["out"]
    nexts = [orjson.loads(text) for _, text in fresh["out"][:len(places)]]
    assert [s["source"] for s in nexts] == ["tree"] * len(places) and nexts[0]["guess"] == doc["tree"]["guess"]
    assert nexts[0]["expected_guesses"] == round(10890 / 3306, 4)
    assert nexts[3]["candidates"][0] == 0 or nexts[3]["candidates"][1] == 0  # a board solved
    # the engine's answers: the same tree without the stored solutions, solved here
    old = tmp_path / "old.json"
    old.write_bytes(orjson.dumps(stripped(doc)))
    assert not any("tree" in r for r in remainders(orjson.loads(old.read_bytes())["tree"]))
    for (argv, stdin), (code, text) in zip(commands(str(old), places, game_steps, deep), fresh["out"]):
        if stdin is not None:
            monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        assert main(argv) == 0
        assert capsys.readouterr().out == text, argv


def test_a_position_on_the_tree_builds_no_engine():
    """DordlePosition makes its engines (and reads the pattern matrix) only off the tree."""
    from wordtree.dordle.player import DordlePosition, grade, parse_step

    doc, game = shipped()
    places, game_steps, _ = positions(doc, game)
    for steps in places.values():
        position = DordlePosition(game, None, doc["max_guesses"], doc)
        for text in steps:
            position.play(*parse_step(text))
        assert position.suggest().source == "tree"
        assert (position._search, position._remainder_solver, position.matrix) == (None, None, None)
    position = DordlePosition(game, None, doc["max_guesses"], doc)
    moves = grade(position, game_steps)
    assert all(m.source == "tree" and m.loss == 0 for m in moves) and position._search is None
    off = DordlePosition(game, None, doc["max_guesses"], doc, seconds=None)
    off.play("crane", "/".join(pattern(game, "crane", w, False) for w in ("lowly", "nymph")))
    assert off.suggest().source == "exact" and off._search is not None and off.matrix is not None


def test_constants_and_names_kept():
    from wordtree.dordle import kernels, player

    assert player.DINF == kernels.DINF
    assert issubclass(player.TimedSearch, __import__("wordtree.dordle.search").dordle.search.DordleSearch)
    assert player.NoStrategyLeft(2).exit_code == 3


# --- the builder and verify, on a small tree -----------------------------------------------------
def built(tree, lists):
    from wordtree.games import get_game

    return orjson.loads(tree.read_bytes()), get_game("wordle", lists[1], lists[3])


def test_the_builder_stores_the_engines_remainder_trees(tree, lists):  # noqa: F811
    from wordtree.dordle.search import DordleSearch
    from wordtree.exact.solver import Solver

    doc, game = built(tree, lists)
    matrix = game._compute_matrix()
    solver, search = Solver(game, matrix, doc["max_guesses"]), DordleSearch(game, matrix, doc["max_guesses"])
    nodes = [r for r in remainders(doc["tree"]) if len(r["answers"]) > 1]
    assert nodes
    for r in nodes:
        S = np.array(sorted(game.answer_index[w] for w in r["answers"]), np.int32)
        assert r["tree"] == solver.tree(S, r["guesses_left"])
        assert r["total"] == search.v1(S, r["guesses_left"])


def two_answer_remainder(doc, game):
    """A remainder of two answers with two guesses or more left, and a guess that tells them apart
    and is neither (a worse tree: 2 + 2 guesses, where guessing one of them first takes 1 + 2)."""
    for r in remainders(doc["tree"]):
        if len(r["answers"]) == 2 and r["guesses_left"] >= 2:
            x, y = r["answers"]
            for g in game.guesses:
                if g not in (x, y) and game.feedback(g, x) != game.feedback(g, y):
                    return r, g
    raise AssertionError("no two-answer remainder")


def test_verify_checks_the_stored_remainders(tree, lists, capsys, tmp_path):  # noqa: F811
    doc, game = built(tree, lists)
    code, out, _ = run(["dordle", "verify", str(tree), *lists], capsys)
    assert code == 0 and out.startswith("ok:")

    def verify(change):
        bad = copy.deepcopy(doc)
        r, g = two_answer_remainder(bad, game)
        change(r, g)
        path = tmp_path / "bad.json"
        path.write_bytes(orjson.dumps(bad))
        return run(["dordle", "verify", str(path), *lists], capsys), run(["dordle", "next", str(path), *lists], capsys)

    def worse(r, g):
        x, y = r["answers"]
        r["tree"] = {"guess": g, "next": {pattern(game, g, x, False): {"guess": x},
                                          pattern(game, g, y, False): {"guess": y}}}
        r["total"] = 4

    (code, out, err), (ncode, nout, _) = verify(worse)
    assert code == 1 and "its tree totals 4, the single-board optimum is 3" in err and len(err.splitlines()) == 1
    assert ncode == 0  # consistent with the feedback: a lookup follows it (verify is what checks the optimum)

    def wrong_total(r, g):
        r["total"] += 1

    (code, _, err), (ncode, _, nerr) = verify(wrong_total)
    assert code == 1 and "says its total is 4, its tree plays 3" in err
    assert ncode == 1 and "says its total is 4, its tree plays 3" in nerr and len(nerr.splitlines()) == 1

    def unsolved(r, g):
        r["tree"], r["total"] = {"guess": r["answers"][0]}, 1

    (code, _, err), (ncode, _, nerr) = verify(unsolved)
    assert code == 1 and "its tree has no branch" in err and ncode == 1 and "its tree has no branch" in nerr

    for change, message in ((lambda r, g: r.pop("total"), "needs a whole 'total'"),
                            (lambda r, g: r.update(tree=[1]), "must be an object"),
                            (lambda r, g: r.update(tree={"guess": 5}), "a node's 'guess'"),
                            (lambda r, g: r.update(tree={"guess": g, "next": {"x": {"guess": g, "next": {
                                "y": {"guess": g, "next": {"z": {"guess": g}}}}}}}, guesses_left=2), "deeper")):
        (code, _, err), (ncode, _, nerr) = verify(change)
        assert code == 1 and message in err and ncode == 1 and message in nerr, (err, nerr)


def test_a_file_without_stored_remainders_is_still_read(tree, lists, capsys, tmp_path):  # noqa: F811
    doc, game = built(tree, lists)
    old = tmp_path / "old.json"
    old.write_bytes(orjson.dumps(stripped(doc)))
    code, out, _ = run(["dordle", "verify", str(old), *lists], capsys)
    assert code == 0 and out.startswith("ok:")
    a, b = game.answers[:2]
    steps = pair_steps(doc, game, a, b)
    for n in range(len(steps)):
        new = run(["dordle", "next", str(tree), *lists, *steps[:n], "--json"], capsys)[:2]
        assert new == run(["dordle", "next", str(old), *lists, *steps[:n], "--json"], capsys)[:2] and new[0] == 0


def test_a_heuristic_strategys_tree_stores_its_remainders_too():
    """heuristic --tree writes the same remainder solutions: a lookup on it makes no engine, and
    verify's replay (which checks each stored tree against the single-board optimum) passes."""
    from test_dordle import instance

    from wordtree.dordle.heuristic import HeuristicStrategy, evaluate_opener, strategy_document
    from wordtree.dordle.kernels import DINF
    from wordtree.dordle.player import DordlePosition
    from wordtree.dordle.search import DordleSearch
    from wordtree.dordle.tree import verify_document

    checked = 0
    for seed in range(6):
        game, _ = instance(seed, max_answers=9, max_guesses=14)
        search = DordleSearch(game, game._compute_matrix(), 6)
        optimum, first = search.solve_game()
        strategy = HeuristicStrategy(search, shortlist=2, tries=16)
        if optimum >= DINF or evaluate_opener(strategy, first)["failed"]:
            continue
        doc = strategy_document(strategy, first)
        nodes = remainders(doc["tree"])
        assert all(("tree" in r) == (len(r["answers"]) > 1) for r in nodes)
        checked += any(len(r["answers"]) > 1 for r in nodes)
        assert verify_document(doc, game, search.matrix)["total"] == doc["result"]["total"]
        position = DordlePosition(game, None, doc["max_guesses"], doc)
        assert position.suggest().source == "tree" and position._search is None
    assert checked
