"""docs/commands.md shows each command's `--help` as the command prints it: a flag added or
renamed without its page failing here. `WORDTREE_UPDATE_DOCS=1 python -m pytest tests/test_docs.py`
rewrites the blocks from the current help (then read the diff)."""

import contextlib
import io
import os
import re
from pathlib import Path

import pytest

from wordtree.commands import COMMANDS, main

PAGE = Path(__file__).resolve().parent.parent / "docs" / "commands.md"
BLOCK = re.compile(r"```text\n(usage: wordtree ([a-z-]+(?: hangman| dordle)?) .*?)```", re.S)


def current_help(command: str, monkeypatch) -> str:
    monkeypatch.setenv("COLUMNS", "100")  # argparse wraps to the terminal's width
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        main([*command.split(), "--help"])
    return out.getvalue()


def test_every_command_has_its_help_on_the_page(monkeypatch):
    text = PAGE.read_text()
    shown = {m.group(2): m.group(1) for m in BLOCK.finditer(text)}
    subcommands = {"dordle"}  # a family of its own (dordle build / verify): its page shows those
    missing = sorted((set(COMMANDS) | {"build hangman", "build dordle"}) - set(shown) - subcommands)
    assert not missing, f"docs/commands.md has no --help block for {missing}"
    if os.environ.get("WORDTREE_UPDATE_DOCS"):
        PAGE.write_text(BLOCK.sub(lambda m: f"```text\n{current_help(m.group(2), monkeypatch)}```", text))
        text = PAGE.read_text()
        shown = {m.group(2): m.group(1) for m in BLOCK.finditer(text)}
    stale = [name for name, block in shown.items()
             if name.split()[0] in COMMANDS and block != current_help(name, monkeypatch)]
    assert not stale, f"docs/commands.md shows an old --help of {stale}: rerun with WORDTREE_UPDATE_DOCS=1"
