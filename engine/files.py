"""Files: atomic writes, checkpoint files, the cache folder and the checksum of cached arrays.

Every file wordtree writes goes through `atomic_file`: a reader (or a kill -9) never sees half a
file; a link is followed (its target replaced), a FIFO or a character device written through, any
other file that is not a regular one refused. Every file a user names is read by `read_bounded` (a
regular file of at most a limit of its kind, never waited on), stdin a bounded line at a time
(`bounded_lines`), the cache's files by `open_regular`. A long run checks its outputs before it
starts (`check_writable`), holds its checkpoint for the whole run (`Checkpoint.held`: a lock, no
checkpoint replaced unless asked, its header checked before any work), and does not lose its result
to a write that fails at the end (`write_or_fallback`). `Checkpoint` is the one checkpoint mechanism
of every family (build, rank, Hangman, Dordle): the formats differ in their payload, not in that
machinery.
Pure Python at import (numpy only inside `checksum`), so the lookup player can use it.
"""

from __future__ import annotations

import errno
import hashlib
import io
import os
import stat
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


FIFO_WAIT_SECONDS = 30.0  # how long a write to a FIFO waits for a reader to open it
LINE_MAX_BYTES = 64 << 10  # the longest line read from a stream (stdin: a reply, a GUESS ANSWER pair)
GRID_MAX_BYTES = 1 << 20  # the largest crossword grid or structure file read
CHECKPOINT_MAX_BYTES = 256 << 20  # the largest JSON checkpoint read (a build's or a rank's: a few MB)


def output_kind(path) -> str:
    """What an output path names, links followed: "file" (a regular file, or nothing yet),
    "stream" (a FIFO or a character device such as /dev/stdout or /dev/null, written through;
    also a link through /proc, such as /dev/stdout when stdout is a file), "folder" or "other"."""
    try:
        info = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return "file"
    except OSError:
        return "file"  # (the write says why)
    if stat.S_ISFIFO(info.st_mode) or stat.S_ISCHR(info.st_mode):
        return "stream"
    if stat.S_ISDIR(info.st_mode):
        return "folder"
    if not stat.S_ISREG(info.st_mode):
        return "other"
    return "stream" if _through_proc(path) else "file"


def _through_proc(path) -> bool:
    """Whether a chain of links from `path` passes through /proc (/dev/stdout, /dev/fd/N): an
    open file of a process, to be written through rather than replaced."""
    here = str(path)
    for _ in range(40):
        if not os.path.islink(here):
            return False
        here = os.path.abspath(os.path.join(os.path.dirname(here), os.readlink(here)))
        if here == "/proc" or here.startswith("/proc/"):
            return True
    return False


def output_target(path) -> Path:
    """The file an output at `path` replaces: `path`, or where its link leads (the link stays)."""
    path = Path(path)
    return Path(os.path.realpath(path)) if os.path.islink(path) else path


def _open_stream(path) -> int:
    """A descriptor to write the stream `path` through. A FIFO is opened without waiting for ever:
    tried every 50 ms for FIFO_WAIT_SECONDS, then an OSError (ENXIO) says no reader came."""
    flags = os.O_WRONLY | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_NONBLOCK", 0)
    if stat.S_ISREG(os.stat(path).st_mode):  # an open file through /proc: added to, as a shell's >> would
        flags |= os.O_APPEND
    deadline = time.monotonic() + FIFO_WAIT_SECONDS
    while True:
        try:
            fd = os.open(path, flags)
            break
        except OSError as exc:
            if exc.errno != errno.ENXIO:
                raise
            if time.monotonic() >= deadline:
                raise OSError(errno.ENXIO, f"no reader opened the FIFO within {FIFO_WAIT_SECONDS:g} s",
                              str(path)) from None
            time.sleep(0.05)
    os.set_blocking(fd, True)
    return fd


@contextmanager
def atomic_file(path):
    """A binary file to write `path` through: a temporary file in the same folder, renamed over
    `path` only once the block ends without an error, so readers never see half a file. A link is
    followed: its target is replaced, and the link stays. A stream (a FIFO, a character device
    such as /dev/stdout) is written through, once the block has ended without an error; /dev/full
    is then an OSError (no space). Any other file that is not a regular one (a socket, a block
    device) is an OSError, nothing written."""
    kind = output_kind(path)
    if kind == "stream":
        buffer = io.BytesIO()
        yield buffer
        fd = _open_stream(path)
        try:
            view = memoryview(buffer.getbuffer())
            while view:
                view = view[os.write(fd, view[: 1 << 20]):]
        except OSError as exc:
            raise _naming(exc, path) from None
        finally:
            view = None
            os.close(fd)
        return
    if kind == "folder":
        raise IsADirectoryError(errno.EISDIR, "that is a folder", str(path))
    if kind == "other":
        raise OSError(errno.EINVAL, "not a regular file, a FIFO or a character device", str(path))
    path = output_target(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
        os.chmod(tmp, 0o644)  # mkstemp makes it private; a written file should read like any other
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise _naming(exc, path) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _naming(exc: OSError, path) -> OSError:
    """`exc` naming `path` where it names no file (a write or a close that failed: a full disk)."""
    if exc.filename is not None:
        return exc
    return type(exc)(exc.errno, exc.strerror or str(exc), str(path))


def write_atomic(path, data: bytes) -> None:
    """Write `data` to `path` atomically (see atomic_file: a link's target, a stream written through)."""
    with atomic_file(path) as f:
        f.write(data)


def same_file(a, b) -> bool:
    """Whether the paths `a` and `b` name one file: the same inode (links, hard links, other
    spellings), or, where neither exists yet, the same place once links are followed."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        pass
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except (OSError, ValueError):
        return False


# --- reading what a user names, bounded ---
def read_bounded(path: str | Path, limit: int, what: str) -> bytes:
    """The bytes of a regular file of at most `limit` bytes. Anything else (a device such as
    /dev/zero, a pipe, a folder, a larger file) is a UserError naming `what`, raised before the
    file is read: a file named by someone else cannot make wordtree read without end, nor wait
    on a FIFO (opened without waiting, should it become one after the check)."""
    path = Path(path)
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise UserError(f"{path}: not a regular file (a {what} must be one)")
        if info.st_size > limit:
            raise UserError(f"{path}: {what} larger than {_size(limit)} ({info.st_size} bytes)")
        # O_NONBLOCK: should the path turn into a pipe after the check, opening it does not wait
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise UserError(f"{path}: not a regular file (a {what} must be one)")
            # as much as the file held at the stat (a buffer of `limit` bytes would be allocated
            # even for a small file: 256 MB for a tree, which a memory limit refuses), then, had
            # it grown since, on up to the limit as a stream is read
            data = f.read(min(info.st_size, limit) + 1)
            if len(data) > info.st_size:
                data += read_stream(f, limit - len(data))
    except FileNotFoundError:
        raise UserError(f"{path}: {what} not found") from None
    except OSError as exc:
        raise UserError(f"{path}: cannot read {what} ({exc.strerror})") from None
    if len(data) > limit:
        raise UserError(f"{path}: {what} larger than {_size(limit)}")
    return data


def open_regular(path):
    """`path` opened to read in binary, if it is a regular file: opened without waiting (a FIFO
    put in its place does not block) and checked once open; anything else is an OSError, as a
    missing file is. For the files of the cache, whose readers take any OSError for "no cache"."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bounded_text(path: str | Path, limit: int, what: str) -> str:
    """read_bounded's bytes as UTF-8 text; other bytes are a UserError naming the file."""
    data = read_bounded(path, limit, what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"{path}: not UTF-8 text (byte {exc.start})") from None


def read_stream(stream, limit: int) -> bytes:
    """At most `limit` + 1 bytes of a binary stream (stdin), a megabyte at a time: one read of
    the limit would allocate a buffer of that size (256 MB for a tree) even for a small input.
    More than `limit` bytes returned means the input is larger than the limit."""
    chunks, size = [], 0
    while size <= limit:
        chunk = stream.read(min(1 << 20, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def bounded_lines(stream, what: str = "stdin", limit: int = LINE_MAX_BYTES):
    """The lines of a text stream (stdin) one at a time, each of at most `limit` characters: a
    longer one (a line of /dev/zero never ends) is a UserError naming `what`, the line's number
    and the limit, read no further than the limit. Bytes that are not text are one too."""
    lineno = 0
    while True:
        try:
            line = stream.readline(limit + 1)
        except UnicodeDecodeError as exc:
            raise UserError(f"{what}:{lineno + 1}: not UTF-8 text ({exc.reason})") from None
        if not line:
            return
        lineno += 1
        if len(line) > limit and not line.endswith("\n"):
            raise UserError(f"{what}:{lineno}: line longer than {_size(limit)}")
        yield line


def _size(limit: int) -> str:
    """A limit in words: MB, kB or bytes, as it divides."""
    if limit >= 1 << 20 and not limit % (1 << 20):
        return f"{limit >> 20} MB"
    if limit >= 1 << 10 and not limit % (1 << 10):
        return f"{limit >> 10} kB"
    return f"{limit} bytes"


class ThrottledSave:
    """Writes `make()` to `path` atomically, at most once every `every` seconds when asked with
    `every`: a long search proves things many times a second, and a checkpoint of megabytes is
    rewritten at most that often. Thread-safe; `lock` is held while writing, and callers hold it
    while they change what `make` reads.

    A write that fails (a full disk) does not stop the search that asked for it: the first failure
    is told on stderr (unless it is the `last` save, which the run reports itself), the next call
    tries again, and `error` holds the reason while the file on disk is behind (None once a write
    succeeds), for the run to report at its end. The `last` save, the one a run ends with, that
    cannot be written to `path` goes where write_or_fallback puts a result (a file beside it,
    else in the temporary folder), and `error` then names where it went, so that the run's work
    is never lost at its last step."""

    def __init__(self, path, make):
        self.path, self.make = path, make
        self.lock = threading.Lock()
        self.last = time.monotonic()
        self.error: str | None = None
        self._told = False

    def __call__(self, every: float = 0.0, last: bool = False) -> None:
        with self.lock:
            if time.monotonic() - self.last >= every:
                data = self.make()
                try:
                    write_atomic(self.path, data)
                except OSError as exc:
                    self.error = _reason(exc)
                    if last:
                        where, _ = write_or_fallback(self.path, lambda path: write_atomic(path, data))
                        if where is not None and where != Path(self.path):
                            self.error += f"; saved instead to {where}"
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
    if not os.path.lexists(path):
        return None
    raw = read_bounded(path, CHECKPOINT_MAX_BYTES, f"{what} checkpoint")
    try:
        doc = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
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
def check_writable(path, what: str, *, streams: bool = True) -> None:
    """Raise OutputNotWritable (one line) unless `path` can be written as atomic_file writes it:
    not a folder, not a read-only file, and its folder (or the nearest one that exists, where
    atomic_file makes the rest) takes a new file, tried with a small test file; a link is checked
    where it leads. A stream (a FIFO, a character device) is written through, and is not opened
    here (a FIFO's reader would see its end): with `streams` False (a checkpoint, read back and
    replaced) it is refused, as is any other file that is not a regular one. A long run calls this
    before it starts, so that it never finds out at the end."""
    kind = output_kind(path)
    if kind == "folder":
        raise OutputNotWritable(path, what, "that is a folder")
    if kind == "stream":
        if not streams:
            raise OutputNotWritable(path, what, "not a regular file (a FIFO or a device)")
        return
    if kind == "other":
        raise OutputNotWritable(path, what, "not a regular file, a FIFO or a character device")
    path = output_target(path)
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
    """`write(p)` to `path`, or where that fails (an OSError: a full disk, a folder gone, a FIFO no
    one reads), to a file next to it (next to a link's target; not beside a stream, which may sit
    in /dev) and then to the temporary folder, so that a result hours in the making is not lost at
    the last step. Returns (where it went, None) or (the fallback, why `path` failed), or (None,
    why) when nothing took it (the caller then prints it)."""
    path = Path(path)
    stream = output_kind(path) == "stream"
    try:
        write(path)
        return path, None
    except OSError as exc:
        reason = _reason(exc)
    name = f"{path.name}.{os.getpid()}.saved"
    places = [] if stream else [output_target(path).with_name(name)]
    for fallback in (*places, Path(tempfile.gettempdir()) / name):
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
    accident. A resume of a checkpoint not there yet says so in one line on stderr, then starts
    afresh (a loop that always resumes works from its first run, and a mistyped name is seen). A Ctrl-C or TERM (KeyboardInterrupt) that ends the block, once the run inside has
    saved what it had, leaves it as Stopped: one way for every family to say where the work is."""
    try:
        if path is None:
            yield
            return
        files = [Path(path), *map(Path, companions)]
        for file in files:
            check_writable(file, "checkpoint", streams=False)
        with CheckpointLock(path):
            if not resume and not overwrite:
                for file in files:
                    if file.exists():
                        raise CheckpointExists(file)
            if resume and not os.path.lexists(path):
                print(f"notice: {path}: no checkpoint there yet to resume; starting a fresh one", file=sys.stderr,
                      flush=True)
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
      the reason of a failed save kept for the run's end; in the default JSON format, `make()`
      (a document, or its bytes) is written with its checksum (`sealed`) if it has none yet.

    `load(path, header, resuming)`: the format's reader, returning its payload or None; by
    default a JSON document whose top-level fields hold the header (read_checkpoint, with
    `defaults` for the fields older files lack) and its checksum (written by `sealed`, checked by
    `unsealed`: a damaged, edited or unchecksummed file is refused, never used)."""

    def __init__(self, path, what: str, header: dict, *, load=None, defaults: dict | None = None,
                 companions: tuple = ()):
        self.path, self.what, self.header, self.companions = path, what, header, tuple(companions)
        self._json = load is None  # the default format: a JSON document, sealed by `saver`
        self._load = load or (lambda path, header, resuming: unsealed(path, read_checkpoint(
            path, header, what, resuming=resuming, defaults=defaults), what))
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
        if not self._json:
            return ThrottledSave(self.path, make)

        def make_sealed() -> bytes:  # a JSON checkpoint is read back only with its checksum
            data = make()
            if isinstance(data, (bytes, bytearray)) and b'"' + CHECKSUM_FIELD.encode() + b'":"sha256:' in data[-90:]:
                return data  # sealed by its writer already
            return sealed(orjson.loads(data) if isinstance(data, (bytes, bytearray, str)) else data)

        return ThrottledSave(self.path, make_sealed)


# --- checkpoints carry their own integrity ---
CHECKSUM_FIELD = "checksum"  # a checkpoint's "sha256:HEX" over its payload (payload_sha256)

# The checkpoints written before checkpoints carried a checksum that are kept as finished proofs
# (runs/README.md): each one's payload_sha256 (members_sha256 for an .npz), so that they are read
# as they are; any other checkpoint without a checksum is refused.
PROVEN_PAYLOADS = {
    "c045f54aaec429fb20cb98120a8e818ec151ba0bae819e3c202d9d8fc3c72875": "runs/bulls-cows-repeats.ck",
    "a756575bad4c60f8ee45ecd0c89c051c2460ab1828920838c24aef16ea8e6300": "runs/bulls-cows-repeats.ck.rank",
    "af7254165a3b101e923e0332a8b0501e6a2e81af95331db4650d0a28cc4be0e3": "runs/hangman-3.npz",
    "d57dd15d539903632e12762f3713356fc6ab4613347f1fb58a490974e6f90f6c": "runs/hangman-4.npz",
    "093e1e01e553a0f82a41d52652e9e3eff5422c22f116e890cbbb92e9b766dc3e": "runs/hangman-5.npz",
    "adcbf31c75d48a4e63e76f00178fb6e62fa62fd444b3581e99daaa827ccb86af": "runs/hangman-6.npz",
}


def payload_sha256(doc: dict) -> str:
    """The sha256 (hex) of a JSON checkpoint's payload: every field but CHECKSUM_FIELD, serialized
    canonically (keys sorted at every level, orjson's own numbers), so that a file read back and
    serialized again gives the same bytes."""
    payload = {key: value for key, value in doc.items() if key != CHECKSUM_FIELD}
    return hashlib.sha256(orjson.dumps(payload, option=orjson.OPT_SORT_KEYS)).hexdigest()


def sealed(doc: dict) -> bytes:
    """The bytes of the JSON checkpoint `doc` with its checksum (CHECKSUM_FIELD), as every JSON
    checkpoint is written."""
    return orjson.dumps({**doc, CHECKSUM_FIELD: "sha256:" + payload_sha256(doc)})


def unsealed(path, doc: dict | None, what: str) -> dict | None:
    """`doc` (a JSON checkpoint read from `path`, its header already checked) without its checksum,
    once the checksum is found to match its payload; None stays None. A checksum that does not
    match (the file damaged or edited) and a file without one (an older wordtree's, unless it is
    one of PROVEN_PAYLOADS) are each a CheckpointDamaged naming the file: never used."""
    if doc is None:
        return None
    claimed = doc.pop(CHECKSUM_FIELD, None)
    check_checksum(path, what, claimed, payload_sha256(doc))
    return doc


def check_checksum(path, what: str, claimed, actual: str) -> None:
    """Raise CheckpointDamaged unless `claimed` (what the file at `path` says, None: nothing) is
    "sha256:" + `actual`, the payload's sha256 recomputed; a file that claims nothing passes only
    if `actual` is one of PROVEN_PAYLOADS."""
    from .errors import CheckpointDamaged

    if claimed is None:
        if actual in PROVEN_PAYLOADS:
            return
        raise CheckpointDamaged(path, what, "has no checksum (an older wordtree wrote it, or it was edited)",
                                unchecksummed=True)
    if claimed != "sha256:" + actual:
        raise CheckpointDamaged(path, what, "does not match its checksum (damaged or edited)")


def members_sha256(members: dict) -> str:
    """The sha256 (hex) of an .npz checkpoint's members (name -> array, the checksum's own left
    out): for each, in name order, its name, dtype, shape and bytes."""
    digest = hashlib.sha256()
    for name in sorted(members):
        if name == CHECKSUM_FIELD:
            continue
        array = members[name]
        digest.update(orjson.dumps([name, array.dtype.str, list(array.shape)]))
        digest.update(array.tobytes())
    return digest.hexdigest()


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
