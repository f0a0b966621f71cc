"""The project's numba decorator: every kernel module imports `kernel` (and numba's `prange`) from
here, so that none is compiled without the cache guard.

Importing this module imports numba the project's way (`numba_cache.import_numba`: without PyYAML
where numba has no config file to read with it, without numba's extensions in a command's process)
and installs the cache guard (`numba_cache.guard_cache`: a cache entry that cannot be loaded is
compiled again with a notice, never fatal; a cached kernel loads through `numba_load`). `kernel` is
numba's `njit` with `cache=True`: every kernel is kept in numba's on-disk cache.
"""

from __future__ import annotations

from .numba_cache import cache_usable, guard_cache, import_numba, in_memory

import_numba()
from numba import njit, prange  # noqa: E402, F401 (prange: for the kernel modules)

guard_cache()


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
        return njit(**options)(function)
    except RuntimeError as exc:  # numba: "cannot cache function ...: no locator available"
        if not options.get("cache") or "cannot cache" not in str(exc):
            raise
        in_memory(str(exc))
        return njit(**{**options, "cache": False})(function)
