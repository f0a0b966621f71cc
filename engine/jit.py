"""The project's numba decorator: every kernel module imports `kernel` (and numba's `prange`) from
here, so that none is compiled without the cache guard.

Importing this module imports numba the project's way (`numba_cache.import_numba`: without PyYAML
where numba has no config file to read with it, without numba's extensions in a command's process)
and installs the cache guard (`numba_cache.guard_cache`: a cache entry that cannot be loaded is
compiled again with a notice, never fatal; a cached kernel loads through `numba_load`). `kernel` is
numba's `njit` with `cache=True`: every kernel is kept in numba's on-disk cache.
"""

from __future__ import annotations

import os

from .numba_cache import cache_usable, guard_cache, import_numba, in_memory

import_numba()
from numba import njit, prange  # noqa: E402, F401 (prange: for the kernel modules)

guard_cache()


# "No strategy within the cap", as every kernel says it: INF of a width is 2**(width - 8), far
# above any value the kernels reach in that width (the exact search's totals in int32 stay below
# 2**24; Dordle's totals and Hangman's scores in int64 below 2**56) and small enough that 127 of
# them add up without overflow, so a sum of a few infinite values is still infinite and no check
# is needed before adding.
INF32 = 1 << 24
INF64 = 1 << 56


def kernel(function=None, **options):
    """`@kernel` or `@kernel(nogil=True, ...)`: `numba.njit(cache=True, **options)`. Where the
    cache folder cannot be written (`numba_cache.cache_usable`), or numba finds no folder for the
    cache, the kernel is compiled in memory, with a one-line notice (once a run)."""
    options.setdefault("cache", True)
    if options["cache"] and not cache_usable():
        options["cache"] = False
    if function is None:
        return lambda function: _decorate(function, options)
    return _decorate(function, options)


def _decorate(function, options):
    try:
        dispatcher = njit(**options)(function)
    except RuntimeError as exc:  # numba: "cannot cache function ...: no locator available"
        if not options.get("cache") or "cannot cache" not in str(exc):
            raise
        in_memory(str(exc))
        dispatcher = njit(**{**options, "cache": False})(function)
    return dispatcher


CHECK_ENTRIES = bool(os.environ.get("WORDTREE_CHECK_ENTRIES"))  # the tests set it (conftest.py)


class Entries:
    """A kernel called through its compiled function, found once per call site: a call through
    numba's dispatcher types every argument again, and for a named tuple of arrays (the exact
    search's 30-array Scratch) that costs more than the kernel's own work on a small set
    (docs/performance.md has the figures).

    `entries(site, *args)`: the first call at `site` types the arguments as the dispatcher does
    (compiling where need be) and keeps that function; later calls at `site` go to it directly.
    A site must pass arguments of the same numba types every time (same dtypes, dimensions and
    layouts; Python ints): the caller keeps to it. With CHECK_ENTRIES every call is typed again
    and a change is a TypeError, so that the tests catch a site that breaks the rule."""

    def __init__(self, dispatcher):
        self.dispatcher = dispatcher
        self.found: dict = {}

    def __call__(self, site, *args):
        found = self.found.get(site)
        if found is None or CHECK_ENTRIES:
            types = tuple(self.dispatcher.typeof_pyval(arg) for arg in args)
            if found is not None and found[0] != types:
                changed = [i for i, (a, b) in enumerate(zip(found[0], types)) if a != b]
                raise TypeError(f"{self.dispatcher.__name__} at {site!r}: argument(s) {changed} changed type")
            if found is None:
                if types not in self.dispatcher.overloads:
                    self.dispatcher.compile(types)
                found = self.found[site] = (types, self.dispatcher.overloads[types].entry_point)
        return found[1](*args)
