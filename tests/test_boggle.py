"""Word grids (Boggle): the numba solver against the plain recursive reference, the known boards,
the trie cache, word-list and board errors, the CLI, and a brief run of the board search."""

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import reference_boggle as ref
from wordtree.puzzles import boggle
from wordtree.errors import UserError

ROOT = Path(__file__).resolve().parent.parent
ENABLE2K = ROOT / "wordlists" / "enable2k.txt"


@pytest.fixture(scope="module")
def trie():
    return boggle.load_trie(ENABLE2K)


@pytest.fixture(scope="module")
def dictionary():
    return ref.Dictionary(ref.read_words(ENABLE2K))


def fast(cells, rows, cols, trie, min_length=3):
    board = boggle.parse_board(cells, rows, cols, trie.alphabet)
    return boggle.solve(board, trie, min_length)


def check_against_reference(cells, rows, cols, trie, dictionary, min_length=3):
    expected = ref.solve(cells, rows, cols, dictionary, min_length)
    got = fast(cells, rows, cols, trie, min_length)
    assert set(got.words) == expected, cells
    assert len(got.words) == len(expected), cells  # each word once
    assert got.score == ref.score(expected, min_length), cells
    return got


@pytest.mark.parametrize(
    "cells, rows, cols, score, count",
    [("perslatgsineters", 4, 4, 3625, 1045), ("streaedlp", 3, 3, 545, None)],
)
def test_known_boards(cells, rows, cols, score, count, trie, dictionary):
    expected = ref.solve(cells, rows, cols, dictionary)
    assert ref.score(expected) == score
    got = fast(cells, rows, cols, trie)
    assert got.score == score
    assert set(got.words) == expected
    if count is not None:
        assert len(expected) == count and len(got.words) == count


def random_cells(rng, n, letters):
    return "".join(rng.choice(letters) for _ in range(n))


# common letters, so the boards hold many words; with q and repeats mixed in
RICH = "aaeeeiioorrsssttlnndpgq"


@pytest.mark.parametrize("rows, cols, n", [(1, 5, 60), (1, 16, 60), (2, 7, 40), (3, 3, 60), (4, 4, 60), (5, 5, 25)])
def test_random_boards_match_reference(rows, cols, n, trie, dictionary):
    rng = random.Random(rows * 100 + cols)
    boards = []
    for i in range(n):
        letters = RICH if i % 3 else "abcdefghijklmnopqrstuvwxyz"
        boards.append(random_cells(rng, rows * cols, letters))
    for cells in boards:
        check_against_reference(cells, rows, cols, trie, dictionary)
    # the parallel batch scorer agrees with the one-board solver
    letters = np.array([[trie.letter_index()[ch] for ch in cells] for cells in boards])
    scores, counts = boggle.score_boards(letters, trie, rows, cols)
    for cells, score, count in zip(boards, scores, counts):
        expected = ref.solve(cells, rows, cols, dictionary)
        assert (score, count) == (ref.score(expected), len(expected)), cells


def test_qu_and_repeated_letters(trie, dictionary):
    rng = random.Random(5)
    for _ in range(40):
        cells = random_cells(rng, 16, "quieeteass")  # several q cells and many repeats
        check_against_reference(cells, 4, 4, trie, dictionary)
    got = check_against_reference("qitesxxx", 2, 4, trie, dictionary)
    assert {"quit", "quite"} <= set(got.words) and "quits" not in got.words
    assert boggle.points(len("quite")) == 2  # Qu counts two letters
    assert check_against_reference("aaaaaaaaa", 3, 3, trie, dictionary).score == 0
    assert check_against_reference("sesesesese", 2, 5, trie, dictionary).words


def test_dice_boards_match_reference(trie, dictionary):
    rng = np.random.default_rng(3)
    for rows in (4, 5):
        boards = boggle.random_boards(rng, 15, rows, rows, trie)
        for letters in boards:
            check_against_reference(boggle.cells_of(letters, trie), rows, rows, trie, dictionary)


def test_dice_are_each_used_once(trie):
    boards = boggle.random_boards(np.random.default_rng(1), 2000, 4, 4, trie)
    index = trie.letter_index()
    q, e = index["q"], index["e"]
    assert (boards == q).sum(axis=1).max() == 1  # one die has a Qu face
    dice_with_e = sum("e" in die for die in boggle.DICE[(4, 4)])
    assert (boards == e).sum(axis=1).max() <= dice_with_e
    uniform = boggle.random_boards(np.random.default_rng(1), 2000, 3, 3, trie)
    assert set(np.unique(uniform)) == set(range(len(trie.alphabet)))


@pytest.mark.parametrize("min_length", [1, 2, 4, 6])
def test_min_length(min_length, trie, dictionary):
    rng = random.Random(min_length)
    for _ in range(15):
        check_against_reference(random_cells(rng, 16, RICH), 4, 4, trie, dictionary, min_length)


def test_points_table():
    assert [boggle.points(n) for n in range(2, 12)] == [0, 1, 1, 2, 3, 5, 11, 11, 11, 11]


def test_other_alphabet(tmp_path):
    words = ["кот", "кит", "ток", "тик", "откат", "так", "кат", "ёж", "ёжик", "qat", "quo"]
    path = tmp_path / "ru.txt"
    path.write_text("\n".join(w.upper() if i % 2 else w for i, w in enumerate(words)) + "\n\n", encoding="utf-8")
    trie = boggle.load_trie(path, tmp_path / "cache")
    assert trie.n_words == len(words) - 1  # qat has a q without u
    dictionary = ref.Dictionary(words)
    rng = random.Random(9)
    for _ in range(100):
        cells = random_cells(rng, 9, "котаиёжкq")
        check_against_reference(cells, 3, 3, trie, dictionary, min_length=2)
    got = fast("КОТ/ИКА/ёжq", None, None, trie, min_length=2)
    assert (got.board.rows, got.board.cols) == (3, 3)
    assert {"кот", "ток", "так", "кат", "ёж", "ёжик"} <= set(got.words)
    assert "кит" not in got.words  # и and т are not neighbours


def test_trie_spells_every_word(tmp_path):
    words = ["a", "ab", "abc", "abd", "b", "ba", "quit", "qi", "squad", "zzz", "zz"]
    path = tmp_path / "w.txt"
    path.write_text("\n".join(words) + "\n", encoding="utf-8")
    trie = boggle.load_trie(path, tmp_path)
    spelled = {trie.spell(n) for n in np.flatnonzero(trie.word_length)}
    assert spelled == set(words) - {"qi"}
    for node in np.flatnonzero(trie.word_length):
        assert trie.word_length[node] == len(trie.spell(node))


def test_cache_is_used_checked_and_rebuilt(tmp_path):
    path = tmp_path / "w.txt"
    path.write_text("cat\ncats\ndog\n", encoding="utf-8")
    cache = tmp_path / "cache"
    first = boggle.load_trie(path, cache)
    assert first.source == "built" and first.path.exists()
    second = boggle.load_trie(path, cache)
    assert second.source == "cache"
    for name in boggle.Trie.ARRAYS:
        assert np.array_equal(getattr(first, name), getattr(second, name))
    data = bytearray(first.path.read_bytes())
    data[-3] ^= 0x40  # a flipped bit in the arrays
    first.path.write_bytes(bytes(data))
    assert boggle.load_trie(path, cache).source == "rebuilt"
    first.path.write_bytes(first.path.read_bytes()[:-5])  # truncated
    assert boggle.load_trie(path, cache).source == "rebuilt"
    assert boggle.load_trie(path, cache).source == "cache"
    path.write_text("cat\ncats\ndogs\n", encoding="utf-8")  # another list, another cache file
    assert boggle.load_trie(path, cache).source == "built"
    assert not list(cache.glob("*.tmp"))


@pytest.mark.parametrize(
    "text, message",
    [("cat\ndo g\n", "w.txt:2"), ("cat\nd0g\n", "'0' is not a letter"), ("\n\n", "empty"),
     ("qi\nqat\n", "q without u")],
)
def test_word_list_errors(tmp_path, text, message):
    path = tmp_path / "w.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UserError, match=message):
        boggle.load_trie(path, tmp_path)


def test_board_errors(trie):
    cases = [
        ("perslatgsineter", None, None, "15 letters is not a square"),
        ("perslatgsineters", 3, 5, "a 3x5 board needs 15"),
        ("pers1atgsineters", None, None, "'1' \\(row 2, column 1\\)"),
        ("pers-atgsineters", None, None, "'-' \\(row 2, column 1\\) is not a letter"),
        ("pers/lat", None, None, "rows of different lengths"),
        ("a" * 81, None, None, "at most 64"),
        ("", None, None, "no letters"),
    ]
    for cells, rows, cols, message in cases:
        with pytest.raises(UserError, match=message):
            boggle.parse_board(cells, rows, cols, trie.alphabet)
    board = boggle.parse_board("abcdef", None, 2, trie.alphabet)
    assert (board.rows, board.cols) == (3, 2)
    board = boggle.parse_board("Pers Latg", None, None, trie.alphabet)
    assert (board.cells, board.rows, board.cols) == ("perslatg", 2, 4)


def test_qu_typed_as_the_die_shows_it_is_one_cell(trie, dictionary):
    # 17 letters typed, 16 dice: the board is 4x4 with its Qu die
    board = boggle.parse_board("quitperslatgsines", None, None, trie.alphabet)
    assert (board.cells, board.rows, board.cols) == ("qitperslatgsines", 4, 4)
    for typed, rows in [("qITE SXXX", None), ("quite/sxxx", None), ("quITESXXX", 2), ("qitesxxx", 2)]:
        board = boggle.parse_board(typed, rows, None, trie.alphabet)
        assert (board.cells, board.rows, board.cols) == ("qitesxxx", 2, 4), typed
    assert fast("quitesxxx", 2, None, trie).words == fast("qitesxxx", 2, 4, trie).words
    # letters that make a board as typed keep q and u apart: the Qu die, then a U die
    assert boggle.parse_board("quitperslatgsine", None, None, trie.alphabet).cells == "quitperslatgsine"
    assert boggle.parse_board("quuabcdefg", None, None, trie.alphabet).cells == "quabcdefg"
    # no board either way: the message gives both counts; without a qu, no word of it
    with pytest.raises(UserError, match=r"^board: 15 letters is not a square board "
                                        r"\(nor 14 with each qu read as the one Qu die\);"):
        boggle.parse_board("quitperslatgsin", None, None, trie.alphabet)
    with pytest.raises(UserError, match=r"a 2x4 board needs 8 \(nor with each qu read as the one Qu die\)$"):
        boggle.parse_board("quiteqsxxx", 2, 4, trie.alphabet)
    with pytest.raises(UserError) as exc:
        boggle.parse_board("perslatgsineter", None, None, trie.alphabet)
    assert "Qu die" not in str(exc.value)


def test_cli_qu_board_and_hint(trie):
    typed = run_cli("quitperslatgsines", "--json")
    plain = run_cli("qitperslatgsines", "--json")
    assert typed.returncode == 0 and plain.returncode == 0, typed.stderr + plain.stderr
    assert json.loads(typed.stdout) == json.loads(plain.stdout)
    assert json.loads(typed.stdout)["rows"] == 4
    bad = run_cli("quitperslatgsin")
    assert bad.returncode == 1 and bad.stderr.strip() == (
        "wordtree: error: board: 15 letters is not a square board (nor 14 with each qu read as the one Qu die); "
        "give --rows and --cols")


def run_cli(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), "boggle", *args], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=300)


@pytest.mark.parametrize(
    "args",
    [["perslatgsinete"], ["abc", "--rows", "2", "--cols", "2"], ["ab7d"], ["perslatgsineters", "--best"],
     [], ["abcd", "--words", "no-such-list.txt"], ["--random", "0"], ["--best", "--rows", "9", "--cols", "9"]],
)
def test_cli_errors_are_one_line(args, trie):
    result = run_cli(*args)
    assert result.returncode != 0
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert result.stderr.startswith("wordtree: error:")


def test_cli_json(trie):
    result = run_cli("STREAEDLP", "--json")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert list(out) == ["board", "rows", "cols", "score", "count", "words", "paths"]
    assert (out["board"], out["rows"], out["cols"], out["score"]) == ("streaedlp", 3, 3, 545)
    assert out["count"] == len(out["words"]) == len(set(out["words"]))
    text = run_cli("streaedlp")
    assert text.returncode == 0 and text.stdout.strip().endswith(f"{out['count']} words, 545 points")


def test_cli_random_and_best(trie):
    result = run_cli("--random", "3000", "--seed", "4")
    assert result.returncode == 0, result.stderr
    assert "boards/second" in result.stdout and "standard dice" in result.stdout
    best = run_cli("--best", "--rows", "2", "--cols", "3", "--restarts", "3", "--steps", "3000", "--seed", "2")
    again = run_cli("--best", "--rows", "2", "--cols", "3", "--restarts", "3", "--steps", "3000", "--seed", "2")
    assert best.returncode == 0, best.stderr
    lines = best.stdout.splitlines()
    assert lines[1:] == again.stdout.splitlines()[1:]  # the same seed, the same boards (not the time)


def test_search_finds_good_boards_deterministically(trie, dictionary):
    kwargs = dict(seconds=None, restarts=2, seed=11, steps=4000)
    found = boggle.search_best(trie, 3, 3, **kwargs)
    assert found == boggle.search_best(trie, 3, 3, **kwargs)
    for cells, score in found.items():
        assert score == ref.score(ref.solve(cells, 3, 3, dictionary))
    # far above a random 3x3 board (the mean of uniform-letter boards is a few points)
    assert max(found.values()) >= 250
    assert boggle.canonical_cells("abcdefghi", 3, 3) == boggle.canonical_cells("gdahebifc", 3, 3)


def test_wide_and_narrow_trie_rows_agree(trie):
    """The kernels read one-word rows for small alphabets and two-word rows otherwise."""
    from wordtree.puzzles.boggle_kernels import _score_kernel

    narrow, wide = trie.node_rows(3), trie.node_rows(3, wide=True)
    assert narrow.shape[1] == 1 and wide.shape[1] == 2
    boards = boggle.random_boards(np.random.default_rng(8), 300, 4, 4, trie)
    results = []
    for rows in (narrow, wide):
        scores, counts = np.empty(len(boards), np.int64), np.empty(len(boards), np.int64)
        _score_kernel(boards, rows, len(trie.alphabet), boggle.adjacency(4, 4), 4, scores, counts)
        results.append((scores, counts))
    assert np.array_equal(results[0][0], results[1][0]) and np.array_equal(results[0][1], results[1][1])
    assert results[0][0].mean() > 10


def test_alphabet_of_more_than_32_letters(tmp_path):
    """A 40-letter alphabet takes the wide rows; the fast solver still agrees with the reference."""
    rng = random.Random(12)
    alphabet = "abcdefghijklmnopqrstuvwxyz" + "абвгдежзийклмн"
    common = "aeiostrnабвгде"
    words = sorted({"".join(rng.choice(common if rng.random() < 0.8 else alphabet) for _ in range(rng.randint(2, 6)))
                    for _ in range(3000)} | set(alphabet))
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(words) + "\n", encoding="utf-8")
    mixed = boggle.load_trie(path, tmp_path / "cache")
    assert len(mixed.alphabet) == 40 and mixed.node_rows(2).shape[1] == 2
    dictionary = ref.Dictionary([w for w in words if "q" not in w or "qu" in w])
    for _ in range(40):
        cells = random_cells(rng, 16, common + "qz")
        got = check_against_reference(cells, 4, 4, mixed, dictionary, min_length=2)
    assert got.words


def test_letters_the_word_list_lacks_are_cells_no_word_passes_through(tmp_path, trie, dictionary):
    """A board letter outside the word list's alphabet (é for ENABLE2K, or any letter for a small
    list) is not an error: its cell blocks every path, as the reference solver finds too."""
    got = fast("persélatgsineter", None, None, trie)  # 'é' is in no ENABLE2K word
    assert set(got.words) == ref.solve("persélatgsineter", 4, 4, dictionary)
    assert got.words and all("é" not in w for w in got.words)
    path = tmp_path / "small.txt"
    path.write_text("cat\nact\ntact\ncatty\n", encoding="utf-8")  # letters a c t y only
    small = boggle.load_trie(path, tmp_path / "cache")
    small_dictionary = ref.Dictionary(["cat", "act", "tact", "catty"])
    rng = random.Random(3)
    for _ in range(200):
        cells = random_cells(rng, 9, "actyxqzé")
        check_against_reference(cells, 3, 3, small, small_dictionary)
    solution = boggle.solve(boggle.parse_board("cat/xzq/tca", None, None, small.alphabet), small)
    assert set(solution.words) == {"cat", "act"}
    with pytest.raises(UserError, match="not a letter"):
        boggle.parse_board("ca7/xzq/tac", None, None, small.alphabet)


def test_word_paths_spell_the_words_through_neighbouring_cells(trie):
    for cells, rows, cols in [("perslatgsineters", 4, 4), ("qutrseaiedlp", 3, 4), ("streaedlp", 3, 3)]:
        board = boggle.parse_board(cells, rows, cols, trie.alphabet)
        solution = boggle.solve(board, trie)
        paths = boggle.solution_json(solution)["paths"]
        assert list(paths) == list(solution.words)
        for word, path in paths.items():
            assert len(set(path)) == len(path)
            assert "".join("qu" if cells[i] == "q" else cells[i] for i in path) == word
            for a, b in zip(path, path[1:]):
                assert max(abs(a // cols - b // cols), abs(a % cols - b % cols)) == 1
    board = boggle.Board("catxyz", 2, 3)
    assert boggle.word_path(board, "cat") == [0, 1, 2]
    assert boggle.word_path(board, "tax") == [2, 1, 3]
    assert boggle.word_path(board, "cz") is None


def test_cli_boggle_with_a_small_word_list(tmp_path):
    words = tmp_path / "mini.txt"
    words.write_text("Cat\nact\n", encoding="utf-8")
    result = run_cli("cat/xzo/tca", "--words", str(words), "--json", "--cache-dir", str(tmp_path / "cache"))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["words"] == ["act", "cat"] and out["score"] == 2
    assert out["paths"] == {"act": [8, 7, 6], "cat": [0, 1, 2]}
