"""Test set-up: fresh numba and pattern caches per session (set before numba is imported),
and a --slow flag for the long proofs that CI's default path skips."""

import os
import sys
import tempfile
from pathlib import Path

_TMP = tempfile.mkdtemp(prefix="wordtree-tests-")
os.environ["NUMBA_CACHE_DIR"] = os.path.join(_TMP, "numba")
os.environ["WORDTREE_CACHE_DIR"] = os.path.join(_TMP, "patterns")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pytest  # noqa: E402


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", default=False, help="also run the slow proofs")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: a long proof, run only with --slow")


def pytest_collection_modifyitems(config, items):
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
