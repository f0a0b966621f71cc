"""`wordtree compile`: the kernels a family's commands use are compiled once into numba's cache, so
that the commands' first uses after it compile nothing (numba's own compile events, which the
notice line reports, are the signal: a cache hit sends none)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LISTS = ROOT / "wordlists"


def run(*args, cache, timeout=900):
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, env=dict(os.environ, NUMBA_CACHE_DIR=str(cache)), timeout=timeout)


def compiled_anything(stderr: str) -> bool:
    return any(line.startswith("notice: compiling") for line in stderr.splitlines())


# the families' first uses, as a user types them, after `wordtree compile --only FAMILY`
FIRST_USES = {
    "dordle": [["dordle", "build", "--answers", LISTS / "wordle-answers-every40-58.txt",
                "--guesses", LISTS / "wordle-answers-every40-58.txt", "-o", "{tmp}/d.json"]],
    "absurdle": [["build", "absurdle", "--answers", LISTS / "wordle-answers-every40-58.txt",
                  "--guesses", LISTS / "wordle-answers-every40-58.txt", "-o", "{tmp}/a.json"]],
    "wordle": [["build", "-o", "{tmp}/salet.json"], ["build", "--mode", "hard", "-o", "{tmp}/hard.json"],
               ["grade", "crane:GYYBB", "sonic:BBBYY", "cigar:GGGGG"]],
    "hangman": [["next", "--game", "hangman", "_e___", "--missed", "saxz"]],
    "puzzles": [["crossword", "{tmp}/grid.txt"], ["boggle", "perslatgsineters"]],
    "codebreakers": [["build", "mastermind", "-o", "{tmp}/mm.json"]],
    "multiboard": [["next", "--game", "quordle", "salet:BBYBB/GBBBB/BBBBB/BYBBB"],
                   ["grade", "--game", "quordle", "salet:BBYBB/GBBBB/BBBBB/BYBBB"]],
}


def check_family_then_its_first_uses(families, tmp_path):
    cache = tmp_path / "numba"
    (tmp_path / "grid.txt").write_text("....#\n.....\n#....\n")
    first = run("compile", "--only", *families, "--json", cache=cache)
    assert first.returncode == 0, first.stderr
    result = {r["family"]: r for r in json.loads(first.stdout)["families"]}
    assert sorted(result) == sorted(families) and all(r["exit"] == 0 for r in result.values())
    for family in families:
        for argv in FIRST_USES[family]:
            argv = [str(word).replace("{tmp}", str(tmp_path)) for word in argv]
            done = run(*argv, cache=cache)
            assert done.returncode == 0, (argv, done.stderr)
            assert not compiled_anything(done.stderr), (family, argv, done.stderr)
    again = run("compile", "--only", *families, "--json", cache=cache)
    assert again.returncode == 0, again.stderr
    assert not any(r["compiled"] for r in json.loads(again.stdout)["families"])
    return result


def test_after_compile_a_familys_first_uses_compile_nothing(tmp_path):
    result = check_family_then_its_first_uses(["dordle", "absurdle"], tmp_path)
    assert result["dordle"]["compiled"]  # a fresh cache: it did compile them


@pytest.mark.slow
def test_after_compile_every_familys_first_uses_compile_nothing(tmp_path):
    from wordtree.commands.compile import WARMUPS

    assert sorted(FIRST_USES) == sorted(WARMUPS)
    check_family_then_its_first_uses(sorted(WARMUPS), tmp_path)


@pytest.mark.parametrize("argv, says", [
    (["--jobs", "0"], "--jobs must be at least 1"),
    (["--only", "chess"], "invalid choice: 'chess'"),
])
def test_bad_usage_is_one_line_and_exit_2(argv, says, tmp_path):
    done = run("compile", *argv, cache=tmp_path / "numba")
    assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr
