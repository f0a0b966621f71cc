"""Where the shipped data lives: the trees, the word lists and the web player's assets.

Installed from a wheel they are package data inside `wordtree/` (`wordtree/trees`,
`wordtree/wordlists`, `wordtree/web_assets`); in a checkout (`pip install -e .` or `python cli.py`)
the trees and lists are the repository's top-level folders beside `engine/`. `WORDTREE_TREES` and
`WORDTREE_WORDLISTS` point elsewhere. Nothing here reads a path out of a file.
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def _folder(name: str) -> Path:
    override = os.environ.get(f"WORDTREE_{name.upper()}")
    if override:
        return Path(override)
    inside = PACKAGE / name  # a wheel's package data
    return inside if inside.is_dir() else PACKAGE.parent / name  # a checkout's top level


def trees_dir() -> Path:
    """The shipped trees (`hangman/` holds the Hangman ones)."""
    return _folder("trees")


def wordlists_dir() -> Path:
    """The shipped word lists with their provenance (README.md)."""
    return _folder("wordlists")


def web_assets_dir() -> Path:
    """The static web player's HTML, CSS and JavaScript."""
    return PACKAGE / "web_assets"
