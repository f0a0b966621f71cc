"""The exact engine of the Wordle family (Wordle, Mastermind, Bulls and Cows): provably optimal
trees and first-guess rankings.

Data flow: a game's pattern matrix (guesses x answers feedback codes, engine/wordle/patterns.py) goes
into a `Solver` (solver.py), which runs the numba search of kernels.py on per-thread scratch and
memo (context.py), and in the symmetric games searches one guess per orbit near the top
(symmetric.py). `rank` (rank.py, or cluster.py on Dask) values the openers against a shrinking
budget; `build` (build.py) solves each class below the chosen opener and assembles the tree;
both keep checkpoints (checkpoint.py) to resume from. heuristics.py orders the guesses the
searches try and plays the greedy baselines.

The cap on guesses per answer is an `int`, or None for no cap, throughout this API.
"""
