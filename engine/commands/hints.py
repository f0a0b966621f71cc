"""Engine errors worded with the command-line flag that fixes them.

The engine names no flag: where a flag is the fix it raises a UserError subclass that carries the
facts (engine/errors.py), and `flag_hints` words it for the commands, whose flags these are.
Use it around a command's work, or as a decorator of its `run_<name>`.
"""

from __future__ import annotations

from contextlib import contextmanager

from ..errors import GeneratedCodesError, ListenError, ListPairError, NotSquareError, UserError


@contextmanager
def flag_hints():
    try:
        yield
    except ListPairError:
        raise UserError("give both --answers FILE and --guesses FILE, or neither") from None
    except GeneratedCodesError as exc:
        raise UserError(f"{exc.game} generates its codes: --answers/--guesses do not apply") from None
    except NotSquareError as exc:
        raise UserError(f"board: {exc.letters} letters is not a square board; give --rows and --cols") from None
    except ListenError as exc:
        raise UserError(f"{exc}; pick another --port") from None
