"""Load, normalize and fingerprint word lists (pure Python, no numba).

Every output of wordtree names the lists it was made from by the sha256 of their *canonical
text*: the distinct words, sorted, one per line, LF, trailing newline. Two files that differ
only in case, blanks, order or duplicates therefore have the same fingerprint.
"""

from __future__ import annotations

import contextvars
import hashlib
import string
import sys
import unicodedata
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from .data import wordlists_dir
from .errors import UserError
from .files import read_bounded, read_stream  # noqa: F401 (the readers' old home)

WORDLIST_DIR = wordlists_dir()
LOWERCASE = frozenset(string.ascii_lowercase)
# The alphabet of the Wordle family's lists: any letter of any script. A word is read as NFC code
# points, lowercased (str.lower, then NFC again); a character of a Unicode letter (L*) or mark (M*)
# category is a letter, so a mark with no precomposed form is a letter of its own.
LETTERS = "letters"
GREEK_FINAL_SIGMA = {"\u03c2": "\u03c3"}  # folding: ς is σ, as the game's capital tiles show it (Σ)
LIST_MAX_BYTES = 64 << 20  # the largest word list read (the shipped ones are under 2 MB)
# A list with a few bad lines (a character outside the alphabet, another length) is read without
# them, with one notice; one with more (bad_lines_allowed), or nothing left, is refused, as any bad
# line is under a strict policy.
BAD_LINES_MOST = 100
BAD_LINES_SHARE = 0.01
SHOWN_LINE = 40  # characters of a bad line quoted in a message


@dataclass(frozen=True)
class Policy:
    strict: bool = False  # refuse a list with any bad line
    hint: str = ""  # added to the notice of skipped lines (the command layer names its flag)
    notices: object = None  # where the notice goes: a callable taking the line (default: stderr)


_POLICY = contextvars.ContextVar("word_list_policy", default=Policy())


@contextmanager
def word_list_policy(strict: bool = False, hint: str = "", notices=None):
    """Word lists read inside the block refuse any bad line (`strict`), or skip a few with a
    notice ending in `hint`."""
    token = _POLICY.set(Policy(strict, hint, notices))
    try:
        yield
    finally:
        _POLICY.reset(token)


def shown_line(text: str) -> str:
    """A line of a file as a message quotes it: cut to SHOWN_LINE characters, anything not
    printable escaped (repr), so a hostile file cannot write to the terminal through it."""
    cut = text[:SHOWN_LINE] + ("…" if len(text) > SHOWN_LINE else "")
    return repr(cut)


def bad_lines_allowed(lines: int) -> int:
    """The most bad lines a list of `lines` non-blank lines may have to be read without them: 1 %
    of its lines (none below 100 lines), at most BAD_LINES_MOST."""
    return min(BAD_LINES_MOST, int(BAD_LINES_SHARE * lines))


def skip_or_refuse(path, bad: list[tuple[int, str, str]], lines: int, kept: int) -> None:
    """Apply the policy to a list's bad lines (line number, the line, what is wrong): nothing when
    there are none; a UserError naming the first when the list is refused; else one notice."""
    if not bad:
        return
    policy = _POLICY.get()
    lineno, line, why = bad[0]
    first = f"{path}:{lineno}: {shown_line(line)} {why}"
    if policy.strict:
        raise UserError(first if len(bad) == 1 else f"{first} (and {len(bad) - 1} more bad lines)")
    if not kept or len(bad) > bad_lines_allowed(lines):
        raise UserError(f"{first}; {len(bad)} of its {lines} lines are bad, more than the "
                        f"{bad_lines_allowed(lines)} a list may skip (1 % of its lines, at most {BAD_LINES_MOST})")
    text = (f"notice: {path}: {len(bad)} bad line(s) of {lines} skipped; the first, line {lineno}: "
            f"{shown_line(line)} {why}{policy.hint}")
    (policy.notices or (lambda t: print(t, file=sys.stderr)))(text)


@dataclass(frozen=True)
class Folding:
    """How letters are folded on reading (the Wordle family's lists and typed words): `fold`
    drops every combining mark (á -> a, ç -> c, ü -> u, ñ -> n) and makes Greek ς σ, except on the
    letters of `keep` (normalized, e.g. "ñ" for Spanish)."""

    fold: bool = False
    keep: str = ""

    def record(self) -> dict:
        """The game-identity fields of this folding (none when nothing is folded)."""
        return {"fold_accents": True, "keep_letters": self.keep} if self.fold else {}


_FOLDING = contextvars.ContextVar("letter_folding", default=Folding())


@contextmanager
def letter_folding(fold: bool = False, keep: str = ""):
    """Word lists of any alphabet (LETTERS) read inside the block are folded as `Folding` says."""
    token = _FOLDING.set(folding(fold, keep))
    try:
        yield
    finally:
        _FOLDING.reset(token)


def current_folding() -> Folding:
    return _FOLDING.get()


def folding(fold: bool = False, keep: str = "") -> Folding:
    """A Folding with `keep` normalized as words are (each letter once); a character of `keep`
    that is no letter is a UserError."""
    keep = unicodedata.normalize("NFC", unicodedata.normalize("NFC", keep).lower())
    odd = [ch for ch in keep if not is_letter(ch)]
    if odd:
        raise UserError(f"keep letters {shown_line(keep)}: {odd[0]!r} is not a letter")
    return Folding(bool(fold), "".join(dict.fromkeys(keep)))


def is_letter(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LM"


def fold_text(text: str, keep: str = "") -> str:
    """`text` with every combining mark dropped (NFD), Greek ς made σ, but for the letters of `keep`."""
    out = []
    for ch in text:
        if ch in keep or ch.isascii():
            out.append(ch)
            continue
        base = "".join(c for c in unicodedata.normalize("NFD", ch) if not unicodedata.combining(c))
        out.append(GREEK_FINAL_SIGMA.get(base, base))
    return unicodedata.normalize("NFC", "".join(out))


def normal_text(text: str, fold: Folding | None = None) -> str:
    """Text as a word of any alphabet is read: NFC, lowercase, NFC again, folded if `fold` says so."""
    text = unicodedata.normalize("NFC", unicodedata.normalize("NFC", text).lower())
    return fold_text(text, fold.keep) if fold is not None and fold.fold else text


def normal_word(word: str, fold: Folding | None = None) -> str:
    """A typed word as a list of any alphabet holds it (normal_text, blanks around it dropped)."""
    return normal_text(word.strip(), fold)


@dataclass(frozen=True)
class WordList:
    """A validated word list: its words in file order (first occurrence kept) and its fingerprint."""

    name: str
    path: str
    words: tuple[str, ...]
    sha256: str
    skipped: int = 0  # bad lines left out (words.skip_or_refuse)

    def __len__(self) -> int:
        return len(self.words)


def canonical_sha256(words) -> str:
    """sha256 of the sorted distinct words, one per line, LF, trailing newline."""
    words = sorted(set(words))
    return hashlib.sha256(("\n".join(words) + "\n" * bool(words)).encode("utf-8")).hexdigest()


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
    file and line. `alphabet` LETTERS takes any letter: the text is read as `normal_text` (NFC,
    lowercase), folded as the block's `letter_folding` says, and a word's length is its number of
    code points."""
    path = resolve_path(name)
    raw = read_bounded(path, LIST_MAX_BYTES, "word list")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    if alphabet == LETTERS:
        text = normal_text(text, current_folding())
        alphabet = {ch for ch in set(text) if is_letter(ch)}
        allowed = {ord(ch): None for ch in alphabet}
    else:
        text = text.lower()
        allowed = {ord(ch): None for ch in alphabet}  # deleted by translate: what is left is outside the alphabet
    # checked all at once (the 12972 guesses in 4.7 ms; line by line it took 8.6); only a list
    # with a defect is read line by line (_sort_lines)
    words = [word for word in map(str.strip, text.splitlines()) if word]
    fixed = len(words[0]) if words and length == "first" else length
    if not words:
        raise UserError(f"{path}: the word list is empty")
    bad = []
    if "".join(words).translate(allowed) or (fixed is not None and any(len(w) != fixed for w in words)):
        words, bad = _sort_lines(text, length, allowed, "a-z" if alphabet == LOWERCASE else None)
        skip_or_refuse(path, bad, len(words) + len(bad), len(words))
    words = tuple(dict.fromkeys(words))
    return WordList(name=path.name, path=str(path), words=words, sha256=canonical_sha256(words), skipped=len(bad))


def _sort_lines(text: str, length: int | str | None, allowed: dict,
                named: str | None = "a-z") -> tuple[list[str], list[tuple[int, str, str]]]:
    """The good words of a list, and its bad lines (line number, the line, what is wrong): a
    character outside the alphabet, or another length than `length` ("first": the length of the
    most words, the first word's among equals)."""
    good, bad = [], []
    for lineno, line in enumerate(text.splitlines(), 1):
        word = line.strip().lower()
        if not word:
            continue
        outside = word.translate(allowed)
        if outside:
            what = f"outside {named}" if named else "that is not a letter"
            bad.append((lineno, line.strip(), f"has a character {what}: {outside[0]!r}"))
        else:
            good.append((lineno, line.strip(), word))
    if length == "first" and good:
        counts: dict[int, int] = {}
        for _, _, word in good:
            counts[len(word)] = counts.get(len(word), 0) + 1
        length = max(counts, key=lambda n: counts[n])  # (dicts keep the first length seen first among equals)
    if length is not None:
        bad.extend((n, line, f"has {len(w)} letters, expected {length}") for n, line, w in good if len(w) != length)
        good = [g for g in good if len(g[2]) == length]
        bad.sort()
    return [w for _, _, w in good], bad
