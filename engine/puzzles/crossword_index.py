"""The crossword word index: per length, the words of a list ranked by a score list, with the
letter masks the kernels use; cached on disk (see files.cache_dir), checked, rebuilt when unsound.

Quality: the "common" words are those among the score list's 10,000 best (for the default
list: the 10,000 most frequent English words); each length's list holds them first, then the
rarer words, best score first, so "common only" is a prefix of the list.

Scores: the value of a `word;score` line; for `word<TAB>count` lines 10*log10(count), so that
frequency lists give a score in decibels (the most frequent English words score about 100,
the 10,000th about 65); a word missing from the score list scores 0.
"""

from __future__ import annotations

import hashlib
import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import orjson

from ..errors import UserError
from ..files import (LINE_MAX_BYTES, atomic_file, cache_dir, checksum, open_regular, read_bounded,
                     read_bounded_text)
from ..words import WORDLIST_DIR, canonical_sha256, load_words, resolve_path

DEFAULT_WORDS = "enable1.txt"
DEFAULT_SCORES = "word-frequency.tsv"
COMMON_TOP = 10_000
INDEX_MAGIC = "wordtree-crossword-index/1"
CREDITS = {
    "enable1.txt": "Words: ENABLE word list (public domain), by Alan Beale and Mendel Cooper",
    "enable2k.txt": "Words: ENABLE2K word list (public domain), by Alan Beale and Mendel Cooper",
    "word-frequency.tsv": "Word frequencies from orgtre/google-books-ngram-frequency (CC BY 3.0), "
    "derived from the Google Books Ngram dataset v20200217",
}


@dataclass
class WordIndex:
    """Per length L: `letters[L]` (n x L uint8, 0..25) best score first, `scores[L]`,
    `n_common[L]`, and `masks[L]` (L x 26 x ceil(n/64) uint64, bit i = word i has letter c at p)."""

    letters: dict[int, np.ndarray]
    scores: dict[int, np.ndarray]
    n_common: dict[int, int]
    masks: dict[int, np.ndarray]
    words_info: dict
    scores_info: dict
    source: str = "built"  # "built", "cache" or "rebuilt"
    seconds: float = 0.0

    _ranks: dict = field(default_factory=dict)
    _packed: tuple = ()

    def word(self, length: int, i: int) -> str:
        return bytes(self.letters[length][i] + 97).decode("ascii")

    def rank(self, word: str) -> int | None:
        """The word's position in its length's list (None when not listed)."""
        L = len(word)
        if L not in self.letters:
            return None
        if L not in self._ranks:
            self._ranks[L] = {row.tobytes(): i for i, row in enumerate(self.letters[L] + 97)}
        return self._ranks[L].get(word.encode("ascii"))

    def packed(self) -> tuple:
        """The masks, letters and scores of every length as flat kernel arrays, with each
        length's offsets into them (built once: a neighbourhood search asks again and again)."""
        if not self._packed:
            lengths = sorted(self.letters)
            offsets, m, lt, wd = {}, 0, 0, 0
            for L in lengths:
                offsets[L] = (m, lt, wd)
                m, lt, wd = m + self.masks[L].size, lt + self.letters[L].size, wd + len(self.letters[L])
            self._packed = (
                np.concatenate([self.masks[L].ravel() for L in lengths]),
                np.concatenate([self.letters[L].ravel() for L in lengths]).astype(np.int64),
                np.concatenate([self.scores[L] for L in lengths]),
                offsets,
            )
        return self._packed

    def sources(self) -> list[str]:
        return [line for line in (self.words_info.get("credit"), self.scores_info.get("credit")) if line]


def _file_info(path: Path) -> dict:
    info = {"file": path.name, "path": str(path)}
    if path.resolve().parent == WORDLIST_DIR and path.name in CREDITS:
        info["credit"] = CREDITS[path.name]
    return info


def read_scores(path: Path) -> dict[str, float]:
    """`word;score` or `word<TAB>count` lines (a count becomes 10*log10(count)). Entries that
    are not a-z words (phrases, names with digits) cannot be crossword entries and are skipped."""
    from .. import words

    text = read_bounded_text(path, words.LIST_MAX_BYTES, "score list")
    scores: dict[str, float] = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        sep = ";" if ";" in line else "\t" if "\t" in line else None
        if sep is None:
            raise UserError(f"{path}:{lineno}: expected 'word;score' or 'word<TAB>count', got {line!r}")
        word, _, value = line.partition(sep)
        word = word.strip().lower()
        try:
            number = float(value)
        except ValueError:
            raise UserError(f"{path}:{lineno}: {value.strip()!r} is not a number") from None
        if not math.isfinite(number) or (sep == "\t" and number <= 0):
            raise UserError(f"{path}:{lineno}: bad {'count' if sep == chr(9) else 'score'} {value.strip()!r}")
        if word.isascii() and word.isalpha():
            scores.setdefault(word, 10 * math.log10(number) if sep == "\t" else number)
    if not scores:
        raise UserError(f"{path}: the score list has no a-z words")
    return scores


def _build_index(words_path: Path, scores_path: Path) -> tuple[dict, dict[str, np.ndarray]]:
    wordlist = load_words(words_path)
    scores = read_scores(scores_path)
    common = set(sorted(scores, key=lambda w: (-scores[w], w))[:COMMON_TOP])
    by_length: dict[int, list[str]] = {}
    for w in wordlist.words:
        if len(w) >= 2:
            by_length.setdefault(len(w), []).append(w)
    header = {
        "words": {**_file_info(words_path), "sha256": wordlist.sha256, "count": len(wordlist),
                  **({"skipped": wordlist.skipped} if wordlist.skipped else {})},
        "scores": {**_file_info(scores_path), "sha256": canonical_sha256(scores), "count": len(scores)},
        "lengths": {},
    }
    arrays = {}
    for length, ws in sorted(by_length.items()):
        ws.sort(key=lambda w: (w not in common, -scores.get(w, 0.0), w))
        letters = np.frombuffer("".join(ws).encode("ascii"), dtype=np.uint8).reshape(len(ws), length) - 97
        arrays[f"letters{length}"] = np.ascontiguousarray(letters)
        arrays[f"scores{length}"] = np.array([scores.get(w, 0.0) for w in ws], dtype=np.float64)
        arrays[f"masks{length}"] = _masks(letters)
        header["lengths"][str(length)] = {"n": len(ws), "common": sum(w in common for w in ws)}
    return header, arrays


def _masks(letters: np.ndarray) -> np.ndarray:
    n, length = letters.shape
    nw = -(-n // 64)
    onehot = np.zeros((length, 26, nw * 64), dtype=bool)
    for p in range(length):
        onehot[p, letters[:, p], np.arange(n)] = True
    return np.packbits(onehot, axis=2, bitorder="little").view(np.uint64).reshape(length, 26, nw)


def _index_path(words_path: Path, scores_path: Path, cache) -> Path:
    from .. import words

    digest = hashlib.sha256()
    for p in (words_path, scores_path):
        digest.update(read_bounded(p, words.LIST_MAX_BYTES, "word list"))
        digest.update(b"\0")
    return cache_dir(cache) / f"crossword-{digest.hexdigest()[:24]}.index"


def _read_index(path: Path) -> tuple[dict, dict[str, np.ndarray]] | None:
    """The cached index, or None when missing, foreign, truncated or corrupt."""
    try:
        with open_regular(path) as f:
            header = orjson.loads(f.readline(LINE_MAX_BYTES))
            if header.get("magic") != INDEX_MAGIC:
                return None
            arrays = {}
            for name, dtype, shape in header["arrays"]:
                count = int(np.prod(shape))
                data = np.fromfile(f, dtype=np.dtype(dtype), count=count)
                if data.size != count:
                    return None
                arrays[name] = data.reshape(shape)
            if f.read(1):
                return None
    except (OSError, ValueError, KeyError, TypeError, orjson.JSONDecodeError):
        return None
    if _checksum(arrays) != header.get("checksum"):
        return None
    return header, arrays


def _checksum(arrays: dict[str, np.ndarray]) -> str:
    return hashlib.sha256("".join(checksum(a) for a in arrays.values()).encode()).hexdigest()


def _write_index(path: Path, header: dict, arrays: dict[str, np.ndarray]) -> None:
    header = {"magic": INDEX_MAGIC, **header, "checksum": _checksum(arrays),
              "arrays": [[k, str(a.dtype), list(a.shape)] for k, a in arrays.items()]}
    with atomic_file(path) as f:
        f.write(orjson.dumps(header) + b"\n")
        for a in arrays.values():
            np.ascontiguousarray(a).tofile(f)


def word_index(words: str | os.PathLike | None = None, scores: str | os.PathLike | None = None,
               cache=None, use_cache: bool = True) -> WordIndex:
    """The index of a word list ranked by a score list, from the disk cache when it is sound."""
    start = time.perf_counter()
    words_path = resolve_path(words or DEFAULT_WORDS)
    scores_path = resolve_path(scores or DEFAULT_SCORES)
    try:
        path = _index_path(words_path, scores_path, cache)
    except OSError as exc:
        raise UserError(f"cannot read word or score list ({exc.strerror})") from None
    existed = use_cache and path.exists()
    loaded = _read_index(path) if existed else None
    source = "cache"
    if loaded is None:
        source = "rebuilt" if existed else "built"
        loaded = _build_index(words_path, scores_path)
        if use_cache and not loaded[0]["words"].get("skipped"):  # a hit then has no bad line to tell
            try:
                _write_index(path, *loaded)
            except OSError:
                pass  # an unwritable cache folder only costs speed
    header, arrays = loaded
    lengths = [int(k) for k in header["lengths"]]
    return WordIndex(
        letters={L: arrays[f"letters{L}"] for L in lengths},
        scores={L: arrays[f"scores{L}"] for L in lengths},
        n_common={L: header["lengths"][str(L)]["common"] for L in lengths},
        masks={L: arrays[f"masks{L}"] for L in lengths},
        words_info=header["words"],
        scores_info=header["scores"],
        source=source,
        seconds=time.perf_counter() - start,
    )

