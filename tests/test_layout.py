"""The shape of the code, read from its source: every kernel goes through the project's decorator,
and the engine names no command-line flag."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "engine"


def _sources():
    return {path.relative_to(ENGINE).as_posix(): path.read_text() for path in ENGINE.rglob("*.py")}


def test_every_kernel_goes_through_the_project_decorator():
    """No module but jit.py names numba's njit or jit; a module with kernels imports `kernel` from
    jit (which applies the cache guard), and has at least one."""
    with_kernels = []
    for name, text in _sources().items():
        if name == "jit.py":
            continue
        assert not re.search(r"\bn?jit\b(?!\.)", re.sub(r"\.\.?jit import", "", text)), name
        if re.search(r"^from \.+jit import kernel", text, re.M):
            assert "@kernel" in text, name
            with_kernels.append(name)
    assert {"exact/kernels.py", "hangman/kernels.py", "dordle/kernels.py", "games/codebreaker_kernels.py",
            "games/wordle_kernels.py",
            "puzzles/boggle_kernels.py", "puzzles/crossword_kernels.py", "exact/split.py"} <= set(with_kernels)


# ------------------------------------------------------------------------------------------------
# every shipped tree is verified
# ------------------------------------------------------------------------------------------------
def test_every_shipped_tree_is_verified_by_a_test():
    """Every file in trees/, in every folder, is one that a test gives its family's verifier: the
    Wordle family's (Mastermind, Bulls and Cows too) in test_verify.py, Hangman's in
    test_hangman_trees.py, Dordle's in test_dordle.py; none of those lists is empty (an empty
    parametrization would skip, not fail). A tree the docs name by its path is there."""
    import test_dordle
    import test_hangman_trees
    import test_verify

    trees = ENGINE.parent / "trees"
    families = {"wordle": test_verify.SHIPPED_TREES, "hangman": test_hangman_trees.TREES,
                "dordle": test_dordle.SHIPPED_DORDLE}
    assert [family for family, paths in families.items() if not paths] == []
    verified = {path.resolve() for paths in families.values() for path in paths}
    shipped = {path.resolve() for path in trees.rglob("*") if path.is_file()}
    assert sorted(p.relative_to(trees.resolve()).as_posix() for p in shipped - verified) == []
    named = {match for doc in [ENGINE.parent / "README.md", *sorted((ENGINE.parent / "docs").glob("*.md"))]
             for match in re.findall(r"\btrees/[\w/.-]+?\.json\b", doc.read_text())}
    missing = sorted(name for name in named if name not in {"trees/FILE.json", "trees/hangman/hangman-N.json"}
                     and not (ENGINE.parent / name).is_file())
    assert missing == []


# ------------------------------------------------------------------------------------------------
# no flags in the engine's messages
# ------------------------------------------------------------------------------------------------
FLAG = re.compile(r"(?<![\w-])--(?:[a-z]|\{\})")  # `--word`, or `--{...}` in an f-string


def _flag_strings(source: str) -> list[tuple[int, str]]:
    """(line, text) of each string literal in `source` that names a command-line flag, docstrings
    left out (they may say which flag reaches a function); an f-string is read with `{}` for each
    of its values."""
    tree = ast.parse(source)
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skip.add(id(first.value))
        if isinstance(node, ast.JoinedStr):
            skip.update(id(value) for value in node.values)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            text = node.value
        else:
            continue
        if FLAG.search(text):
            found.append((node.lineno, text))
    return sorted(found)


def test_the_flag_finder_finds_flags():
    source = ('"""Docs may say --length."""\n'
              'def f(x):\n'
              '    """Nor here: --pegs."""\n'
              '    a = "a - b -- c, ---, -x"\n'
              '    raise ValueError(f"--{x} does not apply")\n'
              'b = "use --resume " + "x"\n')
    assert _flag_strings(source) == [(5, "--{} does not apply"), (6, "use --resume ")]


def test_the_engine_names_no_flag():
    """Only the command layer (engine/commands/) names a command-line flag; the engine raises an
    error that carries the facts, and commands/hints.py words it with the flag."""
    named = {name: found for name, text in _sources().items()
             if not name.startswith("commands/") and (found := _flag_strings(text))}
    assert named == {}

