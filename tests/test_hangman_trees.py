"""The shipped Hangman trees: each one passes the independent verifier, and what it claims holds
together (an optimal tree at least matches both baselines; a best-found one lies under its bound,
proven with the parts this version uses)."""

from pathlib import Path

import orjson
import pytest

from wordtree.hangman.bounds import bound_parts
from wordtree.hangman.tree import verify_file

TREES = sorted((Path(__file__).resolve().parent.parent / "trees" / "hangman").glob("hangman-*.json"))


def test_trees_are_shipped():
    assert TREES, "no trees in trees/hangman/"


@pytest.mark.parametrize("path", TREES, ids=[p.stem for p in TREES])
def test_tree_verifies(path):
    summary = verify_file(path)
    doc = orjson.loads(path.read_bytes())
    result, baselines = doc["result"], doc["baselines"]
    assert "enable1.txt" in doc["game"]["words"] and any("Alan Beale" in s for s in doc["sources"])
    for rule in ("frequency", "entropy"):
        assert result["total_score"] >= baselines[rule]["total_score"], rule
    if result["optimal"]:
        assert result["proof"] == "exhaustive" and "optimal" in summary
    else:
        assert result["bound"]["max_expected_score"] >= result["expected_score"]
        assert result["bound"]["parts"] == bound_parts(doc["game"]["word_length"]), "stale: build --bound-only"
        assert "not proven optimal" in summary


def test_the_readme_table_is_the_files():
    """The table of the Hangman trees in docs/results.md says what each shipped file says: its word
    count, optimal or best found, expected score, misses, words won, the frequency rule's figures
    and the proof or bound."""
    readme = (TREES[0].parent.parent.parent / "docs" / "results.md").read_text()
    section = readme[readme.index("## Hangman"):]
    rows = {}
    for line in section[section.index("| length |"):].splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        rows[int(cells[0])] = cells[1:]
    assert sorted(rows) == sorted(int(p.stem.split("-")[1]) for p in TREES)
    for path in TREES:
        doc = orjson.loads(path.read_bytes())
        r, rule = doc["result"], doc["baselines"]["frequency"]
        assert rows[int(path.stem.split("-")[1])] == [
            str(doc["game"]["words_count"]), "optimal" if r["optimal"] else "best found",
            f"{r['expected_score']:.4f}", f"{r['expected_misses']:.3f}", f"{r['win_rate'] * 100:.2f} %",
            f"{rule['expected_score']:.4f} ({rule['expected_misses']:.3f} misses)",
            "optimal (exhaustive search)" if r["optimal"] else f"score at most {r['bound']['max_expected_score']:.2f}"], path


def test_length_nine_matches_the_issue():
    path = [p for p in TREES if p.stem == "hangman-9"]
    assert path, "trees/hangman/hangman-9.json is missing: a shipped tree"
    result = orjson.loads(path[0].read_bytes())["result"]
    assert result["optimal"] and round(result["expected_misses"], 3) == 1.358


@pytest.mark.slow
@pytest.mark.parametrize("length", [12, 13, 14, 15, 8, 7])
def test_exact_search_reproduces_shipped_tree(length):
    """Re-run the exact search and compare with the shipped optimal tree's figures (length 8:
    about 5 minutes and 1.2 GB; length 7: about 10 minutes and 6 GB)."""
    import numpy as np

    from wordtree.hangman.game import load_hangman_words
    from wordtree.hangman.search import Searcher

    doc = orjson.loads((TREES[0].parent / f"hangman-{length}.json").read_bytes())
    hw = load_hangman_words(length)
    entries = {7: 37_500_000, 8: 7_500_000}.get(length, 500_000)
    s = Searcher(hw, doc["game"]["lives"], memo_entries=entries)
    cost, ok, _ = s.solve(np.arange(len(hw.words)), s.strikes)
    c, m = s.split_cost(cost)
    assert ok and doc["result"]["optimal"]
    assert (20 * len(hw.words) - c, m) == (doc["result"]["total_score"], doc["result"]["total_misses"])


KEPT = sorted((Path(__file__).resolve().parent.parent / "runs").glob("hangman-*.npz"))


def kept_search(path: Path):
    """(the words, a Searcher holding the kept search at `path`): a Hangman checkpoint in runs/
    of the ENABLE words of its length (hangman-N.npz) with 10 lives."""
    from wordtree.hangman.game import load_hangman_words
    from wordtree.hangman.search import Searcher

    hw = load_hangman_words(int(path.stem.split("-")[1]))
    kept = Searcher(hw, 10, memo_entries=16)
    assert kept.load_memo(path) > 0
    return hw, kept


@pytest.mark.parametrize(("length", "opener"), [(3, "a"), (4, "a"), (5, "e"), (6, "e")])
def test_a_kept_finished_search_proves_the_shipped_optimum_and_replays(length, opener):
    """runs/hangman-6.npz, -5.npz, -4.npz and -3.npz, the exact searches of lengths 6, 5, 4 and 3
    that took several runs each (each kept within 10 MB, see runs/README.md): a checkpoint of the
    ENABLE words of that length with 10 lives that holds the whole set's exact value, the shipped
    tree's score, every class of the optimal first letter solved and adding up to it, every other
    first letter shown no better by what it holds of its classes, and whose smallest exact values
    a fresh search finds again."""
    import numpy as np

    from wordtree.hangman.search import Searcher

    hw, kept = kept_search(Path(__file__).resolve().parent.parent / "runs" / f"hangman-{length}.npz")
    everyone = np.arange(len(hw.words))

    def solved(part, strikes: int) -> int:
        value, exact = kept.known(part, strikes)
        assert exact
        return value

    shipped = orjson.loads((TREES[0].parent / f"hangman-{length}.json").read_bytes())["result"]
    assert shipped["optimal"]
    whole = solved(everyone, kept.strikes)
    assert whole == kept.opening_cost(everyone, kept.strikes, ord(opener) - ord("a"), solved)
    # the proof itself: what the file holds of every other first letter's classes shows it no better
    assert all(kept.opening_cost(everyone, kept.strikes, c, lambda part, r: kept.known(part, r)[0]) >= whole
               for c in kept.useful_letters(everyone))
    assert kept.split_cost(whole) == (20 * shipped["total_weight"] - shipped["total_score"], shipped["total_misses"])
    n = kept.memo_entries
    small = [e for e in np.argsort(kept.memo.e_size[:n], kind="stable") if kept.memo.e_exact[e] and kept.memo.e_size[e] >= 4][:30]
    fresh = Searcher(hw, 10, memo_entries=100_000)
    for e in small:
        members = kept.memo.entry_set(e)
        value, ok, _ = fresh.solve(members, int(kept.memo.e_r[e]))
        assert ok and value == kept.memo.e_val[e]


@pytest.mark.parametrize("path", KEPT, ids=[p.stem for p in KEPT])
def test_a_kept_search_holds_only_facts(path):
    """Every Hangman checkpoint kept in runs/ (runs/README.md), finished or not: a search of the
    ENABLE words of its length with 10 lives whose smallest exact values a fresh search finds
    again and whose smallest lower bounds lie at or under what a fresh search finds, and whose
    first letters leave room for the shipped tree: the least of their proven costs (each letter's
    misses plus its classes' values or bounds, what --status reads) is at most the tree's."""
    import numpy as np

    from wordtree.hangman.search import Searcher, Totals

    hw, kept = kept_search(path)
    length = len(hw.words[0])
    n = kept.memo_entries
    fresh = Searcher(hw, 10, memo_entries=200_000)
    checked = {True: 0, False: 0}
    for e in np.argsort(kept.memo.e_size[:n], kind="stable")[:400]:
        exact = bool(kept.memo.e_exact[e])
        if checked[exact] == 15:
            continue
        members = kept.memo.entry_set(e).astype(np.int64)
        # exact: nothing below the value, and the value itself found; a bound: nothing below it
        found = fresh.solve_below(members, int(kept.memo.e_r[e]), int(kept.memo.e_val[e]) + exact, max_nodes=200_000)
        if found is not None:
            assert found == ((int(kept.memo.e_val[e]), True) if exact else (found[0], False)), (e, found)
            checked[exact] += 1
    assert checked[True] == 15 and checked[False] > 0
    everyone = np.arange(len(hw.words))
    tree = orjson.loads((TREES[0].parent / f"hangman-{length}.json").read_bytes())["result"]
    tree_cost = kept.totals_cost(Totals(tree["total_misses"], tree["lost_weight"], kept.total_weight))
    least = min(kept.opening_cost(everyone, kept.strikes, c, lambda part, r: kept.known(part, r)[0])
                for c in kept.useful_letters(everyone))
    assert least <= tree_cost


@pytest.mark.parametrize("path", KEPT, ids=[p.stem for p in KEPT])
def test_the_bounds_stay_under_every_exact_value_kept(path):
    """Soundness on the real games, not only on small ones: every exact value a kept search
    proved (runs/, among them classes of the first letters of thousands of words) is at or above
    what the search's bounds (the miss spine, the free letters, the family bound, the misses
    between families) give for that set, computed afresh with an empty memo."""
    import numpy as np

    from wordtree.hangman.search import Searcher

    hw, kept = kept_search(path)
    fresh = Searcher(hw, 10, memo_entries=16)
    exact = np.flatnonzero(kept.memo.e_exact[:kept.memo_entries])
    for e in exact:
        members = kept.memo.entry_set(e)
        assert fresh.lower_bound(members, int(kept.memo.e_r[e]), levels=0) <= kept.memo.e_val[e], (path.stem, e)
    assert len(exact) >= 100 and kept.memo.e_size[exact].max() >= len(hw.words) // 2


# ------------------------------------------------------------------------------------------------
# a tree file is untrusted: every figure it states is recomputed, its lists found by name only,
# and its optimality claim re-proved on request (verify --prove)
# ------------------------------------------------------------------------------------------------
def _run_cli(*args):
    import subprocess
    import sys

    return subprocess.run([sys.executable, str(TREES[0].parent.parent.parent / "cli.py"), *map(str, args)],
                          capture_output=True, text=True, timeout=600)


def _one_line_error(out, *needles):
    """One error line, whatever notices come before it (a kernel compiled on a cold numba cache)."""
    assert out.returncode == 1 and "Traceback" not in out.stderr, out
    lines = [line for line in out.stderr.strip().splitlines() if not line.startswith("notice: ")]
    assert len(lines) == 1 and lines[0].startswith("wordtree: error: "), out.stderr
    assert all(n in lines[0] for n in needles), out.stderr


@pytest.mark.parametrize(("section", "key", "change"), [
    ("result", "expected_score", 0.5), ("result", "expected_misses", -0.1), ("result", "win_rate", -0.01),
    ("frequency", "expected_score", 0.25), ("frequency", "total_misses", -3), ("entropy", "win_rate", 0.001),
])
def test_false_figures_fail_verify(tmp_path, section, key, change):
    from wordtree.errors import UserError

    doc = orjson.loads((TREES[0].parent / "hangman-2.json").read_bytes())
    figures = doc["result"] if section == "result" else doc["baselines"][section]
    figures[key] = round(figures[key] + change, 6)
    path = tmp_path / "t.json"
    path.write_bytes(orjson.dumps(doc))
    with pytest.raises(UserError, match=key):
        verify_file(path)
    _one_line_error(_run_cli("verify", path), key)


@pytest.mark.parametrize("name", ["/etc/passwd", "../wordlists/enable1.txt", "/dev/zero"])
def test_a_hostile_words_name_is_refused(tmp_path, name):
    from wordtree.errors import UserError

    doc = orjson.loads((TREES[0].parent / "hangman-2.json").read_bytes())
    doc["game"]["words"] = name
    path = tmp_path / "t.json"
    path.write_bytes(orjson.dumps(doc))
    with pytest.raises(UserError, match="word list not found"):
        verify_file(path)
    out = _run_cli("verify", path)
    _one_line_error(out, "word list not found", "--answers FILE")
    assert "root:" not in out.stderr
    enable = TREES[0].parent.parent.parent / "wordlists" / "enable1.txt"
    assert _run_cli("verify", path, "--answers", enable).returncode == 0  # the user's list is used


def test_verify_says_the_claim_was_not_reproved_and_prove_reads_the_kept_search():
    path = TREES[0].parent / "hangman-3.json"
    out = _run_cli("verify", path)
    assert out.returncode == 0 and "optimal: claimed, not re-proved (run verify --prove)" in out.stdout, out
    out = _run_cli("verify", path, "--prove")
    assert out.returncode == 0 and "optimal: re-proved by the kept search hangman-3.npz" in out.stdout, out


def test_prove_fails_a_rule_tree_labelled_optimal(tmp_path):
    """A frequency-rule tree relabelled optimal verifies (its figures are its own) but fails
    verify --prove, which searches again (no kept search is of these words)."""
    import random

    from wordtree.hangman.driver import build_length

    for seed in range(40):
        rng = random.Random(seed)
        words = sorted({"".join(rng.choice("abcdefgh") for _ in range(4)) for _ in range(60)})
        (tmp_path / "w.txt").write_text("\n".join(words) + "\n")
        made = {}
        for strategy in ("frequency", None):
            build_length(4, tmp_path / f"{strategy}.json", words=str(tmp_path / "w.txt"), lives=2,
                         strategy=strategy, progress=False)
            made[strategy] = orjson.loads((tmp_path / f"{strategy}.json").read_bytes())
        if made["frequency"]["result"]["total_score"] < made[None]["result"]["total_score"]:
            break
    else:
        pytest.fail("no word list where the frequency rule is beaten")
    doc = made["frequency"]
    doc["result"].update(optimal=True, proof="exhaustive")
    path = tmp_path / "t.json"
    path.write_bytes(orjson.dumps(doc))
    listed = ["--answers", tmp_path / "w.txt"]  # a list beside the tree is not looked for: it is given
    out = _run_cli("verify", path, *listed)
    assert out.returncode == 0 and "optimal: claimed, not re-proved" in out.stdout, out
    out = _run_cli("verify", path, "--prove", *listed)
    assert out.returncode == 1 and "the optimality claim fails" in out.stderr, out
    assert f"the optimum scores {made[None]['result']['total_score']}" in out.stderr
    assert _run_cli("verify", tmp_path / "None.json", "--prove", *listed).returncode == 0
    _one_line_error(_run_cli("verify", path), "word list not found", "--answers FILE")
