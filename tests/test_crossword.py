"""Crossword filling: the numba search against a brute-force filler on tiny grids, the quality
loop against the brute-force optimum, fixture grids with ENABLE, and the command line."""

import importlib.util
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import orjson
import pytest

from wordtree.errors import UserError
from wordtree.puzzles import crossword as cw
from wordtree.puzzles.crossword_fill import luby
from wordtree.puzzles.crossword_index import _masks
from wordtree.words import load_words
from reference_crossword import reference_fills, reference_slots

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
FIXTURES = sorted(DATA.glob("crossword-15x15-*.txt"))


def random_instance(rng: random.Random):
    """A tiny grid (blocks, some pre-filled letters) and a word list over a few letters, so
    that grids have many fills, or none."""
    while True:
        height, width = rng.randint(2, 4), rng.randint(2, 5)
        rows = [[("#" if rng.random() < 0.2 else "." ) for _ in range(width)] for _ in range(height)]
        slot_cells = set()
        for direction, r, c, n in reference_slots(["".join(row) for row in rows]):
            slot_cells.update((r, c + i) if direction == "across" else (r + i, c) for i in range(n))
        for r in range(height):
            for c in range(width):
                if (r, c) not in slot_cells:
                    rows[r][c] = "#"
                elif rng.random() < 0.1:
                    rows[r][c] = rng.choice("abc")
        if slot_cells:
            break
    alphabet = "abc" if rng.random() < 0.5 else "abcd"
    words = sorted({"".join(rng.choice(alphabet) for _ in range(n)) for n in range(2, 6) for _ in range(rng.randint(3, 14))})
    return ["".join(row) for row in rows], words


def write_lists(tmp_path: Path, words, scored=None):
    words_file = tmp_path / "words.txt"
    words_file.write_text("".join(w + "\n" for w in words))
    scores_file = tmp_path / "scores.txt"
    scored = words if scored is None else scored
    scores_file.write_text("".join(f"{w};{10 + i}\n" for i, w in enumerate(scored)) or "zzzz;1\n")
    return words_file, scores_file


def engine_fills(rows, words_file, scores_file):
    slots = cw.find_slots(rows)
    index = cw.word_index(words_file, scores_file)
    problem = cw.build_problem(rows, slots, index)
    verdict, fills = cw.all_fills(problem)
    as_sets = [frozenset((slots[k].direction, slots[k].row, slots[k].col, w) for k, w in f.items()) for f in fills]
    return problem, verdict, as_sets


def test_every_fill_matches_brute_force(tmp_path):
    rng = random.Random(2026)
    seen_fillable = seen_impossible = 0
    for case in range(60):
        rows, words = random_instance(rng)
        folder = tmp_path / str(case)
        folder.mkdir()
        words_file, scores_file = write_lists(folder, words)
        expected = reference_fills(rows, words)
        problem, verdict, fills = engine_fills(rows, words_file, scores_file)
        assert verdict in ("exhaustive", "impossible"), (rows, words)
        assert len(fills) == len(set(fills)), (rows, words)
        assert set(fills) == expected, (rows, words)
        result = cw.fill(problem, seed=case, timeout=30, optimize=False)
        if expected:
            seen_fillable += 1
            assert result.status == "filled"
            got = frozenset((problem.slots[k].direction, problem.slots[k].row, problem.slots[k].col, w)
                            for k, w in result.words.items())
            assert got in expected
        else:
            seen_impossible += 1
            assert result.status == "impossible"
    assert seen_fillable >= 10 and seen_impossible >= 10  # the generator exercises both verdicts


def test_quality_loop_finds_the_fewest_rare_entries(tmp_path):
    rng = random.Random(7)
    checked = 0
    for case in range(40):
        rows, words = random_instance(rng)
        expected = reference_fills(rows, words)
        if not expected:
            continue
        common = sorted(rng.sample(words, len(words) // 2))
        folder = tmp_path / str(case)
        folder.mkdir()
        words_file, scores_file = write_lists(folder, words, common)
        best_rare = min(sum(e[3] not in common for e in fill) for fill in expected)
        slots = cw.find_slots(rows)
        index = cw.word_index(words_file, scores_file)
        result = cw.fill(cw.build_problem(rows, slots, index), seed=case, timeout=30)
        assert result.status == "filled" and result.optimal
        q = cw.quality(slots, result.words, index)
        assert q["entries"] - q["common_entries"] == best_rare, (rows, words, common)
        checked += 1
    assert checked >= 10


def check_fill(rows, slots, words, wordset):
    grid = cw.filled_rows(rows, slots, words)
    assert len(words) == len(slots)
    for k, slot in enumerate(slots):
        assert "".join(grid[r][c] for r, c in slot.cells) == words[k]  # every crossing agrees
        assert words[k] in wordset or all(rows[r][c] != "." for r, c in slot.cells)
    assert len(set(words.values())) == len(words)  # no word twice
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch not in ".#":
                assert grid[r][c] == ch  # pre-filled cells kept


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_fixture_grids_fill_with_prefilled_letters(path):
    rows = cw.read_grid(path)
    rows[0] = "cat" + rows[0][3:]  # each fixture starts with an open run of 4 or 5 cells
    rows[1] = "o" + rows[1][1:]
    slots = cw.find_slots(rows)
    assert len(slots) == 78
    index = cw.word_index()
    wordset = set(load_words(cw.DEFAULT_WORDS).words)
    result = cw.fill(cw.build_problem(rows, slots, index), seed=1, timeout=60, optimize=False)
    assert result.status == "filled"
    check_fill(rows, slots, result.words, wordset)


def test_quality_mode_on_a_fixture_keeps_the_rules():
    rows = cw.read_grid(FIXTURES[0])
    slots = cw.find_slots(rows)
    index = cw.word_index()
    first = cw.fill(cw.build_problem(rows, slots, index), seed=3, timeout=60, optimize=False)
    better = cw.fill(cw.build_problem(rows, slots, index), seed=3, timeout=3)
    assert better.status == "filled"
    check_fill(rows, slots, better.words, set(load_words(cw.DEFAULT_WORDS).words))
    assert cw.quality(slots, better.words, index)["common_entries"] >= cw.quality(slots, first.words, index)["common_entries"]


def test_same_seed_same_fill():
    rows = cw.read_grid(FIXTURES[1])
    slots = cw.find_slots(rows)
    index = cw.word_index()
    fills = [cw.fill(cw.build_problem(rows, slots, index), seed=s, timeout=60, optimize=False).words for s in (5, 5, 6)]
    assert fills[0] == fills[1]


def test_fully_prefilled_entries_are_kept_and_not_reused(tmp_path):
    words = ["aa", "ab", "ac", "ba", "bb", "bc", "ca", "cb", "cc"]
    words_file, scores_file = write_lists(tmp_path, words)
    index = cw.word_index(words_file, scores_file)
    for rows in (["zq", ".."], ["ab", ".."], ["ab", "c."], [".b", "c."]):
        slots = cw.find_slots(rows)
        verdict, fills = cw.all_fills(cw.build_problem(rows, slots, index))
        as_sets = {frozenset((slots[k].direction, slots[k].row, slots[k].col, w) for k, w in f.items()) for f in fills}
        assert as_sets == reference_fills(rows, words), rows
        for f in fills:
            assert len(set(f.values())) == len(f)
            assert cw.filled_rows(rows, slots, f)[0][1] == "b"
    assert not reference_fills(["zq", ".."], words)  # no word starts with z or q
    assert reference_fills(["ab", "c."], words)


def test_grid_parsing():
    assert cw.parse_grid("a_.#\nX.-.\n") == ["a..#", "x.#."]
    with pytest.raises(UserError, match="ragged"):
        cw.parse_grid("...\n..\n")
    with pytest.raises(UserError, match="empty"):
        cw.parse_grid("\n\n")
    with pytest.raises(UserError, match="no slots"):
        cw.find_slots(cw.parse_grid(".#.\n#.#\n"))
    with pytest.raises(UserError, match="row 3, column 3"):
        cw.find_slots(cw.parse_grid("...\n###\n##.\n"))
    slots = cw.find_slots(cw.parse_grid("...\n.#.\n...\n"))
    assert [(s.number, s.direction, s.length) for s in slots] == [
        (1, "across", 3), (1, "down", 3), (2, "down", 3), (3, "across", 3)]


def test_word_index_cache_is_rebuilt_when_corrupt(tmp_path):
    words_file, scores_file = write_lists(tmp_path, ["ab", "ba", "abc", "cab", "bca"], ["ab", "cab"])
    first = cw.word_index(words_file, scores_file, cache=tmp_path / "cache")
    assert first.source == "built"
    again = cw.word_index(words_file, scores_file, cache=tmp_path / "cache")
    assert again.source == "cache"
    (cache_file,) = (tmp_path / "cache").glob("crossword-*.index")
    data = bytearray(cache_file.read_bytes())
    data[-3] ^= 0xFF
    cache_file.write_bytes(bytes(data))
    rebuilt = cw.word_index(words_file, scores_file, cache=tmp_path / "cache")
    assert rebuilt.source == "rebuilt"
    for L in (2, 3):
        assert np.array_equal(rebuilt.masks[L], first.masks[L])
        assert np.array_equal(rebuilt.letters[L], first.letters[L])
    assert [rebuilt.word(3, i) for i in range(3)][0] == "cab"  # common words first
    assert rebuilt.n_common == {2: 1, 3: 1}


def test_masks_mark_each_words_letters():
    letters = np.array([[0, 1], [1, 0], [2, 2]] * 30, dtype=np.uint8)
    masks = _masks(letters)
    bits = np.unpackbits(masks.view(np.uint8), axis=2, bitorder="little")[:, :, : len(letters)]
    for p in range(2):
        for i, row in enumerate(letters):
            assert set(np.flatnonzero(bits[p, :, i])) == {row[p]}


def test_luby_sequence():
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


def test_score_list_formats(tmp_path):
    f = tmp_path / "s.txt"
    f.write_text("Cat;50\ndog\t1000\n\nice cream;9\n")
    assert cw.read_scores(f) == {"cat": 50.0, "dog": 30.0}
    f.write_text("cat 50\n")
    with pytest.raises(UserError, match=r"s.txt:1"):
        cw.read_scores(f)


# ------------------------------------------------------------------------------------------------
# the command line
# ------------------------------------------------------------------------------------------------
def run_cli(*args, cwd=ROOT):
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), "crossword", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, env=os.environ.copy(), timeout=600)


@pytest.mark.parametrize("text, message", [
    ("....\n...\n", "ragged"),
    ("", "empty"),
    (".#.\n#.#\n", "no slots"),
])
def test_cli_bad_grid_is_one_line(tmp_path, text, message):
    grid = tmp_path / "bad.txt"
    grid.write_text(text)
    done = run_cli(grid)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and message in done.stderr and "Traceback" not in done.stderr


def test_cli_missing_grid_and_bad_options(tmp_path):
    done = run_cli(tmp_path / "nope.txt")
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    done = run_cli(FIXTURES[0], "--timeout", "0")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    done = run_cli(FIXTURES[0], "-o", tmp_path / "out.txt")
    assert done.returncode == 2 and done.stderr.count("\n") == 1


def test_cli_impossible_is_exit_3(tmp_path):
    words_file, scores_file = write_lists(tmp_path, ["abc", "bca", "cab", "aaa"])
    grid = tmp_path / "g.txt"
    grid.write_text("...\n...\n...\n")
    assert reference_fills(["...", "...", "..."], ["abc", "bca", "cab", "aaa"]) == set()
    out = tmp_path / "out.json"
    done = run_cli(grid, "--words", words_file, "--scores", scores_file, "-o", out)
    assert done.returncode == 3, done.stderr
    assert "proven impossible" in done.stdout
    assert orjson.loads(out.read_bytes())["status"] == "impossible"
    grid.write_text("." * 30 + "\n" + "." * 30 + "\n")  # ENABLE has no 30-letter word
    done = run_cli(grid)
    assert done.returncode == 3 and "length 30" in done.stdout


def test_cli_fills_and_writes_json(tmp_path):
    out = tmp_path / "out.json"
    done = run_cli(FIXTURES[2], "--any", "--seed", "4", "-o", out)
    assert done.returncode == 0, done.stderr
    doc = orjson.loads(out.read_bytes())
    assert doc["status"] == "filled"
    assert len(doc["across"]) + len(doc["down"]) == 78
    assert all(e["word"] for e in doc["across"] + doc["down"])
    assert any("Alan Beale" in line for line in doc["sources"])
    assert any("CC BY 3.0" in line for line in doc["sources"])
    rows = doc["grid"]
    for e in doc["across"]:
        assert rows[e["row"] - 1][e["col"] - 1: e["col"] - 1 + e["length"]] == e["word"]
    for e in doc["down"]:
        assert "".join(rows[e["row"] - 1 + i][e["col"] - 1] for i in range(e["length"])) == e["word"]
    assert "█" in done.stdout and "Across" in done.stdout


def test_cli_timeout_is_exit_4_with_a_partial_fill(tmp_path):
    grid = tmp_path / "squares.txt"  # 64 separate 3x3 word squares: 384 slots, more than one clock-check chunk
    band = "\n".join(["#".join(["..."] * 8)] * 3)
    grid.write_text(("\n" + "#" * 31 + "\n").join([band] * 8) + "\n")
    assert len(reference_slots(cw.read_grid(grid))) == 384
    out = tmp_path / "out.json"
    done = run_cli(grid, "--any", "--timeout", "0.001", "-o", out)
    assert done.returncode == 4, done.stdout + done.stderr
    doc = orjson.loads(out.read_bytes())
    assert doc["status"] == "timeout"
    assert any(e["word"] for e in doc["across"] + doc["down"])


def test_cli_png_or_a_clear_pillow_message(tmp_path):
    grid = tmp_path / "g.txt"
    grid.write_text("...\n.#.\n...\n")
    out = tmp_path / "g.png"
    done = run_cli(grid, "--any", "-o", out)
    if importlib.util.find_spec("PIL") is None:
        assert done.returncode == 1 and "pip install pillow" in done.stderr and not out.exists()
    else:
        assert done.returncode == 0 and out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_skipping_numba_blas_check_leaves_imports_working():
    """The fresh-process shortcut (no scipy.linalg import for numba's BLAS probe) must not
    break a later real import of scipy.linalg, and the kernels must still load."""
    code = (
        "import sys\n"
        "from wordtree.puzzles import crossword as cw\n"
        "from wordtree.puzzles.crossword_problem import _skip_numba_blas_check\n"
        "_skip_numba_blas_check()\n"
        "assert sys.modules.get('scipy.linalg', 1) is not None\n"
        "rows = ['...']\n"
        "print(cw.all_fills(cw.build_problem(rows, cw.find_slots(rows), cw.word_index()))[0])\n"
        "try:\n"
        "    import scipy.linalg\n"
        "    print('linalg', scipy.linalg.norm([3.0, 4.0]))\n"
        "except ImportError:\n"
        "    print('linalg', 5.0)  # scipy not installed: nothing to check\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                            timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["exhaustive", "linalg", "5.0"]


# ------------------------------------------------------------------------------------------------
# CS50 AI's crossword files and command line (fixtures of our own in that format)
# ------------------------------------------------------------------------------------------------
CS50_STRUCTURE = DATA / "cs50-structure.txt"  # ragged rows, blocks of several characters, two lone open cells
CS50_WORDS = DATA / "cs50-words.txt"  # mixed case; exactly one fill of the structure
CS50_GRID = ["BOLT██", "A██A██", "ROAD██", "E█████", "███ █ "]


def test_cs50_structure_pads_rows_and_takes_any_other_character_as_a_block():
    rows = cw.read_structure(CS50_STRUCTURE)
    assert rows == ["....##", ".##.##", "....##", ".#####", "###.#."]  # 'a', 'b', '#', '.', ' ', 'x' are blocks
    assert cw.lone_cells(rows) == {(4, 3), (4, 5)}
    assert cw.fill_rows(rows)[4] == "######"
    assert cw.parse_structure("__\n_\n\n") == ["..", ".#", "##"]  # a blank line is a row of blocks, as in CS50
    assert cw.parse_structure("_\t_*_\n") == [".#.#."]
    with pytest.raises(UserError, match="no open cell"):
        cw.parse_structure("....\n#..#\n")
    slots = cw.find_slots(cw.fill_rows(rows))
    assert [(s.direction, s.row, s.col, s.length) for s in slots] == [
        ("across", 0, 0, 4), ("down", 0, 0, 4), ("down", 0, 3, 3), ("across", 2, 0, 4)]


def test_cs50_render_prints_capitals_blocks_and_blank_unfilled_cells():
    rows = cw.read_structure(CS50_STRUCTURE)
    slots = cw.find_slots(cw.fill_rows(rows))
    words = {0: "bolt", 1: "bare", 2: "tad", 3: "road"}
    assert cw.render_cs50(rows, slots, words).split("\n") == CS50_GRID
    assert cw.render_cs50(rows, slots, {0: "bolt"}).split("\n")[1] == " ██ ██"


def test_cli_cs50_command_prints_the_grid_and_writes_the_png(tmp_path):
    out = tmp_path / "output.png"
    done = run_cli(CS50_STRUCTURE, CS50_WORDS, out)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n") == CS50_GRID + [""]
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert out.stat().st_mode & 0o777 == 0o644
    from PIL import Image

    with Image.open(out) as image:
        cell, margin = 40, 20
        assert image.size == (6 * cell + 2 * margin, 5 * cell + 2 * margin)
        pixel = lambda r, c: image.convert("L").getpixel((margin + c * cell + cell // 2, margin + r * cell + 5))
        assert pixel(4, 3) == 255 and pixel(4, 5) == 255  # lone open cells stay white
        assert pixel(4, 4) == 0 and pixel(1, 1) == 0  # blocks, whatever their character
    # without OUTPUT: the grid only; --format cs50 with --words reads the same files
    assert run_cli(CS50_STRUCTURE, CS50_WORDS).stdout.split("\n") == CS50_GRID + [""]
    again = run_cli(CS50_STRUCTURE, "--format", "cs50", "--words", CS50_WORDS, "-o", tmp_path / "o.json")
    assert again.returncode == 0 and again.stdout.split("\n") == CS50_GRID + [""]
    doc = orjson.loads((tmp_path / "o.json").read_bytes())
    assert doc["grid"] == ["bolt##", "a##a##", "road##", "e#####", "###.#."]
    assert (tmp_path / "o.json").stat().st_mode & 0o777 == 0o644


def test_cli_cs50_no_solution_and_usage_errors(tmp_path):
    out = tmp_path / "output.png"
    done = run_cli(DATA / "cs50-impossible.txt", CS50_WORDS, out)
    assert done.returncode == 3 and done.stdout == "No solution.\n" and not out.exists()
    for args in ([CS50_STRUCTURE, CS50_WORDS, "--format", "grid"],
                 [CS50_STRUCTURE, CS50_WORDS, "--words", CS50_WORDS],
                 [CS50_STRUCTURE, CS50_WORDS, out, "-o", out],
                 [CS50_STRUCTURE, CS50_WORDS, tmp_path / "out.gif"]):
        done = run_cli(*args)
        assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, args
    done = run_cli(tmp_path / "missing.txt", CS50_WORDS)
    assert done.returncode == 1 and "cannot read structure" in done.stderr
    # the structure read as our own grid format: ragged, as before
    done = run_cli(CS50_STRUCTURE, "--words", CS50_WORDS)
    assert done.returncode == 1 and "ragged" in done.stderr
