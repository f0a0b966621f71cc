"""Files: atomic writes, checkpoint files, the cache folder and the checksum of cached arrays.

Every file wordtree writes goes through `atomic_file`: a reader (or a kill -9) never sees half a file.
A long run checks its outputs before it starts (`check_writable`), holds its checkpoint for the
whole run (`Checkpoint.held`: a lock, no checkpoint replaced unless asked, its header checked
before any work), and does not lose its result to a write that fails at the end
(`write_or_fallback`). `Checkpoint` is the one checkpoint mechanism of every family (build, rank,
Hangman, Dordle): the formats differ in their payload, not in that machinery.
Pure Python at import (numpy only inside `checksum`), so the lookup player can use it.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import orjson

from .errors import (CheckpointBusy, CheckpointExists, CheckpointMismatch, NoCheckpoint, OutputNotWritable, Stopped,
                     UserError)

if TYPE_CHECKING:
    import numpy as np

_BLOCK = 512  # checksum row length, in 8-byte words


@contextmanager
def atomic_file(path):
    """A binary file to write `path` through: a temporary file in the same folder, renamed over
    `path` only once the block ends without an error, so readers never see half a file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
        os.chmod(tmp, 0o644)  # mkstemp makes it private; a written file should read like any other
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_atomic(path, data: bytes) -> None:
    """Write `data` to `path` atomically (see atomic_file)."""
    with atomic_file(path) as f:
        f.write(data)


class ThrottledSave:
    """Writes `make()` to `path` atomically, at most once every `every` seconds when asked with
    `every`: a long search proves things many times a second, and a checkpoint of megabytes is
    rewritten at most that often. Thread-safe; `lock` is held while writing, and callers hold it
    while they change what `make` reads.

    A write that fails (a full disk) does not stop the search that asked for it: the first failure
    is told on stderr (unless it is the `last` save, which the run reports itself), the next call
    tries again, and `error` holds the reason while the file on disk is behind (None once a write
    succeeds), for the run to report at its end."""

    def __init__(self, path, make):
        self.path, self.make = path, make
        self.lock = threading.Lock()
        self.last = time.monotonic()
        self.error: str | None = None
        self._told = False

    def __call__(self, every: float = 0.0, last: bool = False) -> None:
        with self.lock:
            if time.monotonic() - self.last >= every:
                try:
                    write_atomic(self.path, self.make())
                except OSError as exc:
                    self.error = _reason(exc)
                    if not self._told and not last:
                        self._told = True
                        print(f"wordtree: warning: cannot save the checkpoint {self.path} ({self.error}); "
                              "the search goes on and tries again", file=sys.stderr, flush=True)
                else:
                    self.error = None
                self.last = time.monotonic()


def read_checkpoint(path, header: dict, what: str, *, resuming: bool = True, defaults: dict | None = None) -> dict | None:
    """A checkpoint file written with `header` (None when there is none yet). A file that is not
    one, or belongs to another run (any header field differs: CheckpointMismatch names each), is a
    one-line user error. `defaults`: the value of a header field a file from before that field
    existed lacks. `resuming`: read to continue the run (else to show it)."""
    try:
        doc = orjson.loads(Path(path).read_bytes())
    except FileNotFoundError:
        return None
    except (OSError, orjson.JSONDecodeError) as exc:
        raise UserError(f"{path}: not a readable {what} checkpoint ({exc})") from None
    if not isinstance(doc, dict):
        raise UserError(f"{path}: not a {what} checkpoint")
    differences = header_differences(doc, header, defaults)
    if differences:
        raise CheckpointMismatch(path, what, differences, resuming)
    return doc


def header_differences(saved: dict, header: dict, defaults: dict | None = None) -> list[str]:
    """The fields of `header` that a checkpoint's `saved` header does not match, each in words with
    both values (CheckpointMismatch takes them); a field `saved` lacks takes its value in
    `defaults`. Another format is the only difference named: its fields do not compare."""
    defaults = defaults or {}
    if "format" in header and saved.get("format") != header["format"]:
        return [_difference("format", saved.get("format"), header["format"])]
    return [_difference(key, saved.get(key, defaults.get(key)), value)
            for key, value in header.items() if saved.get(key, defaults.get(key)) != value]


def _difference(key: str, there, here) -> str:
    """One header field that differs, in words: the file's value, then this run's."""
    if isinstance(there, dict) and isinstance(here, dict):
        keys = [k for k in {**there, **here} if there.get(k) != here.get(k)]
        return "; ".join(_difference(f"{key} {k}", there.get(k), here.get(k)) for k in keys)
    if key.endswith("sha256"):
        return f"{key} differs (other contents)"
    return f"{key} {_shown(there)} there, {_shown(here)} here"


def _shown(value) -> str:
    if value is None:
        return "none"
    text = orjson.dumps(value).decode() if isinstance(value, (list, dict)) else str(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc) or type(exc).__name__


# --- outputs checked before a long run, and not lost after it ---
def check_writable(path, what: str) -> None:
    """Raise OutputNotWritable (one line) unless `path` can be written as atomic_file writes it:
    not a folder, not a read-only file, and its folder (or the nearest one that exists, where
    atomic_file makes the rest) takes a new file, tried with a small test file. A long run calls
    this before it starts, so that it never finds out at the end."""
    path = Path(path)
    if path.is_dir():
        raise OutputNotWritable(path, what, "that is a folder")
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise OutputNotWritable(path, what, f"{folder} is not a folder")
    if path.exists() and not os.access(path, os.W_OK):
        raise OutputNotWritable(path, what, "the file is read-only")
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".check")
        try:
            os.write(fd, b"wordtree")
        finally:
            os.close(fd)
            os.unlink(tmp)
    except OSError as exc:
        raise OutputNotWritable(path, what, _reason(exc)) from None


def write_or_fallback(path, write) -> tuple[Path | None, str | None]:
    """`write(p)` to `path`, or where that fails (an OSError: a full disk, a folder gone), to a
    file next to it and then to the temporary folder, so that a result hours in the making is not
    lost at the last step. Returns (where it went, None) or (the fallback, why `path` failed), or
    (None, why) when nothing took it (the caller then prints it)."""
    path = Path(path)
    try:
        write(path)
        return path, None
    except OSError as exc:
        reason = _reason(exc)
    name = f"{path.name}.{os.getpid()}.saved"
    for fallback in (path.with_name(name), Path(tempfile.gettempdir()) / name):
        try:
            write(fallback)
            return fallback, reason
        except OSError:
            continue
    return None, reason


# --- checkpoints held for a run ---
class CheckpointLock:
    """An exclusive lock on the checkpoint `path` for one process, held on the file PATH.lock
    (fcntl.flock; the checkpoint itself is replaced by each atomic save, so it cannot carry the
    lock). The kernel releases a flock when its process ends, kill -9 included; a lock file left
    behind then is simply locked again by the next run. The holder removes the file on release
    while it still holds the lock, and a run that locked a file since removed tries again, so two
    runs never hold locks on two different files of one name."""

    def __init__(self, path):
        self.path = Path(f"{path}.lock")
        self.checkpoint = path
        self.fd: int | None = None

    def acquire(self) -> None:
        try:
            import fcntl
        except ImportError:  # no flock here (Windows): no lock
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                pid = os.read(fd, 32).decode(errors="replace").strip()
                os.close(fd)
                raise CheckpointBusy(self.checkpoint, pid) from None
            except OSError:
                os.close(fd)
                raise
            try:
                same = os.stat(self.path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)  # released and removed by its holder between our open and our lock
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self.fd = fd

    def release(self) -> None:
        if self.fd is not None:
            self.path.unlink(missing_ok=True)
            os.close(self.fd)
            self.fd = None

    def __enter__(self) -> CheckpointLock:
        self.acquire()
        return self

    def __exit__(self, *exc) -> None:
        self.release()


@contextmanager
def open_checkpoint(path, *, resume: bool, overwrite: bool, companions: tuple = ()):
    """Hold the checkpoint `path` (None: none) for the run inside the block: checked writable, locked
    against a second run (CheckpointBusy), and, unless the run continues it (`resume`) or starts it
    over (`overwrite`), refused if it or one of its `companions` (files the same run writes beside
    it, e.g. PATH.rank) already exists (CheckpointExists), so that a run never replaces one by
    accident. A Ctrl-C or TERM (KeyboardInterrupt) that ends the block, once the run inside has
    saved what it had, leaves it as Stopped: one way for every family to say where the work is."""
    try:
        if path is None:
            yield
            return
        files = [Path(path), *map(Path, companions)]
        for file in files:
            check_writable(file, "checkpoint")
        with CheckpointLock(path):
            if not resume and not overwrite:
                for file in files:
                    if file.exists():
                        raise CheckpointExists(file)
            yield
    except Stopped:
        raise
    except KeyboardInterrupt:
        raise Stopped(path) from None


class Checkpoint:
    """The checkpoint file of one run: `path`, of the format `what` names in messages, bound to
    the `header` of the parameters that made it. Every family's checkpoint is one of these; only
    its payload and its reader differ.

    - `held(resume=, overwrite=)`: the run's hold on the file (open_checkpoint: checked
      writable, locked against a second writer, an existing one refused unless the run continues
      it or starts it over, `companions` too), and with `resume` the file read at once into
      `payload` (None: no file yet), header first, so that a checkpoint of other parameters is
      refused before the run plans any work. Ctrl-C or TERM inside: Stopped (open_checkpoint).
      A `path` of None holds nothing (a run that keeps no checkpoint), and is Stopped the same.
    - `read(resuming)`: the payload, its header checked (None: no file): a file of other
      parameters is a CheckpointMismatch naming each field that differs, one that is not of the
      format a one-line UserError. `resuming`: read to continue the run, else to show it.
    - `shown()`: read to show what it proves (NoCheckpoint when there is none).
    - `saver(make)`: the ThrottledSave of `make()` to the file: atomic, at most as often as asked,
      the reason of a failed save kept for the run's end.

    `load(path, header, resuming)`: the format's reader, returning its payload or None; by
    default a JSON document whose top-level fields hold the header (read_checkpoint, with
    `defaults` for the fields older files lack)."""

    def __init__(self, path, what: str, header: dict, *, load=None, defaults: dict | None = None,
                 companions: tuple = ()):
        self.path, self.what, self.header, self.companions = path, what, header, tuple(companions)
        self._load = load or (lambda path, header, resuming: read_checkpoint(
            path, header, what, resuming=resuming, defaults=defaults))
        self.payload = None

    def read(self, resuming: bool = True):
        return self._load(self.path, self.header, resuming)

    def shown(self):
        payload = self.read(resuming=False)
        if payload is None:
            raise NoCheckpoint(self.path)
        return payload

    @contextmanager
    def held(self, *, resume: bool, overwrite: bool):
        with open_checkpoint(self.path, resume=resume, overwrite=overwrite, companions=self.companions):
            self.payload = self.read() if resume and self.path is not None else None
            yield self

    def saver(self, make) -> ThrottledSave:
        return ThrottledSave(self.path, make)


def cache_dir(override: str | os.PathLike | None = None) -> Path:
    """The cache folder: `override`, else $WORDTREE_CACHE_DIR, else $XDG_CACHE_HOME/wordtree, else
    ~/.cache/wordtree."""
    if override:
        return Path(override)
    if os.environ.get("WORDTREE_CACHE_DIR"):
        return Path(os.environ["WORDTREE_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "wordtree"


def checksum(data: np.ndarray) -> str:
    """A position-dependent checksum: the row and column sums of the data seen as a table of
    64-bit words (plus the ragged tail), hashed. Two fast passes, so a cache load stays a file
    read; it catches truncation, flipped bits and moved or swapped blocks."""
    import numpy as np

    raw = np.ascontiguousarray(data).reshape(-1).view(np.uint8)
    block = 8 * _BLOCK
    full = raw.size // block * block
    words = raw[:full].view(np.uint64).reshape(-1, _BLOCK)
    tail = np.zeros(block, np.uint8)
    tail[: raw.size - full] = raw[full:]
    rows = words.sum(axis=1, dtype=np.uint64)
    columns = words.sum(axis=0, dtype=np.uint64)
    digest = hashlib.sha256(rows.tobytes() + columns.tobytes() + tail.tobytes() + str(raw.size).encode())
    return digest.hexdigest()[:32]
