"""Every example the project shows: the `wordtree ...` and `python cli.py ...` lines of the fenced
code blocks of README.md and docs/*.md, and of each command's `--help`. tests/test_examples.py
runs them in the checkout; `.ci/wheel-check` runs those that need no checkout from the installed
wheel, in an empty folder, with the script `python tests/doc_examples.py --wheel-script` prints
(this module imports neither pytest nor numba).

A block of a page is one session: its lines run in order in one fresh folder, the other shell
lines of the block (`printf ... > a.txt`, `cp ...`) too, so an example may use what the one before
it wrote. A help block's examples each run alone. An example runs with no standard input (its own
pipe aside) and must exit 0 with no traceback.

The only examples not run by default are the ones named below, each with its reason:
- SLOW: builds that take minutes; `python -m pytest tests/test_examples.py --slow` runs them;
- LONG: not run at all: hours or days of search, a server that runs until it is stopped, a
  cluster's host names;
- CHECKOUT: read a file of the checkout (runs/, tests/data/) that the wheel does not hold, and
  say so where they are shown; run in the checkout only.
A name here that no page or help shows any more fails the test, so the lists cannot go stale.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = ["README.md", *sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\S*)\s*$")
COMMAND = re.compile(r"^(?:wordtree|python cli\.py) |\|\s*(?:wordtree|python cli\.py) ")
COMMENT = re.compile(r"\s+#\s.*$")
HELP_GAP = re.compile(r"\s{2,}")  # a help example's text is followed by its note after two blanks

SLOW = {
    "wordtree compile": "every family's kernels compiled: a minute on 2 cores (tests/test_compile.py runs it)",
    "wordtree compile --only wordle hangman --json": "two families' kernels compiled: half a minute",
    "wordtree build -o salet.json": "the Wordle tree from nothing: a minute or more on 2 busy cores",
    "wordtree build --mode hard -o hard.json": "the hard-mode tree: minutes",
    "wordtree build --first crane": "a whole Wordle tree: minutes",
    "wordtree build mastermind --first auto": "every Mastermind opener ranked: minutes",
    "wordtree build hangman --length 8 -o hangman-8.json": "a Hangman proof of 8-letter words: minutes",
    "wordtree boggle --best --time 120": "two minutes of annealing, as it says",
    "wordtree build wordle-nyt2023 --first tarse --weights nyt-allowed-14855-frequency-weights.tsv -o weighted.json":
        "the weighted tree of today's lists: minutes",
    "wordtree rank --scheduler local --workers 2 --limit 50": "a local Dask cluster ranking 50 openers",
    "wordtree dordle build --from salet:BBBGB/YBBYB,crony:GYYBB/BYBBB": "a Dordle position of the full lists: minutes",
}
LONG = {
    "wordtree rank --scheduler tcp://HOST_A:8786 --top 10 --checkpoint rank.ck -o rank.tsv":
        "a cluster at HOST_A, and every opener ranked: hours",
    "wordtree rank --scheduler tcp://HOST_A:8786 --top 10 --checkpoint rank.ck --resume -o rank.tsv":
        "the same, resumed",
    "wordtree rank --top 10 --checkpoint rank.ck -o rank.tsv": "every Wordle opener ranked: hours",
    "wordtree rank --limit 50 --top 5 --checkpoint rank.ck --resume": "resumes the rank above",
    "wordtree hangman-server --port 8080 &": "a server that runs until it is stopped",
    "wordtree hangman-bot --url http://127.0.0.1:8080/game/on --player me": "plays against the server above",
    "wordtree dordle build --checkpoint dordle.ckpt -o dordle.json": "the full Dordle lists: days",
    "wordtree dordle build --checkpoint dordle.ckpt --resume -o dordle.json": "resumes the build above",
    "wordtree dordle build --checkpoint dordle.ckpt --status": "the checkpoint of the build above",
    "wordtree dordle build --scheduler tcp://HOST:8786 --checkpoint dordle.ckpt -o dordle.json":
        "a cluster at HOST, and the full lists: days",
    "wordtree dordle build --scheduler local --workers 2 --answers A --guesses G -o T":
        "lists A and G of one's own (a placeholder)",
    "dask scheduler &": "a Dask scheduler that runs until it is stopped",
    "wordtree crossword GRID [--words FILE] [-o OUT.json|OUT.png]": "the command's synopsis, not an example",
    "wordtree crossword STRUCTURE WORDS [OUTPUT.png]": "the command's synopsis, not an example",
}
CHECKOUT = {
    "wordtree build bulls-cows --repeats --checkpoint runs/bulls-cows-repeats.ck --status": "runs/",
    "wordtree build hangman --length 5 --checkpoint runs/hangman-5.npz --status": "runs/",
    "cp runs/bulls-cows-repeats.ck bcr.ck && cp runs/bulls-cows-repeats.ck.rank bcr.ck.rank": "runs/",
    "wordtree build bulls-cows --repeats --first auto --checkpoint bcr.ck --resume -o bulls-cows-4-repeats.json":
        "the copy of runs/ above",
    "wordtree crossword tests/data/crossword-15x15-1.txt -o fill.json": "tests/data/",
    "wordtree crossword tests/data/crossword-15x15-1.txt -o fill.png": "tests/data/",
    "wordtree dordle build --answers runs/wordle-answers-every20-116.txt --guesses wordlists/wordle-allowed-12972.txt "
    "--jobs runs/dordle-every20.jobs --status": "runs/",
}
# The help pages read for examples: every command's, and those of the games and actions with
# their own options.
HELP_PAGES = ["build hangman", "build dordle", "dordle build", "dordle verify", "dordle next", "dordle play",
              "dordle grade", "dordle bound", "dordle heuristic"]


@dataclass
class Example:
    where: str  # "README.md:39" or "wordtree play --help"
    line: str  # the shell line as shown, its comment dropped
    block: str  # the session it belongs to: "README.md:37", or the help page
    comment: str = ""  # what follows the line's '#', or a help example's note

    @property
    def is_command(self) -> bool:
        return bool(COMMAND.search(self.line))

    @property
    def kind(self) -> str:
        for kind, names in (("slow", SLOW), ("long", LONG), ("checkout", CHECKOUT)):
            if self.line in names:
                return kind
        return "run"


def page_examples(page: str) -> list[Example]:
    """The shell lines of a page's fenced blocks that hold a wordtree command, with the other
    lines of those blocks (the set-up they need); the generated help blocks (```text blocks
    starting 'usage: wordtree') are read from the help itself instead."""
    out, block, lines, start, usage, first = [], None, [], 0, False, False
    for n, text in enumerate((ROOT / page).read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(text.strip()):
            if block is None:
                block, lines, start, first = FENCE.match(text.strip()).group(1), [], n, True
            else:
                if block in ("bash", "sh", "console", "") and not usage and any(e.is_command for e in lines):
                    out.extend(lines)
                block, usage = None, False
            continue
        if block is None:
            continue
        if first:
            usage, first = text.startswith("usage: "), False
        line = text.strip()
        if line.startswith("$ "):
            line = line[2:]
        comment = COMMENT.search(line)
        line = COMMENT.sub("", line).strip()
        if line and not line.startswith("#"):
            lines.append(Example(f"{page}:{n}", line, f"{page}:{start}", comment.group(0) if comment else ""))
    return out


def help_text(command: str) -> str:
    from wordtree.commands import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        main([*command.split(), "--help"])
    return out.getvalue()


def help_examples(command: str) -> list[Example]:
    """The lines of a --help that start with a command (after the indent of an epilog), the
    note after two blanks dropped."""
    out = []
    for text in help_text(command).splitlines():
        line = text.strip()
        # an epilog's lines are indented by two blanks; an option's wrapped help by more
        if text.startswith("  ") and text[2:3] != " " and COMMAND.search(line):
            line, *note = HELP_GAP.split(line, 1)
            if COMMAND.search(line):
                out.append(Example(f"wordtree {command} --help", line, f"wordtree {command} --help: {line}",
                                   "".join(note)))
    return out


def all_examples() -> list[Example]:
    from wordtree.commands import COMMANDS

    found = [e for page in PAGES for e in page_examples(page)]
    for command in [*COMMANDS, *HELP_PAGES]:
        found.extend(help_examples(command))
    return found


def blocks(examples: list[Example]) -> dict[str, list[Example]]:
    out: dict[str, list[Example]] = {}
    for e in examples:
        out.setdefault(e.block, []).append(e)
    return out


def stale_names(examples: list[Example]) -> list[str]:
    shown = {e.line for e in examples}
    return sorted(name for names in (SLOW, LONG, CHECKOUT) for name in names if name not in shown)


def wheel_script(examples: list[Example], timeout: int = 600) -> str:
    """A bash script running, block by block in a fresh folder each, every example that needs
    neither the checkout nor --slow, with `timeout` seconds each; the first failure stops it."""
    out = ["set -euo pipefail", "top=$(pwd)"]
    for i, (name, lines) in enumerate(blocks(examples).items()):
        run = [e for e in lines if e.kind == "run"]
        if not any(e.is_command for e in run):
            continue
        out.append(f"mkdir {top_dir(i)} && cd {top_dir(i)}")
        for e in run:
            out.append(f"echo {shlex.quote('example ' + e.where + ': ' + e.line)}")
            out.append(f"timeout {timeout} bash -c {shlex.quote(e.line)} </dev/null >/dev/null")
        out.append('cd "$top"')
    out.append('echo "examples from the wheel: passed"')
    return "\n".join(out) + "\n"


def top_dir(i: int) -> str:
    return f"example-{i}"


if __name__ == "__main__":
    if sys.argv[1:] == ["--wheel-script"]:
        sys.stdout.write(wheel_script(all_examples()))
    elif sys.argv[1:] == ["--list"]:
        for e in all_examples():
            print(f"{e.kind:9} {e.where}: {e.line}")
    else:
        sys.exit("usage: python tests/doc_examples.py --wheel-script | --list")
