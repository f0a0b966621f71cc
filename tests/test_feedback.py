"""Wordle feedback: the fixture cases, the numba kernel against the plain reference, pattern text."""

import csv
import itertools
import random
from pathlib import Path

import numpy as np
import orjson
import pytest

import reference
from wordtree.errors import UserError
from wordtree.games import get_game
from wordtree.games.wordle import Wordle, letters_array, wordle_feedback
from wordtree.games.wordle_kernels import wordle_pattern_matrix
from wordtree.words import WordList

DATA = Path(__file__).parent / "data"


def fixture_cases():
    with open(DATA / "wordle-feedback-cases.tsv") as f:
        return [(r["answer"], r["guess"], r["feedback"]) for r in csv.DictReader(f, delimiter="\t")]


@pytest.fixture(scope="module")
def wordle():
    return get_game("wordle")


def test_fixture_cases(wordle):
    cases = fixture_cases()
    assert len(cases) == 15
    for answer, guess, expected in cases:
        assert reference.wordle_feedback(guess, answer) == expected, (guess, answer)
        assert wordle.pattern_text(wordle_feedback(guess, answer)) == expected, (guess, answer)
        matrix = wordle_pattern_matrix(letters_array([guess], 5), letters_array([answer], 5), np.uint8)
        assert wordle.pattern_text(int(matrix[0, 0])) == expected, (guess, answer)


def repeated_letter_words(n, length, seed):
    """Words over a tiny alphabet, so nearly every word repeats letters."""
    rng = random.Random(seed)
    return sorted({"".join(rng.choice("aabbc") for _ in range(length)) for _ in range(n)})


@pytest.mark.parametrize("length", [2, 3, 5, 6])
def test_kernel_matches_reference_on_repeated_letters(length):
    words = repeated_letter_words(400, length, seed=length)
    lst = WordList("w", "w", tuple(words), "x")
    game = Wordle("custom", lst, lst)
    matrix = game._compute_matrix()
    for (i, g), (j, a) in itertools.product(enumerate(words), enumerate(words)):
        assert game.pattern_text(int(matrix[i, j])) == reference.wordle_feedback(g, a), (g, a)


def test_kernel_matches_reference_on_real_lists(wordle):
    matrix = wordle._compute_matrix()
    rng = random.Random(7)
    for _ in range(30000):
        i, j = rng.randrange(len(wordle.guesses)), rng.randrange(len(wordle.answers))
        g, a = wordle.guesses[i], wordle.answers[j]
        assert wordle.pattern_text(int(matrix[i, j])) == reference.wordle_feedback(g, a), (g, a)


def test_238_patterns_occur_on_the_original_lists(wordle):
    matrix = wordle._compute_matrix()
    codes = set(np.unique(matrix).tolist())
    assert len(codes) == 238
    missing = {wordle.pattern_text(c) for c in set(range(243)) - codes}
    # four greens and one yellow: the yellow letter would have to be the fifth, green, position
    assert all(p.count("G") == 4 and p.count("Y") == 1 for p in missing)


def test_parse_pattern_accepts_letters_digits_and_squares(wordle):
    code = wordle.parse_pattern("BYGBB")
    assert wordle.parse_pattern("01200") == code
    assert wordle.parse_pattern("\u2b1b\U0001f7e8\U0001f7e9\u2b1c\u2b1b") == code
    assert wordle.pattern_text(code) == "BYGBB"
    for bad in ["BYGB", "BYGBX", "", "0123"]:
        with pytest.raises(UserError):
            wordle.parse_pattern(bad)


ORANGE, BLUE = "\U0001f7e7", "\U0001f7e6"  # the high-contrast squares: orange is green, blue is yellow


def test_parse_pattern_accepts_the_high_contrast_squares(wordle):
    code = wordle.parse_pattern("BYGBB")
    assert wordle.parse_pattern(f"\u2b1b{BLUE}{ORANGE}\u2b1b\u2b1b") == code
    assert wordle.parse_pattern(f"\u2b1c{BLUE}\ufe0f{ORANGE}\ufe0f\u2b1c\u2b1c") == code
    # both palettes in one paste read the same colours
    assert wordle.parse_pattern(f"\u2b1b\U0001f7e8{ORANGE}\u2b1b\u2b1b") == code
    # the other coloured squares are still no colour
    for other in ["\U0001f7e5", "\U0001f7ea", "\U0001f7eb"]:
        with pytest.raises(UserError):
            wordle.parse_pattern(f"\u2b1b{other}{ORANGE}\u2b1b\u2b1b")


def test_high_contrast_squares_on_the_command_line(capsys):
    from wordtree.commands import main

    assert main(["next", "salet:GBYBB", "--json"]) == 0
    plain = orjson.loads(capsys.readouterr().out)
    assert main(["next", f"salet:{ORANGE}\u2b1b{BLUE}\u2b1b\u2b1b", "--json"]) == 0
    assert orjson.loads(capsys.readouterr().out) == plain
    # a Dordle board pair pasted in high contrast: each board's squares read alike
    assert main(["next", "dordle-every40-saice", "saice:GBBBB/BYBBB", "--json"]) == 0
    plain = orjson.loads(capsys.readouterr().out)
    assert main(["next", "dordle-every40-saice", f"saice:{ORANGE}\u2b1b\u2b1b\u2b1b\u2b1b/\u2b1b{BLUE}\u2b1b\u2b1b\u2b1b",
                 "--json"]) == 0
    assert orjson.loads(capsys.readouterr().out) == plain
