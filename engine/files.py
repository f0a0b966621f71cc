"""Files: atomic writes, checkpoint files, the cache folder and the checksum of cached arrays.

Every file wordtree writes goes through `atomic_file`: a reader (or a kill -9) never sees half a file.
Pure Python at import (numpy only inside `checksum`), so the lookup player can use it.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import orjson

from .errors import UserError

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
    while they change what `make` reads."""

    def __init__(self, path, make):
        self.path, self.make = path, make
        self.lock = threading.Lock()
        self.last = time.monotonic()

    def __call__(self, every: float = 0.0) -> None:
        with self.lock:
            if time.monotonic() - self.last >= every:
                write_atomic(self.path, self.make())
                self.last = time.monotonic()


def read_checkpoint(path, header: dict, what: str) -> dict | None:
    """A checkpoint file written with `header` (None when there is none yet). A file that is not
    one, or belongs to another run (any header field differs), is a one-line user error."""
    try:
        doc = orjson.loads(Path(path).read_bytes())
    except FileNotFoundError:
        return None
    except (OSError, orjson.JSONDecodeError) as exc:
        raise UserError(f"{path}: not a readable {what} checkpoint ({exc})") from None
    if not isinstance(doc, dict) or any(doc.get(k) != v for k, v in header.items()):
        fields = ", ".join(k for k in header if k != "format")
        raise UserError(f"{path}: checkpoint of another {what} (not the same {fields}); remove it or drop --resume")
    return doc


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
