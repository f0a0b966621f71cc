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
        if re.search(r"^from \.+jit import [\w, ]*\bkernel\b", text, re.M):
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
    test_hangman_trees.py, Dordle's in test_dordle.py, Absurdle's in test_absurdle.py; none of those lists is empty (an empty
    parametrization would skip, not fail). A tree the docs name by its path is there."""
    import test_absurdle
    import test_dordle
    import test_hangman_trees
    import test_multiboard
    import test_verify

    trees = ENGINE.parent / "trees"
    families = {"wordle": test_verify.SHIPPED_TREES, "hangman": test_hangman_trees.TREES,
                "dordle": test_dordle.SHIPPED_DORDLE, "absurdle": test_absurdle.SHIPPED_ABSURDLE,
                "multiboard": test_multiboard.SHIPPED_MULTIBOARD}
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

# ------------------------------------------------------------------------------------------------
# no import cycles
# ------------------------------------------------------------------------------------------------
def _module_name(relative: str) -> str:
    parts = relative[:-3].split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(modules: dict[str, str]) -> dict[str, set[str]]:
    """Each engine module's engine imports: every relative (or `wordtree.`) import anywhere in it,
    at module level, under `if TYPE_CHECKING:` or inside a function; `from P import X` counts as
    an import of P.X where that is a module, else of P."""
    packages = {_module_name(name) for name in modules if name.endswith("__init__.py")}
    known = {_module_name(name) for name in modules}
    graph = {}
    for name, text in modules.items():
        module = _module_name(name)
        here = module.split(".") if module else []
        if module not in packages:
            here = here[:-1]
        edges = set()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here[:len(here) - (node.level - 1)] + (node.module.split(".") if node.module else [])
                elif node.module and node.module.split(".")[0] == "wordtree":
                    base = node.module.split(".")[1:]
                else:
                    continue
                for alias in node.names:
                    target = ".".join(base + [alias.name])
                    edges.add(target if target in known else ".".join(base))
            elif isinstance(node, ast.Import):
                edges.update(".".join(a.name.split(".")[1:]) for a in node.names if a.name.split(".")[0] == "wordtree")
        graph[module] = {target for target in edges if target in known and target != module}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as a path (its first module repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def walk(module: str, path: list[str]) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state and (found := walk(target, path)) is not None:
                return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state and (found := walk(module, [])) is not None:
            return found
    return None


def test_the_cycle_finder_finds_cycles():
    modules = {"__init__.py": "", "a/__init__.py": "from .b import x\n", "a/b.py": "def f():\n    from .c import y\n",
               "a/c.py": "from .. import a\nfrom typing import TYPE_CHECKING\n", "d.py": "import wordtree.a.b\n"}
    graph = _imports(modules)
    assert graph == {"": set(), "a": {"a.b"}, "a.b": {"a.c"}, "a.c": {"a"}, "d": {"a.b"}}
    assert _cycle(graph) == ["a", "a.b", "a.c", "a"]
    del modules["a/c.py"]
    assert _cycle(_imports(modules)) is None


def test_the_engine_has_no_import_cycle():
    """No engine module imports one that imports it back, directly or round a longer circle,
    counting the imports inside functions (a function-local import does not make a circle go
    away; it only hides it until the function runs)."""
    assert _cycle(_imports(_sources())) is None


def test_the_wheel_lists_every_package_and_shelf():
    """pyproject.toml names its packages one by one: every engine/ folder of modules is a package
    (with __init__.py) and is listed, and so is every shelf of trees/ with its *.json data (a
    folder left out works in a checkout's editable install and is missing from the wheel)."""
    import tomllib

    config = tomllib.loads((ENGINE.parent / "pyproject.toml").read_text())["tool"]["setuptools"]
    packages = set(config["packages"])
    for folder in sorted(p for p in ENGINE.rglob("*") if p.is_dir() and any(p.glob("*.py"))):
        if folder.name == "__pycache__":
            continue
        name = ".".join(("wordtree", *folder.relative_to(ENGINE).parts))
        assert (folder / "__init__.py").is_file(), f"{folder} has modules but no __init__.py"
        assert name in packages, f"pyproject.toml does not list {name}"
    trees = ENGINE.parent / "trees"
    for folder in [trees, *sorted(p for p in trees.iterdir() if p.is_dir())]:
        name = ".".join(("wordtree", "trees", *folder.relative_to(trees).parts))
        assert name in packages and "*.json" in config["package-data"].get(name, []), name
