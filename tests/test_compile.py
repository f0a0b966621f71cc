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
                "--guesses", LISTS / "wordle-answers-every40-58.txt", "-o", "{tmp}/d.json"],
               # below the shipped full-list strategy's stored top (trace, then its branch): the
               # heuristic's walk of the state, on the full lists' table
               ["next", "--game", "dordle", "trace:BBBBB/BBBBB", "soily:BBYGG/BGBGB"]],
    "absurdle": [["build", "absurdle", "--answers", LISTS / "wordle-answers-every40-58.txt",
                  "--guesses", LISTS / "wordle-answers-every40-58.txt", "-o", "{tmp}/a.json"]],
    "wordle": [["build", "-o", "{tmp}/salet.json"], ["build", "--mode", "hard", "-o", "{tmp}/hard.json"],
               ["grade", "crane:GYYBB", "sonic:BBBYY", "cigar:GGGGG"]],
    "hangman": [["next", "--game", "hangman", "_e___", "--missed", "a"]],  # off the tree: the compiled search
    "puzzles": [["crossword", "{tmp}/grid.txt"], ["boggle", "perslatgsineters"]],
    "codebreakers": [["build", "mastermind", "-o", "{tmp}/mm.json"]],
    "multiboard": [["next", "--game", "quordle", "salet:BBYBB/GBBBB/BBBBB/BYBBB"],
                   ["grade", "--game", "quordle", "salet:BBYBB/GBBBB/BBBBB/BYBBB"],
                   # a board left: the exact search's guess (its kernels compile on a fresh cache)
                   ["next", "--game", "multiboard", "--boards", "2", "roate:YBYBB/GBBYY", "music:BBBYY/BYBBB",
                    "rebut:YBBBB/GGGGG"]],
}


# more first uses, for the run of every family (--slow)
MORE_FIRST_USES = {
    "dordle": [["next", "--game", "dordle", "trace:BBYGB/BGBGB", "cabin:YGBBY/YBBYB"],  # an exact branch: its search
               ["next", "--game", "dordle", "trace:BBBBB/BBBBB", "soily:BBBBG/BGBBG", "pudgy:BGGBG/BBBBG"],
               ["dordle", "heuristic", "--answers", LISTS / "wordle-answers-every40-58.txt",
                "--guesses", LISTS / "wordle-answers-every40-58.txt", "--first", "aback", "--exact-below", "20",
                "-o", "{tmp}/ds.json"]],
}


def check_family_then_its_first_uses(families, tmp_path, more=False):
    cache = tmp_path / "numba"
    (tmp_path / "grid.txt").write_text("....#\n.....\n#....\n")
    first = run("compile", "--only", *families, "--json", cache=cache)
    assert first.returncode == 0, first.stderr
    result = {r["family"]: r for r in json.loads(first.stdout)["families"]}
    assert sorted(result) == sorted(families) and all(r["exit"] == 0 for r in result.values())
    for family in families:
        for argv in FIRST_USES[family] + (MORE_FIRST_USES.get(family, []) if more else []):
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
    check_family_then_its_first_uses(sorted(WARMUPS), tmp_path, more=True)


@pytest.mark.parametrize("argv, says", [
    (["--jobs", "0"], "--jobs must be at least 1"),
    (["--only", "chess"], "invalid choice: 'chess'"),
])
def test_bad_usage_is_one_line_and_exit_2(argv, says, tmp_path):
    done = run("compile", *argv, cache=tmp_path / "numba")
    assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr


# ------------------------------------------------------------------------------------------------
# a lookup on a shipped tree compiles nothing, with no `compile` before it
# ------------------------------------------------------------------------------------------------

LOOKUP = """
import contextlib, io, json, sys
from wordtree.commands import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    code = main(json.loads(sys.argv[1]))
signatures = {}
if "numba" in sys.modules:  # every jitted function loaded: what it compiled (or read from the cache)
    from numba.core.dispatcher import Dispatcher
    for name, module in list(sys.modules.items()):
        if name.startswith("wordtree"):
            for key, value in vars(module).items():
                if isinstance(value, Dispatcher):
                    signatures[name + "." + key] = [str(s) for s in value.signatures]
print(json.dumps({"code": code, "numba": "numba" in sys.modules, "out": out.getvalue(),
                  "compiled": {k: v for k, v in signatures.items() if v}, "jitted": len(signatures)}))
"""

# each family's lookups on its shipped tree, and what each may load: nothing of numba (NONE); the
# pattern table's kernel, which computes a Wordle pattern table once per pattern cache, then no
# numba (TABLE: the multi-board player reads the whole table)
NONE, TABLE = "no numba", "the pattern table, once"
SHIPPED_LOOKUPS = [
    (["next"], NONE),
    (["next", "salet:BBYBB"], NONE),
    (["next", "wordle-salet-hard", "salet:BBYBB"], NONE),
    (["next", "--game", "wordle-nyt2023", "tarse:BYBBB"], NONE),
    (["next", "--game", "hangman", "_____"], NONE),
    (["next", "--game", "hangman", "_e___"], NONE),
    (["next", "dordle-every40-saice"], NONE),
    (["next", "dordle-every40-saice", "saice:BBBBB/YBBBB"], NONE),
    (["next", "mastermind-4x6"], NONE),
    (["next", "--game", "absurdle"], NONE),
    (["next", "--game", "absurdle", "abhor:BBBBB"], NONE),  # on the shipped proof's line
    (["next", "--game", "absurdle", "salet:BBBBB"], NONE),  # on another opener's line
    (["next", "--game", "quordle"], TABLE),
    (["next", "--game", "quordle", "salet:BBYBB/GBBBB/BBBBB/BYBBB"], TABLE),
    (["next", "--game", "octordle"], TABLE),
]
TABLE_KERNEL = "wordtree.games.wordle_kernels._wordle_matrix"


def lookup(argv, numba_cache, pattern_cache):
    done = subprocess.run([sys.executable, "-c", LOOKUP, json.dumps(argv)], capture_output=True, text=True,
                          cwd=ROOT, timeout=300,
                          env=dict(os.environ, NUMBA_CACHE_DIR=str(numba_cache), WORDTREE_CACHE_DIR=str(pattern_cache)))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["code"] == 0 and result["out"].strip(), result
    return result, compiled_anything(done.stderr)


@pytest.mark.parametrize("argv, loads", SHIPPED_LOOKUPS, ids=[" ".join(a) for a, _ in SHIPPED_LOOKUPS])
def test_a_lookup_on_a_shipped_tree_compiles_nothing(argv, loads, tmp_path):
    """On empty caches (numba's and the pattern tables'), so that any jitted function with a
    signature was compiled here."""
    result, compiled = lookup(argv, tmp_path / "numba", tmp_path / "patterns")
    if loads == TABLE:  # a fresh pattern cache: the table is computed, its kernel compiled; then never again
        assert list(result["compiled"]) == [TABLE_KERNEL] and compiled, result
        result, compiled = lookup(argv, tmp_path / "numba-fresh", tmp_path / "patterns")
    assert result["compiled"] == {} and not compiled, result
    assert result["numba"] is False, result  # a table read from its cache needs no numba
