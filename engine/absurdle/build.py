"""Building an Absurdle proof: the fewest guesses that always win, proven, and the openers that
achieve it with their lines (search.py), as a wordtree-absurdle/1 document (document.py).

The least number of cornering guesses after the opener, c, is searched upward from its proven
lower bound (the counting bound, search.opener_depth_bound): at each c the openers are tried,
those with the smallest bucket first; the first c at which an opener wins proves the fewest
guesses, c + 2 (every smaller c was bounded or swept whole without a win). With `every_opener`
every opener is then decided at that c, each verdict kept in the checkpoint as it is found.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import orjson

from ..errors import Stopped, UserError
from ..files import Checkpoint
from ..progress import progress_bar
from . import kernels
from .document import FORMAT
from .rule import RULES
from .search import Board, opener_depth_bound, sweep_openers

CHECKPOINT_FORMAT = "wordtree-absurdle-checkpoint/1"
MOST_CORNERING = 8  # after the opener: a game that needs more is refused (none of the lists comes near)


@dataclass(frozen=True)
class AbsurdleSpec:
    """An Absurdle proof's parameters, checked once."""

    rule: str = "qntm"
    every_opener: bool = False
    openers: tuple[str, ...] = ()  # only these (default: every guess)
    threads: int = 1

    def __post_init__(self):
        if self.rule not in RULES:
            raise UserError(f"unknown Absurdle rule {self.rule!r}; known: {', '.join(RULES)}")


def checkpoint_for(path, game, spec: AbsurdleSpec) -> Checkpoint:
    header = {"format": CHECKPOINT_FORMAT, "game": game.identity(), "rule": spec.rule,
              "openers": list(spec.openers)}
    return Checkpoint(path, "Absurdle", header)


def build(game, spec: AbsurdleSpec, *, checkpoint: Checkpoint | None = None, resume: bool = False,
          overwrite: bool = False, show_progress: bool = True, say=print) -> dict:
    """The proof as a document; Stopped (after saving) on Ctrl-C or TERM."""
    if getattr(game, "kind", "") != "wordle":
        raise UserError(f"Absurdle is played on Wordle lists; {game.name} is not a Wordle game")
    if len(game.answers) < 2:
        raise UserError("Absurdle needs at least two answers")
    started = time.monotonic()
    board = Board.of(game, RULES[spec.rule])
    index = game.guess_index
    unknown = [w for w in spec.openers if w not in index]
    if unknown:
        raise UserError(f"{unknown[0]!r} is not an allowed guess in {game.name}")
    A = board.all_answers()
    sizes = kernels._first_replies(board.matrix, A, board.rank, board.ties)
    pool = [index[w] for w in spec.openers] if spec.openers else list(range(len(game.guesses)))
    pool.sort(key=lambda g: (sizes[g], g))
    lower = opener_depth_bound(board)
    how = "counting" if lower else "none"
    cornering, first_line = lower, None
    with (checkpoint.held(resume=resume, overwrite=overwrite) if checkpoint else _nothing()) as held:
        saved = (held.payload or {}).get("lines", {}) if checkpoint else {}
        while first_line is None:
            if cornering > MOST_CORNERING:
                raise UserError(f"no opener corners the adversary within {MOST_CORNERING} guesses after it")
            found = _first_winner(board, cornering, pool)
            if found is None:
                if spec.openers:
                    how = "openers given only"
                else:
                    how = "search"  # every opener swept at this depth without a win
                cornering += 1
                continue
            first_line = found
        fewest = cornering + 2
        lines: dict = {}
        if spec.every_opener:
            lines = {k: v for k, v in saved.items() if saved.get("_cornering", cornering) == cornering}
            lines.pop("_cornering", None)
            save = checkpoint.saver(lambda: orjson.dumps({**checkpoint.header, "cornering": cornering,
                                                           "lines": lines})) if checkpoint else None
            bar = progress_bar(len(pool), desc="openers", unit="opener", show=show_progress,
                               initial=sum(1 for g in pool if game.guesses[g] in lines))
            try:
                sweep_openers(board, cornering, pool, threads=spec.threads, done=lines,
                              on_done=lambda name, line: (lines.__setitem__(name, line), save and save(every=30.0)),
                              progress=bar)
            except KeyboardInterrupt:
                if save:
                    save(last=True)
                raise Stopped(checkpoint.path if checkpoint else None,
                              f"after {len(lines)} of {len(pool)} openers", save.error if save else None) from None
            finally:
                bar.close()
            if save:
                save(last=True)
        else:
            lines = {first_line["guess"]: first_line}
    winning = {name: line for name, line in sorted(lines.items(), key=lambda item: index[item[0]]) if line}
    searched = len(pool) if spec.every_opener else 1 + _tried_before(pool, index[first_line["guess"]])
    return {
        "format": FORMAT,
        "game": game.identity(),
        "rule": spec.rule,
        "fewest": fewest,
        "lower_bound": {"how": how, "cornering_after_opener": cornering},
        "openers": {"searched": searched, "of": len(game.guesses), "complete": searched == len(game.guesses),
                    "winning": len(winning)},
        "lines": winning,
        "seconds": round(time.monotonic() - started, 3),
        "stats": {"guesses_tried": int(board.stats[0]), "buckets_searched": int(board.stats[1])},
    }


def _tried_before(pool: list[int], g: int) -> int:
    return pool.index(g)


def _first_winner(board: Board, cornering: int, pool: list[int]) -> dict | None:
    for g in pool:
        line = sweep_openers(board, cornering, [g]).lines[board.game.guesses[g]]
        if line is not None:
            return line
    return None


class _nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False
