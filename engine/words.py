"""Load, normalize and fingerprint word lists (pure Python, no numba).

Every output of wordtree names the lists it was made from by the sha256 of their *canonical
text*: the distinct words, sorted, one per line, LF, trailing newline. Two files that differ
only in case, blanks, order or duplicates therefore have the same fingerprint.
"""

from __future__ import annotations

import hashlib
import string
from dataclasses import dataclass
from pathlib import Path

from .data import wordlists_dir
from .errors import UserError

WORDLIST_DIR = wordlists_dir()
LOWERCASE = frozenset(string.ascii_lowercase)


@dataclass(frozen=True)
class WordList:
    """A validated word list: its words in file order (first occurrence kept) and its fingerprint."""

    name: str
    path: str
    words: tuple[str, ...]
    sha256: str

    def __len__(self) -> int:
        return len(self.words)


def canonical_sha256(words) -> str:
    """sha256 of the sorted distinct words, one per line, LF, trailing newline."""
    text = "".join(w + "\n" for w in sorted(set(words)))
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def resolve_path(name: str | Path) -> Path:
    """A path as given, or else a file of that name in the shipped wordlists/ folder."""
    path = Path(name)
    if path.exists():
        return path
    shipped = WORDLIST_DIR / str(name)
    if shipped.exists():
        return shipped
    raise UserError(f"{name}: word list not found")


def load_words(name: str | Path, length: int | str | None = None, alphabet=LOWERCASE) -> WordList:
    """Read a word list, one word per line; blank lines are skipped, case and surrounding blanks
    are normalized, duplicates dropped. A word with a character outside `alphabet`, or of a length
    other than `length` (when given; "first" means the first word's), is a UserError naming the
    file and line."""
    path = resolve_path(name)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise UserError(f"{path}: cannot read word list ({exc.strerror})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    seen: dict[str, None] = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        word = line.strip().lower()
        if not word:
            continue
        bad = next((ch for ch in word if ch not in alphabet), None)
        if bad is not None:
            raise UserError(f"{path}:{lineno}: {line.strip()!r} has a character outside a-z: {bad!r}")
        if length == "first":
            length = len(word)
        if length is not None and len(word) != length:
            raise UserError(f"{path}:{lineno}: {word!r} has {len(word)} letters, expected {length}")
        seen.setdefault(word, None)
    if not seen:
        raise UserError(f"{path}: the word list is empty")
    words = tuple(seen)
    return WordList(name=path.name, path=str(path), words=words, sha256=canonical_sha256(words))
