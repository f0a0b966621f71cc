"""jit.Entries: a kernel called through its compiled function gives what the dispatcher gives,
and a call site whose argument types change is caught (the tests run with CHECK_ENTRIES)."""

import numba
import numpy as np
import pytest

from wordtree import jit


@numba.njit
def total(a, k):
    return a.sum() * k


def test_an_entry_computes_as_the_dispatcher():
    entries = jit.Entries(total)
    a = np.arange(10, dtype=np.int32)
    assert entries("site", a, 3) == total(a, 3) == 135
    assert entries("site", a[:4].copy(), 2) == 12  # another array of the same type: the same entry
    assert len(entries.found) == 1


def test_a_site_whose_types_change_is_caught(monkeypatch):
    monkeypatch.setattr(jit, "CHECK_ENTRIES", True)
    entries = jit.Entries(total)
    entries("site", np.arange(4, dtype=np.int32), 1)
    with pytest.raises(TypeError, match="argument"):
        entries("site", np.arange(4, dtype=np.int64), 1)
    with pytest.raises(TypeError):
        entries("site", np.arange(8, dtype=np.int32)[::2], 1)  # another layout
    assert entries("other", np.arange(4, dtype=np.int64), 1) == 6  # a site of its own


def test_the_tests_check_every_entry():
    assert jit.CHECK_ENTRIES
