"""Hangman engine: feedback, the baseline rules and the exact search against plain references,
the reference figures of the issue, tree files and their verifier."""

import random
import re

import numpy as np
import orjson
import pytest

import reference_hangman as ref
from wordtree.errors import UserError
from wordtree.commands.hangman import run_build_hangman
from wordtree.hangman import kernels as K
from wordtree.hangman.baselines import best_found_chooser, rollout_letter, rule_totals
from wordtree.hangman.bounds import partition, partition_bound
from wordtree.hangman.driver import build_length
from wordtree.hangman.game import HangmanWords, letter_mask, load_hangman_words, mask_table, mask_text, parse_mask_text
from wordtree.hangman.memo import ENTRY_BYTES, checksum_member, memo_capacity
from wordtree.hangman.search import Searcher, refute_openings, solve_in_slices, split
from wordtree.hangman.tree import verify_document, verify_file


def tiny_words(rng, n, length, alphabet):
    words = set()
    while len(words) < n:
        words.add("".join(rng.choice(alphabet) for _ in range(length)))
    return sorted(words)


def make(words, weights=None):
    weights = np.array([weights[w] for w in words] if weights else [1] * len(words), dtype=np.int64)
    ident = {"name": "hangman", "word_length": len(words[0]), "words": "test", "words_count": len(words)}
    return HangmanWords(len(words[0]), tuple(words), weights, mask_table(words, len(words[0])), ident)


def test_feedback_text_and_masks():
    assert mask_text(letter_mask("p", "apple"), "p", 5) == "-pp--" == ref.feedback("p", "apple")
    assert mask_text(letter_mask("z", "apple"), "z", 5) == "-----"
    assert parse_mask_text("-PP--", "p", 5) == 0b00110
    with pytest.raises(UserError):
        parse_mask_text("-pq--", "p", 5)
    rng = random.Random(1)
    words = tiny_words(rng, 300, 6, "abcde")
    table = mask_table(words, 6)
    for i, w in enumerate(words):
        for c in range(26):
            assert mask_text(int(table[i, c]), chr(97 + c), 6) == ref.feedback(chr(97 + c), w)


# every combination of the search's switchable rules: each must leave every value unchanged
RULE_SWITCHES = [dict(free_first=f, family_bound=b) for f in (False, True) for b in (False, True)]


@pytest.mark.parametrize("switches", RULE_SWITCHES,
                         ids=lambda d: f"free_first={d['free_first']},families={d['family_bound']}")
@pytest.mark.parametrize("seed", range(25))
def test_exact_search_matches_brute_force(seed, switches):
    rng = random.Random(seed)
    length = rng.choice([2, 3, 4])
    words = tiny_words(rng, rng.randint(2, 8), length, "abcdefg"[: rng.randint(3, 7)])
    lives = rng.randint(0, 3)
    weights = {w: rng.randint(1, 5) for w in words} if seed % 3 == 0 else None
    hw = make(words, weights)
    s = Searcher(hw, lives, memo_entries=1000, **switches)
    cost, ok, _ = s.solve(np.arange(len(words)), s.strikes)
    assert ok
    c, m = s.split_cost(cost)
    expected_score, expected_misses = ref.optimal(words, lives, weights)
    assert (20 * hw.total_weight - c, m) == (expected_score, expected_misses), (words, lives)


@pytest.mark.parametrize("seed", range(6))
def test_the_kernels_bundles_as_the_searcher_allocates_them_solve_as_brute_force(seed):
    """The kernels take their arrays in named bundles (kernels.Words, Families, Terms, Scratch, Search,
    MemoEntries):
    those a Searcher and its Memo build, handed to the kernels directly (_solve, then _bound of
    the solved set, which the memo then holds exactly, and _bound of a fresh searcher below it),
    give the slow reference's value; and the memo's bundle is its arrays, named and typed as the
    file keeps them. A field the allocating code and the kernels do not agree on fails here."""
    from wordtree.hangman.memo import MEMO_ARRAYS

    assert K.MemoEntries._fields == tuple(MEMO_ARRAYS)
    rng = random.Random(4100 + seed)
    words = tiny_words(rng, rng.randint(3, 7), rng.choice([2, 3, 4]), "abcdef"[: rng.randint(3, 6)])
    lives = rng.randint(0, 3)
    weights = {w: rng.randint(1, 5) for w in words} if seed % 2 else None
    hw = make(words, weights)
    s, fresh = (Searcher(hw, lives, memo_entries=1000) for _ in range(2))
    for name, dtype in MEMO_ARRAYS.items():
        assert getattr(s.memo.held, name) is getattr(s.memo, name) and getattr(s.memo, name).dtype == dtype
    size = s.load_for_memo(np.arange(len(words)))
    s.ctr[K.MAX_NODES] = 2**62
    value, exact = K._solve(s.words, s.families, s.terms, s.scratch, s.search, s.memo.table, s.memo.held, 0, 0, size,
                            s.strikes, K.INF)
    c, m = s.split_cost(int(value))
    assert exact and not s.ctr[K.ABORTED] and (20 * hw.total_weight - c, m) == ref.optimal(words, lives, weights)
    assert K._bound(s.words, s.families, s.terms, s.scratch, s.memo.table, s.memo.held, 0, 0, size, s.strikes,
                    1) == value
    fresh.load_for_memo(np.arange(len(words)))
    for levels in (0, 1, 2):
        assert K._bound(fresh.words, fresh.families, fresh.terms, fresh.scratch, fresh.memo.table, fresh.memo.held, 0,
                        0, size, fresh.strikes, levels) <= value
    misses, lost = K._rule_totals(s.words, s.scratch, 0, 0, size, s.strikes, K.RULE_FREQUENCY)
    w = weights or {x: 1 for x in words}
    games = {x: ref.play_rule(words, x, lives, "frequency", weights) for x in words}
    assert (misses, lost) == (sum(w[x] * g for x, (_, g) in games.items()),
                              sum(w[x] for x, (won, _) in games.items() if not won))


@pytest.mark.parametrize("seed", range(30))
def test_free_letters_and_families_match_brute_force(seed):
    """Families (words differing in one or two positions, sharing the rest) are where free letters
    (in every candidate, at different positions) occur; brute force sees every letter."""
    rng = random.Random(500 + seed)
    length = rng.choice([3, 4])
    stem = [rng.choice("abcde") for _ in range(length)]
    spots = rng.sample(range(length), rng.choice([1, 2]))
    words, target = set(), rng.randint(3, 7)
    while len(words) < target:
        w = list(stem)
        for p in spots:
            w[p] = rng.choice("abcdefg")
        words.add("".join(w))
    words = sorted(words)
    lives = rng.randint(0, 4)
    expected = ref.optimal(words, lives)
    values = set()
    for switches in RULE_SWITCHES:
        s = Searcher(make(words), lives, memo_entries=1000, **switches)
        cost, ok, _ = s.solve(np.arange(len(words)), s.strikes)
        c, m = s.split_cost(cost)
        assert ok and (20 * len(words) - c, m) == expected, (words, lives, switches)
        bounds = [s.lower_bound(np.arange(len(words)), s.strikes, levels) for levels in (0, 1)]
        assert max(bounds) <= cost
        values.add(cost)
    assert len(values) == 1


@pytest.mark.parametrize("seed", range(30))
def test_family_bound_matches_its_reference_and_stays_below_brute_force(seed):
    """kernels._family_bound against the literal families of tests/reference_hangman.py (each
    position's forced misses and losses; the kernel keeps the costliest), on family-rich subsets,
    weighted or not, and below the optimum that brute force finds: it is a lower bound."""
    from wordtree.hangman import kernels as K

    rng = random.Random(1300 + seed)
    length = rng.choice([3, 4])
    stem = [rng.choice("abcde") for _ in range(length)]
    words = set(tiny_words(rng, rng.randint(0, 3), length, "abcdefgh"))
    target = rng.randint(5, 9)
    while len(words) < target:
        w = list(stem)
        for p in rng.sample(range(length), rng.choice([1, 1, 2])):
            w[p] = rng.choice("abcdefgh")
        words.add("".join(w))
    words = sorted(words)
    weights = {w: rng.randint(1, 5) for w in words} if seed % 2 else None
    hw = make(words, weights)
    s = Searcher(hw, rng.randint(0, 3), memo_entries=16)
    if seed % 3 == 0:  # the counts' tags about to run out: the kernel must clear them and count afresh
        s.families.fam_keys[len(words) * length] = (1 << 30) - 1
    for _ in range(3):  # one after another: what a call leaves in its scratch must not leak into the next
        subset = sorted(rng.sample(range(len(words)), rng.randint(2, len(words))))
        members = np.array(subset, dtype=np.int32)
        miss_w, useful = np.zeros(26, dtype=np.int64), np.zeros(26, dtype=np.uint8)
        K._letter_stats(s.masks, s.weights, members, 0, len(members), miss_w, useful)
        got = K._family_bound(s.words, s.families, s.terms, members, 0, len(subset), s.strikes, miss_w, useful)
        chosen = [words[i] for i in subset]
        forced = ref.family_bound(chosen, s.lives, weights, other_misses=s.lives * s.miss_cost <= s.lost_cost)
        assert got == max(m * s.miss_cost + lost * s.lost_cost for m, lost in forced), (chosen, s.lives, weights)
        score, wrong = ref.optimal(chosen, s.lives, weights)
        weight = sum((weights or {}).get(w, 1) for w in chosen)
        assert got <= (20 * weight - score) * s.key + wrong


@pytest.mark.parametrize("length", [3, 4])
def test_the_misses_between_families_raise_the_family_bound(length):
    """Not dead weight: on 120 real words of 3 and 4 letters, the kernel's family bound must be
    its reference's with the misses outside the families added, and above it without them."""
    from wordtree.hangman import kernels as K

    hw = load_hangman_words(length)
    s = Searcher(hw, 10, memo_entries=16)
    members = np.sort(np.random.default_rng(length).choice(len(hw.words), 120, replace=False)).astype(np.int32)
    miss_w, useful = np.zeros(26, dtype=np.int64), np.zeros(26, dtype=np.uint8)
    K._letter_stats(s.masks, s.weights, members, 0, len(members), miss_w, useful)
    got = K._family_bound(s.words, s.families, s.terms, members, 0, len(members), s.strikes, miss_w, useful)
    chosen = [hw.words[i] for i in members]
    with_them, without = (max(m * s.miss_cost + lost * s.lost_cost
                              for m, lost in ref.family_bound(chosen, s.lives, None, other)) for other in (True, False))
    assert got == with_them > without


def test_family_bound_cuts_the_search_of_short_words():
    """Not a timing: on 150 of the 3-letter words, where families like `?at` abound, the search
    with the family bound must visit fewer nodes for the same value, or the bound is dead weight."""
    hw = load_hangman_words(3)
    members = np.sort(np.random.default_rng(1).choice(len(hw.words), 150, replace=False))
    found = {}
    for family in (False, True):
        s = Searcher(hw, 10, memo_entries=200_000, family_bound=family)
        cost, ok, _ = s.solve(members, s.strikes)
        found[family] = (ok, cost, s.nodes)
    assert found[True][:2] == found[False][:2] and found[True][0]
    assert found[True][2] < found[False][2]


@pytest.mark.parametrize("seed", range(40))
def test_pairs_are_solved_without_a_search_as_brute_force_solves_them(seed):
    """kernels._pair_cost: two words, weighted or not, 0 to 3 lives (a pair's loss), and the first
    letter it names plays the value (the tree builder asks the search for it)."""
    rng = random.Random(900 + seed)
    words = tiny_words(rng, 2, rng.choice([2, 3, 4]), "abcdef"[: rng.randint(2, 6)])
    weights = {w: rng.randint(1, 4) for w in words} if seed % 2 else None
    lives = rng.randint(0, 3)
    hw = make(words, weights)
    s = Searcher(hw, lives, memo_entries=16)
    cost, ok, letter = s.solve(np.arange(2), s.strikes)
    c, m = s.split_cost(cost)
    assert ok and s.nodes == 0 and (20 * hw.total_weight - c, m) == ref.optimal(words, lives, weights)
    if lives > 0:  # with none, both words are lost before any letter
        played = sum(s.solve(part, s.strikes - (mask == 0))[0] + (mask == 0) * int(hw.weights[part].sum()) * s.miss_cost
                     for mask, part in split(hw, np.arange(2), letter))
        assert played == cost


@pytest.mark.parametrize("seed", range(20))
def test_strikes_beyond_the_most_misses_of_a_set_are_one_state(seed):
    """kernels._strikes_that_count against its literal definition (one more than the most letters
    of the other words that a word lacks), and brute force: with that many lives or more the
    optimum is the same, so the memo may key them as one."""
    from wordtree.hangman import kernels as K

    rng = random.Random(700 + seed)
    words = tiny_words(rng, rng.randint(2, 6), 3, "abcdef"[: rng.randint(3, 6)])
    hw = make(words)
    s = Searcher(hw, 0, memo_entries=16)
    everyone = np.arange(len(words), dtype=np.int32)
    most = max(len(set("".join(words)) - set(w)) for w in words)
    for r in range(1, most + 4):
        assert K._strikes_that_count(s.words.letters, everyone, 0, len(words), r) == min(r, most + 1)
    optima = {ref.optimal(words, lives) for lives in range(most, most + 3)}  # strikes = lives + 1
    assert len(optima) == 1


def test_free_first_searches_fewer_nodes_on_a_family():
    """Not a timing: the rule must actually cut the search where it applies (a family with free
    letters), or it is dead weight."""
    words = ["catch", "hatch", "batch", "latch", "match", "patch", "watch", "natch", "ketch", "retch"]
    nodes = {}
    for free in (False, True):
        s = Searcher(make(sorted(words)), 10, memo_entries=10_000, free_first=free)
        cost, ok, _ = s.solve(np.arange(len(words)), s.strikes)
        nodes[free] = (s.nodes, cost)
    assert nodes[True][1] == nodes[False][1] and nodes[True][0] < nodes[False][0]


def test_search_with_tiny_budget_never_claims_a_result():
    words = load_hangman_words(3).words[:200]
    s = Searcher(make(list(words)), 10, memo_entries=10_000)
    _, ok, _ = s.solve(np.arange(200), s.strikes, max_nodes=50)
    assert not ok
    cost, ok, _ = s.solve(np.arange(30), s.strikes)  # a smaller set still solves exactly after the abort
    assert ok
    fresh = Searcher(make(list(words)), 10, memo_entries=10_000)
    assert fresh.solve(np.arange(30), fresh.strikes)[0] == cost


@pytest.mark.parametrize("seed", range(20))
def test_lower_bound_is_below_optimum(seed):
    rng = random.Random(100 + seed)
    words = tiny_words(rng, rng.randint(3, 14), 3, "abcdefgh")
    hw = make(words)
    s = Searcher(hw, rng.randint(1, 3), memo_entries=1000)
    everyone = np.arange(len(words))
    bounds = [s.lower_bound(everyone, s.strikes, levels) for levels in (0, 1, 2)]
    cost, ok, _ = s.solve(everyone, s.strikes)
    assert ok and max(bounds) <= cost
    assert s.lower_bound(everyone, s.strikes, 1) == cost  # a solved state's bound is its value


@pytest.mark.parametrize("rule", ["frequency", "entropy"])
@pytest.mark.parametrize("seed", range(5))
def test_rules_match_reference(rule, seed):
    rng = random.Random(200 + seed)
    words = tiny_words(rng, rng.randint(5, 60), rng.choice([3, 4, 5]), "abcdefghij"[: rng.randint(4, 10)])
    lives = rng.randint(1, 6)
    weights = {w: rng.randint(1, 9) for w in words} if seed % 2 else None
    hw = make(words, weights)
    t = rule_totals(Searcher(hw, lives, memo_entries=16), rule)
    w = weights or {x: 1 for x in words}
    games = {x: ref.play_rule(words, x, lives, rule, weights) for x in words}
    assert t.lost == sum(w[x] for x, (won, _) in games.items() if not won)
    assert t.misses == sum(w[x] * m for x, (_, m) in games.items())


def test_frequency_rule_on_enable_2_matches_reference():
    words = load_hangman_words(2).words
    t = rule_totals(Searcher(make(list(words)), 10, memo_entries=16), "frequency")
    games = [ref.play_rule(words, x, 10, "frequency") for x in words]
    assert t.lost == sum(not won for won, _ in games)
    assert t.misses == sum(m for _, m in games)


# The issue's reference figures for the frequency rule over ENABLE, 10 lives: win %, misses.
ISSUE_FIGURES = {2: (90.6, 6.00), 3: (77.3, 7.26), 4: (92.2, 6.16), 5: (98.2, 4.82), 8: (100.0, 2.06), 15: (100.0, 0.21)}


@pytest.mark.parametrize("length", sorted(ISSUE_FIGURES))
def test_frequency_rule_reproduces_issue_figures(length):
    hw = load_hangman_words(length)
    t = rule_totals(Searcher(hw, 10, memo_entries=16), "frequency").as_dict()
    win, misses = ISSUE_FIGURES[length]
    assert round(100 * t["win_rate"], 1) == win
    assert round(t["expected_misses"], 2) == misses


def test_entropy_rule_does_worse_from_four_letters():
    for length in (4, 5, 8):
        s = Searcher(load_hangman_words(length), 10, memo_entries=16)
        assert rule_totals(s, "entropy").score < rule_totals(s, "frequency").score


@pytest.mark.parametrize("strategy", [None, "frequency", "entropy"])
def test_built_tree_verifies_and_verifier_catches_defects(tmp_path, strategy):
    words = tmp_path / "words.txt"
    rng = random.Random(5)
    words.write_text("\n".join(tiny_words(rng, 40, 4, "abcdefghi")) + "\n")
    line = build_length(4, tmp_path / "t.json", words=str(words), lives=3, strategy=strategy)
    assert "expected score" in line
    doc = orjson.loads((tmp_path / "t.json").read_bytes())
    assert doc["result"]["optimal"] is (strategy is None)
    hw = make(sorted(set(words.read_text().split())))
    if strategy is None:
        score, misses = ref.optimal(list(hw.words), 3)
        assert (doc["result"]["total_score"], doc["result"]["total_misses"]) == (score, misses)
    with pytest.raises(UserError, match="word list not found"):  # the list beside the tree is not looked for
        verify_file(tmp_path / "t.json")
    verify_file(tmp_path / "t.json", str(words))
    bad = orjson.loads(orjson.dumps(doc))
    bad["result"]["total_misses"] += 1
    with pytest.raises(UserError, match="total_misses"):
        verify_document(bad, str(words))
    bad = orjson.loads(orjson.dumps(doc))
    first = next(iter(bad["tree"]["next"]))
    bad["tree"]["next"][first] = "zzzz"
    with pytest.raises(UserError):
        verify_document(bad, str(words))
    bad = orjson.loads(orjson.dumps(doc))
    bad["tree"]["next"]["-" * 3 + "q"] = "aaaa"
    with pytest.raises(UserError, match="no word reaches"):
        verify_document(bad, str(words))
    bad = orjson.loads(orjson.dumps(doc))
    bad["game"]["lives"] = 2
    with pytest.raises(UserError):
        verify_document(bad, str(words))


def test_a_best_found_tree_that_reaches_its_bound_is_optimal(tmp_path):
    """A build cut short by --max-nodes whose best-found tree reaches the proven bound (score and,
    at that score, wrong guesses) says optimal, "bound met", and brute force agrees; the
    verifier rejects that claim when the tree falls short of the bound it names."""
    words = tiny_words(random.Random(11), 80, 4, "abcdefghijk")
    (tmp_path / "w.txt").write_text("\n".join(words) + "\n")
    # (the bound found without a node limit: in 100 nodes the parts, here all the words, are not solved)
    line = build_length(4, tmp_path / "t.json", words=str(tmp_path / "w.txt"), lives=4, max_nodes=100, progress=False,
                        bound_nodes=None)
    doc = orjson.loads((tmp_path / "t.json").read_bytes())
    result = doc["result"]
    assert doc["strategy"] == "best-found" and "search" in result and result["search"]["max_nodes"] == 100
    assert result["optimal"] and result["proof"] == "bound met" and "- optimal (bound met) [" in line
    assert (result["total_score"], result["total_misses"]) == ref.optimal(sorted(set(words)), 4)
    bad = orjson.loads(orjson.dumps(doc))
    bad["result"]["bound"]["least_total_misses_at_max"] -= 1
    with pytest.raises(UserError, match="does not reach"):
        verify_document(bad, str(tmp_path / "w.txt"))


def test_verify_takes_the_weights_file_given_never_one_beside_the_tree(tmp_path):
    """A tree built with a weights file that is not shipped verifies only when it is given: the
    build's own verification is given the files it used, `verify` takes --weights FILE."""
    import pathlib
    import subprocess
    import sys

    words = tiny_words(random.Random(7), 30, 4, "abcdefgh")
    (tmp_path / "w.txt").write_text("\n".join(words) + "\n")
    (tmp_path / "f.tsv").write_text("".join(f"{w}\t{i % 4 + 1}\n" for i, w in enumerate(words)))
    line = build_length(4, tmp_path / "t.json", words=str(tmp_path / "w.txt"), weights=str(tmp_path / "f.tsv"),
                        lives=3, progress=False)
    assert "expected score" in line
    with pytest.raises(UserError, match="'f.tsv': word list not found"):
        verify_file(tmp_path / "t.json", str(tmp_path / "w.txt"))
    assert "expected score" in verify_file(tmp_path / "t.json", str(tmp_path / "w.txt"), str(tmp_path / "f.tsv"))
    cli = [sys.executable, str(pathlib.Path(__file__).resolve().parent.parent / "cli.py"), "verify", str(tmp_path / "t.json"),
           "--answers", str(tmp_path / "w.txt")]
    out = subprocess.run(cli, capture_output=True, text=True)
    assert out.returncode == 1 and "--weights FILE" in out.stderr, out.stderr
    out = subprocess.run([*cli, "--weights", str(tmp_path / "f.tsv")], capture_output=True, text=True)
    assert out.returncode == 0 and "expected score" in out.stdout, out.stderr


def test_build_options_and_run_build_hangman(tmp_path, capsys):
    """As `wordtree build hangman` calls them: the options parsed by build's own parser for hangman."""
    words = tmp_path / "w.txt"
    words.write_text("ab\nba\nbb\nac\nca\nxy\n")
    p = _HangmanBuildParser()
    args = p.parse_args(["hangman", "--length", "2", "--words", str(words), "--lives", "1", "-o", str(tmp_path / "t.json")])
    assert run_build_hangman(args) == 0
    assert "optimal (exhaustive)" in capsys.readouterr().out
    score, misses = ref.optimal(["ab", "ba", "bb", "ac", "ca", "xy"], 1)
    doc = orjson.loads((tmp_path / "t.json").read_bytes())
    assert (doc["result"]["total_score"], doc["result"]["total_misses"]) == (score, misses)
    args = p.parse_args(["hangman", "--length", "2", "--words", str(words), "--strategy", "entropy", "-o", str(tmp_path / "e.json")])
    run_build_hangman(args)
    assert orjson.loads((tmp_path / "e.json").read_bytes())["strategy"] == "entropy"
    with pytest.raises(UserError):
        run_build_hangman(p.parse_args(["hangman", "--words", str(words)]))


def seven_letter_build(tmp_path):
    """(words, their list file, a parser of build's hangman options) for the builds of 7 letters
    that stop before their search finishes: 300 words whose exact search takes 2561 nodes, and whose
    best-found tree after 5 nodes scores 16.42 against the bound's 16.56 (smaller games reach their
    bound, and are then optimal, tree.meets_bound)."""
    listed = tiny_words(random.Random(21), 300, 7, "abcdefghijklmnop")
    words = tmp_path / "w.txt"
    words.write_text("\n".join(listed) + "\n")
    return listed, words, _HangmanBuildParser()


class _HangmanBuildParser:
    """`wordtree build`'s parser for the game hangman (commands.build_parser): parse_args takes
    the words after `build`."""

    def __init__(self):
        from wordtree.commands import build_parser

        self.parser = build_parser(["build", "hangman"])

    def parse_args(self, argv):
        return self.parser.parse_args(["build", *argv])


def test_cli_build_records_a_sound_bound_when_unfinished(tmp_path, capsys, monkeypatch):
    """A length-7 build that runs out of nodes writes the best tree found and the bound of
    bound_parts(7) (parts agreeing on the first letter), recorded in the file, between the
    tree's score and the optimum that a full search proves; a rebuild keeps the bound of the
    tree at -o, or of the shipped one."""
    from wordtree.hangman.bounds import bound_parts

    listed, words, p = seven_letter_build(tmp_path)
    args = p.parse_args(["hangman", "--length", "7", "--words", str(words), "--lives", "3", "--max-nodes", "5",
                         "-o", str(tmp_path / "t.json")])
    assert run_build_hangman(args) == 0 and "not proven optimal" in capsys.readouterr().out
    result = orjson.loads((tmp_path / "t.json").read_bytes())["result"]
    assert result["bound"]["parts"] == bound_parts(7) and bound_parts(7)["levels"] == 1
    s = Searcher(make(listed), 3, memo_entries=100_000)
    optimum, ok, _ = s.solve(np.arange(len(listed)), s.strikes)
    best_score = 20 - s.split_cost(optimum)[0] / len(listed)
    assert ok and result["expected_score"] <= best_score <= result["bound"]["max_expected_score"] + 1e-6
    # a rebuild over it keeps a bound proven this version's way (a fact of the game), else proves it
    for how, kept in ((result["bound"]["how"], True), ("another way", False)):
        doc = orjson.loads((tmp_path / "t.json").read_bytes())
        doc["result"]["bound"].update(how=how, seconds=-1.0)
        (tmp_path / "t.json").write_bytes(orjson.dumps(doc))
        assert run_build_hangman(args) == 0
        again = orjson.loads((tmp_path / "t.json").read_bytes())["result"]["bound"]
        assert (again["seconds"] == -1.0) is kept and again["max_expected_score"] == result["bound"]["max_expected_score"]
    # and so does a build written elsewhere, from the shipped tree of the game when -o holds none
    import wordtree.hangman

    shipped = tmp_path / "shipped"
    shipped.mkdir()
    (shipped / words.name).write_bytes(words.read_bytes())  # where the shipped tree's words are found
    doc = orjson.loads((tmp_path / "t.json").read_bytes())
    doc["result"]["bound"].update(how=result["bound"]["how"], seconds=-1.0)
    (shipped / "hangman-7.json").write_bytes(orjson.dumps(doc))
    monkeypatch.setattr(wordtree.hangman, "TREE_DIR", shipped)
    args.output = str(tmp_path / "elsewhere.json")
    assert run_build_hangman(args) == 0
    assert orjson.loads((tmp_path / "elsewhere.json").read_bytes())["result"]["bound"]["seconds"] == -1.0


def test_cli_bound_only_proves_the_bound_of_a_written_tree_again(tmp_path):
    """--bound-only rewrites the bound of the best-found tree at -o, as a build would prove it,
    and leaves the tree and its figures as they were; a missing file, a tree of another game and
    an optimal tree are each refused with a UserError naming the file."""

    listed, words, p = seven_letter_build(tmp_path)
    tree = tmp_path / "t.json"
    common = ["hangman", "--length", "7", "--words", str(words), "--lives", "3", "-o", str(tree)]
    assert run_build_hangman(p.parse_args([*common, "--max-nodes", "5"])) == 0
    built = orjson.loads(tree.read_bytes())
    stale = {**built, "result": {**built["result"], "bound": {"max_expected_score": 20.0}}}
    tree.write_bytes(orjson.dumps(stale))
    assert run_build_hangman(p.parse_args([*common, "--bound-only"])) == 0
    again = orjson.loads(tree.read_bytes())
    # the build's bound was found within its --max-nodes, the bound-only one without a node limit: as strong or more
    assert again["result"]["bound"]["max_expected_score"] <= built["result"]["bound"]["max_expected_score"] < 20
    assert again["tree"] == built["tree"]
    assert {k: v for k, v in again["result"].items() if k != "bound"} == {k: v for k, v in built["result"].items()
                                                                          if k != "bound"}
    tree.write_bytes(orjson.dumps({k: v for k, v in built.items() if k != "result"}))
    with pytest.raises(UserError, match="t.json: result"):  # the verifier names what is missing
        run_build_hangman(p.parse_args([*common, "--bound-only"]))
    tree.write_bytes(orjson.dumps(built))
    with pytest.raises(UserError, match="another game"):
        run_build_hangman(p.parse_args([*common[:-4], "--lives", "2", "-o", str(tree), "--bound-only"]))
    with pytest.raises(UserError, match="needs the tree"):
        run_build_hangman(p.parse_args([*common[:-1], str(tmp_path / "none.json"), "--bound-only"]))
    assert run_build_hangman(p.parse_args([*common[:-1], str(tmp_path / "x.json")])) == 0  # finishes: optimal
    with pytest.raises(UserError, match="optimal already"):
        run_build_hangman(p.parse_args([*common[:-1], str(tmp_path / "x.json"), "--bound-only"]))


@pytest.mark.parametrize("seed", range(12))
def test_partition_bound_is_below_optimum(seed):
    rng = random.Random(300 + seed)
    words = tiny_words(rng, rng.randint(4, 10), rng.choice([2, 3]), "abcdef"[: rng.randint(3, 6)])
    lives = rng.randint(0, 4)
    s = Searcher(make(words), lives, memo_entries=10_000)
    options = dict(group_nodes=rng.choice([1, 3, 10**6]), pooled_below=rng.choice([1, 2, 24]),
                   part_size=rng.choice([0, 3, 100]), group_by=rng.choice([None, 0, 1]), levels=rng.choice([0, 1]))
    bound = partition_bound(s, np.arange(len(words)), s.strikes, **options)
    score, misses = ref.optimal(words, lives)
    c = 20 * len(words) - score
    assert bound <= c * s.key + misses
    assert partition_bound(s, np.arange(len(words)), s.strikes, **options, threads=2) == bound  # parts at once


def test_partition_bound_of_one_group_is_its_optimum():
    """Words without vowels make one group: solved whole, the bound is the optimum itself; split
    (a budget of one node), it is lower but still a bound."""
    words = ["bc", "cb", "bd", "db", "cd", "dc", "bf", "fb", "cf", "fc"]
    s = Searcher(make(words), 2, memo_entries=10_000)
    optimum, ok, _ = s.solve(np.arange(len(words)), s.strikes)
    assert ok and partition_bound(s, np.arange(len(words)), s.strikes, pooled_below=1) == optimum
    assert 0 < partition_bound(s, np.arange(len(words)), s.strikes, group_nodes=1, pooled_below=1) < optimum


def test_partition_bound_shows_the_words_of_its_parts_as_they_are_solved(monkeypatch):
    """The bound's bar counts the words of the parts solved, only up (a part that does not solve
    in its nodes counts once its halves do), to every word; without progress it draws nothing.
    The bar is made to draw into a buffer, every update at once."""
    import io

    import tqdm

    from wordtree import progress

    drawn = io.StringIO()

    def Drawn(total=None, *, show=True, **kwargs):  # progress.progress_bar, drawing every update
        return tqdm.tqdm(total=total, **kwargs, disable=not show, file=drawn, mininterval=0, miniters=1)

    monkeypatch.setattr(progress, "progress_bar", Drawn)
    words = ["bc", "cb", "bd", "db", "cd", "dc", "bf", "fb", "cf", "fc", "ab", "ba"]
    s = Searcher(make(words), 2, memo_entries=10_000)
    everyone = np.arange(len(words))
    quiet = partition_bound(s, everyone, s.strikes, group_nodes=3, pooled_below=1)
    assert drawn.getvalue() == ""
    assert partition_bound(s, everyone, s.strikes, group_nodes=3, pooled_below=1, progress=True) == quiet
    counts = [int(n) for n in re.findall(r"(\d+)/12", drawn.getvalue())]
    assert counts[-1] == 12 and counts == sorted(counts) and len(set(counts)) > 2


def test_partition_bound_on_two_threads_is_the_same_sum():
    """Many parts solved two at a time (some too large for their nodes, so halved) add up to
    exactly the bound of one thread, with the openings of levels=1 too."""
    words = tiny_words(random.Random(8), 160, 5, "abcdefghijkl")
    s = Searcher(make(words), 4, memo_entries=16)
    everyone = np.arange(len(words))
    for options in (dict(pooled_below=1, part_size=30, group_nodes=400), dict(group_by=0, group_nodes=50, levels=1)):
        assert partition_bound(s, everyone, s.strikes, **options, threads=2) == partition_bound(s, 
            everyone, s.strikes, **options)


def test_partition_bound_packs_groups_into_parts():
    """Two vowel groups packed into one part are solved together, vowel search and all: the
    bound is then the optimum of the whole set, above the sum of the groups solved alone."""
    words = ["bad", "cab", "dab", "bod", "cob", "dob", "bud", "cub", "dub"]
    s = Searcher(make(words), 3, memo_entries=10_000)
    everyone = np.arange(len(words))
    optimum, ok, _ = s.solve(everyone, s.strikes)
    apart = partition_bound(s, everyone, s.strikes, pooled_below=1)
    assert ok and partition_bound(s, everyone, s.strikes, pooled_below=1, part_size=9) == optimum
    assert partition_bound(s, everyone, s.strikes, pooled_below=1, part_size=6) > apart
    assert 0 < apart < optimum


def test_partition_bound_one_letter_deep():
    """With levels=1 the parts must open with the same letter: a bound at least as large, still
    below the optimum; here larger, as `?a?` and `?o?` alone each open with their own best
    consonant. Brute force for the optimum."""
    words = ["bat", "bad", "cat", "had", "lot", "cod", "cog", "hog"]
    s = Searcher(make(words), 2, memo_entries=10_000)
    everyone = np.arange(len(words))
    apart = partition_bound(s, everyone, s.strikes, pooled_below=1)
    deep = partition_bound(s, everyone, s.strikes, pooled_below=1, levels=1)
    score, misses = ref.optimal(words, 2)
    assert apart < deep <= (20 * len(words) - score) * s.key + misses


def test_partition_bound_groups_by_a_position():
    """Grouped by the middle letter, the words make the vowel groups of the test above: the same
    bounds. Grouped by the first letter, each group holds every vowel; a position out of range
    is refused."""
    words = ["bad", "cab", "dab", "bod", "cob", "dob", "bud", "cub", "dub"]
    s = Searcher(make(words), 3, memo_entries=10_000)
    everyone = np.arange(len(words))
    for part_size in (0, 6, 9):
        assert (partition_bound(s, everyone, s.strikes, pooled_below=1, part_size=part_size, group_by=1)
                == partition_bound(s, everyone, s.strikes, pooled_below=1, part_size=part_size))
    by_first = sum(s.solve(np.flatnonzero([w[0] == c for w in words]), s.strikes)[0] for c in "bcd")
    assert partition_bound(s, everyone, s.strikes, pooled_below=1, group_by=0) == by_first
    with pytest.raises(ValueError, match="group_by 3"):
        partition_bound(s, everyone, s.strikes, group_by=3)


def rollout_reference(words, lives: int, letter: str, play) -> tuple[int, int]:
    """(C, M) of guessing `letter` first, then playing each class with `play(class, lives left)`,
    which gives the class's (total score, total wrong guesses); C = 20 * words - score."""
    classes: dict[str, list[str]] = {}
    for w in words:
        classes.setdefault(ref.feedback(letter, w), []).append(w)
    score = wrong = 0
    for text, part in classes.items():
        miss = letter not in text
        s, m = play(part, lives - miss)
        score, wrong = score + s - miss * len(part), wrong + m + miss * len(part)
    return 20 * len(words) - score, wrong


def useful_letters(words):
    return [c for c in "abcdefghijklmnopqrstuvwxyz" if len({ref.feedback(c, w) for w in words}) > 1]


@pytest.mark.parametrize("seed", range(12))
def test_rollout_letter_with_exact_classes_is_an_optimal_first_letter(seed):
    """Every class small enough to search: one letter of lookahead over the classes' optima is
    the optimum itself (brute force)."""
    rng = random.Random(500 + seed)
    words = tiny_words(rng, rng.randint(3, 9), rng.choice([2, 3]), "abcdef"[: rng.randint(3, 6)])
    lives = rng.randint(0, 3)
    s = Searcher(make(words), lives, memo_entries=10_000)
    letter = chr(97 + rollout_letter(s, np.arange(len(words)), s.strikes, exact_below=len(words), subtree_nodes=10**6))
    score, wrong = ref.optimal(words, lives)
    assert rollout_reference(words, lives, letter, ref.optimal) == (20 * len(words) - score, wrong), (words, letter)


@pytest.mark.parametrize("seed", range(12))
def test_rollout_letter_over_the_frequency_rule_matches_reference(seed):
    """No class searched: the letter is the first useful one whose classes, played by the
    frequency rule (the reference's, word by word), cost least."""
    rng = random.Random(600 + seed)
    words = tiny_words(rng, rng.randint(3, 30), rng.choice([3, 4]), "abcdefgh"[: rng.randint(3, 8)])
    lives = rng.randint(0, 4)
    s = Searcher(make(words), lives, memo_entries=10_000)

    def frequency(part, left):
        plays = [ref.play_rule(part, w, left, "frequency") for w in part]
        return sum(20 - m if won else -m for won, m in plays), sum(m for _, m in plays)

    costs = {c: rollout_reference(words, lives, c, frequency) for c in useful_letters(words)}
    expected = min(costs, key=lambda c: (costs[c], c))
    assert chr(97 + rollout_letter(s, np.arange(len(words)), s.strikes, exact_below=0, subtree_nodes=1)) == expected


@pytest.mark.parametrize("seed", range(8))
def test_search_in_tiny_slices_matches_brute_force(seed):
    """Slices of one node at first: each slice that finishes nothing new doubles the next, so
    the search gets through, and every slice resumes from the memo of the ones before."""
    rng = random.Random(900 + seed)
    words = tiny_words(rng, rng.randint(3, 8), rng.choice([2, 3]), "abcdefg"[: rng.randint(3, 7)])
    lives = rng.randint(0, 3)
    s = Searcher(make(words), lives, memo_entries=1000)
    cost, finished, spent = solve_in_slices(s, np.arange(len(words)), s.strikes, 10**6, progress=False, slice_nodes=1)
    assert finished and spent >= 1
    c, m = s.split_cost(cost)
    score, misses = ref.optimal(words, lives)
    assert (20 * len(words) - c, m) == (score, misses)


def solved_sixty(seed):
    """60 random 4-letter words over a-j, 3 strikes, solved by a searcher with room for everything:
    (words, all of them, the searcher, the least cost)."""
    hw = make(tiny_words(random.Random(seed), 60, 4, "abcdefghij"))
    everyone = np.arange(len(hw.words))
    s = Searcher(hw, 3, memo_entries=100_000)
    value, ok, _ = s.solve(everyone, s.strikes)
    assert ok
    return hw, everyone, s, value


@pytest.mark.parametrize("seed", range(6))
def test_a_search_given_a_tree_to_beat_finds_the_same_optimum(seed):
    """solve_in_slices with `limit` (what build passes: best_known_cost, the least of the baseline
    rules' costs and the tree already at -o, plus one) ends at the optimum of a search without
    one; a limit no tree is below leaves it unfinished rather than wrong."""
    from wordtree.hangman.driver import best_known_cost

    rng = random.Random(60 + seed)
    words = tiny_words(rng, rng.randint(10, 40), 4, "abcdefghij")
    lives = rng.randint(1, 3)
    hw = make(words)
    s = Searcher(hw, lives, memo_entries=100_000)
    optimum, ok, _ = s.solve(np.arange(len(words)), s.strikes)
    rules = [rule_totals(s, rule) for rule in ("frequency", "entropy")]
    known = best_known_cost(s, None, rules)
    assert ok and known >= optimum and known == min(s.totals_cost(t) for t in rules)
    for limit, finished in ((known + 1, True), (optimum + 1, True), (optimum, False)):
        fresh = Searcher(hw, lives, memo_entries=100_000)
        cost, done, _ = solve_in_slices(fresh, np.arange(len(words)), fresh.strikes, 10**9, progress=False, limit=limit)
        assert done == finished and cost == (optimum if finished else 0)


def test_stopped_search_resumes_from_its_checkpoint(tmp_path):
    """A search stopped by its budget saves its memo; another searcher (even one with a smaller
    memo, which then grows) resumes from it and finishes with the uninterrupted value, counting
    the nodes spent before. Checkpoints of another search, or not checkpoints, are refused."""
    hw, everyone, fresh, value = solved_sixty(7)
    assert fresh.nodes > 200  # long enough to stop in slices of 40
    ck = tmp_path / "memo.ck"
    first = Searcher(hw, 3, memo_entries=100_000)
    budget = fresh.nodes // 3
    _, finished, spent = solve_in_slices(first, everyone, first.strikes, budget, ck, progress=False, slice_nodes=40)
    assert not finished and spent == budget and ck.exists()
    saved_entries = first.memo_entries
    loaded = Searcher(hw, 3, memo_entries=100_000)
    assert loaded.load_memo(ck) == spent and loaded.memo_entries == saved_entries
    assert loaded.memo.work_done()[1] > 0  # a resumed build's time counts the runs before it
    value_again, ok, _ = loaded.solve(everyone, loaded.strikes)
    assert ok and value_again == value and loaded.nodes < fresh.nodes  # the saved work is used
    again = Searcher(hw, 3, memo_entries=16)
    cost, finished, total = solve_in_slices(again, everyone, again.strikes, 10**9, ck, resume=True, progress=False)
    assert finished and cost == value and total > spent
    assert again.memo_entries >= saved_entries
    with pytest.raises(UserError, match="another hangman search"):
        Searcher(hw, 2).load_memo(ck)
    (tmp_path / "junk.ck").write_bytes(ck.read_bytes()[:500])
    with pytest.raises(UserError, match="not a readable hangman checkpoint"):
        Searcher(hw, 3).load_memo(tmp_path / "junk.ck")
    assert Searcher(hw, 3).load_memo(tmp_path / "absent.ck") is None


def test_a_ctrl_c_stops_the_slice_under_way_and_the_checkpoint_counts_it(tmp_path):
    """Slices grow to minutes and hours, and the kernel holds the thread it runs on: a Ctrl-C (or
    TERM, which the build turns into one) must stop the slice under way at once, not when it
    ends. One slice as large as the whole search, interrupted once its kernel has visited a
    thousand of the search's 169 k nodes (not after a fixed time, which a busy machine can make
    too short or too long): the kernel must have been aborted (it takes seconds to finish), the
    memo saved then counts the nodes spent, and a resume from it ends at the uninterrupted value."""
    import _thread
    import signal
    import threading
    import time

    from wordtree.hangman import kernels as K
    from wordtree.hangman.search import Slices

    hw = load_hangman_words(3)
    members = np.sort(np.random.default_rng(3).choice(len(hw.words), 220, replace=False))  # 169 k nodes
    s = Searcher(hw, 10, memo_entries=500_000)
    s.solve(members[:30], s.strikes)  # compiled before the clock starts
    ck = tmp_path / "memo.ck"
    slices = Slices(s, 10**12, (members, s.strikes), ck, progress=False, slice_nodes=10**12)
    s.ctr[K.NODES] = 0  # the warm-up's count: the watcher waits for the slice's own
    returned = threading.Event()

    def interrupt_under_way() -> None:
        while s.ctr[K.NODES] < 1000:
            time.sleep(0.005)
        # again until the kernel stops: in the full test session one was lost (perhaps landing in
        # a finalizer, where it is ignored); a second one the slice ignores itself
        while not s.ctr[K.ABORTED] and not returned.is_set():
            _thread.interrupt_main()
            returned.wait(0.5)

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # what Ctrl-C does
    threading.Thread(target=interrupt_under_way, daemon=True).start()
    try:
        with pytest.raises(KeyboardInterrupt):
            slices.run(members, s.strikes)
    finally:
        returned.set()
        signal.signal(signal.SIGINT, previous)
    slices.close()
    assert s.ctr[K.ABORTED] == 1 and slices.spent > 0
    resumed = Searcher(hw, 10, memo_entries=500_000)
    assert resumed.load_memo(ck) == slices.spent
    fresh = Searcher(hw, 10, memo_entries=500_000)
    value, ok, _ = fresh.solve(members, fresh.strikes)
    assert ok and resumed.solve(members, resumed.strikes)[:2] == (value, True)


def opening_costs(hw, lives: int) -> dict[int, int]:
    """Each useful first letter's exact cost (its misses and its classes solved exactly, each by a
    search of its own): the plain answer refute_openings must agree with."""
    everyone = np.arange(len(hw.words))
    s = Searcher(hw, lives, memo_entries=100_000)

    def exact(part, r):
        value, ok, _ = Searcher(hw, lives, memo_entries=100_000).solve(part, r)
        assert ok
        return value

    return {c: s.opening_cost(everyone, s.strikes, c, exact) for c in s.useful_letters(everyone)}


@pytest.mark.parametrize("seed", range(8))
def test_refute_openings_finds_each_letter_below_the_target_or_proves_it_no_better(seed):
    """Against each letter's exact opening cost, whose least is brute force's optimum: below the
    target a letter's cost comes out exactly; otherwise a bound between the target and its cost."""
    rng = random.Random(40 + seed)
    words = tiny_words(rng, rng.randint(12, 40), 4, "abcdefghij")
    lives = rng.randint(1, 3)
    hw = make(words)
    costs = opening_costs(hw, lives)
    s = Searcher(hw, lives)
    c, m = s.split_cost(min(costs.values()))
    assert (20 * len(words) - c, m) == ref.optimal(words, lives)
    ranked = sorted(costs.values())
    for target in (ranked[0], ranked[0] + 1, ranked[len(ranked) // 2]):
        s = Searcher(hw, lives, memo_entries=100_000)
        found, nodes = refute_openings(s, np.arange(len(words)), s.strikes, sorted(costs), target, 10**9,
                                       progress=False)
        assert sorted(found) == sorted(costs) and nodes >= 0
        for letter, (value, exact) in found.items():
            if costs[letter] < target:
                assert exact and value == costs[letter]
            else:
                assert target <= value <= costs[letter] and (value == costs[letter] or not exact)


@pytest.mark.parametrize("seed", range(6))
def test_refuting_by_parts_is_sound_and_records_its_bounds(seed, monkeypatch):
    """refute_openings with `parts`: a class of more than half of the words is bounded by parts,
    never searched. Each letter's answer is then a bound at most its exact opening cost (exact
    only when every class was searched), at least the target when it says refuted; and every
    memo entry the run leaves (its recorded part bounds among them) is at most its set's
    least cost, and exact where it says so."""
    rng = random.Random(70 + seed)
    words = tiny_words(rng, rng.randint(25, 45), 4, "abcdefghij")
    lives = rng.randint(1, 3)
    hw = make(words)
    costs = opening_costs(hw, lives)
    everyone = np.arange(len(words))
    target = sorted(costs.values())[0] + 1
    s = Searcher(hw, lives, memo_entries=100_000)
    parts = {"pooled_below": 1, "part_size": 8, "group_nodes": 10**6}
    found, _ = refute_openings(s, everyone, s.strikes, sorted(costs), target, 10**9, progress=False, parts=parts)
    assert sorted(found) == sorted(costs)
    big = {c for c in costs for mask, part in split(hw, everyone, c) if 2 * len(part) > len(words)}
    assert big
    for letter, (value, exact) in found.items():
        assert value <= costs[letter] and (value == costs[letter] if exact else True)
        assert not (exact and letter in big)  # a class bounded by parts is never solved
    assert any(found[c][0] >= target for c in big)  # some refuted by their parts
    bounded = []  # again on the same memo, as a resume: only the letters left open are bounded again
    import wordtree.hangman.search

    monkeypatch.setattr(wordtree.hangman.search, "partition_bound",
                        lambda searcher, part, *args, **kwargs: bounded.append(len(part)) or 0)
    again, _ = refute_openings(s, everyone, s.strikes, sorted(costs), target, 10**9, progress=False, parts=parts)
    assert again == found and len(bounded) == sum(found[c][0] < target for c in big)
    monkeypatch.undo()
    recorded = 0
    for e in range(s.memo_entries):
        members = s.memo.entry_set(e).astype(np.int64)
        value, ok, _ = Searcher(hw, lives, memo_entries=100_000).solve(members, int(s.memo.e_r[e]))
        assert ok and (s.memo.e_val[e] == value if s.memo.e_exact[e] else s.memo.e_val[e] <= value)
        recorded += 2 * len(members) > len(words)
    assert recorded >= 1


def test_partition_bound_within_a_superset_shares_its_parts():
    """partition_bound(within=W, solved=cache): the parts of W cut down to the set (a sound bound,
    the same with or without the cache); a second set searches only the parts the first did not
    share; `within` must hold the set."""
    hw, everyone, s, _ = solved_sixty(3)
    options = {"pooled_below": 1, "part_size": 12, "group_nodes": 10**6}
    whole = partition(s.hw, everyone, 1, 12)
    assert len(whole) >= 4
    cache: dict = {}
    made = []
    for dropped in (whole[1][0], whole[2][0]):  # two sets that differ in two parts
        members = everyone[everyone != dropped]
        bound = partition_bound(s, members, 2, **options, within=everyone, solved=cache)
        exact, ok, _ = Searcher(hw, 3, memo_entries=100_000).solve(members, 2)
        assert ok and bound <= exact and bound == partition_bound(s, members, 2, **options, within=everyone)
        made.append({tuple(m for m in part if m != dropped) for part in whole})
        assert len(cache) == len({part for part in set().union(*made) if len(part) >= 2})
    assert len(made[0] & made[1]) == len(whole) - 2  # the parts both sets share, searched once
    with pytest.raises(ValueError, match="within"):
        partition_bound(s, everyone, 2, **options, within=everyone[:10])


def test_a_merged_refutation_spares_the_whole_search_its_letters(tmp_path):
    """Searcher.merge_memo: the facts of a refute_openings run added to a stopped whole search's
    checkpoint; the resumed search ends at the same optimum in fewer nodes than from its own
    checkpoint alone. A second merge of the same file adds nothing; another game's checkpoint or
    no file is a UserError."""
    hw, everyone, fresh, value = solved_sixty(21)
    whole, refuted = tmp_path / "whole.ck", tmp_path / "refuted.ck"
    first = Searcher(hw, 3, memo_entries=100_000)
    _, finished, _ = solve_in_slices(first, everyone, first.strikes, fresh.nodes // 3, whole, progress=False,
                                     slice_nodes=20)
    assert not finished
    helper = Searcher(hw, 3, memo_entries=100_000)
    letters = helper.useful_letters(everyone)
    found, _ = refute_openings(helper, everyone, helper.strikes, letters, value + 1, 10**9, refuted, progress=False)
    assert sum(exact for _, exact in found.values()) >= 1 and any(v > value for v, _ in found.values())
    alone = Searcher(hw, 3, memo_entries=100_000)
    alone.load_memo(whole)
    merged = Searcher(hw, 3, memo_entries=16)  # grows to hold both
    merged.load_memo(whole)
    changed, nodes, _ = merged.memo.merge(refuted)
    assert changed > 0 and nodes > 0 and merged.memo_entries > alone.memo_entries
    assert merged.memo.merge(refuted)[0] == 0
    truth = Searcher(hw, 3, memo_entries=100_000)
    for e in range(helper.memo_entries):  # each fact kept as proven: an exact value, or a bound no higher
        members = helper.memo.entry_set(e).astype(np.int64)
        got = merged._memo_entry(merged.load(members), int(helper.memo.e_r[e]))
        assert got >= 0 and merged.memo.e_val[got] >= helper.memo.e_val[e]
        if merged.memo.e_exact[got]:
            assert merged.memo.e_val[got] == truth.solve(members, int(helper.memo.e_r[e]))[0]
        assert merged.memo.e_exact[got] or not helper.memo.e_exact[e]
    results = [(searcher.solve(everyone, searcher.strikes), searcher.nodes) for searcher in (alone, merged)]
    assert results[0][0][:2] == results[1][0][:2] == (value, True)
    assert results[1][1] < results[0][1]
    with pytest.raises(UserError, match="another hangman search"):
        Searcher(hw, 2).memo.merge(refuted)
    with pytest.raises(UserError, match="no such checkpoint"):
        merged.memo.merge(tmp_path / "absent.ck")


def test_merged_checkpoints_count_each_run_once(tmp_path):
    """Two copies of one checkpoint, each resumed on its own and then merged (the whole search and
    a refutation, as runs/README.md runs them): the merged file's nodes are the first run's once
    plus what each copy added, and merging again adds nothing. A file from before runs were kept
    counts as one run, so two copies of it are one too; a header whose runs are not
    [nodes, seconds] is refused in one line."""
    from wordtree.hangman.memo import runs_of

    hw, everyone, fresh, _ = solved_sixty(21)
    base, mine, other = (tmp_path / name for name in ("base.ck", "mine.ck", "other.ck"))
    s = Searcher(hw, 3, memo_entries=100_000)
    _, _, first = solve_in_slices(s, everyone, s.strikes, fresh.nodes // 4, base, progress=False, slice_nodes=20)
    spent = {}
    for path, more in ((mine, fresh.nodes // 8), (other, fresh.nodes // 5)):
        path.write_bytes(base.read_bytes())
        resumed = Searcher(hw, 3, memo_entries=100_000)
        _, _, spent[path] = solve_in_slices(resumed, everyone, resumed.strikes, first + more, path, resume=True,
                                            progress=False, slice_nodes=20)
        assert spent[path] == first + more
    merged = Searcher(hw, 3, memo_entries=16)
    assert merged.load_memo(mine) == spent[mine]
    _, added, seconds = merged.memo.merge(other)
    assert added == spent[other] - first and seconds > 0
    assert merged.memo.merge(other)[1:] == (0, 0.0)
    merged.save_memo(tmp_path / "merged.ck")
    assert Searcher(hw, 3).load_memo(tmp_path / "merged.ck") == spent[mine] + spent[other] - first
    old = {"nodes": 500, "seconds": 2.5}
    assert runs_of(old) == runs_of(dict(old)) and len(runs_of(old)) == 1 and runs_of({"nodes": 0}) == {}
    with np.load(base) as data:
        arrays = {name: data[name] for name in data.files if name not in ("header", "checksum")}
        bad = orjson.loads(data["header"].tobytes()) | {"runs": {"x": "many"}}
    members = {"header": np.frombuffer(orjson.dumps(bad), dtype=np.uint8), **arrays}
    with open(tmp_path / "bad.ck", "wb") as f:  # a path would get .npz added
        np.savez(f, **members, checksum=checksum_member(members))  # checksummed: its runs are what is wrong
    with pytest.raises(UserError, match="its runs are not"):
        Searcher(hw, 3).load_memo(tmp_path / "bad.ck")


def test_most_valuable_keeps_the_largest_sets_and_the_first_of_the_threshold_size():
    """Against the obvious rule (sort by size, largest first, then by position; take while the
    count and the bytes allow): the largest sets are kept wherever they stand in the memo (the
    largest finish last, at the end), not the first sets at or above the threshold size."""
    from wordtree.hangman.memo import FILE_ENTRY_BYTES, most_valuable

    rng = np.random.default_rng(5)
    for trial in range(300):
        sizes = rng.integers(1, 12, size=int(rng.integers(1, 40)))
        max_entries = int(rng.integers(0, 45))
        max_bytes = None if trial % 2 else float(rng.integers(0, 2000))
        order = sorted(range(len(sizes)), key=lambda e: (-sizes[e], e))
        want = set()
        for count, e in enumerate(order, 1):
            if count > max_entries or (max_bytes is not None and FILE_ENTRY_BYTES * count > max_bytes):
                break
            want.add(e)
        assert set(np.flatnonzero(most_valuable(sizes, max_entries, max_bytes))) == want


def test_a_capped_checkpoint_keeps_the_first_letters_classes_and_the_largest_sets_and_resumes_to_the_optimum(
        tmp_path, monkeypatch):
    """save_memo with max_bytes (build hangman --checkpoint-mb) writes a file of at most that size
    holding what was proven of the classes of the first letters and of the smallest sets with an
    exact value and with a bound (witnesses, WITNESSES of each), then of the largest sets, each
    exactly as the memo had it, and records how many entries it was kept from; a search resumed
    from it still ends at the optimum."""
    import wordtree.hangman.memo

    witness_count = 4  # fewer than this small memo's exact values and bounds, so the count tells
    monkeypatch.setattr(wordtree.hangman.memo, "WITNESSES", witness_count)

    hw, everyone, fresh, value = solved_sixty(7)
    first = Searcher(hw, 3, memo_entries=100_000)
    ck, cap = tmp_path / "small.ck", 3000
    _, finished, spent = solve_in_slices(first, everyone, first.strikes, fresh.nodes // 2, ck, progress=False,
                                         slice_nodes=40, checkpoint_bytes=cap)
    n = first.memo_entries
    assert not finished and cap / 2 < ck.stat().st_size <= cap
    saved = {(tuple(first.memo.entry_set(e)), first.memo.e_r[e]):
             (first.memo.e_val[e], first.memo.e_exact[e]) for e in range(n)}
    loaded = Searcher(hw, 3, memo_entries=100_000)
    assert loaded.load_memo(ck) == spent
    kept = loaded.memo_entries
    assert 0 < kept < n
    classes = {(tuple(first.memo.entry_set(e)), first.memo.e_r[e])
               for e in first.class_entries(everyone, first.strikes)}
    assert 0 < len(classes) < n
    witnesses = set()
    for exact in (True, False):
        smallest = sorted((len(key[0]), e, key) for e, (key, (_, is_exact)) in enumerate(saved.items())
                          if is_exact == exact)
        assert len(smallest) > witness_count
        witnesses |= {key for _, _, key in smallest[:witness_count]}
    rank = {key: (key in classes or key in witnesses, len(key[0])) for key in saved}  # what goes first
    kept_keys = set()
    for e in range(kept):
        members = tuple(loaded.memo.entry_set(e))
        assert saved[(members, loaded.memo.e_r[e])] == (loaded.memo.e_val[e], loaded.memo.e_exact[e])
        kept_keys.add((members, loaded.memo.e_r[e]))
    assert witnesses <= kept_keys
    assert min(rank[key] for key in kept_keys) >= max(rank[key] for key in saved if key not in kept_keys)
    with np.load(ck) as data:
        assert orjson.loads(data["header"].tobytes())["kept_of"] == n and np.array_equal(data["universe"], everyone)
    cost, finished, total = solve_in_slices(loaded, everyone, loaded.strikes, 10**9, ck, resume=True,
                                            progress=False, checkpoint_bytes=cap)
    assert finished and cost == value and total > spent and ck.stat().st_size <= cap
    done = Searcher(hw, 3)  # the finished file proves the optimum
    done.load_memo(ck)
    assert done.known(everyone, done.strikes) == (value, True)


def test_a_best_found_tree_plays_what_the_memo_proved_optimally():
    """Where the memo holds a set's exact value (an unfinished search's work, or a checkpoint's),
    the best-found tree plays that set optimally, even a set far above exact_below: over a memo
    that solved everything, it is an optimal tree, which the heuristic alone is not here."""
    from wordtree.hangman.search import Totals
    from wordtree.hangman.tree import build_tree

    hw, everyone, s, value = solved_sixty(5)

    def cost_of(choose):
        counts = {"misses": 0, "lost": 0}
        build_tree(hw, everyone, s.strikes, choose, counts)
        return s.totals_cost(Totals(counts["misses"], counts["lost"], s.total_weight))

    assert cost_of(best_found_chooser(s, 0, 1)) == value
    fresh = Searcher(hw, 3, memo_entries=100_000)
    assert cost_of(lambda m, r: rollout_letter(fresh, m, r, 0, 1)) > value


@pytest.mark.parametrize("n, length, letters, seed", [(120, 4, "abcdefghij", 0), (200, 5, "abcdefghijkl", 1),
                                                     (200, 5, "abcdefghijkl", 3)])
def test_a_best_found_tree_scores_what_the_memo_proved_of_a_first_letter(n, length, letters, seed):
    """A memo that kept only the exact values of the optimal first letter's classes (what a
    capped checkpoint of an unfinished search keeps, its subtrees dropped): the best-found tree
    opens with that letter, since rollout costs a class by the memo's exact value, and plays each
    class down to its proven value, solving again what the memo dropped (on these games the
    heuristic would not: each scores worse without it)."""
    from wordtree.hangman import kernels as K
    from wordtree.hangman.search import Totals, split
    from wordtree.hangman.tree import build_tree

    hw = make(tiny_words(random.Random(seed), n, length, letters))
    everyone = np.arange(len(hw.words))
    s = Searcher(hw, 3, memo_entries=400_000)
    value, _, letter = s.solve(everyone, s.strikes)
    keep = np.zeros(s.memo_entries, dtype=np.bool_)
    for mask, part in split(hw, everyone, letter):
        keep[max(s._memo_entry(s.load(part), s.strikes - (mask == 0)), 0)] = len(part) > 2  # pairs: never stored
    K._memo_compact(keep, s.memo.table, s.memo.held, s.ctr)
    assert s.memo_entries == keep.sum() >= 2 and not s.known(everyone, s.strikes)[1]

    def cost_of(choose):
        counts = {"misses": 0, "lost": 0}
        build_tree(hw, everyone, s.strikes, choose, counts)
        return s.totals_cost(Totals(counts["misses"], counts["lost"], s.total_weight))

    assert cost_of(best_found_chooser(s, 0, 1)) == value


def test_a_checkpoint_larger_than_the_memory_allows_keeps_what_fits(tmp_path):
    """Resumed within less memory than its checkpoint holds, a search keeps what is known of the
    largest sets, exact values and bounds (each with its own set and lives, and found again
    through the table: an exact value answers at once, and so does a bound against a search it
    refutes), within half the room, and still ends at the optimum."""
    hw, everyone, roomy, value = solved_sixty(7)
    ck = tmp_path / "memo.ck"
    roomy.save_memo(ck, roomy.nodes)
    n = roomy.memo_entries
    saved = {(tuple(roomy.memo.entry_set(e)), roomy.memo.e_r[e]):
             (roomy.memo.e_val[e], roomy.memo.e_exact[e]) for e in range(n)}
    small = Searcher(hw, 3, memo_entries=40, memory_bytes=1)
    assert small.load_memo(ck) == roomy.nodes and n > 40
    kept = small.memo_entries
    assert 0 < kept <= 20 and small.memo.e_hash.size == 40
    sizes = small.memo.e_size[:kept]
    assert sizes.min() >= np.sort(roomy.memo.e_size[:n])[::-1][kept - 1]
    assert 0 < small.memo.e_exact[:kept].sum() < kept  # bounds kept too
    for e in range(kept):
        members = small.memo.entry_set(e)
        assert saved[(tuple(members), small.memo.e_r[e])] == (small.memo.e_val[e], small.memo.e_exact[e])
        found, ok, _ = small.solve(members, int(small.memo.e_r[e]), limit=None if small.memo.e_exact[e] else int(small.memo.e_val[e]))
        assert ok == bool(small.memo.e_exact[e]) and (found == small.memo.e_val[e] or not ok) and small.nodes == 1
    cost, finished, _ = solve_in_slices(small, everyone, small.strikes, 10**8, progress=False, slice_nodes=25)
    assert finished and cost == value


def test_each_memo_entry_is_the_set_it_was_stored_for():
    """An entry keeps only its set's letters of one mask and one of its words (kernels: memo): the
    words of the universe that fit them are the set, of the entry's size, whose hash (taken of
    its words when it was stored) the entry holds."""
    hw, everyone, s, _ = solved_sixty(3)
    assert s.memo_entries > 100
    for e in range(s.memo_entries):
        members = s.memo.entry_set(e).astype(np.int32)
        assert len(members) == s.memo.e_size[e] and s.memo.e_model[e] in members
        assert K._hash(members, 0, len(members), int(s.memo.e_r[e])) == s.memo.e_hash[e]


def test_a_hash_collision_never_returns_another_sets_entry():
    """The memo is searched by hash and takes an entry for its own set only: looked up with the
    hash of another entry of the same size and lives (a collision, the worst kind), a set is not
    found, for every such pair of a solved memo; with its own hash it is."""
    hw, everyone, s, _ = solved_sixty(4)
    alike: dict[tuple[int, int], list[int]] = {}
    for e in range(s.memo_entries):
        alike.setdefault((int(s.memo.e_size[e]), int(s.memo.e_r[e])), []).append(e)
    pairs = 0
    for entries in alike.values():
        for e in entries:
            members = s.memo.entry_set(e).astype(np.int32)
            for f in entries:
                found, _ = K._memo_find(members, 0, len(members), s.memo.e_r[f], s.memo.e_hash[f], s.memo.table,
                                        s.memo.held, s.words.spelled)
                assert found == (e if f == e else -1)
                pairs += f != e
    assert pairs > 1000


def test_a_checkpoint_of_the_older_format_is_read_as_this_one(tmp_path):
    """A checkpoint of the format that kept each set's words (wordtree-hangman-checkpoint/1, as
    runs/ held them) loads as entries of this memo with the same sets and values, less a set
    that is not closed in every word (which no search of that format stored: one is forged here);
    a search resumed from it is over at once, at the optimum."""
    hw, everyone, s, value = solved_sixty(8)
    n = s.memo_entries
    sets = [s.memo.entry_set(e) for e in range(n)]
    rng = np.random.default_rng(2)
    forged = np.sort(rng.choice(everyone, 5, replace=False))
    assert not s.memo.closed(forged.astype(np.int32))
    r = np.append(s.memo.e_r[:n], 2)
    sizes = np.array([len(m) for m in sets] + [5])
    arrays = {"e_hash": np.append(s.memo.e_hash[:n], np.uint64(K._hash(forged, 0, 5, 2))), "e_off": np.cumsum(sizes) - sizes,
              "e_size": sizes.astype(np.int32), "e_r": r, "e_val": np.append(s.memo.e_val[:n], 7),
              "e_exact": np.append(s.memo.e_exact[:n], True), "e_letter": np.append(s.memo.e_letter[:n], 0),
              "pool": np.concatenate(sets + [forged]).astype(np.uint16)}
    header = s.memo.header() | {"format": "wordtree-hangman-checkpoint/1", "nodes": s.nodes, "seconds": 1.0}
    members = {"header": np.frombuffer(orjson.dumps(header), dtype=np.uint8), **arrays}
    with open(tmp_path / "old.ck", "wb") as f:
        np.savez(f, **members, checksum=checksum_member(members))
    loaded = Searcher(hw, 3)
    assert loaded.load_memo(tmp_path / "old.ck") == s.nodes and loaded.memo_entries == n
    for e in range(n):
        assert np.array_equal(loaded.memo.entry_set(e), sets[e])
        assert (loaded.memo.e_r[e], loaded.memo.e_val[e], loaded.memo.e_exact[e]) == (s.memo.e_r[e], s.memo.e_val[e], s.memo.e_exact[e])
    assert loaded.solve(everyone, loaded.strikes)[:2] == (value, True) and loaded.nodes == 1


def test_a_search_of_other_words_starts_a_memo_of_its_own(tmp_path):
    """The memo's sets are closed in one universe (at first every word). A search of a set that is
    not (random words, not every word with some masks) starts a new memo on that set, and either
    way a searcher finds what a fresh one does; a checkpoint of a search of other words is not
    merged, with a message that says so."""
    hw, everyone, s, value = solved_sixty(9)
    some = np.sort(np.random.default_rng(3).choice(everyone, 30, replace=False))
    assert not s.memo.closed(some.astype(np.int32))
    alone = Searcher(hw, 3)
    assert s.solve(some, s.strikes) == alone.solve(some, s.strikes) and np.array_equal(s.memo.universe, some)
    assert s.memo_entries == alone.memo_entries
    alone.save_memo(tmp_path / "some.ck", alone.nodes)
    assert s.solve(everyone, s.strikes)[:2] == (value, True) and len(s.memo.universe) == len(everyone)
    with pytest.raises(UserError, match="other words"):
        s.memo.merge(tmp_path / "some.ck")


def test_cli_build_stops_at_its_budget_and_resumes(tmp_path):
    """`build hangman --max-nodes N --checkpoint F` settles for the best tree found and keeps its
    search in F; `--resume` with a larger budget proves the optimum, the same tree as a fresh build."""
    import subprocess
    import sys
    from pathlib import Path

    rng = random.Random(11)
    words = tmp_path / "w.txt"
    words.write_text("\n".join(tiny_words(rng, 80, 4, "abcdefghijk")) + "\n")
    base = [sys.executable, "cli.py", "build", "hangman", "--length", "4", "--words", str(words), "--lives", "4",
            "--quiet"]
    ck = tmp_path / "h.ck"

    def build(*extra):
        return subprocess.run(base + list(extra), capture_output=True, text=True,
                              cwd=Path(__file__).resolve().parent.parent)

    first = build("--max-nodes", "50", "--memory", "0.000002", "--checkpoint", str(ck), "--checkpoint-mb", "0.005",
                  "-o", str(tmp_path / "a.json"))
    assert first.returncode == 0 and "not proven optimal" in first.stdout and 0 < ck.stat().st_size <= 0.005 * 2**20
    resumed = build("--checkpoint", str(ck), "--resume", "-o", str(tmp_path / "b.json"))
    assert resumed.returncode == 0 and "optimal (exhaustive)" in resumed.stdout, resumed.stderr
    fresh = build("-o", str(tmp_path / "c.json"))
    squeezed = build("--memory", "0.000002", "-o", str(tmp_path / "e.json"))  # 16 memo entries
    assert squeezed.returncode == 0 and "optimal (exhaustive)" in squeezed.stdout, squeezed.stderr
    b, c, e = (orjson.loads((tmp_path / name).read_bytes()) for name in ("b.json", "c.json", "e.json"))
    assert b["tree"] == c["tree"] and b["result"]["total_score"] == c["result"]["total_score"]
    assert e["tree"] == c["tree"] and e["result"]["total_score"] == c["result"]["total_score"]
    a = orjson.loads((tmp_path / "a.json").read_bytes())["result"]
    assert a["expected_score"] <= c["result"]["expected_score"] <= a["bound"]["max_expected_score"]
    assert "heuristic" in a["search"]["larger_sets"] and "larger_sets" not in c["result"]["search"]
    assert b["result"]["search"]["nodes"] > 50
    refused = build("--lives", "3", "--checkpoint", str(ck), "--resume", "-o", str(tmp_path / "d.json"))
    assert refused.returncode == 1 and refused.stderr.count("\n") == 1 and "another hangman search" in refused.stderr
    for wrong in (["--checkpoint-mb", "5"], ["--checkpoint", str(ck), "--checkpoint-mb", "0"]):
        refused = build(*wrong, "-o", str(tmp_path / "f.json"))
        assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "--checkpoint-mb" in refused.stderr
    assert fresh.returncode == 0


def test_cli_status_reads_what_a_stopped_search_proves(tmp_path):
    """`build hangman --checkpoint F --status` reads F without searching: for a stopped search, an
    expected score that no tree beats (at least the brute-force optimum), a line per first letter
    with its classes solved, and a score reached only by a letter whose classes are all solved;
    once the search has finished (the file saved at the end too), the optimum itself. Without
    --checkpoint, or with no such file: one line and a non-zero exit."""
    import subprocess
    import sys
    from pathlib import Path

    rng = random.Random(11)
    words = tiny_words(rng, 80, 4, "abcdefghijk")
    (tmp_path / "w.txt").write_text("\n".join(words) + "\n")
    best, _ = ref.optimal(words, 4)
    base = [sys.executable, "cli.py", "build", "hangman", "--length", "4", "--words", str(tmp_path / "w.txt"),
            "--lives", "4", "--quiet"]
    ck = tmp_path / "h.ck"

    def build(*extra):
        return subprocess.run(base + list(extra), capture_output=True, text=True,
                              cwd=Path(__file__).resolve().parent.parent)

    assert build("--checkpoint", str(ck), "-o", str(tmp_path / "a.json")).returncode == 0  # a whole search
    whole = int(re.search(r"(\d+) search nodes", build("--checkpoint", str(ck), "--status").stdout).group(1))
    seen_reached = False
    for nodes in (whole // 10, whole // 2, whole * 9 // 10, whole - 1):  # each without a tree at -o
        (tmp_path / "a.json").unlink()
        ck.unlink()
        assert build("--max-nodes", str(nodes), "--checkpoint", str(ck), "-o", str(tmp_path / "a.json")).returncode == 0
        status = build("--checkpoint", str(ck), "--status")
        assert status.returncode == 0, status.stderr
        if "proven optimal" in status.stdout:
            break
        at_most = float(re.search(r"expected score at most (\d+\.\d+)", status.stdout).group(1))
        assert at_most >= round(best / len(words), 4)
        letters = re.findall(r"^  ([a-k]): (\d+)/(\d+) classes solved, expected score (exactly|at most) (\S+)",
                             status.stdout, re.M)
        assert letters and all((int(k) == int(n)) == (how == "exactly") for _, k, n, how, _ in letters)
        reached = re.search(r"and (\d+\.\d+) reached", status.stdout)
        if reached:
            seen_reached = True
            assert float(reached.group(1)) <= round(best / len(words), 4)  # a real tree's score
            assert float(reached.group(1)) <= at_most
    ck.unlink()
    assert build("--checkpoint", str(ck), "-o", str(tmp_path / "b.json")).returncode == 0  # a whole search
    status = build("--checkpoint", str(ck), "--status")
    assert f"proven optimal: expected score {best / len(words):.4f}" in status.stdout, status.stdout
    for extra, code in (([], 2), (["--checkpoint", str(tmp_path / "absent.ck")], 1)):  # a usage error, a missing file
        refused = build("--status", *extra)
        assert refused.returncode == code and refused.stderr.count("\n") == 1 and "Traceback" not in refused.stderr
    assert seen_reached


def test_cli_refute_then_merge_then_resume(tmp_path):
    """The two-core workflow on a small game: `--refute` every letter against a best-found tree
    (one line each: no better, or better, or splitting nothing), `--merge` that checkpoint into a
    stopped whole search's, whose `--status` then bounds every letter by the tree, and `--resume`
    ends at the tree of a fresh whole search. Each misuse: one line, a non-zero exit."""
    import subprocess
    import sys
    from pathlib import Path

    words = tiny_words(random.Random(11), 80, 4, "abcdefghijk")
    (tmp_path / "w.txt").write_text("\n".join(words) + "\n")
    best, _ = ref.optimal(words, 4)
    base = [sys.executable, "cli.py", "build", "hangman", "--length", "4", "--words", str(tmp_path / "w.txt"),
            "--lives", "4", "--quiet"]

    def build(*extra):
        return subprocess.run(base + [str(x) for x in extra], capture_output=True, text=True,
                              cwd=Path(__file__).resolve().parent.parent)

    tree, whole, helper = tmp_path / "a.json", tmp_path / "whole.ck", tmp_path / "helper.ck"
    assert build("--max-nodes", 100, "-o", tree).returncode == 0
    tree_score = orjson.loads(tree.read_bytes())["result"]["expected_score"]
    refuted = build("--checkpoint", helper, "--refute", "abcdefghijkz", "--against", tree)
    assert refuted.returncode == 0, refuted.stderr
    lines = refuted.stdout.splitlines()
    assert f"expected score {tree_score:.4f}" in lines[0] and len(lines) == 13
    assert lines[-1] == "  z: splits nothing, never worth guessing"
    for line in lines[1:-1]:
        shown = float(re.search(r"expected score (?:exactly |at most )?(\d+\.\d+)", line).group(1))
        assert ("no better" in line and shown <= tree_score) or ("better than the tree" in line and shown > tree_score)
        assert shown <= round(best / len(words), 4)
    by_parts = build("--checkpoint", tmp_path / "parts.ck", "--refute", "abcdefghijk", "--against", tree, "--by-parts")
    assert by_parts.returncode == 0 and len(by_parts.stdout.splitlines()) == 12, by_parts.stderr
    for line in by_parts.stdout.splitlines()[1:]:  # what a search proves or leaves open, never more
        shown = float(re.search(r"expected score (?:exactly |at most )?(\d+\.\d+)", line).group(1))
        assert (("no better" in line and shown <= tree_score) or ("not refuted by its parts" in line and shown > tree_score)
                or ("better than the tree: expected score exactly" in line and shown > tree_score))
        assert "exactly" not in line or shown <= round(best / len(words), 4)
    assert build("--max-nodes", 300, "--checkpoint", whole, "-o", tmp_path / "b.json").returncode == 0
    merged = build("--checkpoint", whole, "--merge", helper)
    assert merged.returncode == 0 and "entries added or made better" in merged.stdout, merged.stderr
    status = build("--checkpoint", whole, "--status")
    at_most = [float(x) for x in re.findall(r"expected score (?:exactly|at most) (\d+\.\d+)", status.stdout)]
    assert at_most and max(at_most) <= max(tree_score, round(best / len(words), 4))
    resumed = build("--checkpoint", whole, "--resume", "-o", tmp_path / "c.json")
    assert resumed.returncode == 0 and "optimal (exhaustive)" in resumed.stdout, resumed.stderr
    assert build("-o", tmp_path / "d.json").returncode == 0  # a fresh whole search
    c, d = (orjson.loads((tmp_path / name).read_bytes()) for name in ("c.json", "d.json"))
    assert c["tree"] == d["tree"] and c["result"]["total_score"] == best
    other = tmp_path / "other.json"
    assert subprocess.run(base[:-3] + ["--lives", "3", "--quiet", "--max-nodes", "50", "-o", str(other)],
                          capture_output=True, cwd=Path(__file__).resolve().parent.parent).returncode == 0
    for extra, code, says in ((["--checkpoint", helper, "--refute", "a1"], 2, "letters a to z"),
                              (["--refute", "ab"], 2, "--checkpoint"),
                              (["--checkpoint", helper, "--against", tree], 2, "go with --refute"),
                              (["--checkpoint", helper, "--by-parts"], 2, "go with --refute"),
                              (["--checkpoint", helper, "--refute", "a", "--merge", whole], 2, "two steps"),
                              (["--checkpoint", whole, "--merge", tmp_path / "absent.ck"], 1, "no such checkpoint"),
                              (["--checkpoint", helper, "--resume", "--refute", "a", "--against", other], 1,
                               "another game")):
        refused = build(*extra)
        assert refused.returncode == code and refused.stderr.count("\n") == 1 and says in refused.stderr, refused.stderr


def test_a_letter_with_more_than_256_classes():
    """All 512 words of a and b in 9 letters, plus a family below one of the last masks of `a`
    (c/d/e + eight a's, beside baaaaaaaa): `a` splits them into 512 classes and the 4-word family
    is class 510, which costs 6 misses; the class order must reach it by its own number."""
    import itertools

    words = sorted({"".join(p) for p in itertools.product("ab", repeat=9)} | {x + "a" * 8 for x in "cde"})
    s = Searcher(make(words), 10, memo_entries=100_000)
    cost, ok, letter = s.solve(np.arange(len(words)), s.strikes)
    assert ok
    c, m = s.split_cost(cost)
    assert (20 * len(words) - c, m) == ref.optimal(words, 10)


def test_the_memo_fits_the_memory_it_is_given():
    """With room to spare the memo has its full size for the budget; with less it shrinks to fit,
    never below a working minimum."""
    assert memo_capacity(10**8, 10**12) == 25_000_000
    entries = memo_capacity(10**8, 2**30)
    assert entries * ENTRY_BYTES <= 2**30 and entries > 10**7
    assert memo_capacity(10**8, 1) == 16


def test_a_memo_much_too_small_is_compacted_and_the_optimum_still_found():
    """Compaction keeps what is known of the largest sets, within half the room, and a search
    after it finds them; a sliced search with a memo far too small compacts again and again and
    still ends with the value of a search that had room for everything."""
    hw, everyone, roomy, value = solved_sixty(13)
    assert roomy.memo_entries > 150  # far more than the tiny memo below holds
    n = roomy.memo_entries
    small_room = Searcher(hw, 3, memo_entries=n)
    small_room.solve(everyone, small_room.strikes)
    sizes = small_room.memo.e_size[:small_room.memo_entries].copy()
    small_room.memo.compact()
    kept = small_room.memo_entries
    assert 0 < kept <= n // 2
    assert small_room.memo.e_size[:kept].min() >= np.sort(sizes)[::-1][kept - 1]
    again, ok, _ = small_room.solve(everyone, small_room.strikes)
    assert ok and again == value and small_room.nodes < roomy.nodes
    tiny = Searcher(hw, 3, memo_entries=48)
    cost, finished, _ = solve_in_slices(tiny, everyone, tiny.strikes, 10**8, progress=False, slice_nodes=25)
    assert finished and cost == value and tiny.memo.compactions > 0


def test_game_refuses_a_length_it_does_not_play_naming_no_flag():
    """The engine's error carries the length and the range; the command line words it with the flag."""
    from wordtree.commands.hints import flag_hints
    from wordtree.errors import WordLengthOutOfRange

    for length in (1, 16):
        with pytest.raises(WordLengthOutOfRange) as refused:
            load_hangman_words(length)
        assert (refused.value.length, refused.value.least, refused.value.most) == (length, 2, 15)
        assert str(refused.value) == f"words of {length} letters: hangman supports 2 to 15 letters"
        with pytest.raises(UserError) as worded, flag_hints():
            load_hangman_words(length)
        assert str(worded.value) == f"--length {length}: hangman supports 2 to 15 letters"


def test_bot_stopped_session_says_how_to_continue(monkeypatch):
    """A game the bot cannot finish stops with the session to continue, as a fact (the engine's
    message names no flag), worded with the flag on the command line."""
    from wordtree.commands.hints import flag_hints
    from wordtree.errors import SessionStopped
    from wordtree.hangman import bot

    class Client:
        def __init__(self, url):
            pass

        def post(self, body):
            return {"sessionId": "s-42", "data": {"numberOfGuessAllowedForEachWord": 3, "numberOfWordsToGuess": 2}}

        def close(self):
            pass

    def play_game(client, player, sid, resume, say, words=None):
        raise UserError("the server answered 500")

    monkeypatch.setattr(bot, "Client", Client)
    monkeypatch.setattr(bot, "Player", lambda *args: None)
    monkeypatch.setattr(bot, "_play_game", play_game)
    with pytest.raises(SessionStopped) as stopped:
        bot.run_bot("http://127.0.0.1:9/game/on", "p", say=lambda _: None)
    assert (stopped.value.reason, stopped.value.session) == ("the server answered 500", "s-42")
    assert str(stopped.value) == "the server answered 500; session s-42 can be continued"
    with pytest.raises(UserError) as worded, flag_hints():
        raise stopped.value
    assert str(worded.value) == "the server answered 500; continue with --resume s-42"
