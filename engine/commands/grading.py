"""What `grade` and `dordle grade` show while they run: each line at once, a bar over the moves,
and the line saying which moves the exact engine searches and for how long."""

from __future__ import annotations

import sys


def search_note(searched: list[int], seconds: float | None, on_tree: bool, unit: str = "move") -> str:
    """The line saying which moves the exact engine searches, and for how long each: those the
    tree does not value, where a tree's values apply (`on_tree`), else all (every move the tree
    values is valued from it, exactly, at once)."""
    moves = f"{unit}{'s' * (len(searched) != 1)} {', '.join(map(str, searched))}"
    what = f"values not on the tree ({moves})" if on_tree else f"{moves[0].upper()}{moves[1:]}"
    if seconds is None:
        return f"{what}: searched by the exact engine until exact, however long (--seconds none)"
    return (f"{what}: searched by the exact engine up to {seconds:g} s a {unit} (--seconds S); a value not "
            f"settled in time is a proven bound (\u2265 or \u2264)")


class Progress:
    """What a grade shows while it runs: each line on stdout at once (flushed, piped too), and
    where some move is searched a bar on stderr, over the moves, saying what is being done; on a
    terminal it is redrawn every half second, so that its clock runs during a long search."""

    def __init__(self, moves: int, searching: bool):
        from ..progress import is_terminal, progress_bar

        self.bar = progress_bar(moves, desc="grade", unit="moves", show=searching)
        self.live = not self.bar.disable and is_terminal()
        self._stop = None

    def __enter__(self):
        if self.live:
            import threading

            self._stop = threading.Event()
            threading.Thread(target=self._tick, daemon=True, name="grade-ticker").start()
        return self

    def _tick(self) -> None:
        while not self._stop.wait(0.5):
            try:
                self.bar.refresh()
            except (OSError, ValueError):
                return

    def __exit__(self, *exc) -> None:
        if self._stop is not None:
            self._stop.set()
        self.bar.close()

    def say(self, line: str) -> None:
        if self.live:
            from tqdm import tqdm

            tqdm.write(line, file=sys.stdout)
        else:
            print(line)
        sys.stdout.flush()

    def watch(self, text: str) -> None:
        self.bar.set_postfix_str(text)

    def advance(self, move) -> None:
        self.bar.update(1)


def run_dordle_grade(position, steps: list[str], as_json: bool, tree: str | None) -> int:
    """`dordle grade` (and `grade` of a Dordle tree): every move checked, then each one's line
    printed as soon as it is graded, and the total loss; with `as_json`, the moves as one JSON list.
    `tree`: the tree as the user named it (None: no tree)."""
    from pathlib import Path

    from ..dordle import player

    searched = player.searched_moves(position, steps)
    with Progress(len(steps), bool(searched)) as progress:
        if as_json:
            import orjson

            moves = player.grade(position, steps, progress.advance, progress.watch)
            sys.stdout.write(orjson.dumps([mv.as_json() for mv in moves]).decode() + "\n")
            return 0
        values = player.tree_values(position.doc)
        source = "" if values is None or tree is None else f", values from {Path(tree).name} while on it"
        progress.say(f"dordle, at most {position.cap} guesses{source}")
        if searched:
            progress.say(search_note(searched, position.seconds, values is not None))

        def on_move(move) -> None:
            progress.say(player.move_line(move))
            progress.advance(move)

        moves = player.grade(position, steps, on_move, progress.watch)
        progress.say(player.total_line(moves))
    return 0
