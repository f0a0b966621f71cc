"""The one exception type a user can cause; the CLI prints it as a single line."""


class UserError(Exception):
    """Bad input from a user: a file, a word, a pattern, an option. Printed as one line, no traceback."""

    exit_code = 1


class UsageError(UserError):
    """A malformed command line (exit status 2, like argparse)."""

    exit_code = 2
