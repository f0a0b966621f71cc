"""Test set-up: the numba and pattern caches (set before numba is imported), a --slow flag for
the long proofs that CI's default path skips, and a --quick flag for a developer's short run.
The suite runs on every core (pytest-xdist, `-n auto --dist loadfile` in pyproject.toml: each file
on one worker, so its module fixtures are built once); `-n 0` runs it in one process.

Under CI (the environment variable CI set, as CI services set it: CI=true) every session gets
fresh caches in a temporary folder, whatever NUMBA_CACHE_DIR says, so that nothing compiled or
computed before is used. A developer's sessions (CI unset) share one numba cache in the
checkout, .nc/numba-PY-NUMBA (git ignores .nc/), so that a second run loads the kernels instead
of compiling them again (30-60 s a kernel module); numba checks each module's source against its
cache entries, and a kernel's callees live in its own module (docs/development.md), so an edit
is compiled again. A NUMBA_CACHE_DIR already set in a developer's environment is used as it is.
The pattern cache stays fresh per session in both modes: its entries are keyed by the game's
lists, not by the code that computes them, so a kept one could hide a change to a feedback rule.
A test that needs an empty numba cache makes its own (NUMBA_CACHE_DIR=tmp_path/...)."""

import os
import sys
import tempfile
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# pytest-xdist's workers (started after the controller has read this file) share the session's
# folder, so that a kernel one worker compiled is loaded by the others; a process that is not one
# of them gets a folder of its own
_TMP = os.environ.get("WORDTREE_TESTS_TMP") if os.environ.get("PYTEST_XDIST_WORKER") else None
if not _TMP:
    _TMP = tempfile.mkdtemp(prefix="wordtree-tests-")
    os.environ["WORDTREE_TESTS_TMP"] = _TMP
IN_CI = os.environ.get("CI", "").lower() not in ("", "0", "false", "no")
if IN_CI:
    os.environ["NUMBA_CACHE_DIR"] = os.path.join(_TMP, "numba")
elif not os.environ.get("NUMBA_CACHE_DIR"):
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    os.environ["NUMBA_CACHE_DIR"] = str(ROOT / ".nc" / f"numba-{python}-{version('numba')}")
os.environ["WORDTREE_CACHE_DIR"] = os.path.join(_TMP, "patterns")
os.environ["WORDTREE_CHECK_ENTRIES"] = "1"  # jit.Entries: a call site whose argument types change fails

sys.path.insert(0, str(ROOT))

import pytest  # noqa: E402


# The files a --quick run leaves out: those holding the suite's longest tests (searches of real
# games, fresh compiles in subprocesses, whole commands on the full lists, the browser, the cluster).
QUICK_LEAVES_OUT = frozenset({
    "test_checkpoints.py", "test_cluster.py", "test_crossword.py", "test_dordle_cluster.py", "test_hangman.py",
    "test_numba_load.py", "test_parallel.py", "test_search.py", "test_shared_memo.py", "test_waits.py", "test_web.py",
    "test_web_player.py",
})


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", default=False, help="also run the slow proofs")
    parser.addoption("--quick", action="store_true", default=False,
                     help="leave out the heaviest test files (QUICK_LEAVES_OUT in tests/conftest.py): a short run while working")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: a long proof, run only with --slow")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--quick"):
        left = [item for item in items if item.path.name in QUICK_LEAVES_OUT]
        if left:
            config.hook.pytest_deselected(items=left)
            items[:] = [item for item in items if item.path.name not in QUICK_LEAVES_OUT]
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def tmp_cache():
    return Path(_TMP)


@pytest.fixture(scope="session")
def real_lists():
    """The original Wordle lists (answers, guesses), from which the tests draw small games."""
    from wordtree.games import get_game

    game = get_game("wordle")
    return list(game.answers), list(game.guesses)


@pytest.fixture
def dordle_lists(tmp_path):
    """A small Dordle game's command-line options: every 150th original answer (16 words), the
    same plus SALET and CRONY as guesses, cap 6."""
    from wordtree.data import wordlists_dir

    answers = [w.strip() for w in open(wordlists_dir() / "wordle-answers-2315.txt")][::150]
    (tmp_path / "a.txt").write_text("\n".join(answers) + "\n")
    (tmp_path / "g.txt").write_text("\n".join(answers + ["salet", "crony"]) + "\n")
    return ["--answers", str(tmp_path / "a.txt"), "--guesses", str(tmp_path / "g.txt"), "--max-guesses", "6"]
