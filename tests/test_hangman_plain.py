"""The plain Python search of Hangman (hangman/plain.py) against the kernels' (search.Searcher): the
same least cost and the same first letter on many positions, and a lookup off the tree that
answers with it without numba."""

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from reference_hangman import optimal
from wordtree.hangman.game import HangmanWords, mask_table
from wordtree.hangman.lookup import HangmanTree, shipped_tree
from wordtree.hangman.plain import PlainSearch, costs, spelled_masks
from wordtree.hangman.search import Searcher

ROOT = Path(__file__).resolve().parent.parent
ENABLE = [w.strip() for w in (ROOT / "wordlists" / "enable1.txt").read_text().split()]


def positions(length: int, count: int, seed: int, most: int = 120):
    """(words left, missed letters) of `count` random positions: a random word, random letters
    guessed (some in it, some not), the words of that length that fit; 3 to `most` words left."""
    rng = random.Random(seed)
    words = [w for w in ENABLE if len(w) == length]
    found = []
    while len(found) < count:
        answer = rng.choice(words)
        guessed = set(rng.sample(sorted(set(answer)), rng.randint(0, min(2, len(set(answer)) - 1))))
        guessed |= set(rng.sample("abcdefghijklmnopqrstuvwxyz", rng.randint(1, 4)))
        missed = guessed - set(answer)
        pattern = [ch if ch in guessed else "_" for ch in answer]
        left = [w for w in words if all(p == ch if p != "_" else ch not in guessed for p, ch in zip(pattern, w))]
        if 3 <= len(left) <= most:
            found.append((left, "".join(sorted(missed))))
    return found


def both(words, lives: int, strikes: int, weights=None):
    """(the kernels' (cost, letter), the plain search's (cost, letter)) of the whole set."""
    weights = np.ones(len(words), dtype=np.int64) if weights is None else np.asarray(weights, dtype=np.int64)
    hw = HangmanWords(len(words[0]), tuple(words), weights, mask_table(words, len(words[0])), {})
    s = Searcher(hw, lives, memo_entries=1 << 16)
    cost, finished, letter = s.solve(np.arange(len(words)), strikes)
    assert finished
    miss_cost, lost_cost, key = costs(lives, int(weights.sum()))
    assert (miss_cost, lost_cost, key) == (s.miss_cost, s.lost_cost, s.key)
    plain = PlainSearch(spelled_masks(words), weights.tolist(), miss_cost, lost_cost)
    return (cost, letter), plain.solve((1 << len(words)) - 1, strikes)


@pytest.mark.parametrize("length", [3, 4, 5, 6, 7])
def test_the_same_cost_and_letter_as_the_kernels_on_many_positions(length):
    for i, (words, missed) in enumerate(positions(length, 16, seed=length, most=80)):
        lives = (0, 1, 3, 10)[i % 4]
        strikes = max(1, lives + 1 - len(missed))
        kernels, plain = both(words, lives, strikes)
        assert plain == kernels, (words, lives, strikes)


def test_the_same_with_weights_and_where_the_tie_break_would_overflow():
    rng = random.Random(7)
    for words, missed in positions(5, 12, seed=11, most=60):
        weights = [rng.randint(1, 50) for _ in words]
        kernels, plain = both(words, 10, 11 - len(missed), weights)
        assert plain == kernels, (words, weights)
    words = positions(4, 1, seed=3, most=40)[0][0]
    huge = [2**40 + i for i in range(len(words))]  # the tie-break's key overflows: miss 1, loss 20
    assert costs(10, sum(huge))[2] is None
    kernels, plain = both(words, 10, 11, huge)
    assert plain == kernels


def test_the_reference_agrees_on_small_sets():
    """The slow oracle (every letter allowed, guessed letters tracked) gives the same score."""
    for words, _ in positions(4, 6, seed=5, most=6):
        for lives in (0, 2):
            (cost, _), plain = both(words, lives, lives + 1)
            miss_cost, lost_cost, key = costs(lives, len(words))
            score, wrong = optimal(words, lives)
            assert plain[0] == cost
            assert divmod(cost, key) == (20 * len(words) - score, wrong)


def test_the_budget_gives_up_and_says_so():
    words = positions(5, 1, seed=1, most=120)[0][0]
    plain = PlainSearch(spelled_masks(words), [1] * len(words), *costs(10, len(words))[:2])
    assert plain.solve((1 << len(words)) - 1, 11, max_nodes=1) is None
    assert plain.solve((1 << len(words)) - 1, 11) is not None


def test_the_readmes_position_is_answered_exactly_without_numba():
    """`next --game hangman _e___ --missed sa` (264 words left, off the tree) is the plain search's:
    the kernels' letter and score, and numba is never imported."""
    tree = HangmanTree.open(shipped_tree(5))
    pattern, missed = tree.parse("_e___", "sa")
    words = tree.words_left(pattern, missed)
    assert tree._on_tree(pattern, missed, words) is None and len(words) == 264
    code = ("import sys; from wordtree.hangman.lookup import HangmanTree, shipped_tree; "
            "a = HangmanTree.open(shipped_tree(5)).advise('_e___', 'sa'); "
            "print(a.letter, a.source, a.expected_score, 'numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    letter, source, score = tree._search(words, 2, 300_000)  # the kernels'
    assert out == [letter, source, str(score), "False"]


# ------------------------------------------------------------------------------------------------
# the lengths without a shipped tree (16 letters and more): the plain search from the start
# ------------------------------------------------------------------------------------------------
LONG = sorted({len(w) for w in ENABLE if len(w) > 15})


def test_every_length_the_server_serves_has_a_lookup():
    from wordtree.hangman.lookup import MAX_LENGTH, for_length

    assert LONG == [16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 27, 28]
    for length in range(MAX_LENGTH, max(LONG) + 1):  # the shipped trees' own tests cover 2 to 15
        if length not in {len(w) for w in ENABLE}:
            continue
        tree = for_length(length)
        advice = tree.advise("_" * length)
        assert advice.source == ("tree" if length <= MAX_LENGTH else "exact") and advice.letter, length
        assert len(advice.words) == sum(1 for w in ENABLE if len(w) == length)


def test_without_a_tree_the_search_finds_the_shipped_trees_optimum():
    """The 15-letter words searched from the start without their tree: the tree's proven score."""
    import json

    from wordtree.hangman.lookup import HangmanTree

    doc = json.loads(shipped_tree(15).read_text())
    advice = HangmanTree.without_tree(15).advise("_" * 15)
    assert advice.source == "exact" and advice.expected_score == doc["result"]["expected_score"]
    assert advice.letter == doc["tree"]["guess"]


def test_a_long_word_looked_up_from_the_command_line():
    def cli(*args):
        return subprocess.run([sys.executable, str(ROOT / "cli.py"), "next", "--game", "hangman", *args],
                              capture_output=True, text=True, cwd=ROOT)

    first = cli("_" * 16, "--json")
    assert first.returncode == 0, first.stderr
    import json

    advice = json.loads(first.stdout)
    assert advice["source"] == "exact" and advice["candidates"] == 1943 and advice["letter"] == "i"
    deeper = cli("_" * 16, "--missed", "i")  # a miss the search would not make: still exact
    assert deeper.returncode == 0 and "(exact:" in deeper.stdout, deeper.stderr
    none = cli("_" * 26)  # ENABLE has no 26-letter word
    assert none.returncode == 1 and none.stderr.count("\n") == 1 and "26 letters" in none.stderr


def test_the_plain_rule_is_the_kernels_frequency_rule():
    """The heuristic letter without numba (long words past the budget) is baselines' frequency rule."""
    from wordtree.hangman.baselines import rule_letter
    from wordtree.hangman.lookup import LETTERS

    tree = HangmanTree.open(shipped_tree(4))
    rng = random.Random(2)
    for words, _ in positions(4, 20, seed=9, most=200):
        weights = [rng.randint(1, 9) for _ in words]
        tree.weights = dict(zip(words, weights))
        hw = HangmanWords(4, tuple(words), np.array(weights, dtype=np.int64), mask_table(words, 4), {})
        s = Searcher(hw, 10, memo_entries=1 << 10)
        assert tree._plain_rule(words) == LETTERS[rule_letter(s, np.arange(len(words)), "frequency")], words


def test_play_takes_the_long_lengths_too():
    done = subprocess.run([sys.executable, str(ROOT / "cli.py"), "play", "--game", "hangman", "--length", "17",
                           "--answer", "electroretinogram"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and done.stdout.splitlines()[-1].startswith("won: electroretinogram"), done.stderr
