"""Build or load a game's pattern matrix (guesses x answers codes), with a checked disk cache.

The cache file is one JSON header line (magic, game key, shape, dtype, checksum) followed by the
raw matrix. A file whose header, size or checksum does not match is rebuilt, never trusted.
Location: the `cache` argument, else $WORDTREE_CACHE_DIR, else $XDG_CACHE_HOME/wordtree, else ~/.cache/wordtree.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import orjson

from ..files import LINE_MAX_BYTES, cache_dir, checksum, open_regular

MAGIC = "wordtree-patterns/1"


@dataclass
class PatternMatrix:
    matrix: np.ndarray
    source: str  # "built", "cache" or "rebuilt"
    seconds: float  # reading or building, compiling the kernels aside
    path: Path | None
    compile_seconds: float = 0.0  # compiling the matrix kernel first (the first run only)


def _header(game, matrix: np.ndarray) -> dict:
    return {
        "magic": MAGIC,
        "game": game.cache_key,
        "shape": list(matrix.shape),
        "dtype": str(matrix.dtype),
        "checksum": checksum(matrix),
    }


def _read(path: Path, game) -> np.ndarray | None:
    """The cached matrix, or None when the file is missing, foreign, truncated or corrupt."""
    try:
        with open_regular(path) as f:
            header = orjson.loads(f.readline(LINE_MAX_BYTES))
            if header.get("magic") != MAGIC or header.get("game") != game.cache_key:
                return None
            shape = tuple(header["shape"])
            dtype = np.dtype(header["dtype"])
            if shape != (len(game.guesses), len(game.answers)) or dtype != game.code_dtype:
                return None
            data = np.fromfile(f, dtype=dtype, count=shape[0] * shape[1] + 1)
    except (OSError, ValueError, KeyError, TypeError, orjson.JSONDecodeError):
        return None
    if data.size != shape[0] * shape[1]:
        return None
    matrix = data.reshape(shape)
    if checksum(matrix) != header["checksum"]:
        return None
    return matrix


def _write(path: Path, game, matrix: np.ndarray) -> None:
    """Atomic, like every file the project writes (tree.write_atomic)."""
    from ..files import write_atomic

    write_atomic(path, orjson.dumps(_header(game, matrix)) + b"\n" + matrix.tobytes())


def pattern_matrix(game, cache: str | os.PathLike | None = None, use_cache: bool = True) -> PatternMatrix:
    """The game's pattern matrix, from the cache when it is sound, else built (and cached)."""
    start = time.perf_counter()
    path = cache_dir(cache) / f"{game.kind}-{game.cache_key}.patterns"
    existed = path.exists()
    if use_cache and existed:
        matrix = _read(path, game)
        if matrix is not None:
            return PatternMatrix(matrix, "cache", time.perf_counter() - start, path)
    from ..numba_cache import compile_seconds

    compiled = compile_seconds()
    matrix = game._compute_matrix()
    compiled = compile_seconds() - compiled
    seconds = time.perf_counter() - start - compiled
    if use_cache:
        try:
            _write(path, game, matrix)
        except OSError:
            path = None  # an unwritable cache folder only costs speed
    return PatternMatrix(matrix, "rebuilt" if existed and use_cache else "built", seconds, path, compiled)
