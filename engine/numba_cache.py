"""A corrupted numba cache entry is rebuilt, not fatal.

Numba keeps each compiled kernel in its cache folder (`NUMBA_CACHE_DIR`, else `__pycache__` next to
the module) as an index (`.nbi`) and data files (`.nbc`). A file left empty or cut short (a full
disk, a kill during the write, a copy gone wrong) makes numba raise when it loads the entry (an
empty file: EOFError; a truncated one: pickle.UnpicklingError; random bytes: even MemoryError), and
so every later run fails until someone finds the file and deletes it. `guard_cache()` makes numba's
cache loader treat an entry it cannot load as absent: it deletes that function's entries, says so
in one line on stderr (once a run), and numba compiles the function again and saves it afresh.
An entry that cannot be saved is reported the same way instead of failing the run.

Every module that compiles kernels calls `guard_cache()` at import; it patches numba once. It
guards the loading of every cached function (callees included, which a wrapper around the entry
kernels would not reach without wrapping numba's own errors).
"""

from __future__ import annotations

import glob
import sys
from pathlib import Path

_installed = False
_noticed: set[str] = set()  # the kinds of notice printed: each once a run


def guard_cache() -> None:
    """Make numba rebuild, with a notice, any cache entry it cannot load (idempotent)."""
    global _installed
    if _installed:
        return
    from numba.core import caching

    load = getattr(caching.Cache, "load_overload", None)
    save = getattr(caching.Cache, "save_overload", None)
    if load is None or save is None:  # a numba whose cache works otherwise: leave it alone
        return

    def load_overload(self, sig, target_context):
        try:
            return load(self, sig, target_context)
        except Exception as exc:  # noqa: BLE001 (whatever an unreadable entry raises, it is a miss)
            _forget(self, exc)
            return None  # numba compiles the function and saves a fresh entry

    def save_overload(self, sig, data):
        try:
            save(self, sig, data)
        except Exception as exc:  # noqa: BLE001 (an entry that cannot be saved is compiled again next run)
            _notice("save", f"notice: numba cannot save compiled kernels in {self.cache_path} ({_what(exc)}); "
                    "the next run compiles them again")

    caching.Cache.load_overload = load_overload
    caching.Cache.save_overload = save_overload
    _installed = True


def _forget(cache, exc: Exception) -> None:
    """Delete the index and data files of the cache entry that failed to load; the first time, say
    so in one line (a corrupted folder usually holds many such entries: one notice is enough)."""
    index = Path(getattr(getattr(cache, "_cache_file", None), "_index_path", ""))
    if index.name.endswith(".nbi"):
        base = index.name[: -len(".nbi")]
        for path in [index, *index.parent.glob(f"{glob.escape(base)}.*.nbc")]:
            try:
                path.unlink()
            except OSError:
                pass  # gone already, or not ours to delete: the save after compiling says so
    _notice("load", f"notice: unreadable numba cache entries in {index.parent} ({_what(exc)}); "
            "deleting them and compiling again")


def _notice(kind: str, line: str) -> None:
    """Print `line` on stderr the first time a notice of this kind comes in this run."""
    if kind not in _noticed:
        _noticed.add(kind)
        print(line, file=sys.stderr, flush=True)


def _what(exc: Exception) -> str:
    what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return what if len(what) <= 80 else what[:79] + "…"
