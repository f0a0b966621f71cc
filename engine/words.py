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
from .files import read_bounded, read_stream  # noqa: F401 (the readers' old home)

WORDLIST_DIR = wordlists_dir()
LOWERCASE = frozenset(string.ascii_lowercase)
LIST_MAX_BYTES = 64 << 20  # the largest word list read (the shipped ones are under 2 MB)


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
    words = sorted(set(words))
    return hashlib.sha256(("\n".join(words) + "\n" * bool(words)).encode("ascii")).hexdigest()


def is_bare_name(name) -> bool:
    """Whether `name` is a plain file name: no folder, no `..`, nothing a path could hide."""
    return (isinstance(name, str) and 0 < len(name) <= 255 and name not in (".", "..")
            and not any(ch in name for ch in "/\\:\0") and not name.startswith("~"))


def shipped_list(name) -> Path | None:
    """The shipped word list of that bare file name (`wordlists_dir()`), or None: how a list named
    inside a file (a tree's) is found. Only a bare name is looked up, so a file cannot name a
    path to be opened (its fingerprint is then checked by whoever asked)."""
    if not is_bare_name(name):
        return None
    path = wordlists_dir() / name
    return path if path.is_file() else None


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
    raw = read_bounded(path, LIST_MAX_BYTES, "word list")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    allowed = {ord(ch): None for ch in alphabet}  # deleted by translate: what is left is outside the alphabet
    # checked all at once (the 12972 guesses in 4.7 ms; line by line it took 8.6); a defect is
    # then named by its line (_defect)
    words = [word for word in map(str.strip, text.lower().splitlines()) if word]
    fixed = len(words[0]) if words and length == "first" else length
    if not words or "".join(words).translate(allowed) or (fixed is not None and any(len(w) != fixed for w in words)):
        raise _defect(path, text, length, allowed)
    words = tuple(dict.fromkeys(words))
    return WordList(name=path.name, path=str(path), words=words, sha256=canonical_sha256(words))


def _defect(path: Path, text: str, length: int | str | None, allowed: dict) -> UserError:
    """The UserError naming the first line of a word list that load_words refuses: a character
    outside the alphabet, or another length than `length`; or, with no such line, the list empty."""
    for lineno, line in enumerate(text.splitlines(), 1):
        word = line.strip().lower()
        if not word:
            continue
        outside = word.translate(allowed)
        if outside:
            return UserError(f"{path}:{lineno}: {line.strip()!r} has a character outside a-z: {outside[0]!r}")
        if length == "first":
            length = len(word)
        if length is not None and len(word) != length:
            return UserError(f"{path}:{lineno}: {word!r} has {len(word)} letters, expected {length}")
    return UserError(f"{path}: the word list is empty")
