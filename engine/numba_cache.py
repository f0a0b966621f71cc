"""A corrupted numba cache entry is rebuilt, not fatal; a compile is said, and timed.

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

The first run after an install (or an edit of a kernel module) compiles the kernels: tens of
seconds during which nothing else would be printed. numba broadcasts a "numba:compile" event
around each compile that its cache could not serve (a cache hit sends none), so `guard_cache()`
also listens for those of this package's kernels: the first one of a run prints
`notice: compiling the kernels once (cached for later runs)…`, and once no compile has followed
for COMPILE_QUIET seconds (a burst: a command's kernels compile one after another, each on its
first call) a second line says how long the burst took. `compile_seconds()` is the time spent
compiling so far in this process, which commands that report a time leave out of it and say
apart (`compile_note`).

A cache hit is loaded by `numba_load.light_load()`: without what only a compile needs (numba's
registries, its runtime compiled again, its own modules imported, the kernel's bitcode parsed).

`freeze_numba_objects()` (a command's process only) keeps numba's own objects out of the
garbage collector's walks once they exist: they live as long as the process.
"""

from __future__ import annotations

import atexit
import glob
import hashlib
import io
import os
import pickle
import stat
import sys
import threading
import time
from pathlib import Path

from .numba_load import light_load, plain_array_typeof

_installed = False
_noticed: set[str] = set()  # the kinds of notice printed: each once a run

COMPILE_NOTICE = "notice: compiling the kernels once (cached for later runs)…"
COMPILE_MORE = "notice: compiling more kernels once (cached for later runs)…"
COMPILE_QUIET = 0.5  # seconds without a compile after which a burst of compiles is over (and timed)
# what a burst that begins in a kernel module compiles, and about how long it takes the first time (the
# 2-core machine, alone: docs/log/2026-12-02.md); it is said, and a bar counts the seconds to it
KERNELS = {
    "exact.kernels": ("the exact search kernels", 27),
    "hangman.kernels": ("the Hangman search kernels", 25),
    "dordle.kernels": ("the Dordle search kernels", 32),
    "puzzles.crossword_kernels": ("the crossword kernels", 28),
    "games.wordle_kernels": ("the Wordle pattern table's kernel", 6),
}


def import_numba() -> None:
    """Import numba, without PyYAML unless a numba config file is here for it to read, and in a
    command's process without importlib.metadata (`without_numba_extensions`).

    numba's config imports PyYAML (where it is installed: `distributed` brings it) only to read
    `.numba_config.yaml` from the current folder, and that import is 13 ms of every process that
    loads a kernel. Where no such file is, numba would read nothing with it, so numba is imported
    with PyYAML hidden, and PyYAML is then given back: a later `import yaml` works as usual. Kernel
    modules call this before their own `from numba import ...`."""
    if "numba" in sys.modules:
        return
    if _without_extensions:
        _defer_module("importlib.metadata")
    hide_yaml = "yaml" not in sys.modules and not os.path.exists(".numba_config.yaml")
    if hide_yaml:
        sys.modules["yaml"] = None  # `import yaml` raises ImportError meanwhile
    try:
        import numba  # noqa: F401
    finally:
        if hide_yaml and "yaml" in sys.modules and sys.modules["yaml"] is None:
            del sys.modules["yaml"]
    if _without_extensions:
        from numba.core import entrypoints

        entrypoints._already_initialized = True  # as if numba had loaded them: there are none to load


_without_extensions = False  # a command's process: numba's extensions are not loaded (without_numba_extensions)


def without_numba_extensions() -> None:
    """From now on (a command's process only: commands.main), numba is imported without loading
    its extensions: the plugins that other installed packages register for numba's own use
    (entry point group `numba_extensions`). A command runs only this package's kernels, which use
    none; numba would otherwise import importlib.metadata as it is imported (11 ms: email, csv,
    socket...) and read every installed package's entry points at its first call of a kernel
    (4 ms). importlib.metadata is left to load when something first uses it."""
    global _without_extensions
    _without_extensions = True


def _defer_module(name: str) -> None:
    """Put module `name` in sys.modules as one that loads when it is first used (the standard
    library's LazyLoader), and on its package, where `from package import name` finds it without
    loading it. Left alone where it is loaded already or its loader cannot defer."""
    import importlib.util

    if name in sys.modules:
        return
    try:
        spec = importlib.util.find_spec(name)
        spec.loader = importlib.util.LazyLoader(spec.loader)
    except (ImportError, AttributeError, TypeError, ValueError):  # not found, or a loader that cannot defer
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)  # (deferred: runs when the module is first used)
    package, _, child = name.rpartition(".")
    if package:
        setattr(sys.modules[package], child, module)


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

    light = light_load()
    _check_entries(caching)

    def load_overload(self, sig, target_context):
        try:
            return light(self, sig, target_context) if light else load(self, sig, target_context)
        except Exception as exc:  # noqa: BLE001 (whatever an unreadable entry raises, it is a miss)
            _forget(self, exc)
            return None  # numba compiles the function and saves a fresh entry
        finally:
            if not _frozen_after_load:
                _freeze_now(after_load=True)

    def save_overload(self, sig, data):
        try:
            save(self, sig, data)
        except Exception as exc:  # noqa: BLE001 (an entry that cannot be saved is compiled again next run)
            _notice("save", f"notice: numba cannot save compiled kernels in {self.cache_path} ({_what(exc)}); "
                    "the next run compiles them again")

    caching.Cache.load_overload = load_overload
    caching.Cache.save_overload = save_overload
    plain_array_typeof()
    _watch_compiles()
    _installed = True
    _freeze_now()


_freezing = False  # freeze numba's objects out of the collector's reach (`freeze_numba_objects`)
_frozen_after_load = False


def freeze_numba_objects() -> None:
    """From now on, freeze numba's objects out of the garbage collector's reach as they come:
    once numba is imported, and once its first kernel load is done (or a compile has set up its
    registries: `_light_load` leaves them alone on a cache hit). They are about a hundred
    thousand (types, typing templates, registries) and live as long as the process, yet every
    full collection would walk them again. For a command's process only
    (commands.main): a frozen object is never freed, so a program that imports the engine for
    itself keeps Python's usual collector."""
    global _freezing
    _freezing = True
    if _installed:
        _freeze_now()


def _freeze_now(after_load: bool = False) -> None:
    """Freeze what the process holds (numba's objects, now imported or set up), if asked to."""
    global _frozen_after_load
    if not _freezing:
        return
    import gc

    _frozen_after_load = _frozen_after_load or after_load
    gc.freeze()


# --- a cache folder that cannot be written: kernels compiled in memory ---
_usable: bool | None = None


def cache_usable() -> bool:
    """Whether numba's cache folder named by NUMBA_CACHE_DIR (numba's own choice where it is not
    set) takes files: made if missing and tried with a temporary file, as numba's cache does
    before each save, once a run. Where it does not (a path below a regular file, a read-only
    file system), the kernels are compiled in memory with one notice: no entry is loaded from a
    folder numba could not have written (nor saved there), and no traceback on every command."""
    global _usable
    if _usable is None:
        import tempfile

        from numba.core import config

        folder = getattr(config, "CACHE_DIR", "") or ""
        _usable = True
        if folder:
            try:
                os.makedirs(folder, exist_ok=True)
                tempfile.TemporaryFile(dir=folder).close()
            except OSError as exc:
                _usable = False
                in_memory(f"{folder}: {exc.strerror or exc}")
    return _usable


def in_memory(reason: str) -> None:
    """Say, once a run, that the kernels are compiled in memory because of `reason`."""
    shown = reason if len(reason) <= 120 else reason[:119] + "…"
    _notice("memory", f"notice: the numba cache folder cannot be written ({shown}); "
            "compiling the kernels in memory for this run")


# --- every cache file checked before numba reads it ---
ENTRY_MAGIC = b"wordtree-numba-entry/1\n"  # then the sha256 (hex, a line) of the file's name and numba's bytes
ENTRY_MAX_BYTES = 256 << 20  # the largest kernel entry is a few megabytes: anything past this is not one


class DamagedEntry(Exception):
    """A cache file that is not what this package wrote (the reason in words): never given to numba."""


def entry_bytes(name: str, blob: bytes) -> bytes:
    """A cache file as this package writes it: ENTRY_MAGIC, the sha256 of the file's `name` and of
    numba's `blob`, then `blob`. The checksum is in the file itself, so that one atomic rename
    writes both (a reader never sees a file with another's checksum), and it names the file, so
    that two entries swapped are caught."""
    return ENTRY_MAGIC + _entry_digest(name, blob) + b"\n" + blob


def _entry_digest(name: str, blob: bytes) -> bytes:
    return hashlib.sha256(name.encode() + b"\0" + blob).hexdigest().encode()


def read_entry(path) -> bytes | None:
    """numba's bytes of the cache file at `path` (None: there is none), checked before anything
    reads them: a regular file (a FIFO is not even opened for a blocking read), at most
    ENTRY_MAX_BYTES, written by entry_bytes under this very name with its checksum intact.
    Anything else raises DamagedEntry, saying what is wrong."""
    name = os.path.basename(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise DamagedEntry(f"{name}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise DamagedEntry(f"{name} is not a regular file")
        if info.st_size > ENTRY_MAX_BYTES:
            raise DamagedEntry(f"{name} is larger than {ENTRY_MAX_BYTES >> 20} MiB")
        with os.fdopen(os.dup(fd), "rb") as f:
            data = f.read(ENTRY_MAX_BYTES + 1)
    finally:
        os.close(fd)
    head = len(ENTRY_MAGIC) + 65
    if len(data) > ENTRY_MAX_BYTES:
        raise DamagedEntry(f"{name} is larger than {ENTRY_MAX_BYTES >> 20} MiB")
    if not data.startswith(ENTRY_MAGIC) or len(data) < head or data[head - 1:head] != b"\n":
        raise DamagedEntry(f"{name} has no checksum")
    blob = data[head:]
    if data[len(ENTRY_MAGIC):head - 1] != _entry_digest(name, blob):
        raise DamagedEntry(f"{name} does not match its checksum")
    return blob


def _check_entries(caching) -> None:
    """Make numba's index and data files (IndexDataCacheFile) go through entry_bytes and
    read_entry: what numba would unpickle and map is checked first, and a damaged file raises
    DamagedEntry (the guard's load then forgets the entry and compiles it again). Left alone in a
    numba whose cache file lacks the parts replaced."""
    files = getattr(caching, "IndexDataCacheFile", None)
    parts = ("_load_index", "_save_index", "_load_data", "_save_data", "_dump", "_open_for_write", "_data_path")
    if files is None or not all(hasattr(files, part) for part in parts):
        return

    def write(self, path, blob: bytes) -> None:
        with self._open_for_write(path) as f:
            f.write(entry_bytes(os.path.basename(path), blob))

    def load_index(self):
        blob = read_entry(self._index_path)
        if blob is None:
            return {}
        stream = io.BytesIO(blob)
        version = pickle.load(stream)
        if version != self._version:
            return {}
        stamp, overloads = pickle.loads(stream.read())
        return overloads if stamp == self._source_stamp else {}

    def save_index(self, overloads):
        write(self, self._index_path,
              pickle.dumps(self._version, protocol=-1) + self._dump((self._source_stamp, overloads)))

    def load_data(self, name):
        blob = read_entry(self._data_path(name))
        if blob is None:
            raise FileNotFoundError(name)  # numba's load: the index names a file since removed, a miss
        return pickle.loads(blob)

    def save_data(self, name, data):
        write(self, self._data_path(name), self._dump(data))

    files._load_index, files._save_index = load_index, save_index
    files._load_data, files._save_data = load_data, save_data


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
    what = str(exc) if isinstance(exc, DamagedEntry) else f"{type(exc).__name__}: {exc}" if str(exc) \
        else type(exc).__name__
    return what if len(what) <= 80 else what[:79] + "…"


# ------------------------------------------------------------------------------------------------
# compiles said and timed
# ------------------------------------------------------------------------------------------------
def compile_seconds() -> float:
    """Seconds this process has spent compiling this package's kernels so far (0 when every one
    came from numba's cache): a command that times its work subtracts what this grew by."""
    return _compiles.seconds if _compiles is not None else 0.0


def compile_note(seconds: float) -> str:
    """The words a reported time gets when `seconds` of compiling were left out of it. A report
    comes after the compiling: the burst's own line is said first (not after the report)."""
    said_first()
    return f" (and {seconds:.1f} s compiling the kernels once)" if seconds >= 0.05 else ""


def said_first() -> None:
    """End a burst of compiles that is over but not yet said (COMPILE_QUIET has not passed): its
    line then comes before what the caller prints next (an error line, the last of a run)."""
    if _compiles is not None:
        _compiles.finish()


class _Compiles:
    """Listens to numba's "numba:compile" events (sent only when the cache misses): says when a
    burst of compiles of this package's kernels begins, and how long it took once it is over.
    Compiles nest (a kernel's callees compile while it is typed): only the outermost counts."""

    def __init__(self, package: str):
        self.package = package + "."
        self.lock = threading.RLock()
        self.depth = 0
        self.ours = False  # the outermost compile under way is one of this package's kernels
        self.began = 0.0
        self.seconds = 0.0  # all the compiles of the process
        self.burst: float | None = None  # the seconds of the burst under way, None between bursts
        self.bursts = 0
        self.timer: threading.Timer | None = None
        self.stream = None  # the stderr of the burst's start, where its end is said too
        self.ticker = None  # the bar of a burst of KERNELS, counting its seconds

    def on_start(self, event) -> None:
        with self.lock:
            if self.depth == 0:
                dispatcher = (event.data or {}).get("dispatcher")
                module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
                self.ours = module.startswith(self.package)
                if self.ours:
                    self.began = time.perf_counter()
                    if self.timer is not None:
                        self.timer.cancel()
                        self.timer = None
                    if self.burst is None:
                        self.burst, self.stream = 0.0, sys.stderr
                        self.bursts += 1
                        known = KERNELS.get(module[len(self.package):])
                        if known is None:
                            _say(COMPILE_NOTICE if self.bursts == 1 else COMPILE_MORE, self.stream)
                        else:
                            _say(f"notice: compiling {known[0]} once (about {known[1]} s; cached for later runs)…",
                                 self.stream)
                            self.ticker = _ticker(known[0], known[1])
            self.depth += 1

    def on_end(self, event) -> None:
        with self.lock:
            self.depth = max(0, self.depth - 1)
            if self.depth == 0 and self.ours:
                took = time.perf_counter() - self.began
                self.seconds += took
                self.burst = (self.burst or 0.0) + took
                self.ours = False
                self.timer = threading.Timer(COMPILE_QUIET, self.finish)
                self.timer.daemon = True
                self.timer.start()

    def finish(self) -> None:
        """The burst is over (no compile for COMPILE_QUIET seconds, or the process ends): its time,
        on the stream its start went to (not a stderr swapped in meanwhile, a test's capture say)."""
        with self.lock:
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None
            if self.burst is not None and self.depth == 0:
                if self.ticker is not None:
                    self.ticker.close()
                    self.ticker = None
                _say(f"notice: compiled in {self.burst:.1f} s", self.stream)
                self.burst = None


_compiles: _Compiles | None = None


def _ticker(what: str, seconds: float):
    """progress.Ticker of a compile (None where it cannot start: the bar is only an aid)."""
    try:
        from .progress import Ticker

        return Ticker(f"notice: compiling {what}", seconds)  # a notice line too, piped
    except Exception:  # noqa: BLE001 (a compile never fails for its bar)
        return None


def _watch_compiles() -> None:
    """Register the listener of compiles (once; guard_cache calls it)."""
    global _compiles
    from numba.core import event

    class Listener(event.Listener):
        def on_start(self, evt) -> None:
            _compiles.on_start(evt)

        def on_end(self, evt) -> None:
            _compiles.on_end(evt)

    _compiles = _Compiles(__name__.rpartition(".")[0] or __name__)
    event.register("numba:compile", Listener())
    atexit.register(_compiles.finish)


def _say(line: str, stream=None) -> None:
    """A line on `stream` (default stderr); through tqdm when it is loaded, so that a bar on a
    terminal is redrawn below it instead of the line being written into the bar."""
    stream = sys.stderr if stream is None else stream
    tqdm = sys.modules.get("tqdm")
    try:
        if tqdm is not None:
            tqdm.tqdm.write(line, file=stream)
            stream.flush()
        else:
            print(line, file=stream, flush=True)
    except (ValueError, OSError, AttributeError):  # the stream closed (at exit, or a test's capture)
        pass
