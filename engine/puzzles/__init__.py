"""The sister puzzles, word games that are not guessing games: Boggle (every word on a board, the
best boards: boggle.py) and crossword filling (crossword.py). Each keeps its numba kernels in one
module of their own (boggle_kernels.py, crossword_kernels.py)."""
