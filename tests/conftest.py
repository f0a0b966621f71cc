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
