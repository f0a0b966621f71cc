"""The test set-up itself (tests/conftest.py): where a session's caches are, in CI and on a
developer's machine, and what a --quick run leaves out."""

import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import conftest

ROOT = Path(__file__).resolve().parent.parent

SHOW = "import conftest, os; print(os.environ['NUMBA_CACHE_DIR']); print(os.environ['WORDTREE_CACHE_DIR'])"


def caches(**env) -> list[str]:
    """NUMBA_CACHE_DIR and WORDTREE_CACHE_DIR as conftest sets them in a fresh process with `env`
    (None: that variable unset)."""
    unset = ("CI", "NUMBA_CACHE_DIR", "WORDTREE_CACHE_DIR", "WORDTREE_TESTS_TMP", "PYTEST_XDIST_WORKER")
    environ = {k: v for k, v in os.environ.items() if k not in unset}
    environ.update({k: v for k, v in env.items() if v is not None})
    done = subprocess.run([sys.executable, "-c", SHOW], capture_output=True, text=True, check=True,
                          cwd=ROOT / "tests", env=environ, timeout=120)
    return done.stdout.splitlines()


def test_a_developer_keeps_numba_s_cache_in_the_checkout_and_ci_gets_fresh_ones(tmp_path):
    """CI unset: numba's cache is the checkout's .nc/numba-PY-NUMBA (git ignores .nc/), a
    NUMBA_CACHE_DIR of one's own is kept; CI=true: fresh temporary folders whatever is set. The
    pattern cache is a fresh one in every session (its entries do not know the feedback's code)."""
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    kept = str(ROOT / ".nc" / f"numba-{python}-{version('numba')}")
    numba, patterns = caches()
    assert numba == kept and ".nc/" in (ROOT / ".gitignore").read_text().splitlines()
    assert Path(patterns).parent.name.startswith("wordtree-tests-") and not Path(patterns).exists()
    assert caches(NUMBA_CACHE_DIR=str(tmp_path / "mine"))[0] == str(tmp_path / "mine")
    again = caches()
    assert again[0] == kept and again[1] != patterns  # a fresh pattern cache each session
    for ci in ("true", "1"):
        numba, patterns = caches(CI=ci, NUMBA_CACHE_DIR=str(tmp_path / "mine"))
        assert Path(numba).parent == Path(patterns).parent and Path(numba).parent.name.startswith("wordtree-tests-")
        assert not Path(numba).exists()
    assert caches(CI="false")[0] == kept


def test_xdist_workers_share_the_session_s_caches_and_other_processes_do_not(tmp_path):
    """A pytest-xdist worker (PYTEST_XDIST_WORKER set) uses the folder its controller made
    (WORDTREE_TESTS_TMP), in CI as on a developer's machine; any other process makes its own."""
    shared = str(tmp_path / "session")
    for ci in ("true", None):
        numba, patterns = caches(CI=ci, PYTEST_XDIST_WORKER="gw1", WORDTREE_TESTS_TMP=shared)
        assert Path(patterns) == Path(shared) / "patterns"
        if ci:
            assert Path(numba) == Path(shared) / "numba"
    numba, patterns = caches(CI="true", WORDTREE_TESTS_TMP=shared)
    assert Path(patterns).parent != Path(shared) and Path(patterns).parent.name.startswith("wordtree-tests-")


def test_a_quick_run_leaves_out_files_that_exist():
    """Each file --quick leaves out is a test file here (a renamed one would quietly run again),
    and most of the suite's files still run."""
    files = {path.name for path in (ROOT / "tests").glob("test_*.py")}
    assert sorted(conftest.QUICK_LEAVES_OUT - files) == []
    assert len(conftest.QUICK_LEAVES_OUT) < len(files) / 2


def test_quick_deselects_those_files_only():
    """`--quick --collect-only` lists no test of the files left out, and those of the others."""
    done = subprocess.run([sys.executable, "-m", "pytest", "--quick", "--collect-only", "-q", "-p", "no:cacheprovider",
                           "tests/test_layout.py", "tests/test_hangman.py"], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)
    listed = [line for line in done.stdout.splitlines() if "::" in line]
    assert "test_hangman.py" in conftest.QUICK_LEAVES_OUT and "test_layout.py" not in conftest.QUICK_LEAVES_OUT
    assert listed and all(line.startswith("tests/test_layout.py::") for line in listed), done.stdout
    assert "deselected" in done.stdout
