"""The paths a command line names, checked before any work: no output may name an input or
another output (`check_paths`, which the command layer's main calls for every command)."""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import UsageError

# the paths a command line names, by the dest argparse gives them, with the flag that names them
OUTPUTS = {"output": "-o", "cs50_output": "OUTPUT", "checkpoint": "--checkpoint", "db": "--db"}
FILES_ONLY = ("--checkpoint", "--db")  # outputs read back: a regular file, never a stream
INPUTS = {"answers": "--answers", "guesses": "--guesses", "words": "--words", "weights": "--weights",
          "against": "--against", "merge": "--merge", "scores": "--scores", "file": "FILE", "grid": "GRID",
          "cs50_words": "WORDS", "tree": "TREE", "trees": "TREE"}
CHECKPOINT_COMPANIONS = (".rank", ".lock")  # files a run writes beside its checkpoint


def _outputs(args) -> list[tuple[str, str]]:
    """The outputs of the command line `args`, each (flag, path); stdout (-) is none."""
    outputs = []
    for dest, flag in (*OUTPUTS.items(), *(("tree", "--tree"),) * _tree_is_output(args)):
        value = getattr(args, dest, None)
        if isinstance(value, str) and value and value != "-":
            outputs.append((flag, value))
            if dest == "checkpoint":
                outputs.extend((flag, value + suffix) for suffix in CHECKPOINT_COMPANIONS)
    return outputs


def _inputs(args) -> list[tuple[str, str]]:
    """The inputs of the command line `args`, each (flag, path): a tree or list given by a shipped
    name stands for the shipped file; stdin (-) is none."""
    from ..families import find_tree
    from ..words import WORDLIST_DIR

    inputs = []
    for dest, flag in INPUTS.items():
        if dest == "tree" and _tree_is_output(args):
            continue
        values = getattr(args, dest, None)
        for value in values if isinstance(values, list) else [values]:
            if not isinstance(value, str) or not value or value == "-":
                continue
            path = Path(value)
            if not os.path.lexists(path):
                found = find_tree(value) if dest in ("tree", "trees", "against") else None
                path = found if found is not None else WORDLIST_DIR / value
            inputs.append((flag, str(path)))
    return inputs


def _tree_is_output(args) -> bool:
    return getattr(args, "dordle_action", None) == "heuristic"  # its --tree FILE is written


def check_paths(args) -> None:
    """Refuse, before any work, a command line whose output (-o, a checkpoint and the files beside
    it) names one of its inputs or another of its outputs: the same file by its inode (links,
    hard links, other spellings) or, for files not there yet, by where links lead; or whose output
    is neither a regular file (or none yet) nor a stream that can be written through (a FIFO, a
    character device; not for a checkpoint). One line naming the flag, exit status 2."""
    from ..files import output_kind, same_file

    outputs = _outputs(args)
    if not outputs:  # a lookup (next, play ...) writes nothing: nothing to compare
        return
    for flag, path in outputs:
        kind = output_kind(path)
        if kind == "other":
            raise UsageError(f"{flag} {path}: not a regular file, a FIFO or a character device; give a file")
        if kind == "stream" and flag in FILES_ONLY:
            raise UsageError(f"{flag} {path}: not a regular file (a FIFO or a device); it is read back and "
                             "written again: give a file")
    inputs = _inputs(args)
    for i, (flag, path) in enumerate(outputs):
        if path.endswith(CHECKPOINT_COMPANIONS) and flag == "--checkpoint":
            continue  # a companion is compared as another output's target only
        for other_flag, other in [*inputs, *outputs[:i], *outputs[i + 1:]]:
            if other_flag == flag == "--checkpoint":
                continue
            if same_file(path, other):
                named = other if other == path else f"{other}, the same file as {path}"
                raise UsageError(f"{flag} {path} names {other_flag} ({named}): the output would "
                                 f"replace it; give another file")
