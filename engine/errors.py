"""The one exception type a user can cause; the CLI prints it as a single line."""


class UserError(Exception):
    """Bad input from a user: a file, a word, a pattern, an option. Printed as one line, no traceback."""

    exit_code = 1


class UsageError(UserError):
    """A malformed command line (exit status 2, like argparse)."""

    exit_code = 2


# Errors that carry their facts, so that the command layer can name the flag that fixes them
# (the engine's own message names none).
class ListPairError(UserError):
    """An answer list without a guess list, or the other way round."""

    def __init__(self):
        super().__init__("give both an answer list and a guess list, or neither")


class GeneratedCodesError(UserError):
    """List files given for a game that generates its codes."""

    def __init__(self, game: str):
        self.game = game
        super().__init__(f"{game} generates its codes: answer and guess lists do not apply")


class NotSquareError(UserError):
    """A board given as one run of letters whose count is not a square: its shape is needed."""

    def __init__(self, letters: int, qu: int | None = None):
        self.letters = letters
        self.qu = qu  # the count with each "qu" typed read as one Qu cell, when the text had one
        super().__init__(f"board: {letters} letters is not a square board{self.qu_note}; give its rows and columns")

    @property
    def qu_note(self) -> str:
        return "" if self.qu is None else f" (nor {self.qu} with each qu read as the one Qu die)"


class UnknownGame(UserError):
    """A game name this engine does not know (a usage error when it comes from the command line;
    a tree file naming one is a bad file)."""

    def __init__(self, name: str, known, message: str | None = None):
        self.name = name
        super().__init__(message or f"unknown game {name!r}; known: {', '.join(known)}")


class OptionNotForGame(UsageError):
    """A game option given to a game that does not take it (`option`: its name, e.g. pegs)."""

    def __init__(self, option: str, game: str):
        self.option, self.game = option, game
        super().__init__(f"the option {option!r} does not apply to {game}")


class GameOptionOutOfRange(UserError):
    """A game's option with a value the game cannot take: `option` (its name, e.g. pegs), `value`,
    and `allowed`, what it may be (e.g. "between 1 and 9")."""

    def __init__(self, game: str, option: str, value, allowed: str):
        self.game, self.option, self.value, self.allowed = game, option, value, allowed
        super().__init__(f"{game}: the {option} must be {allowed}, not {value}")


class WordLengthOutOfRange(UserError):
    """Hangman asked for words of a length it does not play (it plays `least` to `most` letters)."""

    def __init__(self, length: int, least: int, most: int):
        self.length, self.least, self.most = length, least, most
        super().__init__(f"words of {length} letters: hangman supports {least} to {most} letters")


class SessionStopped(UserError):
    """A game against a server stopped by an error (`reason`: its message); the session `session`
    can be continued where it stopped."""

    def __init__(self, reason: str, session: str):
        self.reason, self.session = reason, session
        super().__init__(f"{reason}; session {session} can be continued")


class ListenError(UserError):
    """The server cannot listen on the port asked for."""

    def __init__(self, port: int, reason: str):
        self.port, self.reason = port, reason
        super().__init__(f"cannot listen on 127.0.0.1:{port} ({reason})")


class NoDistributed(UserError):
    """Dask distributed is not installed."""

    def __init__(self):
        super().__init__('a search on a cluster needs Dask distributed: pip install -e ".[cluster]"')


class TooFewWorkers(UserError):
    """A local cluster of fewer than one worker."""

    def __init__(self, workers: int):
        self.workers = workers
        super().__init__(f"a local cluster needs at least 1 worker, not {workers}")


class CapOutOfRange(UserError):
    """A guess cap the search cannot take (it knows caps from 1 to `most`, and None: no cap)."""

    def __init__(self, cap: int, most: int):
        self.cap, self.most = cap, most
        super().__init__(f"the guess cap must be between 1 and {most}, or none (no cap); got {cap}")


class TopTooSmall(UserError):
    """A rank asked to value fewer than one first guess exactly."""

    def __init__(self):
        super().__init__("a rank must value at least 1 first guess exactly (top)")


class HistoryBreaksMode(UserError):
    """A guess of the history played from breaks the hard- or ultra-mode rule where it was played."""

    def __init__(self, word: str, mode: str):
        self.word, self.mode = word, mode
        super().__init__(f"{word!r} breaks the {mode}-mode rule at that point of the history")


class UnshippedListError(UserError):
    """A tree names a list that is not a shipped one: the user must give the lists (the command
    layer names the flags)."""

    def __init__(self, key: str, name):
        self.key, self.name = key, name
        shown = repr(name) if len(repr(name)) <= 80 else repr(name)[:77] + "..."
        self.fact = f"the tree's {key} list {shown}: word list not found among the shipped ones"
        super().__init__(f"{self.fact}; give the lists")

# Checkpoints and outputs (engine/files.py).
class CheckpointExists(UserError):
    """A run without a resume would replace a checkpoint already there (`path`)."""

    def __init__(self, path):
        self.path = path
        super().__init__(f"{path}: a checkpoint is already there; continue it or start over")


class CheckpointBusy(UserError):
    """Another process holds the lock of the checkpoint `path` (`pid`: its process id, if known)."""

    def __init__(self, path, pid: str = ""):
        self.path, self.pid = path, pid
        held = f" (process {pid})" if pid else ""
        super().__init__(f"{path}: another run{held} is using this checkpoint; wait for it or use another file")


class NoCheckpoint(UserError):
    """The checkpoint asked for (to show what it proves, or to merge) does not exist."""

    def __init__(self, path, purpose: str = ""):
        self.path = path
        super().__init__(f"{path}: no such checkpoint{f' {purpose}' if purpose else ''}")


class Stopped(KeyboardInterrupt):
    """Ctrl-C or TERM stopped a run that can keep a checkpoint, after it saved what it had:
    `checkpoint` holds its work (None: the run kept none), `detail` says how far it got (words
    after "stopped", may be empty), `error` why the last save failed (None: it did not). The
    command layer words it as one line with the way to resume."""

    def __init__(self, checkpoint=None, detail: str = "", error: str | None = None):
        super().__init__()
        self.checkpoint, self.detail, self.error = checkpoint, detail, error


class CheckpointMismatch(UserError):
    """A checkpoint made by another run: `differences` names each field that differs, with both values.
    `resuming`: read to continue it (rather than to show it)."""

    def __init__(self, path, what: str, differences: list[str], resuming: bool = True):
        self.path, self.what, self.differences, self.resuming = path, what, differences, resuming
        super().__init__(f"{path}: checkpoint of another {what} ({'; '.join(differences)})")


class OutputNotWritable(UserError):
    """An output (`what`: a tree, a table, a checkpoint) that cannot be written at `path`, found out
    before the work that would fill it."""

    def __init__(self, path, what: str, reason: str):
        self.path, self.what, self.reason = path, what, reason
        super().__init__(f"cannot write the {what} {path}: {reason}")


class OutputSavedElsewhere(UserError):
    """Writing `path` failed at the end (`reason`); the output went to `where` instead (None: to stdout)."""

    def __init__(self, path, what: str, reason: str, where):
        self.path, self.what, self.reason, self.where = path, what, reason, where
        place = f"written to {where} instead" if where is not None else "printed on stdout instead"
        super().__init__(f"cannot write the {what} {path} ({reason}); it was {place}")


class CheckpointNotSaved(UserError):
    """The checkpoint `path` could not be saved at the end of a run (`reason`); the run's results were given."""

    def __init__(self, path, reason: str):
        self.path, self.reason = path, reason
        where = reason.partition("; saved instead to ")[2]
        tail = (f"the checkpoint went to {where} instead: move it to {path} to resume from it" if where else
                "the checkpoint holds only what was saved before")
        super().__init__(f"cannot save the checkpoint {path} ({reason.partition('; saved instead to ')[0]}); "
                         f"the results above are complete, and {tail}")


class CheckpointDamaged(UserError):
    """A checkpoint whose contents its checksum does not vouch for (`reason`, words after the file's
    name): damaged, edited, or (`unchecksummed`) written before checkpoints carried one. Never used."""

    def __init__(self, path, what: str, reason: str, unchecksummed: bool = False):
        self.path, self.what, self.reason, self.unchecksummed = path, what, reason, unchecksummed
        super().__init__(f"{path}: the {what} checkpoint {reason}; it is not used")
