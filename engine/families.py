"""The game families, in one table: what each plays, the documents it reads, where its parts are.

A family is a set of games that share an engine and a tree format: the Wordle family (Wordle in
its modes, Mastermind, Bulls and Cows: one board, feedback on a guess), Hangman (a letter at a
time) and Dordle (two Wordle boards at once). Each registers the same parts, named by module so
that nothing is imported before it is used:

- `games`: the game names that `build GAME` (and `--game`) routes to it;
- `formats`: the `format` values of the documents it writes, reads and verifies;
- `shelf`: the folder of the shipped trees (`trees/` or one of its subfolders) that holds its own;
- `spec`, `build`, `document`, `position`: the modules of its game parameters, its search and
  long-run driver, its documents (read with bounded, checked parsing; verify; write) and its
  positions (next, candidates, grade, play).

Each family's `document` module has `describe(doc) -> dict`: the facts `wordtree trees` lists
(game, lists, total and what it measures, whether it is proven optimal), read from a document
its own reader checked. Shared machinery (files, data, errors, progress, numba loading) sits
below the families and imports none of them; this table is the only place that names them all.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from pathlib import Path

from .data import trees_dir
from .errors import UserError

FORMAT_MAX_BYTES = 256 << 20  # the largest tree file whose format is read (as the readers' own limits)


@dataclass(frozen=True)
class Family:
    name: str
    summary: str
    games: tuple[str, ...]
    formats: tuple[str, ...]
    shelf: str  # the subfolder of trees/ with its shipped trees ("" for trees/ itself)
    spec: str
    build: str
    document: str
    position: str

    def part(self, name: str):
        """The module of part `name` (spec, build, document, position), imported now."""
        return importlib.import_module(f"{__package__}.{getattr(self, name)}")


FAMILIES: dict[str, Family] = {
    family.name: family
    for family in (
        Family("wordle", "one board, feedback on each guess: Wordle (normal, hard, ultra), Mastermind, Bulls and Cows",
               ("wordle", "wordle-nyt", "wordle-nyt2023", "mastermind", "bulls-cows"), ("wordtree/1",), "",
               spec="games", build="exact.build", document="wordle.tree", position="wordle.player"),
        Family("hangman", "a letter at a time, a tree per word length (ENABLE, 10 lives)",
               ("hangman",), ("wordtree-hangman/1",), "hangman",
               spec="hangman.game", build="hangman.driver", document="hangman.tree", position="hangman.lookup"),
        Family("dordle", "two Wordle boards at once, every guess on both",
               ("dordle",), ("wordtree-dordle/1", "wordtree-dordle-strategy/1"), "dordle",
               spec="dordle.search", build="dordle.search", document="dordle.document", position="dordle.player"),
        Family("absurdle", "Wordle against an adversary that keeps the largest bucket of answers after each guess",
               ("absurdle",), ("wordtree-absurdle/1", "wordtree-absurdle-challenge/1"), "absurdle",
               spec="absurdle.build", build="absurdle.build", document="absurdle.document",
               position="absurdle.position"),
        Family("multiboard", "any number of Wordle boards at once: Quordle, Octordle, Sedecordle, Duotrigordle",
               ("quordle", "octordle", "sedecordle", "duotrigordle", "multiboard"), ("wordtree-multiboard-sample/1",),
               "multiboard", spec="multiboard.spec", build="multiboard.sample", document="multiboard.document",
               position="multiboard.position"),
    )
}


def family_of_game(name: str) -> Family | None:
    """The family that plays game `name`, None if none does."""
    return next((family for family in FAMILIES.values() if name in family.games), None)


def family_of_format(format_name) -> Family | None:
    """The family whose documents have this `format`, None if none."""
    return next((family for family in FAMILIES.values() if format_name in family.formats), None)


@dataclass(frozen=True)
class ShippedTree:
    name: str  # the file's name without .json: what every command takes for it
    path: Path
    family: Family


def shipped_trees() -> list[ShippedTree]:
    """Every shipped tree, family by family, each shelf sorted by name."""
    out = []
    for family in FAMILIES.values():
        shelf = trees_dir() / family.shelf if family.shelf else trees_dir()
        if shelf.is_dir():
            paths = sorted(shelf.glob("*.json"), key=_natural)
            out += [ShippedTree(path.stem, path, family) for path in paths if path.is_file()]
    return out


def _natural(path: Path) -> tuple:
    """hangman-2 before hangman-10: a name's runs of digits compared as numbers."""
    import re

    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path.stem))


def find_tree(text) -> Path | None:
    """The tree a user named: the file `text` if it is one; else the shipped tree of that name
    (`wordle-salet-normal`, with or without `.json`; also the shipped tree's path inside the
    repository, `trees/hangman/hangman-5.json`, where no such file is here, as for a user who
    installed the wheel and follows the README). None where neither is."""
    path = Path(text)
    if path.is_file():
        return path
    if path.exists():
        return None  # a folder, a device, ...: the reader says what it is
    name = path.name[:-5] if path.name.endswith(".json") else path.name
    parent = path.parent.as_posix()
    for tree in shipped_trees():
        shelf = tree.family.shelf
        if tree.name == name and parent in {".", "trees", *((shelf, f"trees/{shelf}") if shelf else ())}:
            return tree.path
    return None


def tree_path(text) -> Path:
    """`find_tree(text)`, or `text` as it is where it names nothing (the reader then says why it
    cannot be read, naming what the user typed)."""
    found = find_tree(text)
    return found if found is not None else Path(text)


_HEAD = re.compile(rb'\s*\{\s*"format"\s*:\s*"([A-Za-z0-9/_.-]{1,64})"\s*,')


def tree_format(path) -> str | None:
    """The `format` field of a JSON tree file, None if it cannot be read or has none: the
    family's own reader then reports the problem. Every family writes it first, so a regular
    file is read only as far as its first few kilobytes say it (the lookup that follows reads the
    tree whole, once); any other file is read whole, with a bound. Only the choice of the reader
    rests on this: each family's reader checks the format again."""
    import orjson

    from .words import read_bounded

    try:
        if Path(path).is_file():
            with open(path, "rb") as stream:
                head = _HEAD.match(stream.read(4096))
            if head:
                return head.group(1).decode()
    except OSError:
        return None  # (the reader says why it cannot be read)
    try:
        doc = orjson.loads(read_bounded(path, FORMAT_MAX_BYTES, "tree file"))
    except (UserError, orjson.JSONDecodeError):
        return None
    fmt = doc.get("format") if isinstance(doc, dict) else None
    return fmt if isinstance(fmt, str) else None


def family_of_tree(path) -> Family | None:
    """The family whose reader reads the tree file at `path`, by its format; None if unknown."""
    return family_of_format(tree_format(path))


def describe(tree: ShippedTree) -> dict:
    """What `wordtree trees` lists of a shipped tree: its name, family, format, installed path and
    its family's description of the document (game, lists, total, optimal)."""
    facts = tree.family.part("document").describe_file(tree.path)
    return {"name": tree.name, "family": tree.family.name, **facts, "path": str(tree.path)}
