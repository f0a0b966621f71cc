"""Word lists, the pattern-matrix cache, and the partition-statistics kernel."""

import math
import random

import numpy as np
import pytest

from wordtree.errors import UserError
from wordtree.games import get_game
from wordtree.exact.heuristics import partition_stats
from wordtree.wordle.patterns import pattern_matrix
from wordtree.words import canonical_sha256, load_words


def test_load_words_normalizes_and_fingerprints(tmp_path):
    messy = tmp_path / "messy.txt"
    messy.write_text("  Crane\nslate\n\nCRANE\nadieu  \n")
    clean = tmp_path / "clean.txt"
    clean.write_text("adieu\ncrane\nslate\n")
    a, b = load_words(messy, length=5), load_words(clean, length=5)
    assert a.words == ("crane", "slate", "adieu")
    assert a.sha256 == b.sha256 == canonical_sha256(["adieu", "crane", "slate"])


@pytest.mark.parametrize("text, where", [("crane\nsl4te\n", ":2:"), ("crane\nslates\n", ":2:"), ("", "empty"),
                                         ("\n \n", "empty"), ("crane\n\nsl te\n", ":3:.*' '")])
def test_load_words_rejects_bad_lines(tmp_path, text, where):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(UserError, match=where):
        load_words(path, length=5)


def test_load_words_takes_the_first_words_length(tmp_path):
    path = tmp_path / "first.txt"
    path.write_text("\n Abc\nxyz\nabc\n")
    assert load_words(path, length="first").words == ("abc", "xyz")
    path.write_text("\n abc\nxyz\nabcd\n")
    with pytest.raises(UserError, match=":4:.*expected 3"):
        load_words(path, length="first")


def test_shipped_lists_match_their_recorded_checksums():
    game = get_game("wordle")
    ident = game.identity()
    assert ident["answers_sha256"] == "f40e47975cf360ff9febe7d49c8e285054d8fa3fb9644cea575922060951d6ee"
    assert ident["guesses_sha256"] == "feacc549249b5dcb43e2799fbbcda14ebc33d55904fb15d043779104e60c1579"


def test_missing_answers_are_added_to_the_guesses_with_a_notice(tmp_path):
    answers, guesses = tmp_path / "a.txt", tmp_path / "g.txt"
    answers.write_text("crane\nslate\n")
    guesses.write_text("crane\nadieu\n")
    game = get_game(None, str(answers), str(guesses))
    assert game.guesses == ("crane", "adieu", "slate")
    assert game.notices and "slate" in game.notices[0]


@pytest.fixture(scope="module")
def small_game(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lists")
    words = get_game("wordle").answers[:300]
    (folder / "w.txt").write_text("\n".join(words) + "\n")
    return get_game(None, str(folder / "w.txt"), str(folder / "w.txt"))


def test_pattern_cache_is_reused_and_never_trusted_when_damaged(small_game, tmp_path):
    first = pattern_matrix(small_game, tmp_path)
    assert first.source == "built"
    again = pattern_matrix(small_game, tmp_path)
    assert again.source == "cache" and np.array_equal(again.matrix, first.matrix)
    raw = first.path.read_bytes()
    damages = {
        "truncated": raw[: len(raw) - 100],
        "flipped": raw[:-50] + bytes([raw[-50] ^ 1]) + raw[-49:],
        "foreign": b'{"magic": "something else"}\n' + raw.split(b"\n", 1)[1],
        "garbage": b"\x00\x01 not a header",
    }
    for name, data in damages.items():
        first.path.write_bytes(data)
        rebuilt = pattern_matrix(small_game, tmp_path)
        assert rebuilt.source == "rebuilt", name
        assert np.array_equal(rebuilt.matrix, first.matrix), name
        assert pattern_matrix(small_game, tmp_path).source == "cache", name


def test_partition_stats_kernel_matches_plain_python(small_game):
    matrix = small_game._compute_matrix()
    rng = random.Random(4)
    for size in (1, 2, 7, 60, 300):
        S = np.array(sorted(rng.sample(range(len(small_game.answers)), size)), dtype=np.int32)
        stats = partition_stats(small_game, matrix, S)
        for g in rng.sample(range(len(small_game.guesses)), 40):
            sizes = {}
            for a in S:
                code = small_game.feedback(small_game.guesses[g], small_game.answers[a])
                sizes[code] = sizes.get(code, 0) + 1
            n = len(S)
            assert stats.classes[g] == len(sizes)
            assert stats.squares[g] == sum(c * c for c in sizes.values())
            assert stats.largest[g] == max(sizes.values())
            assert stats.in_s[g] == (small_game.win_code in sizes)
            assert math.isclose(stats.entropy[g], -sum(c / n * math.log2(c / n) for c in sizes.values()), abs_tol=1e-9)
