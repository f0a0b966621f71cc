"""Engine errors worded with the command-line flag that fixes them.

The engine names no flag: where a flag is the fix it raises a UserError subclass that carries the
facts (engine/errors.py), and `flag_hints` words it for the commands, whose flags these are.
`main` runs every command inside it.
"""

from __future__ import annotations

from contextlib import contextmanager

from ..errors import (
    CapOutOfRange,
    CheckpointDamaged,
    CheckpointExists,
    CheckpointMismatch,
    GameOptionOutOfRange,
    GeneratedCodesError,
    HistoryBreaksMode,
    ListenError,
    ListPairError,
    NoDistributed,
    NotSquareError,
    OptionNotForGame,
    SessionStopped,
    TooFewWorkers,
    TopTooSmall,
    UnshippedListError,
    UsageError,
    UserError,
    WordLengthOutOfRange,
)


@contextmanager
def flag_hints():
    try:
        yield
    except ListPairError:
        raise UserError("give both --answers FILE and --guesses FILE, or neither") from None
    except GeneratedCodesError as exc:
        raise UserError(f"{exc.game} generates its codes: --answers/--guesses do not apply") from None
    except NotSquareError as exc:
        raise UserError(f"board: {exc.letters} letters is not a square board{exc.qu_note}; "
                        "give --rows and --cols") from None
    except ListenError as exc:
        raise UserError(f"{exc}; pick another --port") from None
    except CapOutOfRange as exc:
        raise UserError(f"--max-guesses must be between 1 and {exc.most}, or none") from None
    except HistoryBreaksMode as exc:
        raise UserError(f"{exc.word!r} breaks the {exc.mode}-mode rule at that point of --from") from None
    except TopTooSmall:
        raise UserError("--top must be at least 1") from None
    except NoDistributed:
        raise UserError('--scheduler needs Dask distributed: pip install -e ".[cluster]"') from None
    except OptionNotForGame as exc:
        raise UsageError(f"--{exc.option} does not apply to {exc.game}") from None
    except GameOptionOutOfRange as exc:
        raise UserError(f"--{exc.option} must be {exc.allowed}, not {exc.value}") from None
    except WordLengthOutOfRange as exc:
        raise UserError(f"--length {exc.length}: hangman supports {exc.least} to {exc.most} letters") from None
    except SessionStopped as exc:
        raise UserError(f"{exc.reason}; continue with --resume {exc.session}") from None
    except TooFewWorkers:
        raise UsageError("--workers must be at least 1") from None
    except UnshippedListError as exc:
        fix = {"words": "pass --answers FILE (the word list)", "weights": "pass --weights FILE"}
        raise UserError(f"{exc.fact}; {fix.get(exc.key, 'pass --answers FILE and --guesses FILE')}") from None
    except CheckpointExists as exc:
        raise UserError(f"{exc.path} already holds a checkpoint: add --resume to continue it, "
                        "or --overwrite to start it over") from None
    except CheckpointDamaged as exc:
        raise UserError(f"{exc}; start it over with --overwrite (or put back a good copy)") from None
    except CheckpointMismatch as exc:
        if not exc.resuming:
            raise
        raise UserError(f"{exc}; resume it with the options that made it, or start over with --overwrite "
                        "instead of --resume") from None


def interrupted_line(exc: KeyboardInterrupt, argv: list[str]) -> str:
    """The one line a Ctrl-C or TERM ends a command with (exit 130). A run that can keep a
    checkpoint stops as Stopped once it has saved what it had: the line says how far it got,
    where its work is, and the command that resumes it (argv with --resume, without --overwrite)."""
    import shlex

    from ..errors import Stopped

    if not isinstance(exc, Stopped):
        return "wordtree: interrupted"
    done = f"wordtree: interrupted{f' {exc.detail}' if exc.detail else ''}: stopped"
    if exc.checkpoint is None:
        return f"{done} with nothing kept; add --checkpoint FILE to keep the work done next time"
    again = [word for word in argv if word != "--overwrite"]
    again += [] if "--resume" in again else ["--resume"]
    import os

    if exc.error:
        saved = (f"the checkpoint {exc.checkpoint} could not be saved at the end ({exc.error}) and holds what was "
                 "saved before")
    elif os.path.lexists(exc.checkpoint):
        saved = f"the work so far is in {exc.checkpoint}"
    else:  # stopped before anything was finished to keep
        saved = f"nothing was finished to keep in {exc.checkpoint} yet"
    return f"{done}; {saved}; resume with: wordtree {shlex.join(again)}"
