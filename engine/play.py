"""The interactive assistant of every family: one loop that proposes a move, reads what the game
showed, and goes on until the game ends or the player stops.

The loop knows no game. A family wraps its position in an object that follows `Playable`: what
to say before each reply, how to read a reply, the position after it, the feedback as coloured
cells, and whether the game is over. The loop does the rest, the same for every family:

- `q`, `quit` or `exit` (any case, blanks around it), or the end of the input, stops the game:
  the position's `stopped()` line is said and the exit status is 0;
- any other line (an empty one too: Hangman reads it as a miss) goes to `parse_reply` and then
  `after`. A `UserError` from either is said as `wordtree: MESSAGE` and the line is asked again
  when the input is a terminal; in a pipe (or when the error is one of the position's `fatal`
  ones, e.g. a tree that disagrees with the feedback rule) it is raised, and the command ends
  with the error's one line and exit status;
- Ctrl-C is not caught here: the KeyboardInterrupt reaches the command's `main`, which exits 130.

Colours: when the output is a terminal and NO_COLOR is unset or empty (https://no-color.org),
the feedback of each move is drawn once more as a row of coloured tiles after the reply; else
nothing is added, and the text is plain. The colouring lives here only: a family gives (letter,
colour) cells, and `tile_row` draws them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from typing import Protocol

from .errors import UserError
from .files import bounded_lines

QUIT = ("q", "quit", "exit")
# ANSI background colours of the tiles, bold letters on them
ANSI = {"green": "\x1b[1;97;42m", "yellow": "\x1b[1;30;43m", "grey": "\x1b[1;97;100m"}
RESET = "\x1b[0m"

Cell = tuple[str, str | None]  # a letter and its colour (a key of ANSI), None for a plain cell


class Playable(Protocol):
    """A position of one family's game, as the loop plays it."""

    prompt: str  # said before each reply when the input is a terminal: what to type
    fatal: tuple[type[BaseException], ...]  # errors that end the game on a terminal too

    def proposal(self) -> list[str]:
        """The lines said before a reply: the move proposed now (`guess N: ...`) and its notes."""

    def parse_reply(self, line: str) -> object:
        """The step a line stands for (the feedback of the move proposed, or a move of one's own
        with its feedback); a UserError says what is wrong with the line."""

    def after(self, step) -> Playable:
        """The position once `step` is played; a UserError if the game cannot have shown it."""

    def tiles(self) -> list[Cell]:
        """The feedback of the move just played as cells to colour; [] when it has no colours."""

    def finished(self) -> bool:
        """The game is over (won, or lost): nothing more is read."""

    def outcome_lines(self) -> list[str]:
        """The lines said after a step: what is left, or how the game ended."""

    def stopped(self) -> str:
        """The line said when the player stops (or the input ends) before the game is over."""


def colour_wanted(terminal: bool, environ: Mapping[str, str] | None = None) -> bool:
    """Colours for an output that is a terminal, unless NO_COLOR is set to something."""
    env = os.environ if environ is None else environ
    return bool(terminal) and not env.get("NO_COLOR")


def tile_row(cells: Iterable[Cell]) -> str:
    """Cells as tiles: each letter upper-case with a blank either side, on its ANSI colour (a
    plain cell has none, and keeps the row's spacing)."""
    return "".join(f" {ch.upper()} " if colour is None else f"{ANSI[colour]} {ch.upper()} {RESET}"
                   for ch, colour in cells)


def play(position: Playable, lines: Iterable[str], say: Callable[[str], object], interactive: bool,
         colour: bool) -> int:
    """Play one game: propose, read a line, go on (see the module's docstring). `interactive`:
    the input is a terminal (prompts, and a bad line is asked again); `colour`: the output is a
    terminal (tiles, unless NO_COLOR). `lines` a stream (stdin) is read a line at a time, each of
    at most files.LINE_MAX_BYTES (a longer one ends the game with a UserError). Returns the exit
    status, 0."""
    lines = bounded_lines(lines) if hasattr(lines, "readline") else iter(lines)
    colour = colour_wanted(colour)
    while True:
        for text in position.proposal():
            say(text)
        if interactive:
            say(position.prompt)
        line = next(lines, None)
        if line is None or line.strip().lower() in QUIT:
            say(position.stopped())
            return 0
        try:
            position = position.after(position.parse_reply(line))
        except UserError as exc:
            if not interactive or isinstance(exc, position.fatal):
                raise
            say(f"wordtree: {exc}")
            continue
        cells = position.tiles() if colour else []
        if cells:
            say(tile_row(cells))
        for text in position.outcome_lines():
            say(text)
        if position.finished():
            return 0
