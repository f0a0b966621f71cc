"""Every example of README.md, docs/*.md and the --help pages runs as written (tests/doc_examples.py
says which they are and which are left out, and why): each block in a fresh folder holding links
to the checkout's trees/, tests/, runs/, wordlists/ and cli.py, with no standard input, each
line under a hang guard; each must exit 0 with no traceback. The wheel's run of them is in
.ci/wheel-check."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import doc_examples as ex

ROOT = ex.ROOT
HANG_GUARD = 900  # seconds a line may take: compiling kernels on a loaded 2-core machine included
EXAMPLES = ex.all_examples()
BLOCKS = ex.blocks(EXAMPLES)


def test_examples_are_found():
    # the pages' and the helps' examples are read at all (a change of fence or indent would
    # otherwise leave nothing to run)
    where = {e.where.split(":")[0] for e in EXAMPLES if e.is_command}
    assert {"README.md", "docs/commands.md", "docs/results.md", "wordtree play --help"} <= where
    assert sum(e.kind == "run" and e.is_command for e in EXAMPLES) >= 40


def test_every_left_out_example_is_still_shown():
    assert not ex.stale_names(EXAMPLES), "doc_examples.py names examples no page or help shows any more"


def test_checkout_examples_say_so_where_they_are_shown():
    for lines in BLOCKS.values():
        said = False
        for e in lines:
            said = said or "checkout" in e.comment
            if e.kind == "checkout":
                assert said, f"{e.where}: {e.line!r} needs the checkout: say so on its line ('# in a checkout: ...')"


def test_the_readme_says_where_runs_is():
    # the README's prose example of the Bulls and Cows proof reads runs/, which the wheel lacks
    text = (ROOT / "README.md").read_text()
    at = text.index("--checkpoint runs/bulls-cows-repeats.ck --status")
    assert "checkout" in text[at - 300:at + 300]


def shell_env() -> dict:
    env = dict(os.environ, COLUMNS="100")
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"  # wordtree, python
    env.pop("PYTHONPATH", None)
    return env


def run_line(line: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", line], cwd=cwd, env=shell_env(), stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=HANG_GUARD)


@pytest.mark.parametrize("name", [name for name, lines in BLOCKS.items() if any(e.is_command for e in lines)])
def test_example_block_runs(name, tmp_path, request):
    slow = request.config.getoption("--slow")
    lines = BLOCKS[name]
    runnable = [e for e in lines if e.kind in ("run", "checkout") or (e.kind == "slow" and slow)]
    if not any(e.is_command for e in runnable):
        pytest.skip("every example of this block is slow or long: " + "; ".join(
            f"{e.line}: {(ex.SLOW | ex.LONG).get(e.line, '')}" for e in lines if e.is_command))
    for part in ("trees", "tests", "runs", "wordlists", "cli.py"):
        (tmp_path / part).symlink_to(ROOT / part)
    for e in runnable:
        result = run_line(e.line, tmp_path)
        shown = f"{e.where}: {e.line}\nexit {result.returncode}\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}"
        assert result.returncode == 0, shown
        assert "Traceback" not in result.stderr, shown
        assert _runs_unchanged(), shown


_RUNS_AT_START = {p.name: p.stat().st_mtime_ns for p in (ROOT / "runs").iterdir()}


def _runs_unchanged() -> bool:
    """An example read runs/ through the link, and wrote nothing there."""
    return {p.name: p.stat().st_mtime_ns for p in (ROOT / "runs").iterdir()} == _RUNS_AT_START


STEP = re.compile(r"e\.g\. ((?:[a-z]+:[BYG/=]+,?)+)")


def _from_example(command: str) -> str:
    text = ex.help_text(command)
    at = re.search(r"^ +--from [A-Z]+", text, re.M).start()  # the option's help, not the usage line
    match = STEP.search(" ".join(text[at:at + 600].split()))
    assert match, f"{command} --help shows no --from example"
    return match.group(1)


def test_the_from_examples_of_the_helps_can_happen():
    """A step list shown as an e.g. of --from is a game some answer (or pair of answers) gives."""
    from wordtree.games import get_game

    game = get_game("wordle")
    wordle = _from_example("build")
    left = list(game.answers)
    for step in wordle.split(","):
        guess, pattern = step.split(":")
        left = [a for a in left if game.pattern_text(game.feedback(guess, a)) == pattern]
    assert left, f"build --help: no answer gives --from {wordle}"
    dordle = _from_example("dordle build")
    boards = [list(game.answers), list(game.answers)]
    for step in dordle.split(","):
        guess, patterns = step.split(":")
        for b, pattern in enumerate(patterns.split("/")):
            if set(pattern) != {"="}:
                boards[b] = [a for a in boards[b] if game.pattern_text(game.feedback(guess, a)) == pattern]
    assert all(boards) and len(set(boards[0]) | set(boards[1])) >= 2, f"dordle build --help: --from {dordle}"
