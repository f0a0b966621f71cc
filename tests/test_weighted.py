"""The weighted exact search (engine/exact/weighted.py) against the brute force of
tests/reference_weighted.py on random small lists, with every rule on and off; all-equal weights
against the unweighted engine; the weights file; and weighted trees written, replayed and refused."""

import random
from pathlib import Path

import numpy as np
import pytest

import reference_weighted
from wordtree.errors import UserError
from wordtree.exact import weighted
from wordtree.exact.solver import Solver
from wordtree.games.wordle import Wordle
from wordtree.wordle import weights as weights_file
from wordtree.words import WordList, canonical_sha256

RULE_SETS = [
    weighted.ALL_RULES,
    0,
    weighted.USE_MEMO,
    weighted.USE_NODE_BOUND | weighted.USE_CLASS_BOUND,
    weighted.ALL_RULES & ~weighted.USE_DEDUPE,
    weighted.ALL_RULES & ~weighted.USE_FILTER,
    weighted.ALL_RULES & ~weighted.USE_MEMO,
    weighted.ALL_RULES & ~weighted.USE_SHORTCUT,
    weighted.ALL_RULES & ~weighted.USE_PROFILE,
    weighted.USE_PROFILE | weighted.USE_DEDUPE,
]


def word_list(name, words):
    return WordList(name, name, tuple(words), canonical_sha256(words))


def small_game(real_lists, seed, n_answers=12, n_guesses=24):
    answers_all, guesses_all = real_lists
    rng = random.Random(seed)
    answers = sorted(rng.sample(answers_all, n_answers))
    guesses = sorted(set(rng.sample(guesses_all, n_guesses)) | set(answers))
    return Wordle("wordle", word_list("answers", answers), word_list("guesses", guesses))


def random_weights(game, seed, most=50):
    rng = random.Random(seed * 7 + 1)
    return [rng.randint(1, most) for _ in game.answers]


def engine(game, ws, cap, rules=weighted.ALL_RULES):
    solver = weighted.WeightedSolver(game, game._compute_matrix(), ws, cap, rules=rules)
    value, g = solver.solve(np.arange(len(game.answers)))
    return solver, value, g


@pytest.mark.parametrize("seed", range(6))
def test_weighted_optimum_equals_brute_force(real_lists, seed):
    """On random lists and weights, caps 2 to 4 and none: the engine's value is the brute
    force's, and the tree it builds replays (by the literal feedback) to that value."""
    game = small_game(real_lists, seed, n_answers=9 + seed % 4, n_guesses=18)
    ws = random_weights(game, seed, most=[3, 50, 1000][seed % 3])
    wmap = dict(zip(game.answers, ws))
    for cap in (2, 3, 4, None):
        want = reference_weighted.weighted_optimum(game.answers, game.guesses, wmap, cap or 12)
        solver, value, g = engine(game, ws, cap)
        got = float("inf") if value >= weighted.INF else value
        assert got == want, (seed, cap)
        if value < weighted.INF:
            tree = solver.tree(np.arange(len(game.answers)))
            assert reference_weighted.weighted_total(tree, game.answers, wmap) == want


@pytest.mark.parametrize("seed", range(4))
def test_hard_mode_weighted_optimum_equals_brute_force(real_lists, seed):
    """Hard mode: on random lists and weights, caps 3, 4 and none, the engine's value (every rule
    on, and none) is the hard-mode brute force's, and its tree replays to that value and obeys
    hard mode at every node (tests/reference.py's literal rule)."""
    from reference import hard_mode_allows, wordle_feedback

    game = small_game(real_lists, 60 + seed, n_answers=9 + seed % 3, n_guesses=18)
    ws = random_weights(game, 60 + seed, most=[3, 50][seed % 2])
    wmap = dict(zip(game.answers, ws))
    matrix = game._compute_matrix()
    S = np.arange(len(game.answers))
    for cap in (3, 4, None):
        want = reference_weighted.weighted_optimum(game.answers, game.guesses, wmap, cap or 12, hard=True)
        for rules in (weighted.ALL_RULES, 0, weighted.ALL_RULES & ~weighted.USE_MEMO):
            solver = weighted.WeightedSolver(game, matrix, ws, cap, rules=rules, mode="hard")
            value, _ = solver.solve(S)
            assert (float("inf") if value >= weighted.INF else value) == want, (seed, cap, rules)
        if want < float("inf"):
            tree = solver.tree(S)
            assert reference_weighted.weighted_total(tree, game.answers, wmap) == want

            def walk(node, history):
                assert hard_mode_allows(node["guess"], history)
                for text, child in node.get("next", {}).items():
                    walk(child, history + [(node["guess"], text)])
            walk(tree, [])


def test_hard_mode_costs_more_where_a_probe_is_barred():
    """Hard mode's constraint bites: after the heavy AAAB's three greens a probe (CDEF) is barred,
    so the other four answers are guessed one by one. The engine agrees with the brute force in
    both modes, caps 3 to 6, and hard mode costs more (by hand: 10 + 2 + 3 + 4 + 5 = 24 against
    10 + 4 * 3 = 22 in normal mode, cap 6)."""
    answers = ["aaab", "aaac", "aaad", "aaae", "aaaf"]
    game = Wordle("wordle", word_list("answers", answers), word_list("guesses", sorted(answers + ["cdef"])))
    ws = [10, 1, 1, 1, 1]
    wmap = dict(zip(answers, ws))
    S = np.arange(5)
    for cap in (3, 4, 5, 6):
        for mode in ("normal", "hard"):
            want = reference_weighted.weighted_optimum(answers, game.guesses, wmap, cap, hard=mode == "hard")
            value, _ = weighted.WeightedSolver(game, game._compute_matrix(), ws, cap, mode=mode).solve(S)
            assert (float("inf") if value >= weighted.INF else value) == want, (cap, mode)
    assert reference_weighted.weighted_optimum(answers, game.guesses, wmap, 6) == 22
    assert reference_weighted.weighted_optimum(answers, game.guesses, wmap, 6, hard=True) == 24


@pytest.mark.parametrize("rules", RULE_SETS)
def test_every_rule_keeps_the_value(real_lists, rules):
    """Each rule switched off (or alone) changes no value: the brute force decides."""
    for seed in (11, 12):
        game = small_game(real_lists, seed, n_answers=10, n_guesses=16)
        ws = random_weights(game, seed)
        wmap = dict(zip(game.answers, ws))
        want = reference_weighted.weighted_optimum(game.answers, game.guesses, wmap, 3)
        _, value, _ = engine(game, ws, 3, rules)
        assert (float("inf") if value >= weighted.INF else value) == want, (seed, rules)


def test_equal_weights_give_the_unweighted_optimum_times_the_weight(real_lists):
    """With every weight k, the value is k times the unweighted engine's (kernels.py), on sets
    large enough for the memo, dedupe and bounds to work."""
    for seed, k in ((21, 1), (22, 7), (23, 1000)):
        game = small_game(real_lists, seed, n_answers=40, n_guesses=120)
        matrix = game._compute_matrix()
        for cap in (3, 4, 6):
            plain, _ = Solver(game, matrix, cap).solve(np.arange(len(game.answers), dtype=np.int32), cap)
            solver = weighted.WeightedSolver(game, matrix, [k] * len(game.answers), cap)
            value, _ = solver.solve(np.arange(len(game.answers)))
            if plain >= 1 << 24:  # (the unweighted kernels' infinity: no tree within the cap)
                assert value >= weighted.INF
            else:
                assert value == k * plain, (seed, cap)


def test_budgets_give_bounds_or_the_value(real_lists):
    """Asked below a budget, the search returns the exact value when it is below, else a bound
    at least the budget (never above the value); the cost of a guess is the brute force's."""
    game = small_game(real_lists, 31, n_answers=11, n_guesses=20)
    ws = random_weights(game, 31)
    solver, value, g = engine(game, ws, 4)
    S = np.arange(len(game.answers))
    for beta in (value - 5, value, value + 1, value + 100):
        fresh = weighted.WeightedSolver(game, game._compute_matrix(), ws, 4)
        got, _ = fresh.solve(S, 4, beta)
        assert got == value if value < beta else beta <= got <= value
    wmap = dict(zip(game.answers, ws))
    for guess in (0, 5, len(game.guesses) - 1):
        word = game.guesses[guess]
        brute = sum(ws) + sum(
            reference_weighted.weighted_optimum(part, game.guesses, wmap, 3)
            for part in _classes(game, word) if part)
        assert solver.cost(S, guess, 4) == brute


def _classes(game, word):
    from reference import wordle_feedback

    out = {}
    for a in game.answers:
        p = wordle_feedback(word, a)
        if p != "G" * len(a):
            out.setdefault(p, []).append(a)
    return list(out.values())


def test_profile_bound_is_the_least_depth_profile():
    """The depth-profile bound against every tree shape it stands for: the weights sorted from
    the heaviest at depths 1, then b of depth 2, b*b of depth 3 ... (by hand for b = 2)."""
    ws = np.array([9, 1, 5, 3, 3, 2, 8], dtype=np.int64)
    S = np.arange(7, dtype=np.int32)
    # sorted 9 8 5 3 3 2 1: 9*1 + (8+5)*2 + (3+3+2+1)*3 = 9 + 26 + 27
    assert weighted._profile_bound(S, ws, 3, 2) == 62
    assert weighted._profile_bound(S, ws, 2, 2) == weighted.INF  # 3 answers at most in 2 guesses
    assert weighted._set_bound(S, ws, 3, 300, weighted.ALL_RULES) == 2 * ws.sum() - 9


# ------------------------------------------------------------------------------------------------
# the weights file
# ------------------------------------------------------------------------------------------------
def test_weights_file_rules():
    answers, guesses = ("aa", "bb"), ("aa", "bb", "cc")
    w = weights_file.parse_weights(b"# note\nbb 3\n\naa\t2\ncc 9\n", "w.tsv", answers, guesses)
    assert w.values == (2, 3) and w.total == 5
    assert w.sha256 == weights_file.fingerprint([("aa", 2), ("bb", 3)])
    same = weights_file.parse_weights(b"aa 2\nbb   3\n", "x", answers, guesses)
    assert same.sha256 == w.sha256  # order, spacing and extra guesses do not change it
    for raw, message in ((b"aa 2\n", "have no weight: bb"), (b"aa 0\nbb 1\n", "from 1 to"),
                         (b"aa -1\nbb 1\n", "from 1 to"), (b"aa 1.5\nbb 1\n", "from 1 to"),
                         (b"aa 1\nbb 1\nzz 1\n", "'zz' is not a word of this game"),
                         (b"aa 1\naa 2\nbb 1\n", "twice"), (b"aa 1 2\nbb 1\n", "expected 'word weight'"),
                         (b"\xff\xfe", "not UTF-8")):
        with pytest.raises(UserError, match=message):
            weights_file.parse_weights(raw, "w.tsv", answers, guesses)


def test_shipped_weights_cover_the_allowed_list():
    """The shipped file gives every allowed NYT word a weight, as wordlists/README.md says it is
    made: floor(count / 10^6) + 1 from word-frequency.tsv, 1 where the word is absent."""
    from wordtree.data import wordlists_dir

    folder = wordlists_dir()
    counts = dict(line.split("\t") for line in (folder / "word-frequency.tsv").read_text().splitlines())
    allowed = (folder / "nyt-allowed-14855-20220830.txt").read_text().split()
    w = weights_file.read_weights(weights_file.SHIPPED_WEIGHTS, allowed, allowed)
    assert w.values == tuple(int(counts.get(word, "0")) // 10**6 + 1 for word in allowed)


SOLVE_TWICE = """
import sys
import numpy as np
from wordtree.games import get_game
from wordtree.exact import weighted
game = get_game("wordle", sys.argv[1], sys.argv[2])
w = np.arange(1, len(game.answers) + 1, dtype=np.int64)
print(weighted.WeightedSolver(game, game._compute_matrix(), w, 6).solve(np.arange(len(game.answers))))
"""


def test_the_weighted_search_runs_from_numbas_cache(tmp_path):
    """The recursive kernel loaded from numba's cache (a second process) answers as the first that
    compiled it: a recursion whose argument types differ from its entry's, or that passes a literal,
    crashes there (numba issue 6061)."""
    import os
    import subprocess
    import sys

    from wordtree.games import get_game

    real = get_game("wordle")
    (tmp_path / "a.txt").write_text("\n".join(real.answers[:40:3]) + "\n")
    (tmp_path / "g.txt").write_text("\n".join(real.guesses[:300:10]) + "\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    runs = [subprocess.run([sys.executable, "-c", SOLVE_TWICE, str(tmp_path / "a.txt"), str(tmp_path / "g.txt")],
                           capture_output=True, text=True, env=env, timeout=600) for _ in range(2)]
    assert all(run.returncode == 0 for run in runs), [run.stderr[-500:] for run in runs]
    assert runs[0].stdout == runs[1].stdout and runs[0].stdout.startswith("(")


# ------------------------------------------------------------------------------------------------
# the commands: build --weights writes a weighted tree, verify replays it and refuses other weights
# ------------------------------------------------------------------------------------------------
def test_build_and_verify_a_weighted_tree(tmp_path, real_lists, capsys):
    import orjson

    from wordtree.commands import main

    game = small_game(real_lists, 41, n_answers=14, n_guesses=30)
    answers, guesses = tmp_path / "a.txt", tmp_path / "g.txt"
    answers.write_text("\n".join(game.answers) + "\n")
    guesses.write_text("\n".join(game.guesses) + "\n")
    ws = random_weights(game, 41)
    wfile = tmp_path / "w.tsv"
    wfile.write_text("".join(f"{a}\t{w}\n" for a, w in zip(game.answers, ws)))
    lists = ["--answers", str(answers), "--guesses", str(guesses)]
    out = tmp_path / "t.json"
    assert main(["build", *lists, "--weights", str(wfile), "--quiet", "-o", str(out)]) == 0
    doc = orjson.loads(out.read_bytes())
    want = reference_weighted.weighted_optimum(game.answers, game.guesses, dict(zip(game.answers, ws)), 6)
    assert doc["stats"]["weighted_total"] == want
    assert reference_weighted.weighted_total(doc["root"], game.answers, dict(zip(game.answers, ws))) == want
    assert doc["stats"]["weights"]["total_weight"] == sum(ws)
    capsys.readouterr()
    assert main(["verify", str(out), *lists, "--weights", str(wfile), "--json"]) == 0
    report = orjson.loads(capsys.readouterr().out)
    assert report["weighted_total"] == want and report["weighted_tree"] is True
    # other weights, or none, are refused
    other = tmp_path / "other.tsv"
    other.write_text("".join(f"{a}\t{w + (i == 0)}\n" for i, (a, w) in enumerate(zip(game.answers, ws))))
    assert main(["verify", str(out), *lists, "--weights", str(other)]) == 1
    assert "not the ones the tree was made for" in capsys.readouterr().err
    assert main(["verify", str(out), *lists]) == 1
    assert "not shipped" in capsys.readouterr().err
    # a stored weighted total that the replay does not give is refused
    doc["stats"]["weighted_total"] += 1
    out.write_bytes(orjson.dumps(doc))
    assert main(["verify", str(out), *lists, "--weights", str(wfile)]) == 1
    assert "weighted_total" in capsys.readouterr().err
    # the flag where it does not apply
    assert main(["build", *lists, "--weights", str(wfile), "--mode", "ultra"]) == 2
    assert main(["verify", "absurdle-wordle", "--weights", str(wfile)]) == 2
    assert "Hangman or Wordle-family" in capsys.readouterr().err


def test_build_and_verify_a_hard_mode_weighted_tree(tmp_path, capsys):
    """build --mode hard --weights writes the hard-mode weighted optimum (the brute force's), the
    tree records hard mode, and verify replays it under hard mode's rule."""
    import orjson

    from wordtree.commands import main

    answers = ["aaab", "aaac", "aaad", "aaae", "aaaf"]
    a, g, wfile = tmp_path / "a.txt", tmp_path / "g.txt", tmp_path / "w.tsv"
    a.write_text("\n".join(answers) + "\n")
    g.write_text("\n".join(answers + ["cdef"]) + "\n")
    wfile.write_text("aaab 10\naaac 1\naaad 1\naaae 1\naaaf 1\n")
    lists = ["--answers", str(a), "--guesses", str(g)]
    out = tmp_path / "t.json"
    assert main(["build", *lists, "--weights", str(wfile), "--mode", "hard", "--first", "aaab", "--quiet",
                 "-o", str(out)]) == 0
    doc = orjson.loads(out.read_bytes())
    assert doc["game"]["mode"] == "hard" and doc["stats"]["weighted_total"] == 24
    capsys.readouterr()
    assert main(["verify", str(out), *lists, "--weights", str(wfile), "--json"]) == 0
    assert orjson.loads(capsys.readouterr().out)["weighted_total"] == 24
    assert main(["build", *lists, "--weights", str(wfile), "--quiet", "--json"]) == 0
    assert orjson.loads(capsys.readouterr().out)["weighted_total"] == 22  # normal mode: AAAB then the probe


def test_the_shipped_weighted_tree_replays_with_independent_code():
    """trees/wordle-nyt2023-tarse-weighted.json: every one of the 3158 answers played through it by
    reference_weighted's own feedback, weighted by the shipped file read here line by line, gives
    the weighted total the file states; the plain TARSE tree totals more on the same weights."""
    import orjson

    root = Path(__file__).resolve().parents[1]
    answers = (root / "wordlists" / "nyt-answers-3158-20230701.txt").read_text().split()
    rows = [line.split("\t") for line in (root / "wordlists" / weights_file.SHIPPED_WEIGHTS).read_text().splitlines()
            if line and not line.startswith("#")]
    w = {word: int(weight) for word, weight in rows}
    doc = orjson.loads((root / "trees" / "wordle-nyt2023-tarse-weighted.json").read_bytes())
    plain = orjson.loads((root / "trees" / "wordle-nyt2023-tarse-normal.json").read_bytes())
    total = reference_weighted.weighted_total(doc["root"], answers, w)
    assert total == doc["stats"]["weighted_total"] and doc["stats"]["weights"]["total_weight"] == sum(w[a] for a in answers)
    assert reference_weighted.weighted_total(plain["root"], answers, w) > total


def _opener_value(game, word, wmap, cap, hard=False):
    """The brute force's weighted value of the game opening with `word`."""
    from reference import wordle_feedback

    classes = {}
    for a in game.answers:
        classes.setdefault(wordle_feedback(word, a), []).append(a)
    total = sum(wmap.values())
    for p, part in classes.items():
        if p != "G" * len(word):
            total += reference_weighted.weighted_optimum(part, game.guesses, wmap, cap - 1, hard=hard) if not hard \
                else _hard_below(game, word, p, part, wmap, cap - 1)
    return total


def _hard_below(game, word, p, part, wmap, d):
    """The hard-mode brute force below the opener's feedback p (its history: that one step)."""
    import math
    from functools import lru_cache

    from reference import hard_mode_allows, wordle_feedback

    guesses = list(dict.fromkeys(list(game.guesses) + list(game.answers)))

    @lru_cache(maxsize=None)
    def value(S, d, history):
        if d == 0:
            return math.inf
        if len(S) == 1:
            return wmap[next(iter(S))]
        best = math.inf
        for g in guesses:
            if not hard_mode_allows(g, history):
                continue
            classes = {}
            for a in S:
                classes.setdefault(wordle_feedback(g, a), set()).add(a)
            if len(classes) == 1 and g not in S:
                continue
            best = min(best, sum(wmap[a] for a in S) + sum(
                value(frozenset(C), d - 1, tuple(sorted(set(history) | {(g, q)})))
                for q, C in classes.items() if q != "G" * len(g)))
        return best

    return value(frozenset(part), d, ((word, p),))


@pytest.mark.parametrize("mode", ["normal", "hard"])
def test_weighted_rank_values_the_top_and_bounds_the_rest(real_lists, tmp_path, capsys, mode):
    """rank --weights: the top K openers' values are the brute force's, in order, and every other
    opener's bound is at most its brute-force value and at least the K-th value (the proof)."""
    import orjson

    from wordtree.commands import main

    game = small_game(real_lists, 81, n_answers=9, n_guesses=14)
    ws = random_weights(game, 81)
    wmap = dict(zip(game.answers, ws))
    a, g, wfile = tmp_path / "a.txt", tmp_path / "g.txt", tmp_path / "w.tsv"
    a.write_text("\n".join(game.answers) + "\n")
    g.write_text("\n".join(game.guesses) + "\n")
    wfile.write_text("".join(f"{x} {w}\n" for x, w in wmap.items()))
    capsys.readouterr()
    assert main(["rank", "--answers", str(a), "--guesses", str(g), "--weights", str(wfile), "--top", "3",
                 "--max-guesses", "4", "--mode", mode, "--quiet", "--json"]) == 0
    report = orjson.loads(capsys.readouterr().out)
    assert report["weights"]["total_weight"] == sum(ws) and report["ranked"] == len(game.guesses)
    brute = {w: _opener_value(game, w, wmap, 4, hard=mode == "hard") for w in game.guesses}
    want = sorted(brute.values())
    got = report["openers"]
    assert [o["value"] for o in got[:3]] == want[:3] and all(o["kind"] == "exact" for o in got[:3])
    for o in got:
        truth = brute[o["word"]]
        if o["kind"] == "exact":
            assert o["value"] == truth
        elif o["kind"] == "lower-bound":
            assert want[2] <= o["value"] <= truth
        else:
            assert truth == float("inf")


def test_weighted_rank_refuses_what_it_does_not_do(tmp_path, capsys):
    from wordtree.commands import main

    a, wfile = tmp_path / "a.txt", tmp_path / "w.tsv"
    a.write_text("aaab\naaac\n")
    wfile.write_text("aaab 1\naaac 2\n")
    lists = ["--answers", str(a), "--guesses", str(a), "--weights", str(wfile)]
    for extra, message in ((["--checkpoint", str(tmp_path / "ck")], "--checkpoint is not for a weighted rank"),
                           (["--mode", "ultra"], "not ultra mode"),
                           (["--scheduler", "local"], "--scheduler is not for a weighted rank")):
        capsys.readouterr()
        assert main(["rank", *lists, *extra]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and message in err[0]
    assert main(["rank", "mastermind", "--weights", str(wfile)]) == 2


@pytest.mark.parametrize("mode", ["normal", "hard"])
def test_next_with_weights_is_the_weighted_optimum(real_lists, tmp_path, capsys, mode):
    """next --weights off the tree: the guess is one whose weighted cost is the brute force's
    optimum for the candidates left, and the expected guesses are that optimum over their weight;
    in hard mode (a hard tree left at once) the steps' constraint applies."""
    import orjson

    from reference import wordle_feedback
    from wordtree.commands import main

    game = small_game(real_lists, 91, n_answers=14, n_guesses=20)
    ws = random_weights(game, 91)
    wmap = dict(zip(game.answers, ws))
    a, g, wfile = tmp_path / "a.txt", tmp_path / "g.txt", tmp_path / "w.tsv"
    a.write_text("\n".join(game.answers) + "\n")
    g.write_text("\n".join(game.guesses) + "\n")
    wfile.write_text("".join(f"{x} {w}\n" for x, w in wmap.items()))
    lists = ["--answers", str(a), "--guesses", str(g)]
    first = game.guesses[0]
    if mode == "hard":  # a hard tree, left at its root by a guess of another
        tree = tmp_path / "t.json"
        assert main(["build", *lists, "--mode", "hard", "--quiet", "-o", str(tree)]) == 0
        root = orjson.loads(tree.read_bytes())["root"]["guess"]
        first = next(w for w in game.guesses if w != root)
        where = [str(tree), *lists]
    else:
        where = ["--game", "wordle", *lists]
    answer = max(game.answers, key=lambda x: sum(wordle_feedback(first, y) == wordle_feedback(first, x)
                                                  for y in game.answers))  # the largest class
    step = f"{first}:{wordle_feedback(first, answer)}"
    left = [x for x in game.answers if wordle_feedback(first, x) == wordle_feedback(first, answer)]
    capsys.readouterr()
    assert main(["next", *where, "--weights", str(wfile), step, "--json"]) == 0
    got = orjson.loads(capsys.readouterr().out)
    assert got["candidate_words"] == left and got["source"] == "exact" and len(left) > 2
    history = ((first, wordle_feedback(first, answer)),)
    sub = {x: wmap[x] for x in left}
    want = _hard_below(game, first, history[0][1], left, wmap, 5) if mode == "hard" else \
        reference_weighted.weighted_optimum(left, game.guesses, sub, 5)
    assert got["expected_guesses"] == round(want / sum(sub.values()), 4)
    if mode == "normal":  # the guess proposed achieves it
        classes = {}
        for x in left:
            classes.setdefault(wordle_feedback(got["guess"], x), []).append(x)
        assert sum(sub.values()) + sum(reference_weighted.weighted_optimum(part, game.guesses, sub, 4)
                                       for p, part in classes.items() if p != "G" * 5) == want


def test_next_with_weights_refuses_other_weights_and_families(tmp_path, capsys):
    """On the shipped weighted tree, weights with another fingerprint are refused (one line, exit
    1); --weights for a Dordle position is refused as usage (exit 2)."""
    from wordtree.commands import main
    from wordtree.data import wordlists_dir

    shipped = (wordlists_dir() / weights_file.SHIPPED_WEIGHTS).read_text()
    other = tmp_path / "w.tsv"
    lines = [line for line in shipped.splitlines() if line and not line.startswith("#")]
    at = next(i for i, line in enumerate(lines) if line.startswith("cigar\t"))  # an answer's weight changed
    lines[at] = f"cigar\t{int(lines[at].split()[1]) + 1}"
    other.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    assert main(["next", "wordle-nyt2023-tarse-weighted", "--weights", str(other), "tarse:BBBBB"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not the ones the tree was made for" in err[0]
    assert main(["next", "wordle-nyt2023-tarse-weighted", "tarse:BBBBB", "--json"]) == 0
    assert main(["next", "--game", "dordle", "--weights", str(other)]) == 2


def test_grade_with_weights_is_the_brute_force(real_lists, tmp_path, capsys, monkeypatch):
    """grade --weights: each move's weighted total and its best's are the brute force's over the
    candidates before it (over their weight); past the candidate limit the best is a proven lower
    bound (at most the optimum); --seconds, ultra mode and other families are refused."""
    import orjson

    from reference import wordle_feedback
    from wordtree.commands import main
    from wordtree.wordle import grade as grade_module

    game = small_game(real_lists, 95, n_answers=12, n_guesses=18)
    ws = random_weights(game, 95)
    wmap = dict(zip(game.answers, ws))
    a, g, wfile = tmp_path / "a.txt", tmp_path / "g.txt", tmp_path / "w.tsv"
    a.write_text("\n".join(game.answers) + "\n")
    g.write_text("\n".join(game.guesses) + "\n")
    wfile.write_text("".join(f"{x} {w}\n" for x, w in wmap.items()))
    answer, first = game.answers[5], game.guesses[1]
    left = [x for x in game.answers if wordle_feedback(first, x) == wordle_feedback(first, answer)]
    second = left[-1] if left[-1] != answer else left[0]
    steps = [f"{first}:{wordle_feedback(first, answer)}", f"{second}:{wordle_feedback(second, answer)}"]
    lists = ["--game", "wordle", "--answers", str(a), "--guesses", str(g), "--weights", str(wfile)]
    capsys.readouterr()
    assert main(["grade", *lists, *steps, "--json"]) == 0
    moves = orjson.loads(capsys.readouterr().out)["moves"]
    W1, W2 = sum(ws), sum(wmap[x] for x in left)
    assert moves[0]["total"] == _opener_value(game, first, wmap, 6)
    assert moves[0]["best_total"] == reference_weighted.weighted_optimum(game.answers, game.guesses, wmap, 6)
    assert moves[0]["weight"] == W1 and moves[0]["expected"] == round(moves[0]["total"] / W1, 4)
    sub = {x: wmap[x] for x in left}
    classes = {}
    for x in left:
        classes.setdefault(wordle_feedback(second, x), []).append(x)
    assert moves[1]["total"] == W2 + sum(reference_weighted.weighted_optimum(part, game.guesses, sub, 4)
                                         for p, part in classes.items() if p != "G" * 5)
    assert moves[1]["best_total"] == reference_weighted.weighted_optimum(left, game.guesses, sub, 5)
    monkeypatch.setattr(grade_module, "WEIGHTED_LIMIT", 5)
    assert main(["grade", *lists, *steps, "--json"]) == 0
    bounded = orjson.loads(capsys.readouterr().out)["moves"][0]
    assert bounded["best_bound"] and bounded["best"] is None and bounded["total"] == moves[0]["total"]
    assert bounded["best_total"] <= moves[0]["best_total"]
    for extra, message in ((["--seconds", "5"], "--seconds is not for a weighted grade"),
                           (["--mode", "ultra"], "not ultra mode")):
        assert main(["grade", *lists, *extra, steps[0]]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and message in err[0]
    assert main(["grade", "--game", "dordle", "--weights", str(wfile), "crane:BBBBB,BBBBB"]) == 2
