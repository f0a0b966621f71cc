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

    def __init__(self, letters: int):
        self.letters = letters
        super().__init__(f"board: {letters} letters is not a square board; give its rows and columns")


class UnknownGame(UserError):
    """A game name this engine does not know (a usage error when it comes from the command line;
    a tree file naming one is a bad file)."""

    def __init__(self, name: str, known, message: str | None = None):
        self.name = name
        super().__init__(message or f"unknown game {name!r}; known: {', '.join(known)}")


class ListenError(UserError):
    """The server cannot listen on the port asked for."""

    def __init__(self, port: int, reason: str):
        self.port, self.reason = port, reason
        super().__init__(f"cannot listen on 127.0.0.1:{port} ({reason})")


class NoDistributed(UserError):
    """Dask distributed is not installed."""

    def __init__(self):
        super().__init__('a rank on a cluster needs Dask distributed: pip install -e ".[cluster]"')


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
