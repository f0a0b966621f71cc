"""Dordle on lists too large to solve: the heuristic strategy (evaluated exactly, replayed from its
tree) and the lower bounds of lower.py, each checked against the brute force of
reference_dordle.py on random small games: every bound at or below the exact value, every
strategy total at or above it."""

import functools
import random
from pathlib import Path

import orjson
import pytest

import reference_dordle as ref
from test_dordle import INF, exact, instance, word_list
from wordtree.dordle.kernels import DINF
from wordtree.dordle.heuristic import HeuristicStrategy, evaluate_opener, strategy_document
from wordtree.dordle.lower import opener_bound, projection_root_bound, root_bounds
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


@pytest.mark.parametrize("seed", range(40))
def test_projection_root_bound_below_the_optimum(seed):
    game, cap = instance(seed, max_answers=8, max_guesses=12)
    search = DordleSearch(game, game._compute_matrix(), cap)
    optimum = ref.dordle_total(game, cap)
    assert exact(projection_root_bound(search)) <= optimum, seed
    v = search.v1(search.root()[0], cap + 1)
    if v < DINF:  # a smaller floor gives a smaller bound
        assert projection_root_bound(search, v - 1) <= projection_root_bound(search, v)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("tries", [1, 16])
def test_heuristic_total_is_a_strategy_total(seed, tries):
    """The walk's total is what the strategy's tree replays to, at or above the optimum with that
    opener; its depth-2 bound is lower.opener_bound's. With 16 tries (every guess of these small
    games) the strategy backs off until it finds a way: it fails no pair exactly when some
    strategy from that opener finishes them all."""
    game, cap, search = setup(seed)
    strategy = HeuristicStrategy(search, shortlist=3, tries=tries)
    for first in random.Random(seed).sample(range(len(game.guesses)), 3):
        value = ref.first_guess_total(game, cap, game.guesses[first])
        result = evaluate_opener(strategy, first)
        assert result["lower_bound"] == opener_bound(search, first)
        if tries == 16:
            assert (result["failed"] == 0) == (value < INF), (seed, game.guesses[first])
        if result["failed"]:
            continue
        assert result["total"] >= value
        doc = strategy_document(strategy, first)
        assert doc["result"]["strategy"] == "heuristic" and not doc["result"]["optimal"]
        assert verify_document(doc, game, search.matrix)["total"] == result["total"]


@pytest.mark.parametrize("seed", range(40))
def test_heuristic_never_fails_a_feasible_game(seed):
    """Larger random games with tight caps (where the counting bound's feasibility test alone
    fails pairs): the strategy from the optimal opener fails nothing when the optimum is finite,
    totals at least the optimum, and its tree replays to its total."""
    game, _ = instance(seed, max_answers=9, max_guesses=14)
    rng = random.Random(seed)
    cap = rng.randint(3, 5)
    search = DordleSearch(game, game._compute_matrix(), cap)
    optimum, first = search.solve_game()
    if exact(optimum) == INF:
        return
    strategy = HeuristicStrategy(search, shortlist=2, tries=16)
    result = evaluate_opener(strategy, first)
    assert result["failed"] == 0, seed
    assert result["total"] >= optimum
    assert verify_document(strategy_document(strategy, first), game, search.matrix)["total"] == result["total"]


def test_single_feasible_matches_the_solver():
    """kernels.single_feasible (exact feasibility of one board within d) against exact.Solver."""
    import numpy as np

    from wordtree.dordle.kernels import single_feasible

    for seed in range(30):
        game, cap, search = setup(seed)
        rng = random.Random(seed)
        n = search.n_answers
        for _ in range(6):
            C = np.array(sorted(rng.sample(range(n), rng.randint(1, n))), np.int32)
            d = rng.randint(1, min(4, cap + 1))
            feasible = single_feasible(search.tables, np.zeros(0, np.int32), C, d)
            assert feasible == (search.v1(C, d) < DINF), (seed, C, d)


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
    assert main(["dordle", "bound", *lists, "--single-floor", "40"]) == 0
    assert "proven lower bound (projection, given a one-board optimum of at least 40" in capsys.readouterr().out
    ck, tree = tmp_path / "h.ck", tmp_path / "h.json"
    assert main(["dordle", "heuristic", *lists, "--checkpoint", str(ck), "-o", str(tree)]) == 0
    assert "heuristic strategy (not proven optimal)" in capsys.readouterr().out and ck.exists()
    assert main(["dordle", "heuristic", *lists, "--checkpoint", str(ck), "--resume"]) == 0
    assert main(["dordle", "verify", str(tree), *lists]) == 0
    # an existing checkpoint is refused without --resume or --overwrite, and --overwrite starts it over
    assert main(["dordle", "heuristic", *lists, "--checkpoint", str(ck)]) == 1
    assert "--overwrite" in capsys.readouterr().err
    assert main(["dordle", "heuristic", *lists, "--checkpoint", str(ck), "--overwrite"]) == 0
    # a checkpoint of another opener is refused with the field that differs
    assert main(["dordle", "heuristic", *lists, "--first", "crony", "--checkpoint", str(ck), "--resume"]) == 1
    assert "first" in capsys.readouterr().err
    # the exact states: recorded in the file's rule and the checkpoint's header, a resume bound to them
    exact_ck, exact_tree = tmp_path / "e.ck", tmp_path / "e.json"
    assert main(["dordle", "heuristic", *lists, "--exact-below", "8", "--exact-nodes", "300", "--checkpoint",
                 str(exact_ck), "-o", str(exact_tree)]) == 0
    capsys.readouterr()
    doc = orjson.loads(exact_tree.read_bytes())
    assert (doc["rule"]["exact_below"], doc["rule"]["exact_nodes"]) == (8, 300) and doc["top"]["guess"] == "salet"
    assert main(["dordle", "verify", str(exact_tree), *lists]) == 0
    assert main(["dordle", "heuristic", *lists, "--exact-below", "8", "--checkpoint", str(exact_ck), "--resume"]) == 1
    assert "exact_nodes" in capsys.readouterr().err
    assert main(["dordle", "heuristic", *lists, "--checkpoint", str(exact_ck), "--resume"]) == 1
    assert "exact_below" in capsys.readouterr().err
    assert main(["dordle", "heuristic", *lists, "--exact-nodes", "300"]) == 2  # (needs --exact-below)
    assert main(["dordle", "heuristic", *lists, "--exact-below", "-1"]) == 2


def test_the_kept_cap8_rank_gives_the_floor_of_the_full_lists_bound():
    """runs/wordle-rank-cap8.tsv (runs/README.md): the rank of every original opener within 8
    guesses, whose least value, 7920, is the one-board floor of the full lists' projection bound
    (docs/results.md, Dordle). Its header names the shipped lists, every opener is there once,
    and none is valued or bounded below 7920."""
    from reference_trees import assert_kept_rank

    assert_kept_rank("wordle-rank-cap8.tsv", "wordle", 8, ("wordle-answers-2315.txt", "wordle-allowed-12972.txt"),
                     12972, ("salet", 7920))


def strategy_case(seed):
    """A small game, its strategy (the parameters the tests above use) and an opener with which
    it fails no pair, with evaluate_opener's result."""
    game, cap, search = setup(seed)
    strategy = HeuristicStrategy(search, shortlist=3, tries=16)
    for first in range(len(game.guesses)):
        result = evaluate_opener(strategy, first)
        if not result["failed"]:
            return game, search, strategy, first, result
    pytest.skip("no opener finishes every pair")


@pytest.mark.parametrize("seed", range(4))
def test_strategy_file_round_trip(seed, tmp_path):
    """A wordtree-dordle-strategy/1 file, written and read back, walks to its claims, which equal
    the full tree's replay (verify_document of strategy_document) for the same game."""
    import orjson

    from wordtree.dordle.heuristic import STRATEGY_FORMAT, strategy_file, verify_strategy
    from wordtree.dordle.document import FORMAT, read_document

    game, search, strategy, first, result = strategy_case(seed)
    doc = strategy_file(strategy, first, result)
    assert doc["strategy"] == "heuristic" and doc["optimal"] is False and doc["result"]["failed"] == 0
    assert doc["rule"] == {"alpha": strategy.alpha, "shortlist": 3, "tries": 16, "engine": doc["rule"]["engine"]}
    path = tmp_path / "s.json"
    path.write_bytes(orjson.dumps(doc))
    back = read_document(path, (FORMAT, STRATEGY_FORMAT))
    walked = verify_strategy(back, game, search.matrix)
    assert walked["total"] == doc["result"]["total"] == result["total"]
    replay = verify_document(strategy_document(strategy, first), game, search.matrix)
    assert replay["total"] == walked["total"] and replay["pairs"] == walked["pairs"]
    with pytest.raises(Exception, match="not a wordtree-dordle/1 file"):
        read_document(path)  # a lookup reads trees only


def test_strategy_file_refuses_tampering():
    """A changed total, opener or rule parameter is refused by the walk, naming the field; a field
    of the wrong type or range and a file for other lists are refused before any walk."""
    import copy

    from wordtree.dordle.heuristic import check_strategy, strategy_file, verify_strategy
    from wordtree.errors import UserError

    game, search, strategy, first, result = strategy_case(0)
    doc = strategy_file(strategy, first, result)
    matrix = search.matrix

    def refused(change, match):
        bad = copy.deepcopy(doc)
        change(bad)
        with pytest.raises(UserError, match=match):
            verify_strategy(bad, game, matrix)

    refused(lambda d: d["result"].update(total=d["result"]["total"] + 1), "'result.total'")
    refused(lambda d: d["result"].update(failed=3), "'result.failed'")
    refused(lambda d: d["result"].update(total=-1), "'result.total'")
    refused(lambda d: d["result"].update(mean=d["result"]["mean"] + 0.5), "'result.mean'")
    others = [g for g in range(len(game.guesses))
              if evaluate_opener(strategy, g)["total"] != result["total"] or evaluate_opener(strategy, g)["failed"]]
    refused(lambda d: d.update(first=game.guesses[others[0]]), "'result\\.")
    refused(lambda d: d.update(first="zzzzz"), "'first'")
    refused(lambda d: d.update(first=7), "'first'")
    changed = [(key, value) for key, value in (("alpha", 0.0), ("alpha", 5.0), ("tries", 1), ("shortlist", 0))
               if evaluate_opener(HeuristicStrategy(search, **{"shortlist": 3, "tries": 16, key: value}), first)
               != result]
    assert changed  # the game is chosen so that some parameter changes the walk
    for key, value in changed:  # (a walk of the same figures with other guesses: its stored top differs)
        refused(lambda d: d["rule"].update({key: value}), "'result\\.|'top\\.next\\.")
    branch = next(iter(doc["top"]["next"]))
    refused(lambda d: d["top"]["next"][branch].update(total=d["top"]["next"][branch]["total"] + 1),
            f"'top.next.{branch}'")
    refused(lambda d: d["top"]["next"][branch].update(guess="zzzzz"), f"'top.next.{branch}'")
    refused(lambda d: d["top"]["next"].pop(branch), f"'top.next.{branch}': the file stores none")
    refused(lambda d: d["top"].update(guess=game.guesses[others[0]]), "'top.guess'")
    for bad in ({"total": 0}, {"exact": False}, {"board": 3}, {"extra": 1}, {"guess": 5}):
        refused(lambda d: d["top"]["next"][branch].update(bad), "malformed 'top' branch")
    refused(lambda d: d.update(top=[]), "malformed 'top'")
    for key, value in (("alpha", -1), ("alpha", "0.1"), ("alpha", float("nan")), ("tries", 0), ("tries", True),
                       ("shortlist", -1), ("shortlist", 10 ** 8)):
        refused(lambda d: d["rule"].update({key: value}), f"'rule.{key}'")
    refused(lambda d: d.update(max_guesses=40), "'max_guesses'")
    refused(lambda d: d.update(optimal=True), "labelled")
    refused(lambda d: d.pop("rule"), "'rule'")
    refused(lambda d: d["game"].update(answers_sha256="0" * 64), "other word lists")
    other, _, other_search = setup(1)
    with pytest.raises(UserError, match="other word lists"):
        verify_strategy(doc, other, other_search.matrix)
    check_strategy(doc)


def test_cli_strategy_file(tmp_path, capsys):
    """heuristic -o writes a strategy file and --tree the full tree; verify takes both, and
    refuses a tampered strategy file in one line with exit 1."""
    import orjson

    from wordtree.commands import main
    from wordtree.data import wordlists_dir

    answers = [w.strip() for w in open(wordlists_dir() / "wordle-answers-2315.txt")][::300]
    (tmp_path / "a.txt").write_text("\n".join(answers) + "\n")
    (tmp_path / "g.txt").write_text("\n".join(answers + ["salet", "crony"]) + "\n")
    lists = ["--answers", str(tmp_path / "a.txt"), "--guesses", str(tmp_path / "g.txt")]
    out, tree = tmp_path / "s.json", tmp_path / "t.json"
    assert main(["dordle", "heuristic", *lists, "-o", str(out), "--tree", str(tree)]) == 0
    doc = orjson.loads(out.read_bytes())
    assert doc["format"] == "wordtree-dordle-strategy/1" and doc["first"] == "salet"
    assert orjson.loads(tree.read_bytes())["format"] == "wordtree-dordle/1"
    capsys.readouterr()
    assert main(["dordle", "verify", str(out), *lists]) == 0
    assert f"total {doc['result']['total']}" in capsys.readouterr().out
    assert main(["dordle", "verify", str(tree), *lists]) == 0
    capsys.readouterr()
    doc["result"]["total"] += 2
    out.write_bytes(orjson.dumps(doc))
    assert main(["dordle", "verify", str(out), *lists]) == 1
    err = [line for line in capsys.readouterr().err.splitlines() if "error" in line]
    assert len(err) == 1 and "'result.total'" in err[0] and str(out) in err[0]
    assert main(["dordle", "verify", str(out)]) == 1  # the lists the file names are not shipped ones
    assert "'a.txt': word list not found among the shipped ones; give the lists" in capsys.readouterr().err
    assert main(["dordle", "verify", str(out), "wordle"]) == 1  # the preset's lists are not the file's
    assert "other word lists" in capsys.readouterr().err


@pytest.mark.parametrize("seed", range(6))
def test_a_shortlist_longer_than_the_guesses_stays_in_bounds(seed):
    """The default shortlist (400) on a game of a dozen guesses: a state's candidates (the
    shortlist plus both boards' answers, which repeat shortlisted guesses) outnumber the guesses,
    and the walk's working rows must hold them all (numba does not check bounds: this crashed)."""
    game, cap, search = setup(seed)
    strategy = HeuristicStrategy(search)
    for first in range(len(game.guesses)):
        result = evaluate_opener(strategy, first)
        if not result["failed"]:
            assert result["total"] >= ref.first_guess_total(game, cap, game.guesses[first])
            assert verify_document(strategy_document(strategy, first), game, search.matrix)["total"] == result["total"]


def test_cli_bound_ranks_openers_by_what_is_proven(tmp_path, capsys):
    """`dordle bound --top N [--depth 2]`: the N openers of least depth-1 bound, in order, each
    bound the engine's own; a depth-2 bound is at least the depth-1 one and at most the exact
    value of the best strategy opening with that word."""
    from wordtree.commands import main
    from wordtree.data import wordlists_dir
    from wordtree.games.wordle import Wordle

    answers = [w.strip() for w in open(wordlists_dir() / "wordle-answers-2315.txt")][::150]
    guesses = answers + ["salet", "crony", "trace", "pious"]
    (tmp_path / "a.txt").write_text("\n".join(answers) + "\n")
    (tmp_path / "g.txt").write_text("\n".join(guesses) + "\n")
    lists = ["--answers", str(tmp_path / "a.txt"), "--guesses", str(tmp_path / "g.txt")]
    assert main(["dordle", "bound", *lists, "--top", "4", "--depth", "2"]) == 0
    rows = [line.split("\t") for line in capsys.readouterr().out.splitlines() if line[:1].isdigit()]
    assert [r[0] for r in rows] == ["1", "2", "3", "4"]
    game = Wordle("t", word_list("a", answers), word_list("g", guesses))
    search = DordleSearch(game, game._compute_matrix(), 7)
    lbs = root_bounds(search)
    assert [int(r[2]) for r in rows] == sorted(int(v) for v in lbs)[:4]
    for _, word, depth1, depth2 in rows:
        g = game.guess_index[word]
        assert int(depth1) == int(lbs[g]) <= int(depth2) <= exact(search.solve_game(first=g)[0])


@pytest.mark.parametrize("seed", range(12))
def test_exact_states_play_the_optimum_below_the_opener(seed):
    """exact_below: with every child state searched exactly (no node limit to speak of), the
    strategy's total from an opener is the brute force's optimum with that opener whenever that is
    finite; with a small threshold it lies between that optimum and the plain walk's total; and
    either strategy's tree replays to its total."""
    game, cap, search = setup(seed)
    plain = HeuristicStrategy(search, shortlist=3, tries=16)
    full = HeuristicStrategy(search, shortlist=3, tries=16, exact_below=10 ** 6, exact_nodes=10 ** 9)
    some = HeuristicStrategy(search, shortlist=3, tries=16, exact_below=6)
    for first in random.Random(seed).sample(range(len(game.guesses)), 3):
        value = ref.first_guess_total(game, cap, game.guesses[first])
        walked = evaluate_opener(plain, first)
        best = evaluate_opener(full, first)
        assert best["lower_bound"] == walked["lower_bound"]
        if value == INF:
            assert best["failed"] and walked["failed"]
            continue
        assert best["failed"] == 0 and best["total"] == value, (seed, game.guesses[first])
        assert verify_document(strategy_document(full, first), game, search.matrix)["total"] == value
        mid = evaluate_opener(some, first)
        if not walked["failed"]:
            assert value <= mid["total"] <= walked["total"] and mid["failed"] == 0
        if not mid["failed"]:
            assert verify_document(strategy_document(some, first), game, search.matrix)["total"] == mid["total"]


def test_exact_states_stop_at_their_node_limit():
    """A node limit too small for any exact search leaves the walk's total as it was; a strategy
    file records the two parameters and verify_strategy walks them again (a changed one is
    refused)."""
    import copy

    from wordtree.dordle.heuristic import strategy_file, verify_strategy
    from wordtree.errors import UserError

    cases = ((seed, first) for seed in range(40) for first in range(15))
    for seed, first in cases:
        game, cap, search = setup(seed)
        if first >= len(game.guesses):
            continue
        plain = evaluate_opener(HeuristicStrategy(search, shortlist=3, tries=16), first)
        if plain["failed"]:
            continue
        capped = HeuristicStrategy(search, shortlist=3, tries=16, exact_below=10 ** 6, exact_nodes=0)
        timeless = lambda r: {k: v for k, v in r.items() if k != "seconds"}  # noqa: E731
        assert timeless(evaluate_opener(capped, first)) == timeless(plain)
        strategy = HeuristicStrategy(search, shortlist=3, tries=16, exact_below=10 ** 6, exact_nodes=10 ** 9)
        result = evaluate_opener(strategy, first)
        if result["total"] == plain["total"]:
            continue  # the walk was optimal here: the parameters change nothing
        doc = strategy_file(strategy, first, result)
        assert doc["rule"]["exact_below"] == 10 ** 6 and doc["rule"]["exact_nodes"] == 10 ** 9
        assert verify_strategy(doc, game, search.matrix)["total"] == result["total"]
        for change in ({"exact_below": 0}, {"exact_nodes": 0}):
            bad = copy.deepcopy(doc)
            bad["rule"].update(change)
            with pytest.raises(UserError, match="'result.total'"):
                verify_strategy(bad, game, search.matrix)
        bad = copy.deepcopy(doc)
        bad["rule"]["exact_below"] = -1
        with pytest.raises(UserError, match="'rule.exact_below'"):
            verify_strategy(bad, game, search.matrix)
        return
    pytest.fail("no game where the exact states beat the walk")


# --- the shipped full-list strategy (trees/dordle/dordle-trace-strategy.json) ---

FULL_STRATEGY = Path(__file__).resolve().parent.parent / "trees" / "dordle" / "dordle-trace-strategy.json"
FULL_TOTAL = 25_811_376  # docs/results.md: the strategy from TRACE with exact states, walked over every pair
FULL_PAIRS = 2315 * 2314


@functools.cache
def full_strategy():
    """The shipped strategy file, read as a lookup reads it, and the original lists' game."""
    from wordtree.dordle.document import FORMAT, STRATEGY_FORMAT, read_document
    from wordtree.wordle.tree import game_for

    assert FULL_STRATEGY.is_file(), FULL_STRATEGY  # a missing shipped file fails, never skips
    doc = read_document(FULL_STRATEGY, (FORMAT, STRATEGY_FORMAT))
    return doc, game_for(doc)


def test_the_shipped_strategy_states_its_rule_and_figures():
    """Its header: the original lists by fingerprint, the cap, the opener, every parameter the rule
    needs to be replayed (the exact states' among them), the total walked in full and its mean;
    its stored top adds up to that total (each pair pays the opener, then its branch's total)."""
    from wordtree.dordle.heuristic import ALPHA, SHORTLIST, TRIES, root_keys
    from wordtree.games import get_game

    doc, game = full_strategy()
    identity = get_game("wordle").identity()
    assert {k: doc["game"][k] for k in ("answers_sha256", "guesses_sha256")} == \
        {k: identity[k] for k in ("answers_sha256", "guesses_sha256")}
    assert (doc["game"]["answers_count"], doc["game"]["guesses_count"], doc["max_guesses"]) == (2315, 12972, 7)
    assert (doc["strategy"], doc["optimal"], doc["first"]) == ("heuristic", False, "trace")
    assert {k: v for k, v in doc["rule"].items() if k != "engine"} == \
        {"alpha": ALPHA, "shortlist": SHORTLIST, "tries": TRIES, "exact_below": 10, "exact_nodes": 500}
    result = doc["result"]
    assert (result["total"], result["pairs"], result["failed"]) == (FULL_TOTAL, FULL_PAIRS, 0)
    assert result["mean"] == round(FULL_TOTAL / FULL_PAIRS, 6) and result["lower_bound"] <= FULL_TOTAL
    top = doc["top"]["next"]
    assert doc["top"]["guess"] == "trace"
    assert FULL_PAIRS + sum(node["total"] for node in top.values()) == FULL_TOTAL
    keys, singles = _keys_of_trace()
    assert sorted(top) == sorted(keys + [k for pair in singles for k in pair])
    assert sum(bool(node.get("exact")) for node in top.values()) > 0
    assert {node["board"] for node in top.values() if "board" in node} == {1, 2}
    assert all(node["guess"] in game.guess_index for node in top.values())
    assert root_keys  # (the keys above are the walk's own, made from the lists by the reference feedback)


def _keys_of_trace():
    """The branches TRACE leaves on the original answers, by the reference feedback: each pair of
    patterns two different answers show (a pattern shared needs two answers), and for each answer
    pattern the two one-board remainders once TRACE solves a board (TRACE is an answer)."""
    import reference as wref
    from wordtree.games import get_game

    answers = get_game("wordle").answers
    classes: dict[str, int] = {}
    for a in answers:
        if a != "trace":
            classes[wref.wordle_feedback("trace", a)] = classes.get(wref.wordle_feedback("trace", a), 0) + 1
    keys = [f"{p}/{q}" for p in classes for q in classes if p != q or classes[p] > 1]
    return keys, [(f"GGGGG/{p}", f"{p}/GGGGG") for p in classes]


def _play_pair(doc, game, a, b):
    """The pair (a, b) played by the suggestions on the shipped strategy, each feedback the
    reference's: the guesses it takes, and the suggestions' sources."""
    import reference as wref
    from wordtree.dordle.player import DordlePosition

    position = DordlePosition(game, None, doc["max_guesses"], doc)
    solved, sources = [False, False], []
    while not position.won:
        s = position.suggest()
        sources.append(s.source)
        shown = ["=" * 5 if done else wref.wordle_feedback(s.guess, answer) for done, answer in zip(solved, (a, b))]
        position.play(s.guess, "/".join(shown))
        solved = [solved[0] or a == s.guess, solved[1] or b == s.guess]
        assert len(position.steps) <= doc["max_guesses"], (a, b, position.steps)
    return len(position.steps), sources


def test_the_shipped_strategy_plays_a_seeded_sample_of_pairs():
    """Twelve pairs drawn with a seed, each played by the lookups (the stored top, then the rule
    for each state) with the reference feedback: every pair finishes within 7, and the strategy
    answers every two-board position of it."""
    doc, game = full_strategy()
    rng = random.Random(55)
    for _ in range(12):
        a, b = rng.sample(game.answers, 2)
        steps, sources = _play_pair(doc, game, a, b)
        assert steps >= 2 and sources[0] == sources[1] == "strategy", (a, b, sources)
        assert set(sources) <= {"strategy", "exact"}, sources


def test_a_stored_branch_total_is_what_its_pairs_take():
    """Branches drawn with a seed (two the exact search plays, two the rule plays, one one-board
    remainder; of at most 12 pairs): every pair of the branch played by the lookups with the
    reference feedback; the guesses after the opener, added up, are the branch's stored total."""
    import reference as wref

    doc, game = full_strategy()
    top = doc["top"]["next"]
    rng = random.Random(55)
    small = sorted(k for k, node in top.items() if node["total"] <= 40)
    chosen = (rng.sample([k for k in small if top[k].get("exact")], 2)
              + rng.sample([k for k in small if not top[k].get("exact") and "board" not in top[k]], 2)
              + rng.sample([k for k in small if "board" in top[k]], 1))
    for key in chosen:
        p1, p2 = key.split("/")
        board1 = ["trace"] if p1 == "GGGGG" else [a for a in game.answers if wref.wordle_feedback("trace", a) == p1]
        board2 = ["trace"] if p2 == "GGGGG" else [b for b in game.answers if wref.wordle_feedback("trace", b) == p2]
        pairs = [(a, b) for a in board1 for b in board2 if a != b]
        assert 0 < len(pairs) <= 40
        assert sum(_play_pair(doc, game, a, b)[0] - 1 for a, b in pairs) == top[key]["total"], key


def test_next_on_the_full_lists_answers_from_the_shipped_strategy(capsys):
    """`next dordle-trace-strategy` and `next --game dordle` with no tree name (the original lists,
    cap 7) answer from the file: the opener, then a stored branch's guess and its expected
    guesses (its total over its pairs)."""
    from wordtree.commands import main

    doc, game = full_strategy()
    node = doc["top"]["next"]["BBBBB/BYBBB"]
    board = {p: {a for a in game.answers if game.pattern_text(game.feedback("trace", a)) == p}
             for p in ("BBBBB", "BYBBB")}
    pairs = len(board["BBBBB"]) * len(board["BYBBB"]) - len(board["BBBBB"] & board["BYBBB"])  # (a, b), a != b
    for argv in (["next", "dordle-trace-strategy"], ["next", "--game", "dordle"], ["dordle", "next"]):
        assert main(argv) == 0
        assert capsys.readouterr().out.startswith("trace  (strategy: 2315 and 2315 candidates"), argv
        assert main([*argv, "trace:BBBBB/BYBBB", "--json"]) == 0
        out = orjson.loads(capsys.readouterr().out)
        assert (out["guess"], out["source"], out["pairs"]) == (node["guess"], "strategy", pairs), argv
        assert out["expected_guesses"] == round(node["total"] / pairs, 4) and out["expected_exact"]
    assert main(["candidates", "--game", "dordle", "trace:BBBBB/BYBBB"]) == 0
    assert capsys.readouterr().out.startswith("board 1: ")
    assert main(["next", "--game", "dordle", "--max-guesses", "8", "trace:BBBBB/BYBBB", "--seconds", "0.01",
                 "--json"]) == 0  # another cap: no strategy for it, the engine answers
    assert orjson.loads(capsys.readouterr().out)["source"] in ("heuristic", "exact")


def test_play_on_the_full_lists_proposes_the_shipped_strategys_guesses(capsys, monkeypatch):
    """`dordle play` with no tree on the original lists proposes the strategy's opener, then its
    stored branch's guess after the feedback typed for it."""
    import io

    from wordtree.commands import main

    doc, _ = full_strategy()
    monkeypatch.setattr("sys.stdin", io.StringIO("BBBBB/BYBBB\nq\n"))
    assert main(["dordle", "play"]) == 0
    out = capsys.readouterr().out
    assert "guess 1: trace  (strategy:" in out
    assert f"guess 2: {doc['top']['next']['BBBBB/BYBBB']['guess']}  (strategy:" in out


@pytest.mark.slow
def test_the_shipped_strategy_walks_to_its_total(capsys):
    """`wordtree verify` walks the shipped strategy's rule over all 5,356,910 ordered pairs and
    checks its total, mean, failed count, lower bound and every stored branch (10-20 minutes)."""
    from wordtree.commands import main

    assert main(["verify", "dordle-trace-strategy", "--json"]) == 0
    out = orjson.loads(capsys.readouterr().out)
    assert (out["total"], out["pairs"], out["failed"]) == (FULL_TOTAL, FULL_PAIRS, 0)
