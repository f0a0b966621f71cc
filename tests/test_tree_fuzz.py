"""A typed fuzz of tree files: every field of a small valid tree of each family (the tree's nodes
sampled) replaced by a value of each other type, and every command that reads a tree run on it
in-process. Nothing but the CLI's own exit may come out: exit 0 where the change is harmless,
else 1 or 2 with one line on stderr, never a traceback."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
import sys
from pathlib import Path

import pytest

from reference_trees import greedy_tree, write_lists

ROOT = Path(__file__).resolve().parent.parent
HUGE = 10 ** 30
VALUES = {"list": [1, "a"], "dict": {"x": 1}, "string": "zz", "number": 7, "null": None, "huge": HUGE,
          "negative": -3, "bool": True}
# what a Wordle-family verify does not replay: the lists' names (the lists are given), a larger cap,
# the build's time, engine and proof, and the optimality claim (verify says it is not re-proved)
WORDLE_FREE = {("game", "answers"), ("game", "guesses"), ("game", "max_guesses"), ("stats", "engine"),
               ("stats", "optimal"), ("stats", "proof"), ("stats", "seconds")}
# what a Hangman verify does not replay: the build's engine, time, search and proof, the sources,
# the objective and strategy texts, and the optimality claim (verify says it is not re-proved)
HANGMAN_FREE = {("engine",), ("objective",), ("strategy",), ("sources",), ("sources", 0), ("result", "seconds"),
                ("result", "search"), ("result", "search", "nodes"), ("result", "search", "max_nodes"),
                ("result", "search", "memo_entries"), ("result", "optimal"), ("result", "proof"),
                ("game", "lost_at_wrong_guess"), ("game", "name"), ("game", "words")}
# what a Dordle verify does not replay: the lists' names (the lists are given), the search's
# figures and time
DORDLE_FREE = {("game", "answers"), ("game", "guesses"), *(("result", key) for key in (
    "seconds", "nodes", "evaluations", "memo_hits", "memo_entries", "single_board_sets"))}
NODE_SAMPLES = 4  # the tree's nodes fuzzed beyond the root and its first branch


def field_paths(doc, tree_key: str, seed: int = 0, alike=()) -> list[tuple]:
    """Every field path of `doc` outside its tree, and of the tree: the root node's, one branch's,
    and NODE_SAMPLES nodes deeper down drawn at random (a fixed seed). Of an object in `alike`
    (whose entries have one shape: Hangman's baselines), only the first entry's."""
    paths: list[tuple] = []

    def walk(value, path, deep: bool):
        if path:
            paths.append(path)
        if isinstance(value, dict) and not (deep and path.count("next") > 2):
            items = list(value.items())
            if (deep and path and path[-1] == "next" or path in alike) and len(items) > 1:
                items = items[:1]
            for key, child in items:
                walk(child, path + (key,), deep)
        elif isinstance(value, list):
            for i, child in enumerate(value[:2]):
                walk(child, path + (i,), deep)

    for key, value in doc.items():
        if key != tree_key:
            walk(value, (key,), False)
    paths.append((tree_key,))
    tree = doc[tree_key]
    # the root, one branch down to a leaf
    walk(tree, (tree_key,), True)
    nodes: list[tuple] = []

    def collect(value, path):
        if isinstance(value, dict):
            nodes.append(path)
            for key, child in (value.get("next") or {}).items() if isinstance(value.get("next"), dict) else ():
                collect(child, path + ("next", key))

    collect(tree, (tree_key,))
    rng = random.Random(seed)
    for path in rng.sample(nodes, min(NODE_SAMPLES, len(nodes))):
        node = tree
        for key in path[1:]:
            node = node[key]
        paths.append(path)
        paths += [path + (key,) for key in node]
    return sorted(set(paths), key=lambda p: [str(k) for k in p])


def value_at(doc, path):
    for key in path:
        doc = doc[key]
    return doc


def mutated(doc, path, value):
    out = copy.deepcopy(doc)
    node = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = copy.deepcopy(value)
    return out


def run(argv, stdin: str = "") -> tuple[int, str, str]:
    """The CLI's main on argv, in-process: (exit status, stdout, stderr). Any exception but the
    CLI's own SystemExit escapes (the test fails with it)."""
    from wordtree.commands import main

    out, err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8"), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main([str(a) for a in argv])
            except SystemExit as exc:  # argparse's usage errors
                code = exc.code
    finally:
        sys.stdin = old_stdin
    out.flush()
    return code, out.buffer.getvalue().decode("utf-8", "replace"), err.getvalue()


def fuzz(doc, tree_key: str, commands, tmp_path, free=(), alike=()) -> list[str]:
    """Run every command on every mutation of `doc`; the failures found, as lines. A verify may
    pass a mutated tree only where the field changed is one of `free` (nothing it states of the
    tree: a label, the time the build took) or the value is the one the field held."""

    def check_ok(argv, path, label):
        if "verify" not in argv[:2] or path in free or VALUES[label] == value_at(doc, path):
            return None
        return "verify passed a tree whose field changed"

    failures = []
    paths = field_paths(doc, tree_key, alike=alike)
    assert len(paths) > 10
    for n, path in enumerate(paths):
        for label, value in VALUES.items():
            tree = tmp_path / f"t{n}-{label}.json"
            tree.write_text(json.dumps(mutated(doc, path, value)))
            for argv in commands(tree, tmp_path / f"web{n}-{label}"):
                where = f"{'.'.join(map(str, path))}={label}: {' '.join(map(str, argv[:1]))}"
                try:
                    code, out, err = run(argv)
                except Exception as exc:  # noqa: BLE001 - what the test is for
                    failures.append(f"{where}: {type(exc).__name__}: {exc}"[:300])
                    continue
                lines = [line for line in err.splitlines() if line.strip() and not line.startswith("notice: ")]
                if code == 0:
                    problem = check_ok(argv, path, label)
                    if problem:
                        failures.append(f"{where}: exit 0 but {problem}")
                elif code in (1, 2):
                    errors = [line for line in lines if line.startswith("wordtree: error: ")]
                    if len(errors) != 1 or lines[-1] != errors[0] or "Traceback" in err:
                        failures.append(f"{where}: exit {code} with {len(lines)} lines: {err[:200]!r}")
                else:
                    failures.append(f"{where}: exit {code!r}: {err[:200]!r}")
            tree.unlink()
    seen, distinct = set(), []
    for line in failures:  # one line for each field and problem (its first command, its first value)
        field, _, rest = line.partition("=")
        problem = rest.split(": ", 2)[-1]
        if (field, problem) not in seen:
            seen.add((field, problem))
            distinct.append(line)
    return distinct


# ------------------------------------------------------------------------------------------------
# the Wordle family: a greedy tree of 14 answers on small lists
# ------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def wordle_tree(tmp_path_factory):
    from wordtree.games import get_game
    from wordtree.wordle.tree import make_document

    folder = tmp_path_factory.mktemp("wordle-fuzz")
    answers, guesses = write_lists(folder, 14, 30, seed=5)
    game = get_game("wordle", str(answers), str(guesses))
    root = greedy_tree(game.answers, game.guesses)
    doc = make_document(game, root, optimal=False, proof="greedy")
    return doc, answers, guesses


def test_wordle_tree_fields_of_every_type(wordle_tree, tmp_path):
    doc, answers, guesses = wordle_tree
    lists = ["--answers", answers, "--guesses", guesses]
    root = doc["root"]
    step = f"{root['guess']}:{next(iter(root['next']))}"
    answer = doc["root"]["guess"]

    def commands(tree, web):
        return [["verify", tree, *lists], ["verify", tree], ["stats", tree], ["stats", tree, "--json"],
                ["next", tree, *lists], ["next", tree, step, *lists], ["candidates", tree, step, *lists],
                ["play", tree, "--answer", answer, *lists], ["export", tree, "--format", "selby", *lists],
                ["grade", tree, step, "--seconds", "1", *lists], ["web", tree, "-o", web, *lists]]

    # the unmutated tree passes every command
    tree = tmp_path / "valid.json"
    tree.write_text(json.dumps(doc))
    for argv in commands(tree, tmp_path / "web-valid"):
        code, _, err = run(argv)
        assert code == (1 if argv == ["verify", tree] else 0), (argv, err)
    failures = fuzz(doc, "root", commands, tmp_path, WORDLE_FREE)
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures[:80])


# ------------------------------------------------------------------------------------------------
# Hangman: an exact tree of 32 three-letter words with 2 lives (lost leaves too)
# ------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def hangman_tree(tmp_path_factory):
    from wordtree.data import wordlists_dir

    folder = tmp_path_factory.mktemp("hangman-fuzz")
    three = [w.strip() for w in open(wordlists_dir() / "enable1.txt") if len(w.strip()) == 3]
    words = folder / "words.txt"
    words.write_text("\n".join(three[::30][:32]) + "\n")
    out = folder / "t.json"
    code, _, err = run(["build", "hangman", "--length", "3", "--lives", "2", "--words", words, "-o", out, "--quiet"])
    assert code == 0, err
    doc = json.loads(out.read_text())
    assert '"lost"' in out.read_text() and doc["baselines"]
    return doc, words, three[::30][0]


def test_hangman_tree_fields_of_every_type(hangman_tree, tmp_path):
    doc, words, word = hangman_tree
    lists = ["--answers", words]

    def commands(tree, web):
        return [["verify", tree, *lists], ["verify", tree], ["stats", tree], ["stats", tree, "--json"],
                ["next", tree, "___", *lists], ["next", tree, "a__", "--missed", "e", *lists],
                ["candidates", tree, "___", *lists], ["play", tree, "--answer", word, *lists]]

    tree = tmp_path / "valid.json"
    tree.write_text(json.dumps(doc))
    for argv in commands(tree, None):
        code, _, err = run(argv)
        assert code == (1 if argv == ["verify", tree] else 0), (argv, err)  # (its list is not a shipped one)
    failures = fuzz(doc, "tree", commands, tmp_path, HANGMAN_FREE, alike={("baselines",)})
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures[:80])


# ------------------------------------------------------------------------------------------------
# Dordle: a tree built on 8 answers
# ------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def dordle_tree(tmp_path_factory):
    from wordtree.data import wordlists_dir

    folder = tmp_path_factory.mktemp("dordle-fuzz")
    answers = [w.strip() for w in open(wordlists_dir() / "wordle-answers-2315.txt")][::330]
    (folder / "a.txt").write_text("\n".join(answers) + "\n")
    (folder / "g.txt").write_text("\n".join(answers + ["salet", "crony"]) + "\n")
    lists = ["--answers", folder / "a.txt", "--guesses", folder / "g.txt"]
    out = folder / "t.json"
    code, _, err = run(["dordle", "build", *lists, "--max-guesses", "6", "-o", out])
    assert code == 0, err
    return json.loads(out.read_text()), lists


def test_dordle_tree_fields_of_every_type(dordle_tree, tmp_path):
    doc, lists = dordle_tree
    first = doc["tree"]["guess"]
    step = f"{first}:{next(iter(doc['tree']['next']))}"

    def commands(tree, web):
        return [["verify", tree, *lists], ["dordle", "verify", tree, *lists], ["stats", tree],
                ["stats", tree, "--json"], ["next", tree, *lists], ["next", tree, step, *lists],
                ["candidates", tree, step, *lists], ["grade", tree, step, "--seconds", "1", *lists],
                ["play", tree, *lists]]

    tree = tmp_path / "valid.json"
    tree.write_text(json.dumps(doc))
    for argv in commands(tree, None):
        code, _, err = run(argv)
        assert code == 0, (argv, err)
    failures = fuzz(doc, "tree", commands, tmp_path, DORDLE_FREE)
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures[:80])


@pytest.mark.parametrize(("path", "value", "needle"), [
    (("result", "pairs"), 3, "result.pairs is 3"),
    (("result", "mean"), 1.5, "result.mean is 1.5"),
    (("game", "answers_count"), 99, "game.answers_count is 99"),
    (("game", "guesses_count"), 5, "game.guesses_count is 5"),
    (("result", "first"), "crony", "result.first is 'crony'"),
    (("solved_mark", ), "#####", "solved_mark is '#####'"),
    (("result", "total"), 1, "the replay totals"),
])
def test_dordle_verify_checks_every_claim_it_repeats(dordle_tree, tmp_path, path, value, needle):
    doc, lists = dordle_tree
    tree = tmp_path / "t.json"
    tree.write_text(json.dumps(mutated(doc, path, value)))
    for command in (["verify"], ["dordle", "verify"]):
        code, _, err = run([*command, tree, *lists])
        lines = err.strip().splitlines()
        assert code == 1 and len(lines) == 1 and needle in lines[0], err


def test_dordle_verify_says_what_proves_an_optimality_claim(dordle_tree, tmp_path):
    """An exact build's claim: claimed, by the search it records; a heuristic strategy's tree
    relabelled optimal, or a claim with no search recorded: unproven; no claim: not claimed."""
    doc, lists = dordle_tree
    tree = tmp_path / "t.json"
    heuristic = mutated(mutated(doc, ("result", "strategy"), "heuristic"), ("result", "optimal"), True)
    bare = {**doc, "result": {k: v for k, v in doc["result"].items() if k not in ("nodes", "evaluations")}}
    for variant, line, claim in [
        (doc, "optimal: claimed by the exhaustive search the file records, not re-proved", "claimed"),
        (heuristic, "optimal: claimed, but unproven: the tree is labelled a heuristic strategy's", "unproven"),
        (bare, "optimal: claimed, but unproven: the file records no exhaustive search", "unproven"),
        (mutated(doc, ("result", "optimal"), False), "optimal: not claimed", "not claimed"),
    ]:
        tree.write_text(json.dumps(variant))
        code, out, err = run(["verify", tree, *lists])
        assert code == 0 and out.splitlines()[-1].startswith(line), (out, err)
        code, out, _ = run(["verify", tree, *lists, "--json"])
        assert code == 0 and json.loads(out)["optimal"] == claim


def test_a_hangman_weights_file_not_of_word_tab_count_lines_is_one_line(hangman_tree, tmp_path):
    """A tree naming weights, and the user's file of that fingerprint not of word<TAB>count lines."""
    import hashlib

    doc, words, word = hangman_tree
    weights = tmp_path / "weights.tsv"
    weights.write_bytes(b"the\t12\nof 7\n")
    tree = tmp_path / "t.json"
    tree.write_text(json.dumps({**doc, "game": {**doc["game"], "weights": "weights.tsv",
                                                "weights_sha256": hashlib.sha256(weights.read_bytes()).hexdigest()}}))
    for argv in (["verify", tree, "--answers", words, "--weights", weights],
                 ["next", tree, "___", "--answers", words, "--weights", weights]):
        code, _, err = run(argv)
        lines = err.strip().splitlines()
        assert code == 1 and len(lines) == 1 and "word<TAB>count" in lines[0], err


@pytest.fixture(scope="module")
def dordle_strategy(dordle_tree, tmp_path_factory):
    _, lists = dordle_tree
    out = tmp_path_factory.mktemp("dordle-strategy") / "s.json"
    code, _, err = run(["dordle", "heuristic", *lists, "--max-guesses", "6", "--first", "salet", "-o", out])
    assert code == 0, err
    return json.loads(out.read_text()), lists


def test_dordle_strategy_fields_of_every_type(dordle_strategy, tmp_path):
    doc, lists = dordle_strategy

    def commands(tree, web):
        return [["verify", tree, *lists], ["dordle", "verify", tree, *lists], ["stats", tree]]

    tree = tmp_path / "valid.json"
    tree.write_text(json.dumps(doc))
    for argv in commands(tree, None):
        code, _, err = run(argv)
        assert code == 0, (argv, err)  # stats summarises a strategy too (its rule, total and top)
    # what a strategy's verify does not replay beyond a tree's: a larger cap, and the rule's
    # parameters and engine (the rule is walked with them, and its claims checked)
    free = DORDLE_FREE | {("max_guesses",), ("rule", "engine"), *(("rule", key) for key in ("alpha", "shortlist", "tries"))}
    failures = fuzz(doc, "first", commands, tmp_path, free)
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures[:80])


# ------------------------------------------------------------------------------------------------
# the newer families: Absurdle's and the multi-board samples' shipped documents
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "tree_key"), [("absurdle/absurdle-wordle-nyt2023.json", "lines"),
                                                ("multiboard/duotrigordle-sample.json", "results")])
def test_absurdle_and_multiboard_document_fields_of_every_type(name, tree_key, tmp_path):
    """`stats` of each shipped document (an Absurdle one, which has no guess cap, gave a KeyError),
    then of every field of it given every type: exit 0, or one line and exit 1 or 2."""
    doc = json.loads((ROOT / "trees" / name).read_text())

    def commands(tree, web):
        return [["stats", tree], ["stats", tree, "--json"]]

    for argv in commands(ROOT / "trees" / name, None):
        code, out, err = run(argv)
        assert code == 0 and out, (argv, err)
    failures = fuzz(doc, tree_key, commands, tmp_path)
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures[:80])
