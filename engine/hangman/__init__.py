"""Hangman: optimal letter-guessing trees, baselines, a game server and a bot.

By job: `game` (words, masks, scores), `kernels` (the numba search and bounds), `memo` (the
search's memo and its checkpoint files), `search` (Searcher: the exact search, in slices, and
refuting first letters), `bounds` (lower bounds proven outside the search), `baselines` (the
greedy rules and the best-found tree's chooser), `tree` (tree files: build, write, verify),
`driver` (the long-run build: what `wordtree build hangman` runs, with plain keyword
arguments), `lookup` (`next` and `play` on a tree: the best letter for a revealed pattern and the
misses, on the tree or by the exact search off it), `server` and `bot`. `tree.verify_file(path)` is what `wordtree verify` runs for a
hangman tree. Numba is imported only by the modules that need it.
"""

from ..data import trees_dir

TREE_DIR = trees_dir() / "hangman"  # the shipped trees (driver.tree_path, bot.Player)
