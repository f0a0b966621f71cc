"""The shape of the code, read from its source: every kernel goes through the project's decorator."""

from __future__ import annotations

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
